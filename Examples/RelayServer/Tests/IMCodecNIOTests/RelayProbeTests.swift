import IMCodec
import IMCodecNIO
import InMemoryLogging
import Logging
import MetricsTestKit
import NIOCore
import NIOPosix
import RelayServer
import Testing

/// A relay on 127.0.0.1 with its logs and metrics captured, and the client
/// loop the probes connect from.
final class RelayHarness: Sendable {
    let server: RelayServer
    let serverGroup: MultiThreadedEventLoopGroup
    let clientGroup: MultiThreadedEventLoopGroup
    let logs: InMemoryLogHandler
    let metrics: TestMetrics

    /// - Parameter loops: The server's event loops: the listeners are on
    ///   the first, the connections on each in turn.
    init(loops: Int = 3, _ configure: (inout RelayConfiguration) -> Void = { _ in }) async throws {
        let logs = InMemoryLogHandler()
        self.logs = logs
        metrics = TestMetrics()
        var configuration = RelayConfiguration()
        configuration.logger = Logger(label: "relay") { _ in logs }
        configuration.metricsFactory = metrics
        // Most probes are about routing and bounds, not logins: the ones
        // about tickets set `identity` themselves.
        configuration.identity = .insecureDemo
        configure(&configuration)
        // By default the listeners on the first of three loops and the
        // connections on all three in turn: the members of a group are on
        // different loops, and their frames reach each other by hops.
        serverGroup = MultiThreadedEventLoopGroup(numberOfThreads: loops)
        clientGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        server = try await RelayServer.start(
            configuration: configuration, on: serverGroup.next(), connectionsOn: serverGroup)
    }

    var port: Int { server.localAddress.port ?? 0 }

    func client(autoRead: Bool = true, receiveBuffer: Int? = nil) async throws -> RelayClient {
        try await RelayClient(port: port, group: clientGroup, autoRead: autoRead, receiveBuffer: receiveBuffer)
    }

    func raw() async throws -> RelayClient { try await client() }

    /// Two clients joined to "room", as "alice" and "bob".
    func aliceAndBob() async throws -> (alice: RelayClient, bob: RelayClient) {
        let alice = try await client()
        let bob = try await client()
        try await alice.join("room", as: "alice")
        try await bob.join("room", as: "bob")
        return (alice, bob)
    }

    /// Waits until the relay has logged as many closes as `expected`
    /// holds: a client sees its socket close before the relay, on another
    /// loop, has logged why.
    func closesLogged(_ expected: [String]) async throws {
        try await eventually("the relay logged \(expected.count) closes", seconds: 10) {
            closeReasons.count >= expected.count
        }
    }

    /// The reasons of the closes the relay logged, in order.
    var closeReasons: [String] {
        logs.entries.filter { $0.message.description == "closed" }.compactMap { $0.metadata["reason"]?.description }
    }

    func shutdown() async throws {
        try await server.shutdown()
        try await clientGroup.shutdownGracefully()
        try await serverGroup.shutdownGracefully()
    }

    /// A test that failed before `shutdown()` still stops its loops, so
    /// that no event loop thread outlives the test run.
    deinit {
        clientGroup.shutdownGracefully { _ in }
        serverGroup.shutdownGracefully { _ in }
    }
}

/// The chat-server probes over loopback: a member that never reads, stalls,
/// idle connections, the connection cap, spoofed senders, rejections and
/// their replies, joins, garbage and header lies, and graceful shutdown;
/// each bounded in count and time.
@Suite(.serialized) struct RelayProbeTests {
    /// What the slow-member probe saw.
    struct SlowMemberOutcome {
        var controlReceivedAll: Bool
        var slowMemberDisconnected: Bool
        var closeReasons: [String]
        var largestQueue: Double
    }

