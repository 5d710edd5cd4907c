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
            return try FramePayload(kind: header.kind, payload: payload[...], limits: limits)
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
    @inlinable
    public func decode<Content: FrameContent>(_ type: Content.Type, from bytes: [UInt8]) throws(IMCodecError)
        -> Content
    {
        // Inlined so the payload is decoded by the caller's concrete type,
        // straight from the array: no Frame, no copy of the payload.
        let location = try bytes.withUnsafeBytes { raw in
            Result { () throws(IMCodecError) in try payloadLocation(in: raw, kind: Content.frameKind) }
        }.get()
        switch location {
        case .stored(let range):
            return try Content(serializedSlice: bytes[range], limits: limits)
        case .inflated(let payload):
            return try Content(serializedBytes: payload, limits: limits)
        }
    }

    /// Checks a buffer that holds exactly one frame of `kind`, in the order
    /// of ``decodeFrame(_:)-([UInt8])`` and then the kind, and says where its
    /// payload is.
    ///
    /// - Throws: The frame codes of ``decodeFrame(_:)-([UInt8])``, then
    ///   `frame.unexpected-kind`.
    @usableFromInline
    func payloadLocation(in raw: UnsafeRawBufferPointer, kind: FrameKind) throws(IMCodecError) -> Body {
        let header = try frameHeader(of: raw)
        let frameLength = header.frameLength
        let body = try decodeBody(UnsafeRawBufferPointer(rebasing: raw[0..<frameLength]), header)
        guard raw.count == frameLength else { throw Self.trailingBytes(raw.count, header) }
        guard header.kind == kind else {
            throw IMCodecError(
                .frameUnexpectedKind,
                reason: "expected \(kind.withArticle) frame, found \(header.kind.withArticle) frame")
        }
        return body
    }
}

extension FrameKind {
    /// The kind's name after its indefinite article: `a message`, `an event`.
    fileprivate var withArticle: String {
        let name = description
        return (name.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + name
    }
}
