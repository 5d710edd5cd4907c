/// Encodes payloads into frames, compressing them as a ``CompressionPolicy``
/// says (`docs/FRAME_FORMAT.md`).
///
/// An encoder keeps one zlib stream and one scratch buffer and reuses both
/// for every frame, so create one per connection or thread and reuse it. It is
/// not `Sendable`: use it from one task at a time.
public final class FrameEncoder {
    /// When and how payloads are compressed.
    public let policy: CompressionPolicy
    private var deflaterStorage: Deflater?
    /// Receives deflate output before the body length, and so the header,
    /// is known; kept to avoid an allocation per frame.
    private var scratch: [UInt8] = []
    /// Receives the payload of a value that may be compressed; kept to avoid
    /// an allocation per frame.
    private var payloadScratch: [UInt8] = []

    /// Creates an encoder.
    ///
    /// - Parameter policy: When and how to compress.
    public init(policy: CompressionPolicy = .default) {
        precondition((0...9).contains(policy.level), "zlib levels are 0...9")
        self.policy = policy
    }

    /// Encodes one payload as a frame.
    ///
    /// - Parameters:
    ///   - payload: The canonical protobuf encoding of a value of `kind`; at
    ///     most 2^32 − 1 bytes.
    ///   - kind: What the payload holds.
    /// - Returns: The frame.
    public func encodeFrame(payload: [UInt8], kind: FrameKind) -> [UInt8] {
        var frame: [UInt8] = []
        encodeFrame(payload: payload, kind: kind, appendingTo: &frame)
        return frame
    }

    /// Encodes one payload as a frame at the end of `buffer`, as a stream of
    /// frames is written.
    ///
    /// - Parameters:
    ///   - payload: The canonical protobuf encoding of a value of `kind`; at
    ///     most 2^32 − 1 bytes.
    ///   - kind: What the payload holds.
    ///   - buffer: Where the frame is appended.
    /// - Returns: The number of bytes appended.
    @discardableResult
    public func encodeFrame(payload: [UInt8], kind: FrameKind, appendingTo buffer: inout [UInt8]) -> Int {
        payload.withUnsafeBytes { encodeFrame(payload: $0, kind: kind, appendingTo: &buffer) }
    }

    /// Encodes one payload as a frame at the end of `buffer`, as a stream of
    /// frames is written.
    ///
    /// - Parameters:
    ///   - payload: The canonical protobuf encoding of a value of `kind`; at
    ///     most 2^32 − 1 bytes.
    ///   - kind: What the payload holds.
    ///   - buffer: Where the frame is appended.
    /// - Returns: The number of bytes appended.
    @discardableResult
    public func encodeFrame(
        payload: UnsafeRawBufferPointer,
        kind: FrameKind,
        appendingTo buffer: inout [UInt8]
    ) -> Int {
        precondition(UInt32(exactly: payload.count) != nil, "a frame payload is at most 2^32 - 1 bytes")
        let start = buffer.count
        var bodyLength = payload.count
        var compression = FrameCompression.none
        if policy.attemptsCompression(ofLength: payload.count) {
            // Only a body smaller than the payload is kept, so one byte less
            // is all the room deflate gets.
            if scratch.count < payload.count - 1 {
                scratch = [UInt8](repeating: 0, count: payload.count - 1)
            }
            let deflated = scratch.withUnsafeMutableBytes { output in
                deflater.deflate(
                    payload, dictionary: policy.dictionary?.bytes,
                    into: UnsafeMutableRawBufferPointer(rebasing: output[0..<(payload.count - 1)]))
            }
            // A body that inflates past the ratio limit would be refused by
            // readers with default limits: store such a payload instead.
            if let deflated, payload.count <= deflated * policy.maxRatio {
                bodyLength = deflated
                compression = .deflate
            }
        }
        var header = FrameHeader(
            kind: kind,
            compression: compression,
            dictionaryID: compression == .deflate ? policy.dictionary?.id : nil,
            bodyLength: bodyLength,
            payloadLength: payload.count,
            checksum: 0)
        buffer.reserveCapacity(start + header.frameLength)
        header.writePrefix(to: &buffer)
        header.checksum = buffer.withUnsafeBytes {
            CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[start...]), payload)
        }
        for shift in stride(from: 0, to: 32, by: 8) {
            buffer.append(UInt8(truncatingIfNeeded: header.checksum >> UInt32(shift)))
        }
        switch compression {
        case .none:
            buffer.append(contentsOf: payload)
        case .deflate:
            buffer.append(contentsOf: scratch[0..<bodyLength])
        }
        return buffer.count - start
    }

    /// Calls `body` with the first `count` bytes of the payload scratch buffer.
    @usableFromInline
    func withPayloadScratch<Result>(_ count: Int, _ body: (UnsafeMutableRawBufferPointer) -> Result) -> Result {
        if payloadScratch.count < count {
            payloadScratch = [UInt8](repeating: 0, count: Swift.max(count, payloadScratch.count * 2))
        }
        // The buffer is moved out while `body` runs, so `body` may use the
        // encoder's deflate scratch without overlapping access to this one.
        var payload = payloadScratch
        payloadScratch = []
        defer { payloadScratch = payload }
        return payload.withUnsafeMutableBytes { body(UnsafeMutableRawBufferPointer(rebasing: $0[0..<count])) }
    }

    private var deflater: Deflater {
        if let deflaterStorage { return deflaterStorage }
        let deflater = Deflater(level: policy.level)
        deflaterStorage = deflater
        return deflater
    }
}

@available(*, unavailable, message: "a FrameEncoder owns a zlib stream; use one per task")
extension FrameEncoder: Sendable {}
