extension FrameDecoder {
    /// Decodes a buffer that holds exactly one frame into its model value.
    ///
    /// - Parameter bytes: The frame.
    /// - Returns: The message, batch or event the frame holds.
    /// - Throws: The frame codes of ``decodeFrame(_:)-([UInt8])``, then
    ///   `payload.*` and `limit.*` codes with the path of the field where
    ///   decoding stopped.
    public func decode(_ bytes: [UInt8]) throws(IMCodecError) -> FramePayload {
        try decode(bytes[...])
    }

    /// Decodes a buffer that holds exactly one frame into its model value.
    ///
    /// - Parameter bytes: The frame.
    /// - Returns: The message, batch or event the frame holds.
    /// - Throws: The codes of ``decode(_:)-([UInt8])``.
    public func decode(_ bytes: ArraySlice<UInt8>) throws(IMCodecError) -> FramePayload {
        try FramePayload(decoding: decodeFrame(bytes), limits: limits)
    }

    /// Decodes a buffer that holds exactly one frame into its model value,
    /// reading a stored payload in place.
    ///
    /// - Parameter bytes: The frame.
    /// - Returns: The message, batch or event the frame holds.
    /// - Throws: The codes of ``decode(_:)-([UInt8])``.
    public func decode(_ bytes: UnsafeRawBufferPointer) throws(IMCodecError) -> FramePayload {
        let header = try frameHeader(of: bytes)
        let frameBytes = UnsafeRawBufferPointer(rebasing: bytes[0..<header.frameLength])
        let body = try decodeBody(frameBytes, header)
        guard bytes.count == header.frameLength else { throw Self.trailingBytes(bytes.count, header) }
        switch body {
        case .stored(let range):
            return try FramePayload(
                kind: header.kind, serializedBytes: UnsafeRawBufferPointer(rebasing: frameBytes[range]), limits: limits)
        case .inflated(let payload):
            return try payload.withUnsafeBytes { raw in
                Result { () throws(IMCodecError) in
                    try FramePayload(kind: header.kind, serializedBytes: raw, limits: limits)
                }
            }.get()
        }
    }

    /// Decodes a buffer that holds exactly one frame of a known kind.
    ///
    /// - Parameters:
    ///   - type: The type the frame must hold: `Message`, `MessageBatch` or `Event`.
    ///   - bytes: The frame.
    /// - Returns: The decoded value.
    /// - Throws: The frame codes of ``decodeFrame(_:)-([UInt8])``;
    ///   `frame.unexpected-kind` when the frame holds another kind; then
    ///   `payload.*` and `limit.*` codes with the path of the field where
    ///   decoding stopped.
    public func decode<Content: FrameContent>(_ type: Content.Type, from bytes: [UInt8]) throws(IMCodecError)
        -> Content
    {
        let frame = try decodeFrame(bytes)
        guard frame.header.kind == Content.frameKind else {
            throw IMCodecError(
                .frameUnexpectedKind,
                reason: "expected a \(Content.frameKind) frame, found a \(frame.header.kind) frame")
        }
        return try frame.payload.withUnsafeBytes { raw in
            Result { () throws(IMCodecError) in try Content(serializedBytes: raw, limits: limits) }
        }.get()
    }
}
