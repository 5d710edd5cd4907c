#if SwiftNIO
    import IMCodec
    import NIOCore

    /// Reads the frames of a channel's byte stream: checked, inflated, their
    /// payloads not decoded.
    ///
    /// For relays and brokers that route or forward frames without decoding
    /// what they carry. Add it wrapped in a `ByteToMessageHandler`:
    ///
    /// ```swift
    /// try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(IMCodecFrameDecoder()))
    /// ```
    ///
    /// A `FrameReader` does the reading, so frames split across reads in any
    /// way are put together, every frame is checked against the ``limits``
    /// before its bytes are kept, and the bytes held per connection never exceed
    /// one read plus the largest frame the limits allow. The first malformed
    /// frame fires its `IMCodecError` (`frame.*`, `limit.*`) down the
    /// pipeline through `errorCaught` and closes the channel; frames before it
    /// have been passed on. A stream that ends inside a frame fires
    /// `frame.truncated` and closes.
    public struct IMCodecFrameDecoder: ByteToMessageDecoder {
        /// A checked frame.
        public typealias InboundOut = Frame

        private var reading: ChannelFrameReading

        /// The limits every frame is checked against.
        public var limits: DecodingLimits { reading.reader.limits }

        /// Creates a decoder for one channel.
        ///
        /// - Parameter limits: The limits to check every frame against.
        public init(limits: DecodingLimits = .default) {
            reading = ChannelFrameReading(limits: limits)
        }

        /// Reads every frame the buffered bytes complete and passes each on.
        ///
        /// - Parameters:
        ///   - context: The handler's context.
        ///   - buffer: The bytes read; all of them are consumed.
        /// - Returns: `.needMoreData`.
        public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) -> DecodingState {
            reading.decode(context: context, buffer: &buffer, atEndOfStream: false) { reader throws(IMCodecError) in
                try reader.next()
            }
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
            reading.decode(context: context, buffer: &buffer, atEndOfStream: true) { reader throws(IMCodecError) in
                try reader.next()
            }
            return .needMoreData
        }
    }

    @available(*, unavailable, message: "a decoder owns a FrameReader and its zlib stream; use one per channel")
    extension IMCodecFrameDecoder: Sendable {}
#endif
