#if SwiftNIO
    import NIOCore

    /// Bounds the bytes queued toward one peer, and decides what happens to a
    /// peer that does not read fast enough: disconnect it (the default, what
    /// a chat server does), drop what is written to it, or hold its writers
    /// back.
    ///
    /// The queue is the channel's own: the bytes written to it that the
    /// kernel has not yet taken, which SwiftNIO counts. The handler sets the
    /// channel's write-buffer water marks to ``maxQueuedBytes`` (high) and
    /// half of it (low), so the channel turns unwritable when more than
    /// ``maxQueuedBytes`` are queued and writable again when less than half
    /// are; do not set `ChannelOptions.writeBufferWaterMark` elsewhere. A
    /// frame written while the channel is unwritable finds the peer behind,
    /// and the ``Policy`` applies:
    ///
    /// - ``Policy/disconnect``: the handler fires
    ///   ``IMCodecConnectionError/Code/slowConsumer`` through `errorCaught`
    ///   and closes the channel; the queued writes fail and their memory is
    ///   freed. The queue never holds more than ``maxQueuedBytes`` plus the
    ///   frame that took it over.
    /// - ``Policy/drop``: the frame is not written; its promise fails with
    ///   ``IMCodecConnectionError/Code/slowConsumer`` and ``droppedCount``
    ///   counts it. Frames are written again once the peer has read the queue
    ///   down to half. The same bound holds.
    /// - ``Policy/backpressure``: every frame is queued. The writer must
    ///   watch `Channel.isWritable` (or `channelWritabilityChanged`) and stop
    ///   writing while it is false, as `NIOAsyncChannel`'s writer does by
    ///   waiting; the handler enforces no bound itself.
    ///
    /// Put it first in the pipeline, next to the socket, so that it sees every
    /// write and the writability changes before other handlers:
    ///
    /// ```swift
    /// try channel.pipeline.syncOperations.addHandler(IMCodecOutboundLimitHandler(maxQueuedBytes: 1 << 20))
    /// ```
    public final class IMCodecOutboundLimitHandler: ChannelDuplexHandler, RemovableChannelHandler {
        /// Inbound data passes through untouched.
        public typealias InboundIn = NIOAny
        /// Outbound data of any type passes through, or is dropped whole.
        public typealias OutboundIn = NIOAny

        /// What happens to a frame written to a peer whose queue is past the
        /// bound.
        public enum Policy: Sendable, Hashable {
            /// Close the peer's connection: the default, for chat, where one
            /// member that cannot keep up must not hold its group back.
            case disconnect
            /// Drop the frame for this peer only; deliver again once the peer
            /// has caught up.
            case drop
            /// Queue the frame: the writer is expected to wait while the
            /// channel is not writable.
            case backpressure
        }

        /// The most bytes queued toward the peer before it counts as slow.
        public let maxQueuedBytes: Int
        /// What happens to a frame written to a slow peer.
        public let policy: Policy
        /// The frames dropped so far under ``Policy/drop``.
        public private(set) var droppedCount = 0
        private var hasFailed = false

        /// Creates a handler for one channel.
        ///
        /// - Parameters:
        ///   - maxQueuedBytes: The most bytes queued toward the peer before a
        ///     frame written to it finds it behind; 1 MiB by default. At
        ///     least 2.
        ///   - policy: What happens to such a frame; ``Policy/disconnect`` by
        ///     default.
        public init(maxQueuedBytes: Int = 1 << 20, policy: Policy = .disconnect) {
            precondition(maxQueuedBytes >= 2, "the bound must leave room for a low water mark of at least one byte")
            self.maxQueuedBytes = maxQueuedBytes
            self.policy = policy
        }

        /// Sets the channel's water marks to the bound.
        ///
        /// - Parameter context: The handler's context.
        public func handlerAdded(context: ChannelHandlerContext) {
            let marks = ChannelOptions.Types.WriteBufferWaterMark(low: maxQueuedBytes / 2, high: maxQueuedBytes)
            // A channel that has no synchronous options (none of SwiftNIO's
            // own) is set asynchronously; either way before data flows.
            if let options = context.channel.syncOptions {
                try? options.setOption(.writeBufferWaterMark, value: marks)
            } else {
                context.channel.setOption(.writeBufferWaterMark, value: marks).whenFailure { _ in }
            }
        }

        /// Passes the write on, or applies the policy when the peer is behind.
        ///
        /// - Parameters:
        ///   - context: The handler's context.
        ///   - data: What is written.
        ///   - promise: Failed with ``IMCodecConnectionError/Code/slowConsumer``
        ///     when the write is dropped or the channel closed.
        public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            guard !hasFailed else {
                promise?.fail(Self.slow(queued: maxQueuedBytes, closing: true))
                return
            }
            guard policy != .backpressure, !context.channel.isWritable else {
                context.write(data, promise: promise)
                return
            }
            let error = Self.slow(queued: maxQueuedBytes, closing: policy == .disconnect)
            promise?.fail(error)
            switch policy {
            case .drop:
                droppedCount += 1
            case .disconnect:
                hasFailed = true
                context.fireErrorCaught(error)
                context.close(promise: nil)
            case .backpressure:
                preconditionFailure("backpressure writes pass through above")
            }
        }

        private static func slow(queued: Int, closing: Bool) -> IMCodecConnectionError {
            IMCodecConnectionError(
                .slowConsumer,
                reason: "more than \(queued) bytes are queued toward the peer; "
                    + (closing ? "the connection is closed" : "the frame is dropped"))
        }
    }

    @available(*, unavailable, message: "a handler belongs to one channel")
    extension IMCodecOutboundLimitHandler: Sendable {}
#endif
