/// State shared by the nested decoders of one payload: the limits and the
/// current merger layer.
@usableFromInline package struct DecodeContext: Sendable {
    /// The limits the payload is decoded under.
    @usableFromInline package let limits: DecodingLimits
    /// The merger layer of the message being decoded; 0 at the top level.
    @usableFromInline package var depth: Int

    /// Creates a context at layer 0.
    @inlinable package init(limits: DecodingLimits) {
        self.limits = limits
        self.depth = 0
    }

    /// Enters the messages of a merger: one layer deeper.
    ///
    /// - Throws: `limit.depth` when the new layer is past `maxDepth`.
    @inlinable
    package mutating func enterLayer() throws(IMCodecError) {
        depth &+= 1
        if depth > limits.maxDepth {
            throw IMCodecError(
                .limitDepth, reason: "messages nest deeper than the depth budget",
                limit: limits.maxDepth, observed: depth)
        }
    }

    /// Leaves a merger's messages.
    @inlinable package mutating func leaveLayer() { depth &-= 1 }
}
