/// Encodes payloads into frames, compressing them as a ``CompressionPolicy``
/// says (`docs/spec/frame-format.md`).
///
/// An encoder writes only frames that a reader with its ``limits`` accepts:
/// a value such a reader would refuse is refused here, with the code and path
/// the reader would give (`limit.frame-size`, `limit.depth`, `limit.elems`,
/// `limit.repeated`, `limit.batch-messages`), and a compressed body that
/// reader would refuse (`limit.inflated-size`, `limit.inflate-ratio`,
/// `limit.frame-size`) is stored instead when the stored frame is accepted.
/// The default limits are the readers' defaults; pass the limits your
/// readers use when they differ.
///
/// An encoder keeps one zlib stream (or zstd context, with its dictionary
/// digested once: about 0.5 ms for dictionary 4 at level 3) and one scratch
/// buffer and reuses them for every frame, so create one per connection or
/// thread and reuse it. It is
/// not `Sendable`: use it from one task at a time.
public final class FrameEncoder {
    /// When and how payloads are compressed.
    public let policy: CompressionPolicy
    /// The decoding limits of the readers the frames are written for.
    public let limits: DecodingLimits
    /// The fewest payload bytes that can hold more entries than a count
    /// limit allows: an elem takes at least 3 bytes, any other repeated entry
    /// 2. A smaller payload of a value without unknown fields whose mergers
    /// nest no deeper than `maxDepth` (both noted while it is sized) is
    /// within the limits, and the value is not walked.
    @usableFromInline let smallestPayloadPastACount: Int
    private var deflaterStorage: Deflater?
    #if Zstd
        private var zstdStorage: ZstdCompressor?
    #endif
    /// Receives deflate output before the body length, and so the header,
    /// is known; kept to avoid an allocation per frame.
    private var scratch: [UInt8] = []
    /// Receives the payload of a value that may be compressed; kept to avoid
    /// an allocation per frame.
    private var payloadScratch: [UInt8] = []

    /// Creates an encoder.
    ///
    /// - Parameters:
    ///   - policy: When and how to compress.
    ///   - limits: The decoding limits of the readers the frames are for;
    ///     nothing they would refuse is written. Default: the readers'
    ///     defaults.
    public init(policy: CompressionPolicy = .default, limits: DecodingLimits = .default) {
        precondition(policy.algorithm.levels.contains(policy.level), "the level is outside the algorithm's levels")
        self.policy = policy
        self.limits = limits
        func bytes(_ perEntry: Int, _ limit: Int) -> Int {
            let (entries, overflow) = Swift.max(limit, -1).addingReportingOverflow(1)
            let (total, overflowAgain) = entries.multipliedReportingOverflow(by: perEntry)
            return overflow || overflowAgain ? .max : total
        }
        smallestPayloadPastACount = Swift.min(
            bytes(3, limits.maxElems), bytes(2, limits.maxRepeated), bytes(2, limits.maxBatchMessages))
    }

    /// Encodes one payload, as given, as a frame.
    ///
    /// The frame is one that ``FrameDecoder/decodeFrame(_:)-([UInt8])`` and
    /// ``FrameReader`` with ``limits`` accept; the payload bytes are framed
    /// without being decoded, as a relay forwards them. To frame a value so
    /// that decoding its payload with ``limits`` succeeds too, use
    /// ``encode(_:)-(FramePayload)``, which checks the value's depth and
    /// counts.
    ///
    /// - Parameters:
    ///   - payload: The protobuf encoding of a value of `kind`.
    ///   - kind: What the payload holds.
    /// - Returns: The frame.
    /// - Throws: `limit.frame-size` when even a stored frame of the payload
    ///   would be too large for a reader with ``limits``.
    public func encodeFrame(payload: [UInt8], kind: FrameKind) throws(IMCodecError) -> [UInt8] {
        var frame: [UInt8] = []
        try encodeFrame(payload: payload, kind: kind, appendingTo: &frame)
        return frame
    }

    /// Encodes one payload as a frame at the end of `buffer`, as a stream of
    /// frames is written.
    ///
    /// - Parameters:
    ///   - payload: The protobuf encoding of a value of `kind`.
    ///   - kind: What the payload holds.
    ///   - buffer: Where the frame is appended; unchanged when this throws.
    /// - Returns: The number of bytes appended.
    /// - Throws: The codes of ``encodeFrame(payload:kind:)``.
    @discardableResult
    public func encodeFrame(
        payload: [UInt8], kind: FrameKind, appendingTo buffer: inout [UInt8]
    ) throws(IMCodecError) -> Int {
        try payload.withUnsafeBytes { raw in
            Result { () throws(IMCodecError) in try encodeFrame(payload: raw, kind: kind, appendingTo: &buffer) }
        }.get()
    }

    /// Encodes one payload as a frame at the end of `buffer`, as a stream of
    /// frames is written.
    ///
    /// - Parameters:
    ///   - payload: The protobuf encoding of a value of `kind`.
    ///   - kind: What the payload holds.
    ///   - buffer: Where the frame is appended; unchanged when this throws.
    /// - Returns: The number of bytes appended.
    /// - Throws: The codes of ``encodeFrame(payload:kind:)``.
    @discardableResult
    public func encodeFrame(
        payload: UnsafeRawBufferPointer,
        kind: FrameKind,
        appendingTo buffer: inout [UInt8]
    ) throws(IMCodecError) -> Int {
        let header = try settleFrame(payload: payload, kind: kind)
        return write(header, payload: payload, appendingTo: &buffer)
    }

