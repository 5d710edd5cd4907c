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
    public func encode<Content: FrameContent>(_ content: Content) -> [UInt8] {
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
            let header = FrameHeader(
                kind: Content.frameKind, compression: .none, dictionaryID: nil, bodyLength: size, payloadLength: size,
                checksum: 0)
            return [UInt8](unsafeUninitializedCapacity: header.frameLength) { buffer, count in
                Self.writeStored(content, header: header, &cache, into: UnsafeMutableRawBufferPointer(buffer))
                count = header.frameLength
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
    @discardableResult
    public func encode<Content: FrameContent>(_ content: Content, appendingTo buffer: inout [UInt8]) -> Int {
        SizeCache.withScratch { cache in
            let size = content._encodedSize(&cache)
            precondition(UInt32(exactly: size) != nil, "a frame payload is at most 2^32 - 1 bytes")
            if policy.attemptsCompression(ofLength: size) {
                return encodeCompressible(content, size: size, &cache, appendingTo: &buffer)
            }
            let header = FrameHeader(
                kind: Content.frameKind, compression: .none, dictionaryID: nil, bodyLength: size, payloadLength: size,
                checksum: 0)
            let start = buffer.count
            buffer.append(contentsOf: repeatElement(0, count: header.frameLength))
            buffer.withUnsafeMutableBytes { frame in
                Self.writeStored(
                    content, header: header, &cache, into: UnsafeMutableRawBufferPointer(rebasing: frame[start...]))
            }
            return header.frameLength
        }
    }

    /// Encodes a payload that may be compressed into the payload scratch
    /// buffer, then frames it as the policy says.
    @discardableResult
    private func encodeCompressible<Content: FrameContent>(
        _ content: Content, size: Int, _ cache: inout SizeCache, appendingTo buffer: inout [UInt8]
    ) -> Int {
        withPayloadScratch(size) { payload in
            var writer = WireWriter(payload)
            content._encode(to: &writer, &cache)
            assert(writer.isFull, "encoded size differs from the computed size")
            return encodeFrame(payload: UnsafeRawBufferPointer(payload), kind: Content.frameKind, appendingTo: &buffer)
        }
    }

    /// Writes a stored frame: the header, the payload behind it, then the
    /// checksum over both.
    ///
    /// - Parameter frame: Exactly `header.frameLength` bytes.
    private static func writeStored<Content: FrameContent>(
        _ content: Content, header: FrameHeader, _ cache: inout SizeCache, into frame: UnsafeMutableRawBufferPointer
    ) {
        let prefixLength = header.writePrefix(to: frame)
        let payload = UnsafeMutableRawBufferPointer(rebasing: frame[(prefixLength + 4)...])
        var writer = WireWriter(payload)
        content._encode(to: &writer, &cache)
        assert(writer.isFull, "encoded size differs from the computed size")
        let checksum = CRC32.checksum(
            UnsafeRawBufferPointer(rebasing: frame[0..<prefixLength]), UnsafeRawBufferPointer(payload))
        frame.storeBytes(of: checksum.littleEndian, toByteOffset: prefixLength, as: UInt32.self)
    }
}
