#if SwiftNIO
    import IMCodec
    import NIOCore

    /// Reads the frames of a channel's byte stream and decodes each into the
    /// message, batch or event it carries.
    ///
    /// The decoder a server that looks at messages puts in front of its own
    /// handler, which then receives `FramePayload` values. Add it wrapped in a
    /// `ByteToMessageHandler`:
    ///
    /// ```swift
    /// try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(IMCodecPayloadDecoder()))
    /// ```
    ///
    /// A `FrameReader` does the reading, so frames split across reads in any
    /// way are put together, every frame is checked against the ``limits``
    /// before its bytes are kept, and the bytes held per connection never exceed
    /// one read plus the largest frame the limits allow. The first malformed
    /// frame fires its `IMCodecError` (`frame.*`, `limit.*`) down the
    /// pipeline through `errorCaught` and closes the channel, and so does the
    /// first payload that does not decode (`payload.*`, `limit.*`, with the
    /// path of the field); payloads before it
    /// have been passed on. A stream that ends inside a frame fires
    /// `frame.truncated` and closes.
    public struct IMCodecPayloadDecoder: ByteToMessageDecoder {
        /// A decoded message, batch or event.
        public typealias InboundOut = FramePayload

        private var reading: ChannelFrameReading

        /// The limits every frame and payload is checked against.
        public var limits: DecodingLimits { reading.reader.limits }

        /// Creates a decoder for one channel.
        ///
        /// - Parameter limits: The limits to check every frame and payload against.
        public init(limits: DecodingLimits = .default) {
            reading = ChannelFrameReading(limits: limits)
        }

        /// Decodes every frame the buffered bytes complete and passes each
        /// payload on.
        ///
        /// - Parameters:
        ///   - context: The handler's context.
        ///   - buffer: The bytes read; all of them are consumed.
        /// - Returns: `.needMoreData`.
        public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) -> DecodingState {
            reading.decode(context: context, buffer: &buffer, atEndOfStream: false) { reader throws(IMCodecError) in
                try reader.nextPayload()
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
                try reader.nextPayload()
            }
            return .needMoreData
        }
    }

    @available(*, unavailable, message: "a decoder owns a FrameReader and its zlib stream; use one per channel")
    extension IMCodecPayloadDecoder: Sendable {}
#endif
