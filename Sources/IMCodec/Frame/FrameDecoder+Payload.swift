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
        try bytes.withUnsafeBytes { raw in
            Result { () throws(IMCodecError) in try decode(raw) }
        }.get()
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
        // A compressed payload is inflated into the decoder's buffer and
        // decoded from there: no array is made for it.
        return try withCheckedPayload(frameBytes, header) { (payload) throws(IMCodecError) in
            guard bytes.count == header.frameLength else { throw Self.trailingBytes(bytes.count, header) }
            return try FramePayload(kind: header.kind, serializedBytes: payload, limits: limits)
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
        // straight from the frame or, compressed, from the buffer it is
        // inflated into: no Frame, no copy of the payload, no array for it.
        var value = Content()
        var failure: IMCodecError?
        bytes.withUnsafeBytes { raw in
            do throws(IMCodecError) {
                try withPayload(in: raw, kind: Content.frameKind) { (payload) throws(IMCodecError) in
                    try value.merge(payload, limits: limits)
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return value
    }

    /// Checks a buffer that holds exactly one frame of `kind`, in the order
    /// of ``decodeFrame(_:)-([UInt8])`` and then the kind, and calls `body`
    /// with its payload: the frame's own bytes when it is stored, else the
    /// payload inflated into the decoder's buffer, valid during the call.
    ///
    /// - Throws: The frame codes of ``decodeFrame(_:)-([UInt8])``, then
    ///   `frame.unexpected-kind`, then what `body` throws.
    @usableFromInline
    func withPayload(
        in raw: UnsafeRawBufferPointer, kind: FrameKind, _ body: (UnsafeRawBufferPointer) throws(IMCodecError) -> Void
    ) throws(IMCodecError) {
        let header = try frameHeader(of: raw)
        let frameLength = header.frameLength
        try withCheckedPayload(UnsafeRawBufferPointer(rebasing: raw[0..<frameLength]), header) {
            (payload) throws(IMCodecError) in
            guard raw.count == frameLength else { throw Self.trailingBytes(raw.count, header) }
            guard header.kind == kind else {
                throw IMCodecError(
                    .frameUnexpectedKind,
                    reason: "expected \(kind.withArticle) frame, found \(header.kind.withArticle) frame")
            }
            try body(payload)
        }
    }
}

extension FrameKind {
    /// The kind's name after its indefinite article: `a message`, `an event`.
    fileprivate var withArticle: String {
        let name = description
        return (name.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + name
    }
}
