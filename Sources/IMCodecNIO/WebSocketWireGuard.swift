#if SwiftNIO
    import NIOCore

    /// Counts, on the raw bytes in front of NIOWebSocket's frame decoder,
    /// what that decoder holds of a WebSocket frame not yet whole, and holds
    /// it to the connection's ``IMCodecBufferBudget`` and partial-frame
    /// timeout.
    ///
    /// NIOWebSocket's decoder passes a WebSocket frame on only once all of
    /// it has arrived, so the bytes of one unfinished frame (up to the
    /// largest frame the limits allow) would sit in its buffer out of sight
    /// of ``IMCodecWebSocketHandler``. This handler reads just the
    /// WebSocket frame headers as the bytes go by (it passes the buffers on
    /// unchanged, not copied), reserves the bytes of the unfinished frame in
    /// the budget before they reach the decoder, and runs the partial-frame
    /// timer from a message's first byte until its last frame is whole,
    /// whether the imcodec frame sits inside one WebSocket frame or is split
    /// across several. ``IMCodecWebSocketHandler`` puts it in front of the
    /// decoder when it is added, and fails the connection (with a close
    /// frame) for it.
    final class WebSocketWireGuard: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer

        private let guarding: PartialFrameGuard
        private let failConnection: (IMCodecConnectionError) -> Void
        /// The header of the WebSocket frame being read, while it is
        /// incomplete: at most 14 bytes.
        private var header: [UInt8] = []
        /// The payload bytes of the current frame still to come, once its
        /// header is in.
        private var payloadLeft: UInt64 = 0
        private var inPayload = false
        /// The bytes of the current frame seen so far, header included.
        private var frameHeld = 0
        /// Whether a data frame without FIN has been seen and the
        /// continuation with FIN has not.
        private var inFragmentedMessage = false

        init(guarding: PartialFrameGuard, failConnection: @escaping (IMCodecConnectionError) -> Void) {
            self.guarding = guarding
            self.failConnection = failConnection
            header.reserveCapacity(14)
        }

        /// The bytes of an unfinished WebSocket frame the decoder holds.
        var heldBytes: Int { frameHeld }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !guarding.hasFailed else { return }
            let buffer = unwrapInboundIn(data)
            let completedMessage = buffer.withUnsafeReadableBytes { walk($0) }
            do {
                // Reserved before the decoder keeps them.
                try guarding.reserveWire(frameHeld)
            } catch {
                return failConnection(error)
            }
            context.fireChannelRead(data)
            guard !guarding.hasFailed else { return }
            guarding.time(
                pending: frameHeld > 0 || inFragmentedMessage, restart: completedMessage, on: context.eventLoop
            ) { [weak self] in
                guard let self else { return }
                self.failConnection(self.guarding.timeoutError(holding: self.guarding.reservedBytes))
            }
        }

        /// Follows the frame headers through `bytes`.
        ///
        /// - Returns: Whether a message (a data frame with FIN) ended in them.
        private func walk(_ bytes: UnsafeRawBufferPointer) -> Bool {
            var completedMessage = false
            var index = 0
            while index < bytes.count {
                if inPayload {
                    let take = Int(min(payloadLeft, UInt64(bytes.count - index)))
                    index += take
                    payloadLeft -= UInt64(take)
                    frameHeld += take
                    if payloadLeft == 0 { completedMessage = frameEnded() || completedMessage }
                    continue
                }
                let wanted = headerLength - header.count
                let take = min(wanted, bytes.count - index)
                header.append(contentsOf: bytes[index..<index + take])
                index += take
                frameHeld = header.count
                // The length of the header is known once its first two
                // bytes are in; another pass takes the rest of it.
                guard header.count == headerLength, header.count >= 2 else { continue }
                payloadLeft = payloadLength
                inPayload = true
                if payloadLeft == 0 { completedMessage = frameEnded() || completedMessage }
            }
            return completedMessage
        }

        /// How long the header is: 2 bytes until they are in, then what they
        /// say (RFC 6455, 5.2).
        private var headerLength: Int {
            guard header.count >= 2 else { return 2 }
            let extended =
                switch header[1] & 0x7F {
                case 126: 2
                case 127: 8
                default: 0
                }
            return 2 + extended + (header[1] & 0x80 != 0 ? 4 : 0)
        }

        private var payloadLength: UInt64 {
            switch header[1] & 0x7F {
            case 126: return UInt64(header[2]) << 8 | UInt64(header[3])
            case 127: return header[2..<10].reduce(0) { $0 << 8 | UInt64($1) }
            case let length: return UInt64(length)
            }
        }

        /// Notes the end of the current frame.
        ///
        /// - Returns: Whether it ended a message.
        private func frameEnded() -> Bool {
            let fin = header[0] & 0x80 != 0
            let opcode = header[0] & 0x0F
            header.removeAll(keepingCapacity: true)
            inPayload = false
            frameHeld = 0
            // Control frames (0x8 and up) sit between fragments without
            // ending or starting a message.
            guard opcode < 0x8 else { return false }
            inFragmentedMessage = !fin
            return fin
        }
    }
#endif
