extension FrameEncoder {
    /// Encodes a message, batch or event as a frame.
    ///
    /// - Parameter payload: The value to frame.
    /// - Returns: The frame.
    public func encode(_ payload: FramePayload) -> [UInt8] {
        switch payload {
        case .message(let message): encode(message)
        case .batch(let batch): encode(batch)
        case .event(let event): encode(event)
        }
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
        switch payload {
        case .message(let message): encode(message, appendingTo: &buffer)
        case .batch(let batch): encode(batch, appendingTo: &buffer)
        case .event(let event): encode(event, appendingTo: &buffer)
        }
    }

    /// Encodes a `Message`, `MessageBatch` or `Event` as a frame of its kind.
    ///
    /// - Parameter content: The value to frame.
    /// - Returns: The frame.
    @inlinable
    public func encode<Content: FrameContent>(_ content: Content) -> [UInt8] {
        // Inlined so the caller's concrete type sizes and writes the payload
        // without generic dispatch or metadata lookups.
        SizeCache.withScratch { cache in
            let size = content._encodedSize(&cache)
            precondition(UInt32(exactly: size) != nil, "a frame payload is at most 2^32 - 1 bytes")
            if policy.attemptsCompression(ofLength: size) {
                var frame: [UInt8] = []
                encodeCompressible(content, size: size, &cache, appendingTo: &frame)
                return frame
            }
            // Stored: the frame is allocated once, at its final size, and
            // the payload is written straight into it.
            let prefixLength = Self.storedPrefixLength(payloadLength: size)
            let frameLength = prefixLength + 4 + size
            return [UInt8](unsafeUninitializedCapacity: frameLength) { buffer, count in
                Self.writeStored(
                    content, prefixLength: prefixLength, &cache, into: UnsafeMutableRawBufferPointer(buffer))
                count = frameLength
            }
        }
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
    ///   - buffer: Where the frame is appended.
    /// - Returns: The number of bytes appended.
    @inlinable @discardableResult
    public func encode<Content: FrameContent>(_ content: Content, appendingTo buffer: inout [UInt8]) -> Int {
        SizeCache.withScratch { cache in
            let size = content._encodedSize(&cache)
            precondition(UInt32(exactly: size) != nil, "a frame payload is at most 2^32 - 1 bytes")
            if policy.attemptsCompression(ofLength: size) {
                return encodeCompressible(content, size: size, &cache, appendingTo: &buffer)
            }
            let prefixLength = Self.storedPrefixLength(payloadLength: size)
            let frameLength = prefixLength + 4 + size
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

    /// Encodes a payload that may be compressed into the payload scratch
    /// buffer, then frames it as the policy says.
    @inlinable @discardableResult
    func encodeCompressible<Content: FrameContent>(
        _ content: Content, size: Int, _ cache: inout SizeCache, appendingTo buffer: inout [UInt8]
    ) -> Int {
        withPayloadScratch(size) { payload in
            var writer = WireWriter(payload)
            content._encode(to: &writer, &cache)
            assert(writer.isFull, "encoded size differs from the computed size")
            return encodeFrame(payload: UnsafeRawBufferPointer(payload), kind: Content.frameKind, appendingTo: &buffer)
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
        content._encode(to: &writer, &cache)
        assert(writer.isFull, "encoded size differs from the computed size")
        finishStored(frame, kind: Content.frameKind, prefixLength: prefixLength)
    }

    /// The length of a stored frame's header before its checksum.
    @usableFromInline
    static func storedPrefixLength(payloadLength: Int) -> Int {
        storedHeader(kind: .message, payloadLength: payloadLength).encodedLength - 4
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
        let payload = UnsafeRawBufferPointer(rebasing: frame[(prefixLength + 4)...])
        let checksum = CRC32.checksum(UnsafeRawBufferPointer(rebasing: frame[0..<prefixLength]), payload)
        frame.storeBytes(of: checksum.littleEndian, toByteOffset: prefixLength, as: UInt32.self)
    }

    /// The header of a stored frame.
    static func storedHeader(kind: FrameKind, payloadLength: Int) -> FrameHeader {
        FrameHeader(
            kind: kind, compression: .none, dictionaryID: nil, bodyLength: payloadLength, payloadLength: payloadLength,
            checksum: 0)
    }
}
