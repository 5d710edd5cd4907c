import IMCodec
import IMCodecNIO
import NIOCore
import NIOPosix

/// One client of the relay, over TCP or WebSocket: the handler after the
/// frame decoder (or the WebSocket handler).
///
/// It checks each frame on its own event loop (the throttle, the body's
/// inflating, the payload's decoding, the profile's validation: the work a
/// frame's size decides) and hands the hub the frames of each read burst
/// already checked, to be routed on this loop under the hub's lock, so no
/// sender's inflating or validating is done holding the lock. A frame whose
/// header declares a payload of at least
/// ``RelayConfiguration/offLoopPayloadBytes`` is checked on a thread of
/// NIO's shared pool instead, the connection's later frames waiting behind
/// it and its reads held, so that a sender of costly frames holds up no
/// other connection of its loop either. It records
/// the first reason the connection is closed for (a malformed frame's code,
/// a guard's code, a shutdown) so the hub can log and count it. Under the
/// backpressure policy it holds back the channel's reads while a slow member
/// of one of its groups has paused it.
///
/// Its properties are of two kinds: the connection's own, touched on its
/// loop only (the handler's callbacks, the throttle, its reads), and the
/// hub's, touched with the hub's lock held (membership, login, what is
/// queued to be written), from whichever loop routes a frame; each
/// property's section says which. The connection writes what the hub queued
/// for it on its own loop (``drain()``).
final class RelayConnection: ChannelDuplexHandler, @unchecked Sendable {
    // @unchecked: each property is touched on the connection's loop only,
    // or with the hub's lock held, as its section says.
    typealias InboundIn = UncheckedFrame
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// How the client reached the relay.
    enum Transport: String {
        case tcp
        case webSocket = "websocket"
    }

    let hub: RelayHub
    let transport: Transport
    /// The connection's own loop.
    let eventLoop: EventLoop

    // MARK: The connection's own loop

    private var context: ChannelHandlerContext?
    private var hasPendingRead = false
    /// The frames of this read burst, checked, not yet handed to the hub.
    private var checked: [RelayHub.Checked] = []
    /// Checks the bodies of the frames checked on this loop.
    private lazy var decoder = FrameDecoder(limits: hub.bounds.limits)
    /// The frames read while one is checked on the pool, waiting in order.
    private var waiting: [(frame: UncheckedFrame, started: NIODeadline)] = []
    /// Whether a frame is being checked on the pool: the connection is not
    /// read, and the frames already read wait, until it is done and they
    /// are checked in turn.
    private var isChecking = false
    /// Why the connection closed (or is closing): a stable code and a detail.
    private(set) var closeReason: (code: String, detail: String)?
    /// Whether a malformed frame or payload closed it.
    private(set) var hasFailed = false
    /// The connection's token buckets.
    private var throttle: RelayThrottle?
    /// Whether the connection sent past its rates and is not read until
    /// its buckets refill.
    private var isThrottled = false {
        didSet { resumeReadingIfFree() }
    }
    /// Whether a slow member of one of its groups holds its reads back.
    private var isPaused = false {
        didSet { resumeReadingIfFree() }
    }

    // MARK: The hub's, under its lock

    /// The connection's number in the logs.
    var id = 0
    /// The peer's address, for the logs; set before the hub first sees the
    /// connection.
    private(set) var remote = ""
    /// The user the connection is bound to: the sender of its first
    /// accepted join.
    var user: String?
    /// The expiry of the ticket the connection logged in with, in Unix
    /// seconds; `nil` without tickets.
    var ticketExpiry: Int64?
    /// The groups this connection has joined.
    var groups: Set<String> = []
    /// When the login ticket's expiry ends the connection.
    var expiryTask: Scheduled<Void>?
    /// The members this connection, while it is slow, holds back.
    var paused: [ObjectIdentifier: RelayConnection] = [:]
    /// Whether the channel accepts writes without queueing past its bound,
    /// as the hub last heard.
    var isWritable = true
    /// The frames the hub has queued for the connection, to be written on
    /// the connection's loop in this order.
    var outbox: [ByteBuffer] = []
    /// Why the relay ends the connection, once what is in the outbox is
    /// written; nothing more is queued for it then.
    var ending: IMCodecConnectionError?
    /// Whether a hop to the connection's loop that writes its outbox is on
    /// its way.
    var isDrainScheduled = false
    /// How many slow members hold this connection's reads back.
    var pauseCount = 0 {
        didSet {
            guard (pauseCount > 0) != (oldValue > 0) else { return }
            let paused = pauseCount > 0
            // A hop even from the connection's loop: the hub's lock is held.
            eventLoop.execute { self.isPaused = paused }
        }
    }

