import IMCodec
import NIOCore

/// The shape of one run.
struct LoadPlan: Sendable {
    var clients: Int
    var frames: Int
    var window: Int
    var textBytes: Int
    let groupID = "load-group"
}

/// What a run measured.
struct LoadResult: Sendable {
    var sent = 0
    var delivered = 0
    var lost = 0
    var outOfOrder = 0
    var seconds = 0.0
    /// Send-to-receive times of every delivery, sorted, in nanoseconds.
    var latencies: [UInt64] = []

    func percentile(_ fraction: Double) -> Double {
        guard !latencies.isEmpty else { return 0 }
        let index = min(latencies.count - 1, Int((Double(latencies.count) * fraction).rounded(.up)) - 1)
        return Double(latencies[max(0, index)]) / 1e6
    }

    func report(plan: LoadPlan) -> String {
        func rate(_ count: Int) -> String { String(Int((Double(count) / seconds).rounded())) }
        func ms(_ value: Double) -> String {
            let hundredths = Int((value * 100).rounded())
            return "\(hundredths / 100).\(String(hundredths % 100 + 100).dropFirst()) ms"
        }
        let expected = plan.clients * plan.frames * (plan.clients - 1)
        return """
            clients \(plan.clients), frames per client \(plan.frames), window \(plan.window), \
            text bytes \(plan.textBytes)
            sent \(sent) frames, delivered \(delivered) of \(expected), lost \(lost), out of order \(outOfOrder)
            elapsed \(Int(seconds * 1000)) ms: \(rate(sent)) sent frames/s, \(rate(delivered)) delivered frames/s
            latency p50 \(ms(percentile(0.50))), p99 \(ms(percentile(0.99))), max \(ms(percentile(1.0)))
            """
    }
}

/// The state of a run, confined to the one event loop every client is on.
final class LoadRun: @unchecked Sendable {
    // @unchecked: created on `eventLoop` and touched there only.
    let plan: LoadPlan
    let eventLoop: EventLoop
    let done: EventLoopPromise<LoadResult>

    private var handlers: [LoadClientHandler?]
    private var joined = 0
    private var started = false
    private var finished = false
    private var startTime: NIODeadline = .now()
    /// Per sender, the time each of its frames was written.
    private var sendTimes: [[UInt64]]
    private var sent: [Int]
    /// received[receiver][sender]: the next sequence number expected.
    private var received: [[Int]]
    private var result = LoadResult()
    private let encoder = FrameEncoder()
    private let text: String

    init(plan: LoadPlan, eventLoop: EventLoop) {
        self.plan = plan
        self.eventLoop = eventLoop
        done = eventLoop.makePromise()
        handlers = Array(repeating: nil, count: plan.clients)
        sendTimes = Array(repeating: Array(repeating: 0, count: plan.frames), count: plan.clients)
        sent = Array(repeating: 0, count: plan.clients)
        received = Array(repeating: Array(repeating: 0, count: plan.clients), count: plan.clients)
        text = String(repeating: "m", count: plan.textBytes)
        result.latencies.reserveCapacity(plan.clients * plan.frames * (plan.clients - 1))
    }

    func register(_ handler: LoadClientHandler, index: Int) {
        handlers[index] = handler
    }

    /// Sends every client's join; the load starts once all are acknowledged.
    func start() {
        for (index, handler) in handlers.enumerated() {
            var join = Message()
            join.groupID = plan.groupID
            join.sender = "user-\(index)"
            // A join is a few bytes: within every default limit.
            guard let frame = try? encoder.encode(join) else { continue }
            handler?.send(frame)
            handler?.flush()
        }
    }

    func fail(_ reason: String) {
        guard !finished else { return }
        finished = true
        done.fail(LoadError(reason: reason))
    }

    func receivedFrame(_ frame: Frame, by receiver: Int) {
        guard !finished else { return }
        let now = NIODeadline.now().uptimeNanoseconds
        guard frame.header.kind == .message, let message = LoadEnvelope(frame.payload) else {
            return fail("client \(receiver) received a frame that is not a well-formed message")
        }
        guard let sender = message.sender, handlers.indices.contains(sender) else {
            return fail("client \(receiver) received a message from someone else")
        }
        if message.elems == 0 {
            joined += 1
            if joined == plan.clients {
                started = true
                startTime = .now()
                pump()
            }
            return
        }
        let sequence = Int(message.seq)
        let expected = received[receiver][sender]
        if sequence != expected {
            result.outOfOrder += 1
            if sequence > expected { result.lost += sequence - expected }
        }
        received[receiver][sender] = max(expected, sequence + 1)
        if sequence < plan.frames {
            result.latencies.append(now &- sendTimes[sender][sequence])
        }
        result.delivered += 1
        if result.delivered == plan.clients * plan.frames * (plan.clients - 1) {
            finish()
        }
    }

    /// Writes, for every sender, as many frames as its window allows.
    func pump() {
        guard started, !finished else { return }
        for sender in 0..<plan.clients {
            guard let handler = handlers[sender] else { continue }
            var slowest = Int.max
            for receiver in 0..<plan.clients where receiver != sender {
                slowest = min(slowest, received[receiver][sender])
            }
            var wrote = false
            while sent[sender] < plan.frames, sent[sender] - slowest < plan.window {
                let sequence = sent[sender]
                var message = Message()
                message.groupID = plan.groupID
                message.sender = "user-\(sender)"
                message.msgID = "\(sender)-\(sequence)"
                message.seq = UInt64(sequence)
                message.timestamp = 1_700_000_000 + Int64(sequence / 1000)
                message.elems = [.text(text)]
                sendTimes[sender][sequence] = NIODeadline.now().uptimeNanoseconds
                // The load's messages are within the default limits.
                guard let frame = try? encoder.encode(message) else { preconditionFailure("a load frame is refused") }
                handler.send(frame)
                sent[sender] += 1
                wrote = true
            }
            if wrote { handler.flush() }
        }
    }

    private func finish() {
        finished = true
        result.sent = sent.reduce(0, +)
        result.seconds = Double((NIODeadline.now() - startTime).nanoseconds) / 1e9
        for receiver in 0..<plan.clients {
            for sender in 0..<plan.clients where sender != receiver {
                result.lost += plan.frames - received[receiver][sender]
            }
        }
        result.latencies.sort()
        done.succeed(result)
    }
}

struct LoadError: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}

/// One client: passes frames to the run, pumps after every read burst, and
/// sends the frames of one pump in one write.
final class LoadClientHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let run: LoadRun
    private let index: Int
    private var context: ChannelHandlerContext?
    /// Reads the frames of the stream: each checked (its checksum too)
    /// before the run looks at it.
    private let reader = FrameReader()

    init(run: LoadRun, index: Int) {
        self.run = run
        self.index = index
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        run.register(self, index: index)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        unwrapInboundIn(data).withUnsafeReadableBytes { reader.append($0) }
        do {
            while let frame = try reader.next() { run.receivedFrame(frame, by: index) }
        } catch {
            run.fail("client \(index) received a malformed frame: \(error)")
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        run.pump()
        context.fireChannelReadComplete()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        run.fail("client \(index): \(error)")
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        run.fail("client \(index) was disconnected")
        context.fireChannelInactive()
    }

    /// Frames written since the last flush, sent in one write.
    private var pending = ByteBuffer()

    func send(_ bytes: [UInt8]) {
        pending.writeBytes(bytes)
    }

    func flush() {
        guard let context, pending.readableBytes > 0 else { return }
        context.writeAndFlush(wrapOutboundOut(pending), promise: nil)
        pending = ByteBuffer()
    }
}
