import ArgumentParser
import IMCodec
import IMCodecNIO
import IMCodecValidation
import NIOCore
import NIOPosix

/// Measures what one costly sender does to everyone else: a client sends
/// frames that inflate to 16 MiB as fast as the relay reads them, while a
/// control pair in another group exchanges a message every 50 ms, and the
/// pair's latency is printed.
struct FloodCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flood",
        abstract: "Measures a control pair's latency while one client floods the relay with frames that inflate large.",
        discussion: """
            The flooder joins group flood and writes deflate frames of one group message whose text inflates \
            to about --inflated-bytes, whenever its socket takes more, for the whole run. The control pair \
            (user-1 and user-2) joins group control; each sends a small message every --interval-ms, the two \
            half an interval apart, and the other's receipt of it is timed. Prints the pair's p50, p99 and \
            largest latency, and the messages lost. The relay places connections on its loops in turn, in \
            the order they connect: flooder, user-1, --spacers idle connections, user-2; with a relay of N \
            loops, --spacers N-1 puts both control clients on the loop after the flooder's, 0 (with N = 2) \
            puts user-2 on the flooder's.
            """
    )

    @OptionGroup var relay: RelayAddress

    @Option(help: "Seconds the control pair is measured, after both have joined.")
    var seconds = 30

    @Option(help: "Milliseconds between two messages of one control client.")
    var intervalMs = 50

    @Option(help: "The bytes of text in each flood message (what its frame inflates to, less a few bytes).")
    var inflatedBytes = DecodingLimits.default.maxInflatedBytes - 256

    @Option(help: "Idle connections opened between the two control clients.")
    var spacers = 0

    func validate() throws {
        guard seconds >= 1, intervalMs >= 1, inflatedBytes >= 1, spacers >= 0 else {
            throw ValidationError("seconds, interval and inflated bytes must be positive")
        }
        guard relay.transport == .tcp else { throw ValidationError("the flood runs over tcp") }
    }

    func run() async throws {
        let address = try relay.resolve()
        let flood = Message(from: "flooder", toGroup: "flood", elems: [.text(Self.text(bytes: inflatedBytes))])
        let floodFrame = try FrameEncoder().encode(flood)
        let inflated = try FrameDecoder().decodeFrame(floodFrame).payload.count
        let decodeCost = try Self.decodeMilliseconds(floodFrame)
        // The flooder writes from one loop, the control pair reads and
        // writes on the other, so that neither waits on the other here.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let floodLoop = group.next()
        let controlLoop = group.next()
        let probe = try await controlLoop.submit { FloodProbe(eventLoop: controlLoop) }.get()
        let flooder = FloodSender(frame: ByteBuffer(bytes: floodFrame))
        var channels: [Channel] = []
        let report: String
        do {
            let floodChannel = try await connectClient(.tcp, to: address, on: floodLoop) { flooder }
            channels.append(floodChannel)
            try await floodLoop.submit { flooder.start() }.get()
            for index in 1...2 {
                channels.append(
                    try await connectClient(.tcp, to: address, on: controlLoop) {
                        FloodControlHandler(probe: probe, index: index)
                    })
                if index == 1 {
                    for _ in 0..<spacers {
                        channels.append(
                            try await connectClient(.tcp, to: address, on: controlLoop) { FloodDiscard() })
                    }
                }
            }
            let interval = TimeAmount.milliseconds(Int64(intervalMs))
            let measured = TimeAmount.seconds(Int64(seconds))
            report = try await controlLoop.flatSubmit {
                probe.start(interval: interval, for: measured)
            }.get()
            let sent = try await floodLoop.submit { (flooder.sent, flooder.replies) }.get()
            for channel in channels { try? await channel.close() }
            try await group.shutdownGracefully()
            print(
                "flood frame \(floodFrame.count) bytes, inflating to \(inflated); "
                    + "checking it (inflate, decode, validate) takes \(decodeCost) ms in this process")
            print("flood frames written \(sent.0), replies read \(sent.1)")
            print(report)
        } catch {
            for channel in channels { try? await channel.close() }
            try? await group.shutdownGracefully()
            throw error
        }
        if report.contains("lost 0") == false { throw ExitCode.failure }
    }

    /// Text of `bytes` bytes: words drawn at random from a few dozen, as
    /// chat text might be, which deflate shrinks about sixfold and which
    /// inflates at the speed of ordinary text (a run of one letter inflates
    /// several times faster, and costs a relay less).
    private static func text(bytes: Int) -> String {
        let words = [
            "hello", "group", "message", "the", "a", "to", "and", "you", "is", "it", "that", "for", "on", "with",
            "see", "meet", "today", "tomorrow", "photo", "link", "ok", "thanks", "what", "time", "where", "now",
            "later", "call", "me", "we", "they", "good", "night", "morning", "lunch", "\u{4F60}\u{597D}",
        ].map { Array(($0 + " ").utf8) }
        var state: UInt64 = 0x5EED
        var text: [UInt8] = []
        text.reserveCapacity(bytes + 16)
        while text.count < bytes {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            text += words[Int((state >> 33) % UInt64(words.count))]
        }
        while text.count > bytes, text.last ?? 0 < 0x80 { text.removeLast() }
        return String(decoding: text, as: UTF8.self)
    }

    /// The median milliseconds of five checks of the frame as the relay
    /// makes them (the frame inflated, its payload decoded, the message
    /// validated against the relay's default profile), with two decimals.
    private static func decodeMilliseconds(_ frame: [UInt8]) throws -> String {
        var figures: [Int64] = []
        for _ in 0..<5 {
            let start = NIODeadline.now()
            let payload = try FramePayload(decoding: FrameDecoder().decodeFrame(frame))
            if let message = payload.message { _ = Validator.validate(message, limits: .sdkGuide) }
            figures.append((NIODeadline.now() - start).nanoseconds)
        }
        let median = figures.sorted()[2] / 10_000
        return "\(median / 100).\(String(median % 100 + 100).dropFirst())"
    }
}

