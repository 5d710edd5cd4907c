/// Decodes single frames: checks every field, inflates the body and verifies
/// the checksum (`docs/spec/frame-format.md`).
///
/// A decoder keeps one zlib stream and reuses it for every compressed frame,
/// so create one per connection or thread and reuse it. It is not `Sendable`:
/// use it from one task at a time.
///
/// Memory stays bounded by ``limits`` whatever a frame declares: sizes are
/// checked against them before anything is allocated, the payload is
/// allocated once at its declared size, and inflation stops the moment it is
/// full.
public final class FrameDecoder {
    /// The limits every frame is checked against.
    public let limits: DecodingLimits
    private var inflaterStorage: Inflater?
    #if Zstd
        private var zstdStorage: ZstdDecompressor?
    #endif
    /// Where ``withCheckedPayload(_:_:_:)`` decompresses payloads of up to
    /// ``scratchLimit`` bytes, kept from one frame to the next.
    private var scratch = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    /// The largest payload decompressed into ``scratch``: what a decoder holds
    /// between frames stays small.
    private static let scratchLimit = 64 * 1_024

    /// Creates a decoder.
    ///
    /// - Parameter limits: The limits to check frames and payloads against.
    public init(limits: DecodingLimits = .default) {
        self.limits = limits
    }

    deinit {
        scratch.deallocate()
    }

    /// Decodes a buffer that holds exactly one frame.
    ///
    /// - Parameter bytes: The frame.
    /// - Returns: The header, the payload and the frame's bytes; the bytes,
    ///   and the payload of an uncompressed frame, share `bytes`' storage.
    /// - Throws: `frame.truncated`, `frame.version`, `frame.kind`,
    ///   `frame.compression`, `frame.reserved-bits`, `frame.varint`,
    ///   `frame.dictionary`, `limit.frame-size`, `limit.inflated-size`,
    ///   `limit.inflate-ratio`, `frame.deflate` (`frame.zstd`,
    ///   `frame.zstd-window` or `frame.zstd-unavailable` for zstd bodies),
    ///   `frame.payload-length`, `frame.checksum` and `frame.trailing-bytes`,
    ///   checked in that order.
    public func decodeFrame(_ bytes: [UInt8]) throws(IMCodecError) -> Frame {
        try decodeFrame(bytes[...])
    }

    /// Decodes a buffer that holds exactly one frame.
    ///
    /// - Parameter bytes: The frame.
    /// - Returns: The header, the payload and the frame's bytes; the bytes,
    ///   and the payload of an uncompressed frame, share `bytes`' storage.
    /// - Throws: The codes of ``decodeFrame(_:)-([UInt8])``.
    public func decodeFrame(_ bytes: ArraySlice<UInt8>) throws(IMCodecError) -> Frame {
        let header = try frameHeader(of: bytes)
        let frame = try decodeFrame(bytes.prefix(header.frameLength), header: header)
        try checkNoTrailingBytes(bytes.count, header)
        return frame
    }

    /// Decodes a buffer that holds exactly one frame, copying the frame out of
    /// it.
    ///
    /// - Parameter bytes: The frame.
    /// - Returns: The header, the payload and the frame's bytes, copied once.
    /// - Throws: The codes of ``decodeFrame(_:)-([UInt8])``.
    public func decodeFrame(_ bytes: UnsafeRawBufferPointer) throws(IMCodecError) -> Frame {
        let header = try frameHeader(of: bytes)
        let frameBytes = UnsafeRawBufferPointer(rebasing: bytes[0..<header.frameLength])
        let body = try decodeBody(frameBytes, header)
        try checkNoTrailingBytes(bytes.count, header)
        // One copy of the frame: its bytes, and a stored payload inside them.
        let copy = Array(frameBytes)[...]
        switch body {
        case .stored(let range):
            return Frame(header: header, payload: copy[range], bytes: copy)
        case .inflated(let payload):
            return Frame(header: header, payload: payload[...], bytes: copy)
        }
    }