    /// A sender and a control receiver chat in a group with a member that
    /// never reads: 4,000 messages of 4 KB (16 MB, far more than the socket
    /// buffers toward the silent member hold), the sender keeping at most
    /// 100 messages ahead of the control receiver, within `seconds`.
    func slowMemberProbe(_ policy: IMCodecOutboundLimitHandler.Policy, seconds: Double) async throws
        -> SlowMemberOutcome
    {
        let bound = Self.bound
        let relay = try await RelayHarness {
            $0.slowConsumerPolicy = policy
            $0.maxQueuedBytesPerConnection = bound
        }
        let sender = try await relay.client()
        let control = try await relay.client()
        let silent = try await relay.client(autoRead: false, receiveBuffer: 4_096)
        try await sender.join("room", as: "sender")
        try await control.join("room", as: "control")
        silent.channel.read()
        try await silent.join("room", as: "silent")
        let count = 4_000
        let text = String(repeating: "0123456789", count: 400)
        let sending = Task {
            for seq in 0..<count {
                var message = Samples.message(group: "room", sender: "sender", seq: seq)
                message.elems = [.text(text)]
                sender.channel.writeAndFlush(RelayClient.frame(message), promise: nil)
                while seq - control.sequences(from: "sender").count > 100 {
                    try await Task.sleep(for: .milliseconds(1))
                }
            }
        }
        let receivedAll: Bool
        do {
            try await eventually("the control client's copies", seconds: seconds) {
                control.sequences(from: "sender").count == count
            }
            receivedAll = control.sequences(from: "sender") == Array(0..<count)
        } catch is TimedOut {
            receivedAll = false
        }
        sending.cancel()
        // The silent member reads nothing, so it cannot see its own close:
        // the relay's log says.
        let silentClose = relay.logs.entries.first {
            $0.message.description == "closed" && $0.metadata["user"]?.description == "silent"
        }
        let outcome = SlowMemberOutcome(
            controlReceivedAll: receivedAll,
            slowMemberDisconnected: silentClose?.metadata["reason"]?.description == "connection.slow-consumer",
            closeReasons: relay.closeReasons,
            largestQueue: (try? relay.metrics.expectRecorder("imcodec_relay_queued_bytes"))?.values.max() ?? 0)
        for client in [sender, control, silent] { try? await client.channel.close() }
        try await relay.shutdown()
        return outcome
    }

    @Test func aMemberThatNeverReadsIsDisconnectedWhileItsGroupKeepsFlowing() async throws {
        let outcome = try await slowMemberProbe(.disconnect, seconds: 30)
        #expect(outcome.controlReceivedAll)
        #expect(outcome.slowMemberDisconnected)
        #expect(outcome.closeReasons == ["connection.slow-consumer"])
        // What was queued toward a member when its writes were flushed: at
        // most the bound and one write (a burst's batch: at most 64 KiB and
        // a frame).
        #expect(outcome.largestQueue > 0)
        #expect(outcome.largestQueue <= Double(Self.bound + (64 << 10) + 4_100))
    }

    static let bound = 1 << 20

    /// The same probe with the disconnect policy switched off (the relay's
    /// earlier behaviour, holding the group back): it fails.
    @Test func theSlowMemberProbeFailsWhenTheDisconnectPolicyIsOff() async throws {
        let outcome = try await slowMemberProbe(.backpressure, seconds: 5)
        #expect(!outcome.controlReceivedAll)
        #expect(!outcome.slowMemberDisconnected)
    }

    @Test func halfAFrameFollowedBySilenceIsClosedByThePartialFrameTimeout() async throws {
        let relay = try await RelayHarness { $0.partialFrameTimeout = .milliseconds(300) }
        let staller = try await relay.raw()
        let frame = Samples.frame(.message(Samples.message(group: "room", sender: "staller")))
        try await staller.channel.send(frame.prefix(frame.count / 2))
        try await eventually("the stalled connection closed", seconds: 5) { staller.isClosed.withLock { $0 } }
        try await relay.closesLogged(["connection.partial-frame-timeout"])
        #expect(relay.closeReasons == ["connection.partial-frame-timeout"])
        try await relay.shutdown()
    }

