import IMCodec
import NIOCore

/// The shape of a soak's healthy traffic.
struct SoakPlan: Sendable {
    var healthy: Int
    var groups: Int
    var rate: Int
    var textBytes: Int

    func group(of client: Int) -> String { "soak-\(client % groups)" }
}

/// What the healthy clients of a soak saw.
struct SoakResult: Sendable {
    var sent = 0
    var expected = 0
    var delivered = 0
    var lost = 0
    var outOfOrder = 0
    var unexpected: [String] = []
    var rejections = 0
    var disconnected = 0

    var isClean: Bool { lost == 0 && outOfOrder == 0 && unexpected.isEmpty && rejections == 0 && disconnected == 0 }

    var report: String {
        """
        healthy: sent \(sent), delivered \(delivered) of \(expected), lost \(lost), out of order \(outOfOrder), \
        unexpected \(unexpected.count), rejected \(rejections), disconnected \(disconnected)\
        \(unexpected.prefix(5).map { "\n  unexpected: \($0)" }.joined())
        """
    }
}

/// The healthy clients' state, confined to the one event loop they run on.
final class SoakRun: @unchecked Sendable {
    // @unchecked: created on `eventLoop` and touched there only.
    let plan: SoakPlan
    let eventLoop: EventLoop
    private var handlers: [SoakHealthyHandler?]
    private var joined = 0
    private var joinedPromise: EventLoopPromise<Void>
    private var sending: [RepeatedTask] = []
    private var sent: [Int]
    /// received[receiver][sender]: the next sequence number expected.
    private var received: [[Int]]
    private var result = SoakResult()
    private let encoder = FrameEncoder()
    private let text: String
    private var waiting: (promise: EventLoopPromise<SoakResult>, deadline: Scheduled<Void>)?

    init(plan: SoakPlan, eventLoop: EventLoop) {
        self.plan = plan
        self.eventLoop = eventLoop
        handlers = Array(repeating: nil, count: plan.healthy)
        sent = Array(repeating: 0, count: plan.healthy)
        received = Array(repeating: Array(repeating: 0, count: plan.healthy), count: plan.healthy)
        joinedPromise = eventLoop.makePromise()
        text = String(repeating: "s", count: plan.textBytes)
    }

    func register(_ handler: SoakHealthyHandler, index: Int) {
        handlers[index] = handler
    }

    /// Sends every healthy client's join; succeeds once all are acknowledged.
    func join() -> EventLoopFuture<Void> {
        for (index, handler) in handlers.enumerated() {
            // A join is a few bytes: within every default limit.
            guard
                let frame = try? encoder.encode(
                    Message(from: "user-\(index)", toGroup: plan.group(of: index), elems: []))
            else { continue }
            handler?.send(frame)
        }
        eventLoop.scheduleTask(in: .seconds(30)) { [self] in
            joinedPromise.fail(LoadError(reason: "the healthy clients' joins were not all acknowledged"))
        }
        return joinedPromise.futureResult
    }

    /// Starts every healthy client sending, each at the plan's rate, with
    /// their starts spread over one period.
    func startSending() {
        let period = TimeAmount.nanoseconds(1_000_000_000 / Int64(plan.rate))
        for index in 0..<plan.healthy {
            let offset = TimeAmount.nanoseconds(period.nanoseconds * Int64(index) / Int64(plan.healthy))
            sending.append(
                eventLoop.scheduleRepeatedTask(initialDelay: offset, delay: period) { [self] _ in send(from: index) })
        }
    }

    private func send(from index: Int) {
        guard let handler = handlers[index] else { return }
        var message = Message(
            from: "user-\(index)", toGroup: plan.group(of: index), elems: [.text(text)],
            msgID: "\(index)-\(sent[index])")
        message.seq = UInt64(sent[index])
        message.timestamp = 1_700_000_000
        // The soak's messages are within the default limits and the profile.
        guard let frame = try? encoder.encode(message) else { preconditionFailure("a soak frame is refused") }
        handler.send(frame)
        sent[index] += 1
    }

    func receivedFrame(_ frame: Frame, by receiver: Int) {
        guard frame.header.kind == .message, let envelope = LoadEnvelope(frame.payload) else {
            return unexpected("client \(receiver) received a frame that is not a message")
        }
        guard let sender = envelope.sender, sender < plan.healthy else {
            // The relay's rejections have no sender; anything else is a
            // message that should not have reached a healthy client.
            if envelope.sender == nil, case .message(let message)? = try? FramePayload(decoding: frame),
                message.sender.isEmpty
            {
                result.rejections += 1
                return unexpected("client \(receiver) was refused a message: \(message.elems)")
            }
            return unexpected("client \(receiver) received a message from a client that is not healthy")
        }
        guard plan.group(of: sender) == plan.group(of: receiver) else {
            return unexpected("client \(receiver) received a message of another group")
        }
        if envelope.elems == 0 {
            if sender == receiver {
                joined += 1
                if joined == plan.healthy { joinedPromise.succeed() }
            }
            return
        }
        let sequence = Int(envelope.seq)
        let expected = received[receiver][sender]
        if sequence != expected {
            result.outOfOrder += 1
            if sequence > expected { result.lost += sequence - expected }
        }
        received[receiver][sender] = max(expected, sequence + 1)
        result.delivered += 1
        checkDone()
    }

    func disconnected(_ index: Int) {
        if waiting == nil { result.disconnected += 1 }
    }

    private func unexpected(_ what: String) {
        result.unexpected.append(what)
    }

    /// Stops sending and waits until every healthy client has every message
    /// its group's other healthy clients sent, or `timeout` passes.
    func stopAndWait(timeout: TimeAmount) -> EventLoopFuture<SoakResult> {
        for task in sending { task.cancel() }
        let promise = eventLoop.makePromise(of: SoakResult.self)
        let deadline = eventLoop.scheduleTask(in: timeout) { [self] in finish() }
        waiting = (promise, deadline)
        checkDone()
        return promise.futureResult
    }

    private var expectedDeliveries: Int {
        var total = 0
        for receiver in 0..<plan.healthy {
            for sender in 0..<plan.healthy
            where sender != receiver && plan.group(of: sender) == plan.group(of: receiver) {
                total += sent[sender]
            }
        }
        return total
    }

    private func checkDone() {
        guard waiting != nil, result.delivered >= expectedDeliveries else { return }
        finish()
    }

    private func finish() {
        guard let waiting else { return }
        self.waiting = nil
        waiting.deadline.cancel()
        result.sent = sent.reduce(0, +)
        result.expected = expectedDeliveries
        for receiver in 0..<plan.healthy {
            for sender in 0..<plan.healthy
            where sender != receiver && plan.group(of: sender) == plan.group(of: receiver) {
                result.lost += max(0, sent[sender] - received[receiver][sender])
            }
        }
        waiting.promise.succeed(result)
    }
}

/// One healthy client: passes frames to the run, sends what the run asks.
final class SoakHealthyHandler: ChannelInboundHandler {
    typealias InboundIn = Frame
    typealias OutboundOut = ByteBuffer

    private let run: SoakRun
    private let index: Int
    private var context: ChannelHandlerContext?

    init(run: SoakRun, index: Int) {
        self.run = run
        self.index = index
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        run.register(self, index: index)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        run.receivedFrame(unwrapInboundIn(data), by: index)
    }

    func channelInactive(context: ChannelHandlerContext) {
        run.disconnected(index)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }

    func send(_ bytes: [UInt8]) {
        context?.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: bytes)), promise: nil)
    }
}
