#if SwiftNIO
    import IMCodec
    import NIOCore
    import NIOHTTP1
    import NIOWebSocket

    /// Reads and writes frames over WebSocket: one frame per binary message,
    /// with the same limits, error codes and guards as the stream decoders.
    ///
    /// Add it after the WebSocket upgrade (an upgrader from
    /// `NIOWebSocketServerUpgrader/imcodec(limits:shouldUpgrade:upgradePipelineHandler:)`
    /// sets the largest WebSocket frame to what the limits allow); after it the
    /// channel reads `Frame`s (``IMCodecWebSocketFrameHandler``),
    /// `FramePayload`s (``IMCodecWebSocketPayloadHandler``) or frames with
    /// their bodies unchecked (``IMCodecWebSocketUncheckedFrameHandler``) and writes
    /// `ByteBuffer`s, each holding one whole frame, which it sends as one binary
    /// message; a buffer written to many channels is shared, not copied.
    ///
    /// What each message gets (the close reason is the stable code):
    ///
    /// | message | result |
    /// |---|---|
    /// | binary, exactly one frame | the frame (or its payload) is passed on |
    /// | binary, in fragments (continuation frames) | put together, then as above |
    /// | binary, a frame that does not fill it, or two frames | close 1007, `frame.trailing-bytes` |
    /// | binary, shorter than the frame its header declares, or empty | close 1007, `frame.truncated` |
    /// | binary, a malformed frame or payload | close 1007, its `frame.*`, `payload.*` or `limit.*` code |
    /// | binary, larger than `DecodingLimits.maxFrameBytes` allows | close 1009, `limit.frame-size` (from the frame's header, or from the WebSocket frame's length before its data arrives) |
    /// | text | close 1003, `connection.websocket-text` |
    /// | a message not finished within the partial-frame timeout, from its first byte on the wire (whether its frame sits inside one unfinished WebSocket frame or is split across several) | close 1008, `connection.partial-frame-timeout` |
    /// | bytes of an unfinished message, or of an unfinished WebSocket frame held by NIOWebSocket's decoder, that would pass the ``IMCodecBufferBudget`` | close 1013, `connection.buffer-limit` |
    /// | masked the wrong way (a server reads masked frames only), reserved bits, a new message inside a fragmented one, a continuation with nothing to continue, a fragmented or long control frame | close 1002, `connection.websocket-protocol` |
    /// | ping | pong with the same data |
    /// | close | close echoed, then the connection closes |
    ///
    /// The error is fired through `errorCaught` (an `IMCodecError` or an
    /// ``IMCodecConnectionError``) before the close frame is sent; the
    /// connection closes when the peer answers the close, or after two
    /// seconds. Messages that arrive meanwhile are dropped. Only that socket
    /// is closed. The ``IMCodecConnectionError`` of other handlers in the
    /// pipeline (the idle timeout: 1001; the slow consumer, which closes at
    /// once) and a `ChannelShouldQuiesceEvent` (1001, `connection.shutdown`)
    /// close the socket the same way.
    ///
    /// Backpressure is the channel's, as on a stream: ``IMCodecOutboundLimitHandler``
    /// works unchanged in front of this handler.
    public final class IMCodecWebSocketHandler<InboundOut>: ChannelDuplexHandler {
        /// WebSocket frames, from NIOWebSocket's decoder.
        public typealias InboundIn = WebSocketFrame
        /// One imcodec frame's bytes.
        public typealias OutboundIn = ByteBuffer
        /// WebSocket frames, to NIOWebSocket's encoder.
        public typealias OutboundOut = WebSocketFrame

        /// The limits every frame (and payload) is checked against.
        public let limits: DecodingLimits
        /// Which end of the WebSocket this handler is.
        public let role: IMCodecWebSocketRole
        private let decoder: FrameDecoder
        private let output: @Sendable (MessageBytes, FrameDecoder) throws(IMCodecError) -> InboundOut
        private let guarding: PartialFrameGuard
        /// The bytes of the binary message being received, at most its frame
        /// and one byte more.
        private var message: [UInt8] = []
        private var header: FrameHeader?
        private var inMessage = false
        private var isClosing = false
        private var context: ChannelHandlerContext?

        private init(
            limits: DecodingLimits, role: IMCodecWebSocketRole, partialFrameTimeout: TimeAmount?,
            budget: IMCodecBufferBudget?,
            output: @escaping @Sendable (MessageBytes, FrameDecoder) throws(IMCodecError) -> InboundOut
        ) {
            self.limits = limits
            self.role = role
            decoder = FrameDecoder(limits: limits)
            guarding = PartialFrameGuard(timeout: partialFrameTimeout, budget: budget)
            self.output = output
        }

        /// Puts the guard of unfinished WebSocket frames in front of
        /// NIOWebSocket's decoder, when the pipeline has one.
        ///
        /// The guard counts the bytes that the decoder holds of a WebSocket
        /// frame not yet whole against the buffer budget, and runs the
        /// partial-frame timer from a message's first byte on the wire.
        ///
        /// - Parameter context: The handler's context.
        public func handlerAdded(context: ChannelHandlerContext) {
            self.context = context
            let pipeline = context.pipeline.syncOperations
            guard let decoder = try? pipeline.handler(type: ByteToMessageHandler<WebSocketFrameDecoder>.self) else {
                return
            }
            let wire = WebSocketWireGuard(guarding: guarding) { [weak self] error in
                guard let self, let context = self.context else { return }
                self.fail(context: context, error: error)
            }
            do {
                try pipeline.addHandler(wire, position: .before(decoder))
                guarding.timedOnTheWire = true
            } catch {
                // The pipeline is closing; there is nothing to guard.
            }
        }

        /// Reads one WebSocket frame.
        ///
        /// - Parameters:
        ///   - context: The handler's context.
        ///   - data: The WebSocket frame.
        public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let frame = unwrapInboundIn(data)
            if frame.opcode == .connectionClose {
                return closeAnswered(context: context, frame: frame)
            }
            guard !isClosing, !guarding.hasFailed else { return }
            do {
                // Clients mask every frame, servers none (RFC 6455, 5.1).
                guard (frame.maskKey != nil) == (role == .server), !frame.rsv1, !frame.rsv2, !frame.rsv3 else {
                    throw Self.protocolError("a frame masked the wrong way, or reserved bits set without an extension")
                }
                switch frame.opcode {
                case .binary:
                    guard !inMessage else { throw Self.protocolError("a new message inside a fragmented one") }
                    inMessage = true
                    try receive(frame, context: context)
                case .continuation:
                    guard inMessage else { throw Self.protocolError("a continuation with no message to continue") }
                    try receive(frame, context: context)
                case .text:
                    throw IMCodecConnectionError(
                        .textMessage, reason: "a text message; frames travel in binary messages only")
                case .ping:
                    context.writeAndFlush(wrapOutboundOut(outgoing(.pong, frame.unmaskedData)))
                        .whenFailure { _ in }
                case .pong:
                    break
                default:
                    throw Self.protocolError("a frame with the reserved opcode \(frame.opcode)")
                }
            } catch {
                fail(context: context, error: error)
            }
        }

        /// Adds a data frame's bytes to the message; at its end, decodes the
        /// frame the message holds and passes it on.
        private func receive(_ frame: WebSocketFrame, context: ChannelHandlerContext) throws {
            var data = frame.unmaskedData
            if frame.fin, header == nil, message.isEmpty {
                // A message in one WebSocket frame, which NIOWebSocket's
                // decoder has already read whole: decoded where it is, its
                // bytes copied once, into the frame.
                inMessage = false
                let element = try data.withUnsafeReadableBytes { bytes in
                    Result { () throws(IMCodecError) in try output(.buffer(bytes), decoder) }
                }.get()
                context.fireChannelRead(wrapInboundOut(element))
                return
            }
            if header == nil {
                let wanted = FrameHeader.maxEncodedLength - message.count
                message += data.readBytes(length: min(wanted, data.readableBytes)) ?? []
                if let peeked = try FrameHeader.peek(message) {
                    try peeked.checkLimits(limits)
                    header = peeked
                }
            }
            if let header {
                // The frame and one byte more: enough to tell a message the
                // frame does not fill from one it fills exactly.
                let room = header.frameLength + 1 - message.count
                message += data.readBytes(length: min(room, data.readableBytes)) ?? []
            }
            // What is held, as it arrives: a declared length reserves nothing.
            try guarding.reserve(message.count)
            guard frame.fin else {
                guard !guarding.timedOnTheWire else { return }
                guarding.time(pending: true, on: context.eventLoop) { [weak self] in
                    guard let self else { return }
                    self.fail(context: context, error: self.guarding.timeoutError(holding: self.message.count))
                }
                return
            }
            let bytes = message
            message = []
            header = nil
            inMessage = false
            try guarding.reserve(0)
            if !guarding.timedOnTheWire { guarding.time(pending: false, on: context.eventLoop) {} }
            // In the format's order of checks: a frame cut short is
            // frame.truncated, one that does not fill the message
            // frame.trailing-bytes, after the checks of its body.
            let element = try output(.array(bytes[...]), decoder)
            context.fireChannelRead(wrapInboundOut(element))
        }

        /// Sends each frame of the buffer as one binary message.
        ///
        /// A buffer may hold several whole frames back to back (a relay that
        /// gathers a burst of frames into one buffer shared by many
        /// channels): each goes out as its own message, a slice of the
        /// buffer, not a copy.
        ///
        /// - Parameters:
        ///   - context: The handler's context.
        ///   - data: One or more whole frames.
        ///   - promise: Completed when the last message is written; failed
        ///     once the socket is closing, and with the `frame.*` error of a
        ///     buffer that does not hold whole frames (the whole frames
        ///     before the break are sent).
        public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            guard !isClosing else {
                promise?.fail(ChannelError.outputClosed)
                return
            }
            var buffer = unwrapOutboundIn(data)
            guard buffer.readableBytes > 0 else {
                promise?.succeed()
                return
            }
            repeat {
                let header: FrameHeader?
                do {
                    header = try buffer.withUnsafeReadableBytes { bytes in
                        Result { () throws(IMCodecError) in try FrameHeader.peek(bytes) }
                    }.get()
                } catch {
                    promise?.fail(error)
                    return
                }
                guard let header, let frame = buffer.readSlice(length: header.frameLength) else {
                    promise?.fail(IMCodecError(.frameTruncated, reason: "a buffer to send that ends inside a frame"))
                    return
                }
                context.write(
                    wrapOutboundOut(outgoing(.binary, frame)), promise: buffer.readableBytes == 0 ? promise : nil)
            } while buffer.readableBytes > 0
        }

        /// Closes the socket for an error of another handler: NIOWebSocket's
        /// decoder (1009 for a WebSocket frame over the limit, 1002 for a
        /// protocol error), a connection guard, or an `IMCodecError` of a
        /// payload that a handler after this one failed to decode and fired
        /// from the head of the pipeline (1007 with its code).
        ///
        /// - Parameters:
        ///   - context: The handler's context.
        ///   - error: The error.
        public func errorCaught(context: ChannelHandlerContext, error: Error) {
            if let error = error as? NIOWebSocketError {
                let mapped: Error =
                    switch error {
                    case .invalidFrameLength:
                        IMCodecError(
                            .limitFrameSize,
                            reason: "a WebSocket frame longer than the largest frame the limits allow",
                            limit: Int64(limits.maxFrameBytes + FrameHeader.maxEncodedLength), observed: nil)
                    case .fragmentedControlFrame, .multiByteControlFrameLength:
                        Self.protocolError("a fragmented control frame, or one longer than 125 bytes")
                    }
                return fail(context: context, error: mapped)
            }
            switch error {
            case let error as IMCodecConnectionError where !isClosing:
                // Another guard's error: it closes the channel after this
                // returns; a slow consumer's queue has no room for a close frame.
                if error.code != .slowConsumer {
                    sendClose(context: context, code: Self.closeCode(for: error), reason: error.code.rawValue)
                }
                isClosing = true
                guarding.fail()
                context.fireErrorCaught(error)
            case is IMCodecError where !isClosing:
                // A payload that a handler after this one could not decode,
                // fired from the head of the pipeline to close this socket.
                fail(context: context, error: error, fire: true)
            default:
                context.fireErrorCaught(error)
            }
        }

        /// Closes the socket with 1001 when the server shuts down.
        ///
        /// - Parameters:
        ///   - context: The handler's context.
        ///   - event: The event; others pass on.
        public func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            guard event is ChannelShouldQuiesceEvent else {
                context.fireUserInboundEventTriggered(event)
                return
            }
            let error = IMCodecConnectionError(.shutdown, reason: "the server is shutting down")
            context.fireUserInboundEventTriggered(event)
            closeWithFrame(context: context, code: .goingAway, reason: error.code.rawValue)
        }

        /// Stops the partial-frame timer and gives back the budget's
        /// reservation.
        ///
        /// - Parameter context: The handler's context.
        public func channelInactive(context: ChannelHandlerContext) {
            guarding.close()
            context.fireChannelInactive()
        }

        /// Stops the partial-frame timer and gives back the budget's
        /// reservation.
        ///
        /// - Parameter context: The handler's context.
        public func handlerRemoved(context: ChannelHandlerContext) {
            guarding.close()
            self.context = nil
        }

        /// Fires the error, sends the close frame its code maps to, and drops
        /// what follows.
        private func fail(context: ChannelHandlerContext, error: Error, fire: Bool = true) {
            guard !isClosing, !guarding.hasFailed else { return }
            guarding.fail()
            message = []
            header = nil
            // The close frame goes out before the error travels on, so a
            // handler after this one that closes the channel on it does not
            // cut the close frame off.
            defer { if fire { context.fireErrorCaught(error) } }
            let (code, reason): (WebSocketErrorCode, String) =
                switch error {
                case let error as IMCodecError:
                    (
                        error.code == .limitFrameSize ? .messageTooLarge : .dataInconsistentWithMessage,
                        error.code.rawValue
                    )
                case let error as IMCodecConnectionError:
                    (Self.closeCode(for: error), error.code.rawValue)
                default:
                    (.unexpectedServerError, "")
                }
            closeWithFrame(context: context, code: code, reason: reason)
        }

        private static func closeCode(for error: IMCodecConnectionError) -> WebSocketErrorCode {
            switch error.code {
            case .textMessage: .unacceptableData
            case .webSocketProtocol: .protocolError
            case .partialFrameTimeout: .policyViolation
            case .bufferLimit: .unknown(1013)
            default: .goingAway
            }
        }

        /// Sends a close frame, then closes the channel when the peer answers
        /// it or two seconds later.
        private func closeWithFrame(context: ChannelHandlerContext, code: WebSocketErrorCode, reason: String) {
            guard !isClosing else { return }
            isClosing = true
            sendClose(context: context, code: code, reason: reason)
            let channel = context.channel
            context.eventLoop.scheduleTask(in: .seconds(2)) { channel.close(promise: nil) }
        }

        private func sendClose(context: ChannelHandlerContext, code: WebSocketErrorCode, reason: String) {
            var data = context.channel.allocator.buffer(capacity: 2 + reason.utf8.count)
            data.write(webSocketErrorCode: code)
            // A close frame's body is at most 125 bytes: the code and 123 of reason.
            data.writeString(String(decoding: reason.utf8.prefix(123), as: UTF8.self))
            context.writeAndFlush(wrapOutboundOut(outgoing(.connectionClose, data))).whenFailure { _ in }
        }

        /// Answers the peer's close frame (unless this side sent one first)
        /// and closes the channel.
        private func closeAnswered(context: ChannelHandlerContext, frame: WebSocketFrame) {
            if !isClosing {
                isClosing = true
                var data = frame.unmaskedData
                let code = data.readWebSocketErrorCode() ?? .normalClosure
                var answer = context.channel.allocator.buffer(capacity: 2)
                answer.write(webSocketErrorCode: code)
                let channel = context.channel
                context.writeAndFlush(wrapOutboundOut(outgoing(.connectionClose, answer)))
                    .whenComplete { _ in channel.close(promise: nil) }
            } else {
                context.close(promise: nil)
            }
        }

        /// A whole WebSocket frame to send, masked when this is the client.
        private func outgoing(_ opcode: WebSocketOpcode, _ data: ByteBuffer) -> WebSocketFrame {
            WebSocketFrame(fin: true, opcode: opcode, maskKey: role == .client ? .random() : nil, data: data)
        }

        private static func protocolError(_ reason: String) -> IMCodecConnectionError {
            IMCodecConnectionError(.webSocketProtocol, reason: reason)
        }
    }

    /// Which end of a WebSocket an ``IMCodecWebSocketHandler`` is: a client
    /// masks every frame it sends and a server none, and each refuses a
    /// frame masked the other way (close 1002).
    public enum IMCodecWebSocketRole: Sendable, Hashable {
        /// The end that accepted the connection.
        case server
        /// The end that opened the connection.
        case client
    }

    /// Reads frames from binary WebSocket messages, checked and inflated,
    /// their payloads not decoded: the WebSocket counterpart of
    /// ``IMCodecFrameDecoder``, for relays that forward frames.
    public typealias IMCodecWebSocketFrameHandler = IMCodecWebSocketHandler<Frame>

    /// Reads frames from binary WebSocket messages and decodes each into the
    /// message, batch or event it carries: the WebSocket counterpart of
    /// ``IMCodecPayloadDecoder``.
    public typealias IMCodecWebSocketPayloadHandler = IMCodecWebSocketHandler<FramePayload>

    /// Reads frames from binary WebSocket messages with their headers
    /// checked and their bodies not: the WebSocket counterpart of
    /// ``IMCodecUncheckedFrameDecoder``.
    public typealias IMCodecWebSocketUncheckedFrameHandler = IMCodecWebSocketHandler<UncheckedFrame>

    extension IMCodecWebSocketHandler where InboundOut == Frame {
        /// Creates a handler for one WebSocket that passes on frames.
        ///
        /// - Parameters:
        ///   - limits: The limits to check every frame against.
        ///   - role: Which end of the WebSocket the handler is: the server
        ///     (the default) reads masked frames and sends them unmasked, a
        ///     client the reverse.
        ///   - partialFrameTimeout: How long a message may take to arrive
        ///     whole, from its first byte on the wire (behind NIOWebSocket's
        ///     decoder) or its first fragment (elsewhere); `nil` for no limit.
        ///   - budget: The buffer budget shared with other connections, if any.
        public convenience init(
            limits: DecodingLimits = .default, role: IMCodecWebSocketRole = .server,
            partialFrameTimeout: TimeAmount? = .seconds(30), budget: IMCodecBufferBudget? = nil
        ) {
            self.init(limits: limits, role: role, partialFrameTimeout: partialFrameTimeout, budget: budget) {
                bytes, decoder throws(IMCodecError) in try bytes.frame(decoder)
            }
        }
    }

    extension IMCodecWebSocketHandler where InboundOut == FramePayload {
        /// Creates a handler for one WebSocket that passes on payloads.
        ///
        /// - Parameters:
        ///   - limits: The limits to check every frame and payload against.
        ///   - role: Which end of the WebSocket the handler is: the server
        ///     (the default) reads masked frames and sends them unmasked, a
        ///     client the reverse.
        ///   - partialFrameTimeout: How long a message may take to arrive
        ///     whole, from its first byte on the wire (behind NIOWebSocket's
        ///     decoder) or its first fragment (elsewhere); `nil` for no limit.
        ///   - budget: The buffer budget shared with other connections, if any.
        public convenience init(
            limits: DecodingLimits = .default, role: IMCodecWebSocketRole = .server,
            partialFrameTimeout: TimeAmount? = .seconds(30), budget: IMCodecBufferBudget? = nil
        ) {
            self.init(limits: limits, role: role, partialFrameTimeout: partialFrameTimeout, budget: budget) {
                bytes, decoder throws(IMCodecError) in
                try FramePayload(decoding: bytes.frame(decoder), limits: decoder.limits)
            }
        }
    }

    extension IMCodecWebSocketHandler where InboundOut == UncheckedFrame {
        /// Creates a handler for one WebSocket that passes on frames with
        /// their headers checked and their bodies not, for a server that
        /// checks costly frames off the event loop
        /// (``IMCodecUncheckedFrameDecoder`` says how).
        ///
        /// An unchecked frame's bytes are the whole message's: a message
        /// that holds more than its frame is refused when the frame is
        /// checked (`frame.trailing-bytes`, after the checks of the body, in
        /// the format's order); one that holds less is refused here
        /// (`frame.truncated`).
        ///
        /// - Parameters:
        ///   - limits: The limits to check every frame's header against.
        ///   - role: Which end of the WebSocket the handler is: the server
        ///     (the default) reads masked frames and sends them unmasked, a
        ///     client the reverse.
        ///   - partialFrameTimeout: How long a message may take to arrive
        ///     whole, from its first byte on the wire (behind NIOWebSocket's
        ///     decoder) or its first fragment (elsewhere); `nil` for no limit.
        ///   - budget: The buffer budget shared with other connections, if any.
        public convenience init(
            limits: DecodingLimits = .default, role: IMCodecWebSocketRole = .server,
            partialFrameTimeout: TimeAmount? = .seconds(30), budget: IMCodecBufferBudget? = nil
        ) {
            self.init(limits: limits, role: role, partialFrameTimeout: partialFrameTimeout, budget: budget) {
                bytes, decoder throws(IMCodecError) in try bytes.unchecked(decoder)
            }
        }
    }

    /// A whole binary message's bytes, where the handler holds them: in
    /// NIOWebSocket's buffer (a message of one WebSocket frame) or in the
    /// handler's own array (one put together from fragments).
    enum MessageBytes {
        case buffer(UnsafeRawBufferPointer)
        case array(ArraySlice<UInt8>)

        /// The frame the message holds, checked and inflated.
        func frame(_ decoder: FrameDecoder) throws(IMCodecError) -> Frame {
            switch self {
            case .buffer(let bytes): try decoder.decodeFrame(bytes)
            case .array(let bytes): try decoder.decodeFrame(bytes)
            }
        }

        /// The frame the message holds, its header checked, its bytes
        /// copied out of NIOWebSocket's buffer.
        func unchecked(_ decoder: FrameDecoder) throws(IMCodecError) -> UncheckedFrame {
            switch self {
            case .buffer(let bytes):
                UncheckedFrame(header: try decoder.frameHeader(of: bytes), bytes: Array(bytes)[...])
            case .array(let bytes):
                try bytes.withUnsafeBytes { raw in
                    Result { () throws(IMCodecError) in
                        UncheckedFrame(header: try decoder.frameHeader(of: raw), bytes: bytes)
                    }
                }.get()
            }
        }
    }

    @available(*, unavailable, message: "a handler owns a FrameDecoder and its zlib stream; use one per channel")
    extension IMCodecWebSocketHandler: Sendable {}

    extension NIOWebSocketServerUpgrader {
        /// An upgrader to imcodec's WebSocket transport: the largest
        /// WebSocket frame it accepts is the largest imcodec frame `limits`
        /// allow (`maxFrameBytes` plus the longest header), and protocol
        /// errors reach ``IMCodecWebSocketHandler``, which closes with the
        /// mapped code and the reason, instead of NIOWebSocket's own handler.
        /// An ``IMCodecRequestHeadTimeoutHandler`` in the pipeline stops its
        /// timer once the upgrade request's head is in, and leaves the
        /// pipeline when the connection upgrades.
        ///
        /// ```swift
        /// let upgrader = NIOWebSocketServerUpgrader.imcodec(
        ///     shouldUpgrade: { channel, head in
        ///         channel.eventLoop.makeSucceededFuture(head.uri == "/frames" ? [:] : nil)
        ///     },
        ///     upgradePipelineHandler: { channel, _ in
        ///         channel.eventLoop.makeCompletedFuture {
        ///             try channel.pipeline.syncOperations.addHandler(IMCodecWebSocketPayloadHandler())
        ///             try channel.pipeline.syncOperations.addHandler(MyHandler())
        ///         }
        ///     })
        /// try channel.pipeline.syncOperations.configureHTTPServerPipeline(
        ///     withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
        /// ```
        ///
        /// - Parameters:
        ///   - limits: The limits of the ``IMCodecWebSocketHandler`` the
        ///     upgraded pipeline gets.
        ///   - shouldUpgrade: Decides whether a request is upgraded (headers
        ///     to add) or refused (`nil`), as for any upgrader.
        ///   - upgradePipelineHandler: Adds the handlers of the upgraded
        ///     channel, the ``IMCodecWebSocketHandler`` first.
        /// - Returns: The upgrader.
        public static func imcodec(
            limits: DecodingLimits = .default,
            shouldUpgrade: @escaping @Sendable (Channel, HTTPRequestHead) -> EventLoopFuture<HTTPHeaders?>,
            upgradePipelineHandler: @escaping @Sendable (Channel, HTTPRequestHead) -> EventLoopFuture<Void>
        ) -> NIOWebSocketServerUpgrader {
            NIOWebSocketServerUpgrader(
                maxFrameSize: min(limits.maxFrameBytes + FrameHeader.maxEncodedLength, Int(UInt32.max)),
                automaticErrorHandling: false,
                shouldUpgrade: { channel, head in
                    // The head is in: the request-head timer, if any, stops.
                    try? channel.pipeline.syncOperations.handler(type: IMCodecRequestHeadTimeoutHandler.self)
                        .headArrived()
                    return shouldUpgrade(channel, head)
                },
                upgradePipelineHandler: { channel, head in
                    let pipeline = channel.pipeline.syncOperations
                    if let timer = try? pipeline.handler(type: IMCodecRequestHeadTimeoutHandler.self) {
                        pipeline.removeHandler(timer, promise: nil)
                    }
                    return upgradePipelineHandler(channel, head)
                })
        }
    }
#endif