    /// Checks 1 to 4: the header, the limits, and that the whole frame is there.
    package func frameHeader(of bytes: UnsafeRawBufferPointer) throws(IMCodecError) -> FrameHeader {
        guard let header = try FrameHeader.peek(bytes) else { throw Self.truncated(bytes.count) }
        try header.checkLimits(limits)
        guard bytes.count >= header.frameLength else { throw Self.truncated(bytes.count, header) }
        return header
    }

    /// Checks 1 to 4: the header, the limits, and that the whole frame is there.
    func frameHeader(of bytes: some Collection<UInt8>) throws(IMCodecError) -> FrameHeader {
        guard let header = try FrameHeader.peek(bytes) else { throw Self.truncated(bytes.count) }
        try header.checkLimits(limits)
        guard bytes.count >= header.frameLength else { throw Self.truncated(bytes.count, header) }
        return header
    }

    /// Checks 5 and 6 of a frame whose header passed checks 1 to 4.
    ///
    /// - Parameters:
    ///   - frameBytes: Exactly the frame's bytes, header included.
    ///   - header: The frame's header, already checked against the limits.
    /// - Returns: The frame; a stored payload shares `frameBytes`' storage.
    /// - Throws: `frame.deflate`, `frame.payload-length`, `frame.checksum`.
    func decodeFrame(_ frameBytes: ArraySlice<UInt8>, header: FrameHeader) throws(IMCodecError) -> Frame {
        let body = try frameBytes.withUnsafeBytes { raw in
            Result { () throws(IMCodecError) in try decodeBody(raw, header) }
        }.get()
        switch body {
        case .stored(let range):
            let start = frameBytes.startIndex
            return Frame(
                header: header, payload: frameBytes[(start + range.lowerBound)..<(start + range.upperBound)],
                bytes: frameBytes)
        case .inflated(let payload):
            return Frame(header: header, payload: payload[...], bytes: frameBytes)
        }
    }

    /// Where a checked payload is.
    @usableFromInline
    enum Body {
        /// The payload is the body: these offsets into the frame.
        case stored(Range<Int>)
        /// The payload inflated from the body.
        case inflated([UInt8])
    }

    /// Checks 5 and 6: inflates the body and verifies the checksum.
    ///
    /// - Parameters:
    ///   - frame: Exactly the frame's bytes, header included.
    ///   - header: The frame's header, already checked against the limits.
    /// - Returns: Where the payload is.
    /// - Throws: `frame.deflate`, `frame.payload-length`, `frame.checksum`.
    func decodeBody(_ frame: UnsafeRawBufferPointer, _ header: FrameHeader) throws(IMCodecError) -> Body {
        // The body is the frame's last bytes: the header's length is not
        // worked out again from its varints.
        let headerLength = frame.count - header.bodyLength
        assert(headerLength == header.encodedLength, "decodeBody takes exactly one frame")
        let checked = UnsafeRawBufferPointer(rebasing: frame[0..<(headerLength - 4)])
        let bodyRange = headerLength..<frame.count
        let body = UnsafeRawBufferPointer(rebasing: frame[bodyRange])
        switch header.compression {
        case .none:
            try header.verifyChecksum(prefix: checked, payload: body)
            return .stored(bodyRange)
        case .deflate:
            // The header check already refused ids that name no dictionary.
            let dictionary = header.dictionaryID.flatMap { PresetDictionary(id: $0) }
            let payload = try inflater.inflate(body, payloadLength: header.payloadLength, dictionary: dictionary?.bytes)
            try header.verifyChecksum(prefix: checked, payload: payload)
            return .inflated(payload)
        case .zstd:
            #if Zstd
                let dictionary = header.dictionaryID.flatMap { PresetDictionary(id: $0) }
                let payload = try zstd.decompress(body, payloadLength: header.payloadLength, dictionary: dictionary)
                try header.verifyChecksum(prefix: checked, payload: payload)
                return .inflated(payload)
            #else
                throw IMCodecError(
                    .frameZstdUnavailable, reason: "a zstd frame, and this build has no zstd (the Zstd trait is off)")
            #endif
        }
    }

