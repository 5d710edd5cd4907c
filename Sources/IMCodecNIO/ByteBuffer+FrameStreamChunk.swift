#if SwiftNIO
    import IMCodec
    import NIOCore

    extension ByteBuffer: FrameStreamChunk {
        /// Appends the buffer's readable bytes to `reader`, copying them once.
        ///
        /// This makes the inbound stream of a `NIOAsyncChannel<ByteBuffer, _>` a
        /// source of `AsyncFrameSequence` and `AsyncPayloadSequence`:
        ///
        /// ```swift
        /// for try await payload in inbound.framePayloads() { ... }
        /// ```
        ///
        /// - Parameter reader: The reader of the stream the chunk belongs to.
        public func appendBytes(to reader: FrameReader) {
            withUnsafeReadableBytes { reader.append($0) }
        }
    }

    extension AsyncFrameWriter {
        /// Creates a writer that writes frames to a `NIOAsyncChannel`'s outbound
        /// side, waiting whenever the channel is not writable.
        ///
        /// - Parameters:
        ///   - outbound: The channel's outbound writer.
        ///   - policy: When and how to compress.
        ///   - limits: The decoding limits of the peer's reader.
        public convenience init(
            outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>, policy: CompressionPolicy = .default,
            limits: DecodingLimits = .default
        ) {
            self.init(policy: policy, limits: limits) { bytes in
                try await outbound.write(ByteBuffer(bytes: bytes))
            }
        }
    }

    extension ChannelPipeline.SynchronousOperations {
        /// Adds the decoder and encoder of frames that carry messages, batches and
        /// events: after them the channel reads and writes `FramePayload`s.
        ///
        /// - Parameters:
        ///   - limits: The limits every inbound frame and payload is checked
        ///     against, and outbound frames are written for.
        ///   - policy: When and how outbound payloads are compressed.
        /// - Throws: What adding a handler throws, such as when the channel has
        ///   closed.
        public func addIMCodecPayloadHandlers(
            limits: DecodingLimits = .default,
            policy: CompressionPolicy = .default
        ) throws {
            try addHandler(ByteToMessageHandler(IMCodecPayloadDecoder(limits: limits)))
            try addHandler(MessageToByteHandler(IMCodecPayloadEncoder(policy: policy, limits: limits)))
        }

        /// Adds the decoder and encoder of checked but undecoded frames: after
        /// them the channel reads and writes `Frame`s, and a frame written is
        /// forwarded unchanged, as the bytes it was read from.
        ///
        /// - Parameter limits: The limits every inbound frame is checked
        ///   against, and outbound frames are written for.
        /// - Throws: What adding a handler throws, such as when the channel has
        ///   closed.
        public func addIMCodecFrameHandlers(limits: DecodingLimits = .default) throws {
            try addHandler(ByteToMessageHandler(IMCodecFrameDecoder(limits: limits)))
            try addHandler(MessageToByteHandler(IMCodecFrameEncoder(limits: limits)))
        }
    }
#endif
