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
    /// - Parameter bytes: Complete fields (tag followed by value). The encoder
    ///   copies them verbatim; it does not check them.
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// Whether there are no unknown fields.
    @inlinable public var isEmpty: Bool { bytes.isEmpty }
}
