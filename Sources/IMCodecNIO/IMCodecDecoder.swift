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

    /// Reads the frames of a channel's byte stream and passes on each frame,
    /// or each frame's decoded payload: ``IMCodecFrameDecoder`` and
    /// ``IMCodecPayloadDecoder``.
    ///
    /// A `FrameReader` does the reading, so frames split across reads in any
    /// way are put together, every frame is checked against the ``limits``
    /// before its bytes are kept, and the bytes held per connection never
    /// exceed one read plus the largest frame the limits allow. The first
    /// malformed frame fires its `IMCodecError` (`frame.*`, `limit.*`) down
    /// the pipeline through `errorCaught` and closes the channel; what came
    /// before it has been passed on. A stream that ends inside a frame fires
    /// `frame.truncated` and closes.
    public struct IMCodecDecoder<InboundOut>: ByteToMessageDecoder {
        private let reader: FrameReader
        private let output: FrameReaderOutput<InboundOut>
        private var hasFailed = false

        /// The limits every frame (and payload) is checked against.
        public var limits: DecodingLimits { reader.limits }

        private init(limits: DecodingLimits, output: FrameReaderOutput<InboundOut>) {
            reader = FrameReader(limits: limits)
            self.output = output
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
            return .needMoreData
        }

        /// Hands every readable byte to the reader at once, so the handler's
        /// own buffer never grows (the reader keeps only the one frame a chunk
        /// leaves incomplete, reserved once its header has passed the
        /// limits), and passes on what it returns. The first error is fired
        /// down the pipeline and closes the channel; bytes that arrive after
        /// it are dropped.
        private mutating func read(context: ChannelHandlerContext, buffer: inout ByteBuffer, atEndOfStream: Bool) {
            guard !hasFailed else {
                buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
                return
            }
            if buffer.readableBytes > 0 {
                buffer.readWithUnsafeReadableBytes { bytes in
                    reader.append(bytes)
                    return bytes.count
                }
            }
            do throws(IMCodecError) {
                while let element = try output.next(reader) {
                    context.fireChannelRead(NIOAny(element))
                }
                if atEndOfStream {
                    try reader.finish()
                }
            } catch {
                hasFailed = true
                context.fireErrorCaught(error)
                context.close(promise: nil)
            }
        }
    }

    extension IMCodecDecoder where InboundOut == Frame {
        /// Creates a decoder of frames for one channel.
        ///
        /// - Parameter limits: The limits to check every frame against.
        public init(limits: DecodingLimits = .default) {
            self.init(limits: limits, output: .frames)
        }
    }

    extension IMCodecDecoder where InboundOut == FramePayload {
        /// Creates a decoder of payloads for one channel.
        ///
        /// - Parameter limits: The limits to check every frame and payload against.
        public init(limits: DecodingLimits = .default) {
            self.init(limits: limits, output: .payloads)
        }
    }

    @available(*, unavailable, message: "a decoder owns a FrameReader and its zlib stream; use one per channel")
    extension IMCodecDecoder: Sendable {}
#endif
