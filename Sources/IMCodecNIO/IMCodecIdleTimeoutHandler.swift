#if SwiftNIO
    import NIOCore

    /// Closes a connection that has sent nothing for a while, with a reason.
    ///
    /// It acts on the events of SwiftNIO's own `IdleStateHandler`, which
    /// watches the channel and fires `IdleStateHandler.IdleStateEvent.read`
    /// when no read has happened for its read timeout: this handler then
    /// fires ``IMCodecConnectionError/Code/idleTimeout`` through
    /// `errorCaught`, so the end of the pipeline can log it, and closes the
    /// channel. Other events pass on. Add the pair with
    /// `ChannelPipeline/SynchronousOperations/addIMCodecIdleTimeout(_:)`,
    /// early in the pipeline:
    ///
    /// ```swift
    /// try channel.pipeline.syncOperations.addIMCodecIdleTimeout(.seconds(120))
    /// ```
    ///
    /// A client that has nothing to say keeps its connection by sending
    /// something at least that often (a heartbeat, or for WebSocket a ping).
    public final class IMCodecIdleTimeoutHandler: ChannelInboundHandler, RemovableChannelHandler {
        /// Inbound data passes through untouched.
        public typealias InboundIn = NIOAny

        /// The read timeout of the `IdleStateHandler` before it, for the reason.
        public let timeout: TimeAmount

        /// Creates a handler.
        ///
        /// - Parameter timeout: The read timeout of the `IdleStateHandler`
        ///   whose events it acts on, named in the close reason.
        public init(timeout: TimeAmount) {
            self.timeout = timeout
        }

        /// Closes the channel on a read-idle event; passes other events on.
        ///
        /// - Parameters:
        ///   - context: The handler's context.
        ///   - event: The event.
        public func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            guard let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read || idle == .all else {
                context.fireUserInboundEventTriggered(event)
                return
            }
            context.fireErrorCaught(
                IMCodecConnectionError(
                    .idleTimeout, reason: "nothing was read for \(timeout.nanoseconds / 1_000_000) ms"))
            context.close(promise: nil)
        }
    }

    @available(*, unavailable, message: "a handler belongs to one channel")
    extension IMCodecIdleTimeoutHandler: Sendable {}

    extension ChannelPipeline.SynchronousOperations {
        /// Adds an `IdleStateHandler` with `timeout` as its read timeout and an
        /// ``IMCodecIdleTimeoutHandler`` after it: a connection that sends
        /// nothing for `timeout` fails with
        /// ``IMCodecConnectionError/Code/idleTimeout`` and closes.
        ///
        /// - Parameter timeout: How long a connection may send nothing.
        /// - Throws: What adding a handler throws, such as when the channel has
        ///   closed.
        public func addIMCodecIdleTimeout(_ timeout: TimeAmount) throws {
            try addHandler(IdleStateHandler(readTimeout: timeout))
            try addHandler(IMCodecIdleTimeoutHandler(timeout: timeout))
        }
    }
#endif