    @Test func idleConnectionsAreClosedWhileTalkingOnesStay() async throws {
        let relay = try await RelayHarness { $0.idleTimeout = .milliseconds(500) }
        var idle: [RelayClient] = []
        for _ in 0..<50 { idle.append(try await relay.raw()) }
        let talker = try await relay.client()
        try await talker.join("room", as: "talker")
        let talking = Task {
            var seq = 0
            while !Task.isCancelled {
                try await talker.send(Samples.message(group: "room", sender: "talker", seq: seq))
                seq += 1
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        try await eventually("every idle connection closed", seconds: 10) {
            idle.allSatisfy { $0.isClosed.withLock { $0 } }
        }
        talking.cancel()
        #expect(!talker.isClosed.withLock { $0 })
        try await relay.closesLogged(Array(repeating: "connection.idle-timeout", count: 50))
        #expect(relay.closeReasons.count == 50)
        #expect(Set(relay.closeReasons) == ["connection.idle-timeout"])
        try await relay.shutdown()
    }

    @Test func theConnectionCapClosesTheOneTooMany() async throws {
        let relay = try await RelayHarness { $0.maxConnections = 3 }
        var clients: [RelayClient] = []
        for index in 0..<3 {
            let client = try await relay.client()
            try await client.join("room", as: "user-\(index)")
            clients.append(client)
        }
        let extra = try await relay.raw()
        try await eventually("the fourth connection closed", seconds: 5) { extra.isClosed.withLock { $0 } }
        #expect(relay.server.statistics.connectionsRefused == 1)
        #expect(relay.logs.entries.contains { $0.message.description == "refused" })
        #expect(try relay.metrics.expectCounter("imcodec_relay_connections_refused").totalValue == 1)
        #expect(clients.allSatisfy { !$0.isClosed.withLock { $0 } })
        try await relay.shutdown()
    }

    @Test func aSpoofedSenderIsRefusedAndReachesNoOne() async throws {
        let relay = try await RelayHarness()
        let mallory = try await relay.client()
        let bob = try await relay.client()
        try await mallory.join("room", as: "mallory")
        try await bob.join("room", as: "bob")
        try await mallory.send(Samples.message(group: "room", sender: "alice", seq: 1))
        // A join naming another user is refused the same way.
        try await mallory.channel.writeAndFlush(RelayClient.frame(Message(from: "alice", toGroup: "other", elems: [])))
        try await mallory.send(Samples.message(group: "room", sender: "mallory", seq: 2))
        try await eventually("mallory's own message") { bob.sequences(from: "mallory") == [2] }
        #expect(bob.messages.allSatisfy { $0.sender != "alice" })
        let codes = mallory.rejections.flatMap { $0.findings.map(\.code) }
        #expect(codes == ["relay.sender-mismatch", "relay.sender-mismatch"])
        #expect(mallory.rejections.first?.findings.first?.path == "sender")
        #expect(
            try relay.metrics.expectCounter("imcodec_relay_rejections", [("code", "relay.sender-mismatch")]).totalValue
                == 2)
        try await relay.shutdown()
    }

    @Test func aOneToOneMessageIsAnsweredAsNotRoutedWithItsID() async throws {
        let relay = try await RelayHarness()
        let (alice, bob) = try await relay.aliceAndBob()
        var direct = Samples.message(group: "", sender: "alice", seq: 7)
        direct.receiver = "bob"
        try await alice.send(direct)
        try await eventually("alice's rejection") { !alice.rejections.isEmpty }
        let body = try #require(alice.rejections.first)
        #expect(body.msgId == "alice-7")
        #expect(body.findings.map(\.code) == ["relay.not-routed"])
        #expect(bob.sequences(from: "alice").isEmpty)
        let statistics = relay.server.statistics
        #expect(statistics.framesUnrouted == 1)
        try await relay.shutdown()
    }

    @Test func aRejectedMessageIsAnsweredToItsSenderWithTheFindings() async throws {
        let relay = try await RelayHarness()
        let (alice, bob) = try await relay.aliceAndBob()
        var invalid = Samples.message(group: "room", sender: "alice", seq: 1)
        invalid.receiver = "bob"
        try await alice.send(invalid)
        try await eventually("alice's rejection") { !alice.rejections.isEmpty }
        let reply = try #require(alice.messages.last)
        #expect(reply.sender.isEmpty && reply.receiver == "alice" && !reply.isGroupMessage)
        #expect(reply.msgID == invalid.msgID)
        let body = try #require(alice.rejections.first)
        #expect(body.msgId == invalid.msgID)
        #expect(body.groupId == "room")
        #expect(body.findings.map(\.code) == ["rule.message.target-ambiguous"])
        #expect(body.findings.allSatisfy { $0.severity == "error" && !$0.reason.isEmpty })
        #expect(body.omitted == 0)
        #expect(bob.rejections.isEmpty)
        #expect(bob.sequences(from: "alice").isEmpty)
        let rejected = relay.logs.entries.first { $0.message.description == "rejected" }
        #expect(rejected?.metadata["codes"]?.description == "rule.message.target-ambiguous")
        try await relay.shutdown()
    }

    @Test func joinsAreValidatedAndBoundedBeforeAnythingIsKept() async throws {
        // The current profile, whose group IDs are printable ASCII (G14);
        // the default sdk-guide profile leaves their characters open.
        let relay = try await RelayHarness {
            $0.maxGroupsPerConnection = 2
            $0.profile = .current
        }
        let client = try await relay.client()
        let joins = [
            Message(from: "carol", toGroup: String(repeating: "g", count: 1 << 20), elems: []),
            Message(from: "carol", toGroup: "tab\there", elems: []),
            Message(from: "carol", toGroup: "one", elems: []),
            Message(from: "carol", toGroup: "two", elems: []),
            Message(from: "carol", toGroup: "three", elems: []),
        ]
        for join in joins { try await client.channel.writeAndFlush(RelayClient.frame(join)) }
        try await client.send(Samples.message(group: "four", sender: "carol"))
        try await client.channel.writeAndFlush(
            ByteBuffer(bytes: Samples.frame(.batch(MessageBatch(messages: [Samples.message(sender: "carol")])))))
        try await eventually("every answer") { client.messages.count == 7 }
        #expect(
            client.rejections.map { $0.findings.first?.code ?? "" } == [
                "relay.group-id-length", "format.group.id-characters", "relay.too-many-groups", "relay.not-a-member",
                "relay.not-routed",
            ])
        // The 1 MiB group ID is not echoed back.
        #expect(client.rejections.first?.groupId == nil)
        #expect(client.messages.filter { $0.elems.isEmpty }.map(\.groupID) == ["one", "two"])
        let statistics = relay.server.statistics
        #expect(statistics.joinsRefused == 3)
        try await relay.shutdown()
    }

