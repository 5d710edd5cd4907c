extension FrameEncoder {
    /// Encodes a message, batch or event as a frame.
    ///
    /// - Parameter payload: The value to frame.
    /// - Returns: The frame.
    public func encode(_ payload: FramePayload) -> [UInt8] {
        encodeFrame(payload: payload.serializedBytes(), kind: payload.kind)
    }

    /// Encodes a message, batch or event as a frame at the end of `buffer`, as
    /// a stream of frames is written.
    ///
    /// - Parameters:
    ///   - payload: The value to frame.
    ///   - buffer: Where the frame is appended.
    /// - Returns: The number of bytes appended.
    @discardableResult
    public func encode(_ payload: FramePayload, appendingTo buffer: inout [UInt8]) -> Int {
        encodeFrame(payload: payload.serializedBytes(), kind: payload.kind, appendingTo: &buffer)
    }

    /// Encodes a `Message`, `MessageBatch` or `Event` as a frame of its kind.
    ///
    /// - Parameter content: The value to frame.
    /// - Returns: The frame.
    public func encode<Content: FrameContent>(_ content: Content) -> [UInt8] {
        encodeFrame(payload: content.serializedBytes(), kind: Content.frameKind)
    }
}
