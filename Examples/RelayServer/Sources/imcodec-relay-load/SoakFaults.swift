import IMCodec
import IMCodecNIO
import NIOCore
import NIOPosix
import NIOWebSocket
import Synchronization

/// The ways a soak's faulty client misbehaves.
enum SoakFault: String, CaseIterable, Sendable {
    /// Joins, sends half a message and disconnects (over WebSocket, as the
    /// first fragment of a message that never ends).
    case midFrame = "mid-frame"
    /// Joins, sends half a message and waits: the partial-frame timeout
    /// must close it.
    case stall
    /// Joins, then sends a message naming a healthy client as its sender:
    /// it must be answered with `relay.sender-mismatch` and reach no one.
    case spoof
    /// Joins, then sends a group message that also names a receiver: it
    /// must be answered with the profile's finding and reach no one.
    case invalid
    /// Joins and never reads: the relay may disconnect it as slow.
    case neverRead = "never-read"
    /// Sends bytes that are no frame (over WebSocket, as one binary
    /// message): the relay must close it at once.
    case garbage
    /// Says nothing: the idle timeout must close it.
    case idle
}

/// What the faulty clients did and whether the relay answered each as it
/// should.
struct SoakTally: Sendable {
    var runs: [SoakFault: Int] = [:]
    var answered: [SoakFault: Int] = [:]
    var failures: [String] = []

    /// A never-reading client is answered only when the traffic toward it
    /// fills its queue within the patience; every other fault must be.
    var isClean: Bool { failures.isEmpty }

    var report: String {
        let lines = SoakFault.allCases.map { fault in
            "\(fault.rawValue) \(runs[fault, default: 0]) (answered \(answered[fault, default: 0]))"
        }
        return "faulty: " + lines.joined(separator: ", ")
            + failures.prefix(5).map { "\n  failure: \($0)" }.joined()
    }
}

