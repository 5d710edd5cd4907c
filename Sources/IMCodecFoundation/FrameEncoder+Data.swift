import IMCodec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension FrameEncoder {
    /// Encodes one message, batch or event as a frame in `Data`.
    ///
    /// - Parameter payload: The value to write.
    /// - Returns: The frame.
    /// - Throws: What `encode(_:)` throws for a value the readers would
    ///   refuse: `limit.*` and `payload.*` codes with their paths.
    public func encodeData(_ payload: FramePayload) throws(IMCodecError) -> Data {
        Data(try encode(payload))
    }

    /// Encodes a `Message`, `MessageBatch` or `Event` as a frame of its kind
    /// in `Data`.
    ///
    /// - Parameter content: The value to write.
    /// - Returns: The frame.
    /// - Throws: What `encode(_:)` throws for a value the readers would
    ///   refuse.
    public func encodeData<Content: FrameContent>(_ content: Content) throws(IMCodecError) -> Data {
        Data(try encode(content))
    }
}
