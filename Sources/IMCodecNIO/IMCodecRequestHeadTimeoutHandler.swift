#if SwiftNIO
    import NIOCore
    import NIOHTTP1

    /// Closes an HTTP connection whose request head does not arrive whole in
    /// time: the guard against a client that opens a connection (a
    /// WebSocket upgrade, say) and trickles its headers a byte at a time.
    ///
    /// The timer runs from the moment the connection is open, and again
    /// after each request ends (a keep-alive connection waiting for its next
    /// request); it stops when a request's head has been read. When it runs
    /// out, the handler fires ``IMCodecConnectionError/Code/requestHeadTimeout``
    /// through `errorCaught` and closes the channel. Every byte resets the
    /// idle timeout, so only this bounds a slow request head.
    ///
    /// Add it after the HTTP server pipeline; an upgrader from
    /// `NIOWebSocketServerUpgrader/imcodec(limits:shouldUpgrade:upgradePipelineHandler:)`
    /// stops its timer when an upgrade request's head is in (the upgrade
    /// handler keeps that head from the handlers after it) and takes it out
    /// of the pipeline when the connection upgrades:
    ///
    /// ```swift
    /// try pipeline.configureHTTPServerPipeline(withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
    /// try pipeline.addHandler(IMCodecRequestHeadTimeoutHandler(timeout: .seconds(10)))
    /// ```
    public final class IMCodecRequestHeadTimeoutHandler: ChannelInboundHandler, RemovableChannelHandler {
        /// The parts of HTTP requests, passed on untouched.
        public typealias InboundIn = HTTPServerRequestPart
        /// The parts of HTTP requests, passed on untouched.
        public typealias InboundOut = HTTPServerRequestPart

        /// How long a request head may take to arrive whole.
        public let timeout: TimeAmount
        private var timer: Scheduled<Void>?

        /// Creates a handler.
        ///
        /// - Parameter timeout: How long a request head may take to arrive
        ///   whole, from the connection's start or the end of the request
        ///   before.
        public init(timeout: TimeAmount) {
            self.timeout = timeout
        }

        /// Starts the timer when the channel is already active.
        ///
        /// - Parameter context: The handler's context.
        public func handlerAdded(context: ChannelHandlerContext) {
            if context.channel.isActive { arm(context: context) }
        }

        /// Stops the timer.
        ///
        /// - Parameter context: The handler's context.
        public func handlerRemoved(context: ChannelHandlerContext) {
            headArrived()
        }

        /// Starts the timer.
        ///
        /// - Parameter context: The handler's context.
        public func channelActive(context: ChannelHandlerContext) {
            arm(context: context)
            context.fireChannelActive()
        }

        /// Stops the timer.
        ///
        /// - Parameter context: The handler's context.
        public func channelInactive(context: ChannelHandlerContext) {
            headArrived()
            context.fireChannelInactive()
        }

        /// Stops the timer at a request's head and starts it again at its
        /// end; passes every part on.
        ///
        /// - Parameters:
        ///   - context: The handler's context.
        ///   - data: A part of a request.
        public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head: headArrived()
            case .body: break
            case .end: arm(context: context)
            }
            context.fireChannelRead(data)
        }

        /// Stops the timer: a request's head has been read.
        public func headArrived() {
            timer?.cancel()
            timer = nil
        }

        private func arm(context: ChannelHandlerContext) {
            guard timer == nil else { return }
            let timeout = self.timeout
            timer = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [weak self] in
                guard let self, self.timer != nil else { return }
                self.timer = nil
                context.fireErrorCaught(
                    IMCodecConnectionError(
                        .requestHeadTimeout,
                        reason: "no whole request head within \(timeout.nanoseconds / 1_000_000) ms"))
                context.close(promise: nil)
            }
        }
    }

    @available(*, unavailable, message: "a handler belongs to one channel")
    extension IMCodecRequestHeadTimeoutHandler: Sendable {}
#endif
