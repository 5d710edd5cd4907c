#if SwiftNIO
    import IMCodec
    import NIOCore

    /// Writes messages, batches and events to a channel as frames, compressed as
    /// a ``CompressionPolicy`` says.
    ///
    /// Add it wrapped in a `MessageToByteHandler`; then write ``FramePayload``
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
        /// - Parameter policy: When and how to compress.
        public init(policy: CompressionPolicy = .default) {
            frames = FrameWriting(policy: policy)
        }

        /// Encodes one value as a frame.
        ///
        /// - Parameters:
        ///   - data: The message, batch or event.
        ///   - out: Where the frame is written.
        public func encode(data: FramePayload, out: inout ByteBuffer) {
            frames.write(into: &out) { encoder, bytes in _ = encoder.encode(data, appendingTo: &bytes) }
        }
    }

    @available(*, unavailable, message: "an encoder owns a zlib stream; use one per channel")
    extension IMCodecPayloadEncoder: Sendable {}

    /// Writes frames read elsewhere (by ``IMCodecFrameDecoder``) to a channel,
    /// framing each payload again under a ``CompressionPolicy``: how a relay
    /// forwards checked frames without decoding their payloads.
    ///
    /// ```swift
    /// try channel.pipeline.syncOperations.addHandler(MessageToByteHandler(IMCodecFrameEncoder()))
    /// channel.writeAndFlush(frame, promise: nil)
    /// ```
    ///
    /// One encoder keeps one zlib stream: create one per channel.
    public final class IMCodecFrameEncoder: MessageToByteEncoder {
        /// The frame to forward.
        public typealias OutboundIn = Frame

        private var frames: FrameWriting

        /// When and how payloads are compressed.
        public var policy: CompressionPolicy { frames.encoder.policy }

        /// Creates an encoder for one channel.
        ///
        /// - Parameter policy: When and how to compress.
        public init(policy: CompressionPolicy = .default) {
            frames = FrameWriting(policy: policy)
        }

        /// Frames one frame's payload again.
        ///
        /// - Parameters:
        ///   - data: The frame.
        ///   - out: Where the frame is written.
        public func encode(data: Frame, out: inout ByteBuffer) {
            frames.write(into: &out) { encoder, bytes in
                _ = data.payload.withUnsafeBytes {
                    encoder.encodeFrame(payload: $0, kind: data.header.kind, appendingTo: &bytes)
                }
            }
        }
    }

    @available(*, unavailable, message: "an encoder owns a zlib stream; use one per channel")
    extension IMCodecFrameEncoder: Sendable {}

    /// One frame encoder and the array it encodes into before the bytes go to
    /// the channel's buffer.
    struct FrameWriting {
        /// Past this capacity the array is released after use, so one large frame
        /// does not keep its size allocated for the life of the channel.
        private static let keptCapacity = 64 << 10

        let encoder: FrameEncoder
        private var scratch: [UInt8] = []

        init(policy: CompressionPolicy) {
            encoder = FrameEncoder(policy: policy)
        }

        mutating func write(into out: inout ByteBuffer, encode: (FrameEncoder, inout [UInt8]) -> Void) {
            encode(encoder, &scratch)
            out.writeBytes(scratch)
            if scratch.capacity > Self.keptCapacity {
                scratch = []
            } else {
                scratch.removeAll(keepingCapacity: true)
            }
        }
    }
#endif
