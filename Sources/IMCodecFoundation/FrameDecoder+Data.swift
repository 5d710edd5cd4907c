import IMCodec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension FrameDecoder {
    /// Decodes one frame held in `Data` into its model value, reading a
    /// stored payload where it is.
    ///
    /// - Parameter data: Exactly one frame.
    /// - Returns: The message, batch or event the frame holds.
    /// - Throws: What decoding the same bytes as `[UInt8]` throws: `frame.*`,
    ///   then `payload.*` and `limit.*` with the path of the field where
    ///   decoding stopped.
    public func decode(_ data: Data) throws(IMCodecError) -> FramePayload {
        try data.withUnsafeBytes { raw in Result { () throws(IMCodecError) in try decode(raw) } }.get()
    }

    /// Decodes one frame held in `Data` of a known kind.
    ///
    /// - Parameters:
    ///   - type: The type the frame must hold: `Message`, `MessageBatch` or
    ///     `Event`.
    ///   - data: Exactly one frame.
    /// - Returns: The decoded value.
    /// - Throws: The frame codes, `frame.unexpected-kind` when the frame
    ///   holds another kind, then `payload.*` and `limit.*` codes.
    public func decode<Content: FrameContent>(_ type: Content.Type, from data: Data) throws(IMCodecError) -> Content {
        try decode(type, from: [UInt8](data))
    }

    /// Checks one frame held in `Data` and returns its header and payload,
    /// without decoding the payload.
    ///
    /// - Parameter data: Exactly one frame.
    /// - Returns: The frame; its payload is a copy, so `data` may go.
    /// - Throws: The frame codes of `decodeFrame(_:)` on bytes: `frame.*`
    ///   and `limit.frame-size`, `limit.inflated-size`, `limit.inflate-ratio`.
    public func decodeFrame(_ data: Data) throws(IMCodecError) -> Frame {
        try data.withUnsafeBytes { raw in Result { () throws(IMCodecError) in try decodeFrame(raw) } }.get()
    }
}
