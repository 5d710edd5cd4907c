import IMCodec
import IMCodecNIO
import NIOCore
import NIOPosix

/// One client of the relay, over TCP or WebSocket: the handler after the
/// frame decoder (or the WebSocket handler).
///
/// It checks each frame on its own event loop (the throttle, the body's
/// inflating, the payload's decoding, the profile's validation: the work a
/// frame's size decides) and hands the hub frames already checked, so no
/// sender's inflating or validating holds up the hub's loop. A frame whose
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
/// Two loops touch it: the connection's own (the handler's callbacks, the
/// throttle, its reads) and the hub's (membership, login, what is queued to
/// be written); each property says which. When both are one loop (a relay
/// on one event loop) the hub is called and calls back directly, with no
/// hop.
final class RelayConnection: ChannelDuplexHandler, @unchecked Sendable {
    // @unchecked: each property is touched on one loop only, as its comment
    // says, and the hub and the connection reach each other's loop by
    // `execute`, in order.
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
    /// Whether the connection's loop is the hub's.
    let sharesHubLoop: Bool

    // MARK: The connection's own loop

    private var context: ChannelHandlerContext?
    private var hasPendingRead = false
    /// The frames of this read burst, checked, not yet handed to the hub
    /// (on a loop other than the hub's only).
    private var checked: [RelayHub.Checked] = []
    /// The hand-overs the hub has not answered yet.
    private var handOvers = 0
    /// Checks the bodies of the frames checked on this loop.
    private lazy var decoder = FrameDecoder(limits: hub.bounds.limits)
    /// The frames read while one is checked on the pool, waiting in order.
    private var waiting: [(frame: UncheckedFrame, started: NIODeadline)] = []
    /// Whether a frame is being checked on the pool: the connection is not
    /// read, and the frames already read wait, until it is done and they
    /// are checked in turn.
    private var isChecking = false
    /// What holds the channel's close back while the hub answers (on a
    /// loop other than the hub's only).
    private let closeGate: RelayClosing?
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

    // MARK: The hub's loop

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
    /// The frames the hub has written to the connection since its last
    /// flush, to be written on the connection's loop (on a loop other than
    /// the hub's only).
    var outbox: [ByteBuffer] = []
    /// The hand-overs of this connection the hub has taken and not yet
    /// said it answered.
    var unanswered = 0
    /// How many slow members hold this connection's reads back.
    var pauseCount = 0 {
        didSet {
            guard (pauseCount > 0) != (oldValue > 0) else { return }
            let paused = pauseCount > 0
            onOwnLoop { $0.isPaused = paused }
        }
    }

    private func resumeReadingIfFree() {
        if !isPaused, !isThrottled, !isChecking, hasPendingRead, let context {
            hasPendingRead = false
            context.read()
        }
    }

    /// - Parameters:
    ///   - closeGate: The connection's close gate, which it needs when
    ///     `eventLoop` is not the hub's.
    init(hub: RelayHub, transport: Transport, eventLoop: EventLoop, closeGate: RelayClosing? = nil) {
        self.hub = hub
        self.transport = transport
        self.eventLoop = eventLoop
        self.closeGate = closeGate
        sharesHubLoop = eventLoop === hub.eventLoop
    }

    /// Runs `body` on the connection's loop: at once from that loop, after
    /// what the caller has already sent there from another.
    func onOwnLoop(_ body: @escaping @Sendable (RelayConnection) -> Void) {
        if sharesHubLoop {
            body(self)
        } else {
            eventLoop.execute { body(self) }
        }
    }

    /// Runs `body` on the hub's loop, likewise.
    private func onHubLoop(_ body: @escaping @Sendable (RelayHub) -> Void) {
        if sharesHubLoop {
            body(hub)
        } else {
            hub.eventLoop.execute { [hub] in body(hub) }
        }
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let isWritable = context.channel.isWritable
        remote = context.channel.remoteAddress?.description ?? "?"
        let channel = context.channel
        onHubLoop { hub in
            self.isWritable = isWritable
            hub.connected(self, on: channel)
        }
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
        } else if sharesHubLoop {
            hub.received(check, from: self)
        } else {
            checked.append(check)
        }
        guard hasFailed, let error = failure else { return }
        // The replies to the good frames of this read go out first: at once
        // on the hub's loop, or through the close gate, which holds the
        // close until the hub has answered them.
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

    /// Hands the hub the frames checked since the last hand-over; it
    /// flushes what they made it write and says so (``answered(_:)``).
    private func handOver() {
        if sharesHubLoop {
            hub.flush()
            return
        }
        guard !checked.isEmpty else { return }
        let frames = checked
        checked.removeAll(keepingCapacity: true)
        handOvers += 1
        closeGate?.hold()
        hub.eventLoop.execute { [hub] in hub.received(frames, from: self) }
    }

    /// Notes that the hub has answered `count` hand-overs and that its
    /// writes for them have reached this loop.
    func answered(_ count: Int) {
        handOvers -= count
        if handOvers == 0 { closeGate?.release() }
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
        let reason = closeReason
        let hasFailed = hasFailed
        onHubLoop { $0.disconnected(self, reason: reason, hasFailed: hasFailed) }
        self.context = nil
        context.fireChannelInactive()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        let isWritable = context.channel.isWritable
        onHubLoop { $0.writabilityChanged(self, isWritable: isWritable) }
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
        onHubLoop { $0.throttled(true) }
        eventLoop.assumeIsolated().scheduleTask(in: wait) { [self] in
            onHubLoop { $0.throttled(false) }
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
