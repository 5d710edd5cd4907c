#if SwiftNIO
    import IMCodec
    import NIOCore

    /// Writes messages, batches and events to a channel as frames, compressed as
    /// a `CompressionPolicy` says.
    ///
    /// Add it wrapped in a `MessageToByteHandler`; then write `FramePayload`
    /// values to the channel:
    ///
    /// ```swift
    /// try channel.pipeline.syncOperations.addHandler(
    ///     MessageToByteHandler(IMCodecPayloadEncoder(policy: .default)))
    /// channel.writeAndFlush(FramePayload.message(message), promise: nil)
    /// ```
    ///
    /// One encoder keeps one zlib stream: create one per channel.
    public final class IMCodecPayloadEncoder: MessageToByteEncoder {
        /// The value to frame.
        public typealias OutboundIn = FramePayload

        private var frames: FrameWriting

        /// When and how payloads are compressed.
        public var policy: CompressionPolicy { frames.encoder.policy }

        /// Creates an encoder for one channel.
        ///
        /// - Parameters:
        ///   - policy: When and how to compress.
        ///   - limits: The decoding limits of the peer's reader; nothing it
        ///     would refuse is written.
        public init(policy: CompressionPolicy = .default, limits: DecodingLimits = .default) {
            frames = FrameWriting(policy: policy, limits: limits)
        }

        /// Encodes one value as a frame.
        ///
        /// - Parameters:
        ///   - data: The message, batch or event.
        ///   - out: Where the frame is written.
        /// - Throws: What `FrameEncoder` throws for a value the peer's
        ///   reader would refuse; the write fails and nothing is written.
        public func encode(data: FramePayload, out: inout ByteBuffer) throws {
            try frames.write(into: &out) { encoder, bytes throws(IMCodecError) in
                try encoder.encode(data, appendingTo: &bytes)
            }
        }
    }

    @available(*, unavailable, message: "an encoder owns a zlib stream; use one per channel")
    extension IMCodecPayloadEncoder: Sendable {}

    /// One frame encoder and the array it encodes into before the bytes go to
    /// the channel's buffer.
    struct FrameWriting {
        /// Past this capacity the array is released after use, so one large frame
        /// does not keep its size allocated for the life of the channel.
        private static let keptCapacity = 64 << 10

        let encoder: FrameEncoder
        private var scratch: [UInt8] = []

        init(policy: CompressionPolicy, limits: DecodingLimits) {
            encoder = FrameEncoder(policy: policy, limits: limits)
        }

        mutating func write(
            into out: inout ByteBuffer, encode: (FrameEncoder, inout [UInt8]) throws(IMCodecError) -> Void
        ) throws(IMCodecError) {
            // Emptied whether or not the encoder throws; past the kept
            // capacity, released.
            defer { scratch.removeAll(keepingCapacity: scratch.capacity <= Self.keptCapacity) }
            try encode(encoder, &scratch)
            out.writeBytes(scratch)
        }
    }
#endif
