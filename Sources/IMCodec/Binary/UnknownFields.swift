/// Fields a decoder did not recognise, kept as their raw wire bytes.
///
/// Unknown fields are field numbers the schema does not define, or known
/// numbers that arrived with an unexpected wire type. They survive
/// decode → encode: the canonical encoder writes them, in arrival order, after
/// all known fields, so a message from a newer schema passes through an older
/// reader unchanged.
public struct UnknownFields: Hashable, Sendable {
    /// The concatenated raw fields (tags and values), in arrival order.
    public var bytes: [UInt8]

    /// Creates an empty set of unknown fields.
    public init() { self.bytes = [] }

    /// Creates unknown fields from raw, already-encoded protobuf fields.
    ///
    /// - Parameter bytes: Complete fields (tag followed by value). The
    ///   encoder writes them verbatim; a ``FrameEncoder`` refuses a value
    ///   whose unknown fields a decoder would refuse.
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// Whether there are no unknown fields.
    @inlinable public var isEmpty: Bool { bytes.isEmpty }
}

extension UnknownFields {
    /// Throws what a decoder with the context's limits throws skipping these
    /// bytes as the unknown fields of a message (`payload.*` for bytes that
    /// are not whole fields, `limit.depth` for groups nested past the
    /// budget).
    package func _checkLimits(_ context: DecodeContext) throws(IMCodecError) {
        var failure: IMCodecError?
        bytes.withUnsafeBytes { buffer in
            var reader = WireReader(buffer)
            do throws(IMCodecError) {
                while reader.hasMore {
                    let tag = try reader.readTag()
                    try reader.skipValue(tag: tag, context: context)
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }
}
