/// State shared by the nested decoders of one payload: the limits and the
/// current merger layer.
public struct DecodeContext: Sendable {
    /// The limits the payload is decoded under.
    public let limits: DecodingLimits
    /// The merger layer of the message being decoded; 0 at the top level.
    public var depth: Int

    /// Creates a context at layer 0.
    @inlinable public init(limits: DecodingLimits) {
        self.limits = limits
        self.depth = 0
    }

    /// Enters the messages of a merger: one layer deeper.
    ///
    /// - Throws: `limit.depth` when the new layer is past `maxDepth`.
    @inlinable
    public mutating func enterLayer() throws(IMCodecError) {
        depth &+= 1
        if depth > limits.maxDepth {
            throw IMCodecError(
                .limitDepth, reason: "messages nest deeper than the depth budget",
                limit: limits.maxDepth, observed: depth)
        }
    }

    /// Leaves a merger's messages.
    @inlinable public mutating func leaveLayer() { depth &-= 1 }

    /// Checks that a repeated field may take one more entry.
    ///
    /// - Parameters:
    ///   - count: The entries it holds already.
    ///   - limit: The most it may hold.
    ///   - code: The code to throw.
    /// - Throws: `code` with the limit and the entry count it would reach.
    @inlinable @inline(__always)
    public func checkCount(_ count: Int, limit: Int, code: IMCodecError.Code) throws(IMCodecError) {
        if count >= limit {
            throw IMCodecError(
                code, path: "[\(count)]", reason: "more entries than the limit allows",
                limit: limit, observed: count + 1)
        }
    }
}
