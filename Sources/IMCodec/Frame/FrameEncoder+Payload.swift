extension FrameEncoder {
    /// Encodes a message, batch or event as a frame.
    ///
    /// - Parameter payload: The value to frame.
    /// - Returns: The frame.
    /// - Throws: What a decoder with ``limits`` would throw reading the
    ///   frame: `limit.frame-size` when even a stored frame is too large,
    ///   then `limit.depth`, `limit.elems`, `limit.repeated` or
    ///   `limit.batch-messages` with the path of the entry past the limit
    ///   (`payload.*` for unknown fields that are not whole fields).
    public func encode(_ payload: FramePayload) throws(IMCodecError) -> [UInt8] {
        // A switch, not the value boxed as `any FrameContent`, which nearly
        // tripled the cost of framing a short message.
        switch payload {
        case .message(let message): try encode(message)
        case .batch(let batch): try encode(batch)
        case .event(let event): try encode(event)
        }
    }

    /// Encodes a message, batch or event as a frame at the end of `buffer`, as
    /// a stream of frames is written.
    ///
    /// - Parameters:
    ///   - payload: The value to frame.
    ///   - buffer: Where the frame is appended; unchanged when this throws.
    /// - Returns: The number of bytes appended.
    /// - Throws: The codes of ``encode(_:)-(FramePayload)``.
    @discardableResult
    public func encode(_ payload: FramePayload, appendingTo buffer: inout [UInt8]) throws(IMCodecError) -> Int {
        switch payload {
        case .message(let message): try encode(message, appendingTo: &buffer)
        case .batch(let batch): try encode(batch, appendingTo: &buffer)
        case .event(let event): try encode(event, appendingTo: &buffer)
        }
    }

    /// Encodes a `Message`, `MessageBatch` or `Event` as a frame of its kind.
    ///
    /// - Parameter content: The value to frame.
    /// - Returns: The frame.
    /// - Throws: The codes of ``encode(_:)-(FramePayload)``.
    @inlinable
    public func encode<Content: FrameContent>(_ content: Content) throws(IMCodecError) -> [UInt8] {
        // Inlined so the caller's concrete type sizes and writes the payload
        // without generic dispatch or metadata lookups. The scratch's body
        // returns a Result rather than throwing: a throwing body measured
        // about 0.1 µs more per frame.
        let frame = SizeCache.withScratch { cache in
            Result { () throws(IMCodecError) -> [UInt8] in
                let size = content.wireSize(&cache)
                if compresses(payloadLength: size) {
                    var frame: [UInt8] = []
                    try encodeCompressible(content, size: size, &cache, appendingTo: &frame)
                    return frame
                }
                let header = try acceptedStoredHeader(kind: Content.frameKind, payloadLength: size)
                try checkLimits(of: content, size: size, cache)
                // Stored: the frame is allocated once, at its final size, and
                // the payload is written straight into it.
                let prefixLength = header.encodedLength - 4
                let frameLength = header.frameLength
                return [UInt8](unsafeUninitializedCapacity: frameLength) { buffer, count in
                    Self.writeStored(
                        content, prefixLength: prefixLength, &cache, into: UnsafeMutableRawBufferPointer(buffer))
                    count = frameLength
                }
            }
        }
        return try frame.get()
    }

    /// Encodes a `Message`, `MessageBatch` or `Event` as a frame of its kind at
    /// the end of `buffer`, as a stream of frames is written.
    ///
    /// A payload that is stored is encoded straight into `buffer`, behind its
    /// header; one that may be compressed is encoded into a buffer the
    /// encoder keeps, so a frame costs no allocation beyond `buffer`'s growth.
    ///
    /// - Parameters:
    ///   - content: The value to frame.
    ///   - buffer: Where the frame is appended; unchanged when this throws.
    /// - Returns: The number of bytes appended.
    /// - Throws: The codes of ``encode(_:)-(FramePayload)``.
    @inlinable @discardableResult
    public func encode<Content: FrameContent>(
        _ content: Content, appendingTo buffer: inout [UInt8]
    ) throws(IMCodecError) -> Int {
        // A Result, not a throwing body, as in encode(_:).
        let appended = SizeCache.withScratch { cache in
            Result { () throws(IMCodecError) -> Int in
                let size = content.wireSize(&cache)
                if compresses(payloadLength: size) {
                    return try encodeCompressible(content, size: size, &cache, appendingTo: &buffer)
                }
                let header = try acceptedStoredHeader(kind: Content.frameKind, payloadLength: size)
                try checkLimits(of: content, size: size, cache)
                let prefixLength = header.encodedLength - 4
                let frameLength = header.frameLength
                let start = buffer.count
                buffer.append(contentsOf: repeatElement(0, count: frameLength))
                buffer.withUnsafeMutableBytes { frame in
                    Self.writeStored(
                        content, prefixLength: prefixLength, &cache,
                        into: UnsafeMutableRawBufferPointer(rebasing: frame[start...]))
                }
                return frameLength
            }
        }
        return try appended.get()
    }

    /// Throws what a decoder with ``limits`` would throw reading `content`'s
    /// payload of `size` bytes: a walk of the value, no encoding, unless what
    /// sizing noted shows there is nothing to find (no unknown fields,
    /// mergers within `maxDepth`, too few bytes to pass a count limit).
    @inlinable
    func checkLimits<Content: FrameContent>(
        of content: Content, size: Int, _ cache: SizeCache
    ) throws(IMCodecError) {
        guard cache.holdsUnknownFields || cache.deepestLayer > limits.maxDepth || size >= smallestPayloadPastACount
        else { return }
        var context = DecodeContext(limits: limits)
        try content.checkWireLimits(&context, unknownFields: cache.holdsUnknownFields)
    }

    /// Encodes a payload that may be compressed into the payload scratch
    /// buffer, then frames it as the policy and the limits allow.
    @inlinable @discardableResult
    func encodeCompressible<Content: FrameContent>(
        _ content: Content, size: Int, _ cache: inout SizeCache, appendingTo buffer: inout [UInt8]
    ) throws(IMCodecError) -> Int {
        try withPayloadScratch(size) { payload throws(IMCodecError) in
            var writer = WireWriter(payload)
            content.writeWire(to: &writer, &cache)
            assert(writer.isFull, "encoded size differs from the computed size")
            let header = try settleFrame(payload: UnsafeRawBufferPointer(payload), kind: Content.frameKind)
            try checkLimits(of: content, size: size, cache)
            return write(header, payload: UnsafeRawBufferPointer(payload), appendingTo: &buffer)
        }
    }

    /// Writes a stored frame: the payload behind the room for its header,
    /// then the header and the checksum over both.
    ///
    /// - Parameters:
    ///   - prefixLength: ``storedPrefixLength(payloadLength:)`` for the payload.
    ///   - frame: Exactly the frame's length: the prefix, 4 checksum bytes, the payload.
    @inlinable
    static func writeStored<Content: FrameContent>(
        _ content: Content, prefixLength: Int, _ cache: inout SizeCache, into frame: UnsafeMutableRawBufferPointer
    ) {
        var writer = WireWriter(UnsafeMutableRawBufferPointer(rebasing: frame[(prefixLength + 4)...]))
        content.writeWire(to: &writer, &cache)
        assert(writer.isFull, "encoded size differs from the computed size")
        finishStored(frame, kind: Content.frameKind, prefixLength: prefixLength)
    }

    /// Writes the header and the checksum of a stored frame whose payload is
    /// already in place behind them.
    ///
    /// - Parameters:
    ///   - frame: The whole frame: header, checksum, payload.
    ///   - prefixLength: The header's length before the checksum.
    @usableFromInline
    static func finishStored(_ frame: UnsafeMutableRawBufferPointer, kind: FrameKind, prefixLength: Int) {
        let header = storedHeader(kind: kind, payloadLength: frame.count - prefixLength - 4)
        let written = header.writePrefix(to: frame)
        precondition(written == prefixLength, "the header is not the length it was given room for")
        FrameHeader.writeChecksum(
            into: frame, prefixLength: prefixLength,
            payload: UnsafeRawBufferPointer(rebasing: frame[(prefixLength + 4)...]))
    }

    /// The header of a stored frame.
    static func storedHeader(kind: FrameKind, payloadLength: Int) -> FrameHeader {
        FrameHeader(
            kind: kind, compression: .none, dictionaryID: nil, bodyLength: payloadLength, payloadLength: payloadLength,
            checksum: 0)
    }
}