    /// Chooses how a payload is stored: deflated when the policy asks, the
    /// body is smaller than the payload and a reader with ``limits`` accepts
    /// the compressed frame; stored otherwise.
    ///
    /// - Returns: The frame's header, its checksum not yet computed; a
    ///   compressed body is in the encoder's scratch buffer.
    /// - Throws: `limit.frame-size` when a reader would refuse even the
    ///   stored frame; `frame.zstd-unavailable` for a zstd policy in a
    ///   build without zstd.
    @usableFromInline
    func settleFrame(payload: UnsafeRawBufferPointer, kind: FrameKind) throws(IMCodecError) -> FrameHeader {
        if compresses(payloadLength: payload.count) {
            // Only a body smaller than the payload is kept, so one byte less
            // is all the room deflate gets.
            if scratch.count < payload.count - 1 {
                scratch = [UInt8](repeating: 0, count: payload.count - 1)
            }
            let compressed = try compress(payload)
            if let compressed {
                let header = FrameHeader(
                    kind: kind, compression: policy.algorithm.frameCompression, dictionaryID: policy.dictionary?.id,
                    bodyLength: compressed, payloadLength: payload.count, checksum: 0)
                // A body the readers would refuse (too large, inflating
                // past their size or ratio limit) is not kept: the payload
                // is stored instead.
                if (try? header.checkLimits(limits)) != nil { return header }
            }
        }
        return try acceptedStoredHeader(kind: kind, payloadLength: payload.count)
    }

    /// Compresses `payload` into the scratch buffer, which has room for
    /// one byte less than the payload.
    ///
    /// - Returns: The body's length, or `nil` when it does not fit.
    /// - Throws: `frame.zstd-unavailable` for a zstd policy in a build
    ///   without the `Zstd` trait.
    private func compress(_ payload: UnsafeRawBufferPointer) throws(IMCodecError) -> Int? {
        switch policy.algorithm {
        case .deflate:
            return scratch.withUnsafeMutableBytes { output in
                deflater.deflate(
                    payload, dictionary: policy.dictionary?.bytes,
                    into: UnsafeMutableRawBufferPointer(rebasing: output[0..<(payload.count - 1)]))
            }
        case .zstd:
            #if Zstd
                return scratch.withUnsafeMutableBytes { output in
                    zstd.compress(
                        payload, into: UnsafeMutableRawBufferPointer(rebasing: output[0..<(payload.count - 1)]))
                }
            #else
                throw IMCodecError(
                    .frameZstdUnavailable,
                    reason: "the policy asks for zstd, and this build has no zstd (the Zstd trait is off)")
            #endif
        }
    }

    /// Whether a payload of `payloadLength` bytes is worth an attempt to
    /// deflate: the policy says so, and a reader with ``limits`` could accept
    /// a compressed frame of it.
    @usableFromInline
    func compresses(payloadLength: Int) -> Bool {
        policy.attemptsCompression(ofLength: payloadLength) && payloadLength <= limits.maxInflatedBytes
    }

    /// The header of a stored frame of `payloadLength` bytes that a reader
    /// with ``limits`` accepts.
    ///
    /// - Throws: `limit.frame-size` when a reader with ``limits`` would
    ///   refuse the frame, or the payload does not fit a frame at all.
    @usableFromInline
    func acceptedStoredHeader(kind: FrameKind, payloadLength: Int) throws(IMCodecError) -> FrameHeader {
        guard UInt32(exactly: payloadLength) != nil else {
            throw IMCodecError(
                .limitFrameSize, reason: "a payload of \(payloadLength) bytes does not fit a frame (at most 2^32 - 1)",
                limit: Int(UInt32.max), observed: payloadLength)
        }
        let header = Self.storedHeader(kind: kind, payloadLength: payloadLength)
        try header.checkLimits(limits)
        return header
    }

    /// Writes a settled frame: its header, the checksum, and the body.
    @usableFromInline
    func write(_ header: FrameHeader, payload: UnsafeRawBufferPointer, appendingTo buffer: inout [UInt8]) -> Int {
        let start = buffer.count
        buffer.reserveCapacity(start + header.frameLength)
        header.append(checksumming: payload, to: &buffer)
        switch header.compression {
        case .none:
            buffer.append(contentsOf: payload)
        case .deflate, .zstd:
            buffer.append(contentsOf: scratch[0..<header.bodyLength])
        }
        return buffer.count - start
    }

    /// Calls `body` with the first `count` bytes of the payload scratch buffer.
    @usableFromInline
    func withPayloadScratch<Value>(
        _ count: Int, _ body: (UnsafeMutableRawBufferPointer) throws(IMCodecError) -> Value
    ) throws(IMCodecError) -> Value {
        if payloadScratch.count < count {
            payloadScratch = [UInt8](repeating: 0, count: Swift.max(count, payloadScratch.count * 2))
        }
        // The buffer is moved out while `body` runs, so `body` may use the
        // encoder's deflate scratch without overlapping access to this one.
        var payload = payloadScratch
        payloadScratch = []
        defer { payloadScratch = payload }
        return try payload.withUnsafeMutableBytes { bytes in
            Result { () throws(IMCodecError) in try body(UnsafeMutableRawBufferPointer(rebasing: bytes[0..<count])) }
        }.get()
    }

    #if Zstd
        private var zstd: ZstdCompressor {
            if let zstdStorage { return zstdStorage }
            let zstd = ZstdCompressor(level: policy.level, dictionary: policy.dictionary?.bytes)
            zstdStorage = zstd
            return zstd
        }
    #endif

    private var deflater: Deflater {
        if let deflaterStorage { return deflaterStorage }
        let deflater = Deflater(level: policy.level)
        deflaterStorage = deflater
        return deflater
    }
}

@available(*, unavailable, message: "a FrameEncoder owns a zlib stream; use one per task")
extension FrameEncoder: Sendable {}
