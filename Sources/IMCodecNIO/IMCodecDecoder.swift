#if SwiftNIO
    import IMCodec
    import NIOCore

    /// Reads the frames of a channel's byte stream: checked, inflated, their
    /// payloads not decoded.
    ///
    /// An ``IMCodecDecoder`` of `Frame`, for relays and brokers that route or
    /// forward frames without decoding what they carry. Add it wrapped in a
    /// `ByteToMessageHandler`:
    ///
    /// ```swift
    /// try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(IMCodecFrameDecoder()))
    /// ```
    public typealias IMCodecFrameDecoder = IMCodecDecoder<Frame>

    /// Reads the frames of a channel's byte stream and decodes each into the
    /// message, batch or event it carries.
    ///
    /// An ``IMCodecDecoder`` of `FramePayload`: the decoder a server that
    /// looks at messages puts in front of its own handler, which then
    /// receives `FramePayload` values. Add it wrapped in a
    /// `ByteToMessageHandler`:
    ///
    /// ```swift
    /// try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(IMCodecPayloadDecoder()))
    /// ```
    ///
    /// Besides a malformed frame, the first payload that does not decode
    /// (`payload.*`, `limit.*`, with the path of the field) fires its error
    /// and closes the channel.
    public typealias IMCodecPayloadDecoder = IMCodecDecoder<FramePayload>

    /// Splits a channel's byte stream into frames whose headers are checked
    /// and whose bodies are not yet: neither inflated nor decoded.
    ///
    /// An ``IMCodecDecoder`` of `UncheckedFrame`, for a server that checks
    /// costly frames off the channel's event loop: the decoder does no work
    /// a frame's body decides, `UncheckedFrame.header.payloadLength` says
    /// how much a frame will inflate to before anything is inflated, and
    /// `FrameDecoder.decodeFrame(_:)` of the frame's bytes, run on a thread
    /// pool, does the checks ``IMCodecFrameDecoder`` would have done on the
    /// loop (a server keeps the frames of one connection in order). Add it
    /// wrapped in a `ByteToMessageHandler`:
    ///
    /// ```swift
    /// try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(IMCodecUncheckedFrameDecoder()))
    /// ```
    ///
    /// A header the format or the limits refuse fires its error and closes
    /// the channel, as with the other decoders; a damaged body is found by
    /// the check that follows.
    public typealias IMCodecUncheckedFrameDecoder = IMCodecDecoder<UncheckedFrame>

    /// Reads the frames of a channel's byte stream and passes on each frame,
    /// each frame with its body unchecked, or each frame's decoded payload:
    /// ``IMCodecFrameDecoder``, ``IMCodecUncheckedFrameDecoder`` and
    /// ``IMCodecPayloadDecoder``.
    ///
    /// A `FrameReader` does the reading, so frames split across reads in any
    /// way are put together, every frame is checked against the ``limits``
    /// before its bytes are kept, and the bytes held per connection never
    /// exceed one read plus the largest frame the limits allow
    /// (`DecodingLimits.maxFrameBytes`, 4 MiB by default: a frame whose
    /// header declares more fails with `limit.frame-size` before any of its
    /// body is kept). The first malformed frame fires its `IMCodecError`
    /// (`frame.*`, `limit.*`) down the pipeline through `errorCaught`, flushes
    /// what the handlers wrote for the frames before it (their replies are
    /// not lost to the close, even when they flush only once a read is
    /// done) and closes the channel; what came before it has been passed on. A stream
    /// that ends inside a frame fires `frame.truncated` and closes.
    ///
    /// Two guards for a server facing peers it does not trust, each failing
    /// the connection alone with an ``IMCodecConnectionError`` fired the same
    /// way before the channel closes:
    /// - **Partial-frame timeout** (30 seconds by default): a frame must be
    ///   complete within this time of its first byte arriving, or the
    ///   connection fails with
    ///   ``IMCodecConnectionError/Code/partialFrameTimeout``. Half a frame
    ///   followed by silence, or a frame trickled in a byte at a time,
    ///   cannot hold a connection and its buffer open. `nil` turns it off.
    /// - **A buffer budget shared across connections** (none by default):
    ///   with an ``IMCodecBufferBudget``, the bytes a connection holds of the
    ///   frame it is putting together are reserved in it as they arrive (not
    ///   the length its header declares, which a peer can state without
    ///   sending it); a reservation past its capacity fails the connection
    ///   with ``IMCodecConnectionError/Code/bufferLimit``.
    public struct IMCodecDecoder<InboundOut>: ByteToMessageDecoder {
        private let intake: FrameIntake<InboundOut>

        /// The limits every frame (and payload) is checked against.
        public var limits: DecodingLimits { intake.reader.limits }

        private init(
            limits: DecodingLimits, output: FrameReaderOutput<InboundOut>, partialFrameTimeout: TimeAmount?,
            budget: IMCodecBufferBudget?
        ) {
            intake = FrameIntake(
                limits: limits, output: output, partialFrameTimeout: partialFrameTimeout, budget: budget)
        }

        /// Reads every frame the buffered bytes complete and passes each on.
        ///
        /// - Parameters:
        ///   - context: The handler's context.
        ///   - buffer: The bytes read; all of them are consumed.
        /// - Returns: `.needMoreData`.
        public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) -> DecodingState {
            read(context: context, buffer: &buffer, atEndOfStream: false)
            return .needMoreData
        }

        /// Reads the last frames, then checks that the stream ended at a frame
        /// boundary, firing `frame.truncated` when it did not.
        ///
        /// - Parameters:
        ///   - context: The handler's context.
        ///   - buffer: The last bytes read; all of them are consumed.
        ///   - seenEOF: Whether the peer closed its side.
        /// - Returns: `.needMoreData`.
        public mutating func decodeLast(
            context: ChannelHandlerContext,
            buffer: inout ByteBuffer,
            seenEOF: Bool
        ) -> DecodingState {
            read(context: context, buffer: &buffer, atEndOfStream: true)
            intake.guarding.close()
            return .needMoreData
        }

        /// Stops the partial-frame timer and gives back the budget's
        /// reservation when the decoder leaves the pipeline.
        ///
        /// - Parameter context: The handler's context.
        public mutating func decoderRemoved(context: ChannelHandlerContext) {
            intake.guarding.close()
        }

        /// Hands every readable byte to the reader at once, so the handler's
        /// own buffer never grows (the reader keeps only the one frame a chunk
        /// leaves incomplete, reserved once its header has passed the
        /// limits), and passes on what it returns. The first error is fired
        /// down the pipeline and closes the channel; bytes that arrive after
        /// it are dropped.
        private mutating func read(context: ChannelHandlerContext, buffer: inout ByteBuffer, atEndOfStream: Bool) {
            let intake = self.intake
            guard !intake.guarding.hasFailed else {
                buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
                return
            }
            do {
                var completed = false
                try intake.read(&buffer) {
                    completed = true
                    context.fireChannelRead(NIOAny($0))
                }
                if atEndOfStream {
                    try intake.reader.finish()
                } else {
                    // Each frame has the whole timeout from its first byte.
                    intake.guarding.time(
                        pending: !intake.reader.isAtFrameBoundary, restart: completed, on: context.eventLoop
                    ) {
                        let error = intake.guarding.timeoutError(holding: intake.reader.reservedByteCount)
                        Self.fail(intake, context: context, error: error)
                    }
                }
            } catch {
                Self.fail(intake, context: context, error: error)
            }
        }

        private static func fail(_ intake: FrameIntake<InboundOut>, context: ChannelHandlerContext, error: Error) {
            guard !intake.guarding.hasFailed else { return }
            intake.guarding.fail()
            context.fireErrorCaught(error)
            // What the handlers after this one wrote for the good frames
            // before the bad one (a server that flushes once a read is done)
            // goes out before the close.
            context.flush()
            context.close(promise: nil)
        }
    }

    extension IMCodecDecoder where InboundOut == Frame {
        /// Creates a decoder of frames for one channel.
        ///
        /// - Parameters:
        ///   - limits: The limits to check every frame against.
        ///   - partialFrameTimeout: How long a frame may take to arrive whole,
        ///     from its first byte; `nil` for no limit.
        ///   - budget: The buffer budget shared with other connections, if any.
        public init(
            limits: DecodingLimits = .default, partialFrameTimeout: TimeAmount? = .seconds(30),
            budget: IMCodecBufferBudget? = nil
        ) {
            self.init(limits: limits, output: .frames, partialFrameTimeout: partialFrameTimeout, budget: budget)
        }
    }

    extension IMCodecDecoder where InboundOut == UncheckedFrame {
        /// Creates a decoder of frames with unchecked bodies for one channel.
        ///
        /// - Parameters:
        ///   - limits: The limits to check every frame's header against.
        ///   - partialFrameTimeout: How long a frame may take to arrive whole,
        ///     from its first byte; `nil` for no limit.
        ///   - budget: The buffer budget shared with other connections, if any.
        public init(
            limits: DecodingLimits = .default, partialFrameTimeout: TimeAmount? = .seconds(30),
            budget: IMCodecBufferBudget? = nil
        ) {
            self.init(
                limits: limits, output: .uncheckedFrames, partialFrameTimeout: partialFrameTimeout, budget: budget)
        }
    }

    extension IMCodecDecoder where InboundOut == FramePayload {
        /// Creates a decoder of payloads for one channel.
        ///
        /// - Parameters:
        ///   - limits: The limits to check every frame and payload against.
        ///   - partialFrameTimeout: How long a frame may take to arrive whole,
        ///     from its first byte; `nil` for no limit.
        ///   - budget: The buffer budget shared with other connections, if any.
        public init(
            limits: DecodingLimits = .default, partialFrameTimeout: TimeAmount? = .seconds(30),
            budget: IMCodecBufferBudget? = nil
        ) {
            self.init(limits: limits, output: .payloads, partialFrameTimeout: partialFrameTimeout, budget: budget)
        }
    }

    @available(*, unavailable, message: "a decoder owns a FrameReader and its zlib stream; use one per channel")
    extension IMCodecDecoder: Sendable {}
#endif
