#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `localizedDescription` and `errorDescription` give the error's
/// ``IMCodecError/description`` (`frame.checksum: …`), not Foundation's
/// "The operation could not be completed".
extension IMCodecError: LocalizedError {
    /// The code, the path, the reason and, for limit errors, the limit and
    /// the observed value.
    public var errorDescription: String? { description }
}

extension FrameReader {
    /// Appends bytes read from the stream as `Data`; the same as
    /// ``append(_:)`` with its bytes.
    public func append(_ data: Data) {
        append([UInt8](data))
    }
}

extension FrameDecoder {
    /// Decodes one frame held in `Data`.
    ///
    /// - Parameter data: Exactly one frame.
    /// - Returns: The frame's value.
    /// - Throws: What decoding the same bytes throws: `frame.*`, `payload.*`,
    ///   `limit.*`.
    public func decode(_ data: Data) throws(IMCodecError) -> FramePayload {
        try decode([UInt8](data))
    }
}

extension WireMessage {
    /// Decodes a value from its protobuf binary form held in `Data`.
    ///
    /// - Parameters:
    ///   - serializedData: The payload bytes.
    ///   - limits: The decoding limits.
    /// - Throws: `payload.*` and `limit.*` codes, with their paths.
    public init(serializedData: Data, limits: DecodingLimits = .default) throws(IMCodecError) {
        try self.init(serializedBytes: [UInt8](serializedData), limits: limits)
    }
}
