/// Writes messages, batches and events as frames to an asynchronous sink.
///
/// Each write encodes with one ``FrameEncoder`` (compressing as its
/// ``CompressionPolicy`` says) and hands the bytes to `send`, awaiting it, so
/// a sink that waits while its peer is slow (a NIO channel's outbound writer,
/// a file) holds the writer back instead of letting frames pile up in memory.
///
/// ```swift
/// let writer = AsyncFrameWriter(policy: .default) { bytes in
///     try await socket.write(bytes)
/// }
/// try await writer.write(.message(message))
/// ```
///
/// Like ``FrameEncoder``, a writer writes nothing that a reader with its
/// limits would refuse: such a value is refused with the reader's code.
///
/// A writer is not `Sendable`: it owns a zlib stream. Use one per stream,
/// from one task.
public final class AsyncFrameWriter {
    /// When and how payloads are compressed.
    public var policy: CompressionPolicy { encoder.policy }
    /// The decoding limits of the readers the frames are for.
    public var limits: DecodingLimits { encoder.limits }
    /// The number of frames written so far.
    public private(set) var frameCount = 0

    private let encoder: FrameEncoder
    private let send: ([UInt8]) async throws -> Void

    /// Creates a writer.
    ///
    /// - Parameters:
    ///   - policy: When and how to compress.
    ///   - limits: The decoding limits of the readers the frames are for.
    ///   - send: Takes the bytes of one or more whole frames and returns once
    ///     the sink has accepted them.
    public init(
        policy: CompressionPolicy = .default, limits: DecodingLimits = .default,
        send: @escaping ([UInt8]) async throws -> Void
    ) {
        encoder = FrameEncoder(policy: policy, limits: limits)
        self.send = send
    }

    /// Writes one message, batch or event as a frame.
    ///
    /// - Parameter payload: The value to write.
    /// - Throws: What the encoder throws for a value its readers would
    ///   refuse (``FrameEncoder/encode(_:)-(FramePayload)``), then what
    ///   `send` throws.
    public func write(_ payload: FramePayload) async throws {
        try await send(encoder.encode(payload))
        frameCount += 1
    }

    /// Writes a `Message`, `MessageBatch` or `Event` as a frame of its kind.
    ///
    /// - Parameter content: The value to write.
    /// - Throws: What the encoder throws for a value its readers would
    ///   refuse, then what `send` throws.
    public func write<Content: FrameContent>(_ content: Content) async throws {
        try await send(encoder.encode(content))
        frameCount += 1
    }

    /// Writes several values as consecutive frames, handed to `send` at once.
    ///
    /// - Parameter payloads: The values to write, in order.
    /// - Throws: What the encoder throws for a value its readers would
    ///   refuse, or what `send` throws; then none of them counts as written.
    public func write(contentsOf payloads: some Sequence<FramePayload>) async throws {
        var bytes: [UInt8] = []
        var count = 0
        for payload in payloads {
            try encoder.encode(payload, appendingTo: &bytes)
            count += 1
        }
        guard count > 0 else { return }
        try await send(bytes)
        frameCount += count
    }

    /// Writes a frame that was read elsewhere, framing its payload again
    /// under this writer's policy: how a relay forwards a checked frame
    /// without decoding its payload.
    ///
    /// - Parameter frame: The frame to forward.
    /// - Throws: `limit.frame-size` when the readers would refuse even the
    ///   stored frame, then what `send` throws.
    public func write(_ frame: Frame) async throws {
        var bytes: [UInt8] = []
        // The payload is read in place, not copied.
        _ = try frame.payload.withUnsafeBytes { payload in
            Result { () throws(IMCodecError) in
                try encoder.encodeFrame(payload: payload, kind: frame.header.kind, appendingTo: &bytes)
            }
        }.get()
        try await send(bytes)
        frameCount += 1
    }
}

@available(*, unavailable, message: "an AsyncFrameWriter owns a zlib stream; use one per stream")
extension AsyncFrameWriter: Sendable {}