    private func resumeReadingIfFree() {
        if !isPaused, !isThrottled, !isChecking, hasPendingRead, let context {
            hasPendingRead = false
            context.read()
        }
    }

    init(hub: RelayHub, transport: Transport, eventLoop: EventLoop) {
        self.hub = hub
        self.transport = transport
        self.eventLoop = eventLoop
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        remote = context.channel.remoteAddress?.description ?? "?"
        hub.connected(self, on: context.channel, isWritable: context.channel.isWritable)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !hasFailed else { return }
        let frame = unwrapInboundIn(data)
        let started = NIODeadline.now()
        // The declared payload size: a body that does not inflate to it
        // fails its check.
        throttle(bytes: frame.bytes.count, inflatedBytes: frame.header.payloadLength, at: started)
        if isChecking {
            waiting.append((frame, started))
        } else {
            check(frame, started: started, context: context)
        }
    }

    /// Checks a frame here, or starts its check on the pool when its
    /// payload is costly.
    private func check(_ frame: UncheckedFrame, started: NIODeadline, context: ChannelHandlerContext) {
        guard let threshold = hub.offLoopPayloadBytes, frame.header.payloadLength >= threshold else {
            accept(checkedHere(frame, started: started), context: context)
            return
        }
        // What is checked already need not wait for this one.
        handOver()
        isChecking = true
        let bounds = hub.bounds
        // A decoder of its own: the pool's thread shares nothing with this loop.
        NIOThreadPool.singleton.runIfActive(eventLoop: eventLoop) {
            var check = RelayHub.Checked(
                frame, decoder: FrameDecoder(limits: bounds.limits), started: started, bounds: bounds)
            check.wasCheckedOffLoop = true
            return check
        }.whenComplete { [self] result in
            guard let context = self.context, !hasFailed else {
                // Closed or closing: what waited is not checked.
                waiting.removeAll()
                isChecking = false
                return
            }
            switch result {
            case .success(let check):
                accept(check, context: context)
            case .failure:
                // The pool has stopped (the process is ending): checked here.
                accept(checkedHere(frame, started: started), context: context)
            }
            // The read burst that brought the frame has ended.
            handOver()
            checkWaiting(context: context)
        }
    }

    /// Checks a frame on this loop, with the connection's decoder.
    private func checkedHere(_ frame: UncheckedFrame, started: NIODeadline) -> RelayHub.Checked {
        RelayHub.Checked(frame, decoder: decoder, started: started, bounds: hub.bounds)
    }

    /// Checks the frames that waited for one checked on the pool, in order,
    /// until one more goes to the pool or none is left; then reads again.
    private func checkWaiting(context: ChannelHandlerContext) {
        isChecking = false
        while !waiting.isEmpty, !isChecking, !hasFailed {
            let next = waiting.removeFirst()
            check(next.frame, started: next.started, context: context)
        }
        guard !isChecking else { return }
        waiting.removeAll()
        handOver()
        resumeReadingIfFree()
    }

    /// Passes a checked frame on to the hub, and closes the connection
    /// when it is malformed.
    private func accept(_ check: RelayHub.Checked, context: ChannelHandlerContext) {
        let failure = check.outcome.error
        if let failure { record(failure) }
        if case .damaged = check.outcome {
            // Not a frame read: the hub does not count it.
        } else {
            checked.append(check)
        }
        guard hasFailed, let error = failure else { return }
        // The replies to the good frames of this read go out first: the
        // hand-over writes them before it returns.
        handOver()
        switch transport {
        case .tcp:
            context.close(promise: nil)
        case .webSocket:
            // From the head, so that the WebSocket handler sends its close
            // frame (1007 and the code) and closes.
            context.pipeline.fireErrorCaught(error)
        }
    }

