#if SwiftNIO
    import IMCodec
    import NIOCore

    /// What both decoders do with the bytes of a channel: hand every chunk to
    /// one ``FrameReader`` and pass on what it returns.
    ///
    /// The reader takes every readable byte at once, so the handler's own buffer
    /// never grows; the reader keeps only the one frame a chunk leaves
    /// incomplete, reserved once its header has passed the limits. The first
    /// error is fired down the pipeline and closes the channel; bytes that
    /// arrive after it are dropped.
    struct ChannelFrameReading {
        let reader: FrameReader
        private(set) var hasFailed = false

        init(limits: DecodingLimits) {
            reader = FrameReader(limits: limits)
        }

        mutating func decode<Output>(
            context: ChannelHandlerContext,
            buffer: inout ByteBuffer,
            atEndOfStream: Bool,
            next: (FrameReader) throws(IMCodecError) -> Output?
        ) {
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
                while let output = try next(reader) {
                    context.fireChannelRead(NIOAny(output))
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
#endif