/// Runs faulty clients one at a time per slot and tallies the relay's
/// answers.
actor SoakFaults {
    let address: SocketAddress
    let transport: LoadTransport
    let group: EventLoopGroup
    let groups: Int
    let healthy: Int
    let textBytes: Int
    let patience: TimeAmount
    private(set) var tally = SoakTally()

    init(
        address: SocketAddress, transport: LoadTransport, group: EventLoopGroup, groups: Int, healthy: Int,
        textBytes: Int, patience: TimeAmount
    ) {
        self.address = address
        self.transport = transport
        self.group = group
        self.groups = groups
        self.healthy = healthy
        self.textBytes = textBytes
        self.patience = patience
    }

    /// Runs one faulty client to its end.
    func runOne(_ fault: SoakFault, name: String, random: inout SplitMix) async {
        tally.runs[fault, default: 0] += 1
        let room = "soak-\(Int(random.next() % UInt64(groups)))"
        do {
            if try await misbehave(fault, name: name, room: room, random: &random) {
                tally.answered[fault, default: 0] += 1
            } else if fault != .neverRead && fault != .midFrame {
                tally.failures.append("\(name) (\(fault.rawValue)) was not answered")
            }
        } catch {
            tally.failures.append("\(name) (\(fault.rawValue)): \(error)")
        }
    }

    /// - Returns: Whether the relay answered as it should: a rejection
    ///   with the right code, or the connection closed by the relay.
    private func misbehave(_ fault: SoakFault, name: String, room: String, random: inout SplitMix) async throws
        -> Bool
    {
        let probe = SoakProbe()
        let channel = try await connectClient(
            transport, to: address, on: group.next(), autoRead: fault != .neverRead
        ) { SoakProbeHandler(probe: probe) }
        defer { channel.close(promise: nil) }
        let encoder = FrameEncoder(policy: .disabled)
        func send(_ bytes: [UInt8]) async throws { try await channel.writeAndFlush(ByteBuffer(bytes: bytes)).get() }
        // What is no whole frame: over TCP the bytes as they are; over
        // WebSocket one binary message of them, or with `finished` false the
        // first fragment of a message that never ends (the client's
        // WebSocket handler sends whole frames only, so this goes below it).
        func sendBroken(_ bytes: [UInt8], finished: Bool) async throws {
            guard transport == .websocket else { return try await send(bytes) }
            try await channel.eventLoop.flatSubmit { () -> EventLoopFuture<Void> in
                do {
                    let context = try channel.pipeline.syncOperations.context(
                        handlerType: IMCodecWebSocketFrameHandler.self)
                    let frame = WebSocketFrame(
                        fin: finished, opcode: .binary, maskKey: .random(), data: ByteBuffer(bytes: bytes))
                    return context.writeAndFlush(NIOAny(frame))
                } catch {
                    return channel.eventLoop.makeFailedFuture(error)
                }
            }.get()
        }
        if fault != .garbage && fault != .idle {
            try await send(encoder.encode(Message(from: name, toGroup: room, elems: [])))
            if fault != .neverRead {
                guard try await probe.wait(for: patience, until: { $0.messages.contains { $0.elems.isEmpty } }) else {
                    throw LoadError(reason: "the join was not acknowledged")
                }
            }
        }
        var message = Message(
            from: name, toGroup: room, elems: [.text(String(repeating: "x", count: textBytes))], msgID: "\(name)-0")
        switch fault {
        case .midFrame:
            let frame = try encoder.encode(message)
            try await sendBroken(Array(frame.prefix(frame.count / 2)), finished: false)
            return true
        case .stall:
            let frame = try encoder.encode(message)
            try await sendBroken(Array(frame.prefix(frame.count / 2)), finished: false)
            return try await probe.wait(for: patience) { $0.isClosed }
        case .spoof:
            message.sender = "user-\(Int(random.next() % UInt64(healthy)))"
            try await send(encoder.encode(message))
            return try await probe.wait(for: patience) { $0.rejections.contains("relay.sender-mismatch") }
        case .invalid:
            message.receiver = "someone"
            try await send(encoder.encode(message))
            return try await probe.wait(for: patience) { $0.rejections.contains("rule.message.target-ambiguous") }
        case .neverRead:
            return try await probe.wait(for: patience) { $0.isClosed }
        case .garbage:
            try await sendBroken((0..<64).map { _ in UInt8(truncatingIfNeeded: random.next()) | 0x80 }, finished: true)
            return try await probe.wait(for: patience) { $0.isClosed }
        case .idle:
            return try await probe.wait(for: patience) { $0.isClosed }
        }
    }
}

/// What one faulty client received.
struct SoakProbeState: Sendable {
    var messages: [Message] = []
    var rejections: [String] = []
    var isClosed = false
}

/// The state of one faulty client, shared with its handler.
final class SoakProbe: Sendable {
    let state = Mutex(SoakProbeState())

    /// Polls until `condition` holds (true) or `timeout` passes (false).
    func wait(for timeout: TimeAmount, until condition: (SoakProbeState) -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .nanoseconds(timeout.nanoseconds)
        while ContinuousClock.now < deadline {
            if state.withLock({ condition($0) }) { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return state.withLock { condition($0) }
    }
}

/// Records what a faulty client receives: messages, the codes of the
/// relay's rejections, and the close.
final class SoakProbeHandler: ChannelInboundHandler {
    typealias InboundIn = Frame

    private let probe: SoakProbe

    init(probe: SoakProbe) {
        self.probe = probe
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .message(let message)? = try? FramePayload(decoding: unwrapInboundIn(data)) else { return }
        var codes: [String] = []
        if message.sender.isEmpty, case .custom(let custom)? = message.elems.first?.kind {
            // The rejection's JSON lists its codes; the probe only looks for one.
            let text = String(decoding: custom.data, as: UTF8.self)
            for part in text.split(separator: "\"") where part.contains(".") && !part.contains(" ") {
                codes.append(String(part))
            }
        }
        probe.state.withLock { state in
            state.messages.append(message)
            state.rejections += codes
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        probe.state.withLock { $0.isClosed = true }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}
