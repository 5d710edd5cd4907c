#if SwiftNIO
    import IMCodec
    import NIOCore

    /// Writes frames read elsewhere (by ``IMCodecFrameDecoder``) to a channel:
    /// how a relay forwards checked frames.
    ///
    /// By default a frame is forwarded unchanged: its `Frame/bytes`, the bytes
    /// it arrived as, with the sender's compression, dictionary and checksum,
    /// and no encoder runs. Created with ``init(reframing:limits:)`` it frames
    /// each payload again under a `CompressionPolicy` instead, which costs a
    /// checksum and, when the policy compresses, a deflate or zstd pass per
    /// frame and per channel.
    ///
    /// ```swift
    /// try channel.pipeline.syncOperations.addHandler(MessageToByteHandler(IMCodecFrameEncoder()))
    /// channel.writeAndFlush(frame, promise: nil)
    /// ```
    ///
    /// A `MessageToByteHandler` copies what the encoder writes into a buffer
    /// of each channel's own. A server that sends one frame to many channels
    /// makes the buffer once, `ByteBuffer(bytes: frame.bytes)`, and writes
    /// that same buffer to each channel's pipeline below this handler: the
    /// channels share its storage and nothing is copied per member
    /// (Servers.md, "Forwarding").
    public final class IMCodecFrameEncoder: MessageToByteEncoder {
        /// The frame to forward.
        public typealias OutboundIn = Frame

        private let limits: DecodingLimits
        private var reframing: FrameWriting?

        /// The policy frames are framed again under, or `nil` when they are
        /// forwarded unchanged.
        public var policy: CompressionPolicy? { reframing?.encoder.policy }

        /// Creates an encoder for one channel that forwards frames unchanged.
        ///
        /// - Parameter limits: The decoding limits of the peer's reader; a
        ///   frame it would refuse is not written.
        public init(limits: DecodingLimits = .default) {
            self.limits = limits
        }

        /// Creates an encoder for one channel that frames each payload again.
        ///
        /// - Parameters:
        ///   - policy: When and how to compress.
        ///   - limits: The decoding limits of the peer's reader; no frame it
        ///     would refuse is written.
        public init(reframing policy: CompressionPolicy, limits: DecodingLimits = .default) {
            self.limits = limits
            reframing = FrameWriting(policy: policy, limits: limits)
        }

        /// Writes one frame: its bytes unchanged, or its payload framed again.
        ///
        /// - Parameters:
        ///   - data: The frame.
        ///   - out: Where the frame is written.
        /// - Throws: Forwarding unchanged, the header's `limit.frame-size`,
        ///   `limit.inflated-size` or `limit.inflate-ratio` when the peer's
        ///   limits are tighter than those the frame was read with; framing
        ///   again, `limit.frame-size` when the peer's reader would refuse even
        ///   the stored frame. Nothing is written then.
        public func encode(data: Frame, out: inout ByteBuffer) throws {
            guard reframing != nil else {
                try data.header.checkLimits(limits)
                out.writeBytes(data.bytes)
                return
            }
            try reframing?.write(into: &out) { encoder, bytes throws(IMCodecError) in
                // The payload is read in place, not copied.
                _ = try data.payload.withUnsafeBytes { payload in
                    Result { () throws(IMCodecError) in
                        try encoder.encodeFrame(payload: payload, kind: data.header.kind, appendingTo: &bytes)
                    }
                }.get()
            }
        }
    }

    @available(*, unavailable, message: "an encoder owns a zlib stream; use one per channel")
    extension IMCodecFrameEncoder: Sendable {}
#endif