/// The flooder: joins group flood, then writes its frame whenever the
/// channel is writable, and reads (and drops) the relay's replies.
private final class FloodSender: ChannelInboundHandler, @unchecked Sendable {
    // @unchecked: touched on the flooder's loop only.
    typealias InboundIn = Frame
    typealias OutboundOut = ByteBuffer

    private let frame: ByteBuffer
    private var context: ChannelHandlerContext?
    private(set) var sent = 0
    private(set) var replies = 0

    init(frame: ByteBuffer) {
        self.frame = frame
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func start() {
        guard let context,
            let join = try? FrameEncoder().encode(Message(from: "flooder", toGroup: "flood", elems: []))
        else { return }
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: join)), promise: nil)
        fill(context)
    }

    private func fill(_ context: ChannelHandlerContext) {
        while context.channel.isWritable {
            context.write(wrapOutboundOut(frame), promise: nil)
            sent += 1
        }
        context.flush()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { fill(context) }
        context.fireChannelWritabilityChanged()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        replies += 1
    }
}

/// An idle connection: reads and drops.
private final class FloodDiscard: ChannelInboundHandler, Sendable {
    typealias InboundIn = Frame

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}

/// The control pair's clock: when each message was sent, and the latencies
/// of those received.
private final class FloodProbe: @unchecked Sendable {
    // @unchecked: touched on the control loop only.
    let eventLoop: EventLoop
    var contexts: [Int: ChannelHandlerContext] = [:]
    private var joined: Set<Int> = []
    private var joinedPromise: EventLoopPromise<Void>
    private var sentAt: [Int: [NIODeadline]] = [1: [], 2: []]
    private var latencies: [Int64] = []
    private let encoder = FrameEncoder()

    init(eventLoop: EventLoop) {
        self.eventLoop = eventLoop
        joinedPromise = eventLoop.makePromise()
    }

    func joined(_ index: Int) {
        joined.insert(index)
        if joined.count == 2 { joinedPromise.succeed() }
    }

    func received(from sender: Int, seq: UInt64) {
        guard let times = sentAt[sender], let index = Int(exactly: seq), index < times.count else { return }
        latencies.append((NIODeadline.now() - times[index]).nanoseconds)
    }

    private func send(from index: Int) {
        guard let context = contexts[index] else { return }
        let seq = sentAt[index, default: []].count
        var message = Message(from: "user-\(index)", toGroup: "control", elems: [.text("ping")], msgID: "\(seq)")
        message.seq = UInt64(seq)
        guard let bytes = try? encoder.encode(message) else { return }
        sentAt[index, default: []].append(NIODeadline.now())
        context.writeAndFlush(NIOAny(ByteBuffer(bytes: bytes)), promise: nil)
    }

    /// Waits for both joins, sends for `duration`, waits a second for the
    /// last messages, and describes the latencies.
    func start(interval: TimeAmount, for duration: TimeAmount) -> EventLoopFuture<String> {
        joinedPromise.futureResult.flatMap { [self] in
            let first = eventLoop.scheduleRepeatedTask(initialDelay: .zero, delay: interval) { [self] _ in
                send(from: 1)
            }
            let second = eventLoop.scheduleRepeatedTask(
                initialDelay: .nanoseconds(interval.nanoseconds / 2), delay: interval
            ) { [self] _ in send(from: 2) }
            return eventLoop.scheduleTask(in: duration) {
                first.cancel()
                second.cancel()
            }.futureResult.flatMap { [self] in
                eventLoop.scheduleTask(in: .seconds(1)) { [self] in report() }.futureResult
            }
        }
    }

    private func report() -> String {
        let sent = sentAt.values.map(\.count).reduce(0, +)
        let sorted = latencies.sorted()
        func ms(_ nanoseconds: Int64) -> String {
            let hundredths = (nanoseconds + 5_000) / 10_000
            return "\(hundredths / 100).\(String(hundredths % 100 + 100).dropFirst())"
        }
        guard !sorted.isEmpty else { return "control messages sent \(sent), received 0, lost \(sent)" }
        let p50 = sorted[sorted.count / 2]
        let p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
        return """
            control messages sent \(sent), received \(sorted.count), lost \(sent - sorted.count)
            control latency ms: p50 \(ms(p50)) p99 \(ms(p99)) max \(ms(sorted[sorted.count - 1]))
            """
    }
}

/// One client of the control pair: joins group control as `user-N`, and
/// times every message it receives from the other.
private final class FloodControlHandler: ChannelInboundHandler, @unchecked Sendable {
    // @unchecked: touched on the control loop only.
    typealias InboundIn = Frame
    typealias OutboundOut = ByteBuffer

    private let probe: FloodProbe
    private let index: Int

    init(probe: FloodProbe, index: Int) {
        self.probe = probe
        self.index = index
    }

    func channelActive(context: ChannelHandlerContext) {
        probe.contexts[index] = context
        if let join = try? FrameEncoder().encode(Message(from: "user-\(index)", toGroup: "control", elems: [])) {
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: join)), promise: nil)
        }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        guard let envelope = LoadEnvelope(frame.payload) else { return }
        if envelope.elems == 0 {
            if envelope.sender == index { probe.joined(index) }
        } else if let sender = envelope.sender, sender != index {
            probe.received(from: sender, seq: envelope.seq)
        }
    }
}