    /// Checks 5 and 6 of a frame whose header passed checks 1 to 4, and
    /// calls `body` with the checked payload: the body itself for a stored
    /// frame, else the payload decompressed into a buffer this decoder keeps
    /// (payloads of up to 64 KiB) or allocates for the call. Nothing is
    /// allocated for a stored frame, nor for a compressed one once the buffer
    /// has grown.
    ///
    /// - Parameters:
    ///   - frame: Exactly the frame's bytes, header included.
    ///   - header: The frame's header, already checked against the limits.
    ///   - body: Called with the payload, valid only during the call.
    /// - Throws: The codes of ``decodeBody(_:_:)``, then what `body` throws.
    func withCheckedPayload<Result>(
        _ frame: UnsafeRawBufferPointer, _ header: FrameHeader,
        _ body: (UnsafeRawBufferPointer) throws(IMCodecError) -> Result
    ) throws(IMCodecError) -> Result {
        let headerLength = frame.count - header.bodyLength
        assert(headerLength == header.encodedLength, "withCheckedPayload takes exactly one frame")
        let checked = UnsafeRawBufferPointer(rebasing: frame[0..<(headerLength - 4)])
        let stored = UnsafeRawBufferPointer(rebasing: frame[headerLength...])
        guard header.compression != .none else {
            try header.verifyChecksum(prefix: checked, payload: stored)
            return try body(stored)
        }
        let count = header.payloadLength
        var output = scratch
        if count > Self.scratchLimit {
            output = .allocate(byteCount: count, alignment: 16)
        } else if scratch.count < count {
            scratch.deallocate()
            scratch = .allocate(
                byteCount: Swift.min(Swift.max(count, 2 * scratch.count, 1_024), Self.scratchLimit), alignment: 16)
            output = scratch
        }
        defer { if output.baseAddress != scratch.baseAddress { output.deallocate() } }
        let payload = UnsafeMutableRawBufferPointer(rebasing: output[0..<count])
        let dictionary = header.dictionaryID.flatMap { PresetDictionary(id: $0) }
        switch header.compression {
        case .none:
            preconditionFailure("a stored frame has no body to decompress")
        case .deflate:
            try inflater.inflate(stored, into: payload, dictionary: dictionary?.bytes)
        case .zstd:
            #if Zstd
                try zstd.decompress(stored, into: payload, dictionary: dictionary)
            #else
                throw IMCodecError(
                    .frameZstdUnavailable, reason: "a zstd frame, and this build has no zstd (the Zstd trait is off)")
            #endif
        }
        try header.verifyChecksum(prefix: checked, payload: UnsafeRawBufferPointer(payload))
        return try body(UnsafeRawBufferPointer(payload))
    }

    #if Zstd
        private var zstd: ZstdDecompressor {
            if let zstdStorage { return zstdStorage }
            let zstd = ZstdDecompressor()
            zstdStorage = zstd
            return zstd
        }
    #endif

    private var inflater: Inflater {
        if let inflaterStorage { return inflaterStorage }
        let inflater = Inflater()
        inflaterStorage = inflater
        return inflater
    }

    private func checkNoTrailingBytes(_ count: Int, _ header: FrameHeader) throws(IMCodecError) {
        guard count == header.frameLength else { throw Self.trailingBytes(count, header) }
    }

    static func trailingBytes(_ count: Int, _ header: FrameHeader) -> IMCodecError {
        IMCodecError(
            .frameTrailingBytes,
            reason: "\(count - header.frameLength) bytes after the end of the \(header.frameLength)-byte frame")
    }

    static func truncated(_ count: Int, _ header: FrameHeader? = nil) -> IMCodecError {
        if let header {
            return IMCodecError(
                .frameTruncated, reason: "input ends after \(count) of the frame's \(header.frameLength) bytes")
        }
        return IMCodecError(.frameTruncated, reason: "input ends inside the frame header after \(count) bytes")
    }
}

@available(*, unavailable, message: "a FrameDecoder owns a zlib stream; use one per task")
extension FrameDecoder: Sendable {}