    /// Hands the hub the frames checked since the last hand-over, to be
    /// routed now; what they made it write to this connection is written
    /// and flushed when it returns.
    private func handOver() {
        guard !checked.isEmpty else { return }
        // Taken out before routing, not read in place: routing may close
        // this channel (the writes made when the lock is released), and the
        // decoder in front then passes its last frames to channelRead
        // during the call, to be appended to `checked` and kept.
        let frames = checked
        checked.removeAll(keepingCapacity: true)
        hub.received(frames, from: self)
    }

    /// Writes and flushes what the hub has queued for the connection, on
    /// its loop, then closes it if the relay ends it.
    func drain() {
        let (frames, ending) = hub.takeOutbox(of: self)
        for bytes in frames { _ = write(bytes) }
        if let ending {
            end(with: ending)
        } else if !frames.isEmpty {
            flush()
            if let queued = queuedBytes { hub.record(queuedBytes: queued) }
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        handOver()
        context.fireChannelReadComplete()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        record(error)
        // The replies to the good frames of this read go out before the
        // channel closes.
        handOver()
        // A decoder, the WebSocket handler or a guard has fired why it closes
        // the channel, and closes it (a WebSocket after its close frame);
        // other errors (a reset connection) end it here.
        if !(error is IMCodecError || error is IMCodecConnectionError) {
            context.close(promise: nil)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        record(IMCodecConnectionError(.shutdown, reason: "the server is shutting down"))
        // A WebSocket's handler sends its close frame after what is queued;
        // a stream closes once what is queued has been written.
        if transport == .tcp {
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(capacity: 0)))
                .whenComplete { _ in channel.close(promise: nil) }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.context = nil
        hub.disconnected(self, reason: closeReason, hasFailed: hasFailed)
        context.fireChannelInactive()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        hub.writabilityChanged(self, isWritable: context.channel.isWritable)
        context.fireChannelWritabilityChanged()
    }

    func read(context: ChannelHandlerContext) {
        if isPaused || isThrottled || isChecking {
            hasPendingRead = true
        } else {
            context.read()
        }
    }

    /// Closes the connection for the relay's own reason: what is written is
    /// flushed, the error goes down the pipeline from its head (a WebSocket
    /// sends its close frame with the code as reason) and the channel closes.
    func end(with error: IMCodecConnectionError) {
        guard let context else { return }
        record(error)
        context.flush()
        context.pipeline.fireErrorCaught(error)
        context.close(promise: nil)
    }

    /// Keeps the first reason the connection closes for.
    private func record(_ error: Error) {
        guard closeReason == nil else { return }
        switch error {
        case let error as IMCodecError:
            hasFailed = true
            closeReason = (error.code.rawValue, error.description)
        case let error as IMCodecConnectionError:
            closeReason = (error.code.rawValue, error.reason)
        default:
            closeReason = ("io-error", "\(error)")
        }
    }

    /// Takes a frame's tokens from the connection's buckets; a sender past
    /// its rates is not read until they refill (what it has sent meanwhile
    /// waits in its socket, so TCP slows it down).
    private func throttle(bytes: Int, inflatedBytes: Int, at now: NIODeadline) {
        let rates = hub.rates
        guard !rates.isUnlimited else { return }
        if throttle == nil { throttle = RelayThrottle(rates: rates, now: now) }
        guard let wait = throttle?.take(bytes: bytes, inflatedBytes: inflatedBytes, now: now), !isThrottled else {
            return
        }
        isThrottled = true
        hub.throttled(true)
        eventLoop.assumeIsolated().scheduleTask(in: wait) { [self] in
            hub.throttled(false)
            isThrottled = false
        }
    }

    /// Writes a frame without flushing, on the connection's loop; false
    /// when the channel has gone.
    func write(_ bytes: ByteBuffer) -> Bool {
        guard let context else { return false }
        context.write(wrapOutboundOut(bytes), promise: nil)
        return true
    }

    func flush() {
        context?.flush()
    }

    /// The bytes queued toward the peer that the kernel has not taken.
    var queuedBytes: Int? {
        try? context?.channel.syncOptions?.getOption(.bufferedWritableBytes)
    }
}