    @Test func garbageAndHeaderLiesAreClosedAtOnceWhileTheGroupFlows() async throws {
        let relay = try await RelayHarness()
        let (alice, bob) = try await relay.aliceAndBob()
        let lies: [(String, [UInt8])] = [
            ("frame.version", (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 0x80) }),
            ("frame.checksum", Samples.corruptFrame()),
            ("frame.version", Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)),
            ("limit.frame-size", Samples.header(declaringBody: UInt32.max)),
        ]
        var liars: [RelayClient] = []
        for (_, bytes) in lies {
            let liar = try await relay.raw()
            try await liar.channel.send(bytes)
            liars.append(liar)
        }
        for seq in 0..<100 { try await alice.send(Samples.message(group: "room", sender: "alice", seq: seq)) }
        try await eventually("every liar closed", seconds: 2) { liars.allSatisfy { $0.isClosed.withLock { $0 } } }
        try await eventually("alice's messages") { bob.sequences(from: "alice").count == 100 }
        #expect(bob.sequences(from: "alice") == Array(0..<100))
        // The liars are on different loops, whose closes reach the log in
        // either order.
        try await relay.closesLogged(lies.map(\.0).sorted())
        #expect(relay.closeReasons.sorted() == lies.map(\.0).sorted())
        #expect(relay.server.statistics.connectionsFailed == 4)
        try await relay.shutdown()
    }

    @Test func gracefulShutdownDeliversWhatIsQueuedThenClosesEveryone() async throws {
        let relay = try await RelayHarness()
        let (alice, bob) = try await relay.aliceAndBob()
        let count = 500
        for seq in 0..<count { try await alice.send(Samples.message(group: "room", sender: "alice", seq: seq)) }
        try await eventually("the relay reading them") {
            relay.server.statistics.framesReceived == count + 2
        }
        try await relay.server.shutdown()
        #expect(bob.sequences(from: "alice") == Array(0..<count))
        try await eventually("both closed") { alice.isClosed.withLock { $0 } && bob.isClosed.withLock { $0 } }
        try await relay.closesLogged(["connection.shutdown", "connection.shutdown"])
        #expect(relay.closeReasons == ["connection.shutdown", "connection.shutdown"])
        // New connections are refused once it is shutting down.
        await #expect(throws: (any Error).self) { _ = try await relay.client() }
        try await relay.clientGroup.shutdownGracefully()
        try await relay.serverGroup.shutdownGracefully()
    }

    @Test func logsAndMetricsFollowEveryConnection() async throws {
        let relay = try await RelayHarness()
        let (alice, bob) = try await relay.aliceAndBob()
        for seq in 0..<10 { try await alice.send(Samples.message(group: "room", sender: "alice", seq: seq)) }
        try await eventually("bob's copies") { bob.sequences(from: "alice").count == 10 }
        try await bob.channel.writeAndFlush(ByteBuffer(bytes: Samples.corruptFrame()))
        try await eventually("bob closed") { bob.isClosed.withLock { $0 } }
        try await alice.channel.close()
        try await eventually("alice's close logged") { relay.closeReasons.count == 2 }

        let events = relay.logs.entries.map(\.message.description)
        #expect(events.filter { $0 == "opened" }.count == 2)
        #expect(events.filter { $0 == "joined" }.count == 2)
        #expect(Set(relay.closeReasons) == ["frame.checksum", "client-closed"])
        let bobClosed = relay.logs.entries.first { $0.message.description == "closed" && $0.metadata["user"] == "bob" }
        #expect(bobClosed?.metadata["reason"] == "frame.checksum")
        #expect(bobClosed?.level == .notice)

        let metrics = relay.metrics
        #expect(try metrics.expectCounter("imcodec_relay_connections_opened", [("transport", "tcp")]).totalValue == 2)
        #expect(try metrics.expectCounter("imcodec_relay_frames_received").totalValue == 12)
        #expect(try metrics.expectCounter("imcodec_relay_frames_delivered").totalValue == 10)
        #expect(try metrics.expectCounter("imcodec_relay_bytes_received").totalValue > 0)
        #expect(
            try metrics.expectCounter("imcodec_relay_connections_closed", [("reason", "frame.checksum")]).totalValue
                == 1)
        #expect(try metrics.expectTimer("imcodec_relay_frame_duration").values.count == 12)
        #expect(try metrics.expectMeter("imcodec_relay_connections_open").lastValue == 0)
        try await relay.shutdown()
    }
}
