import IMCodec
import IMCodecNIO
import NIOCore
import NIOPosix
import RelayServer
import Testing

/// A client that speaks raw bytes to the web listener: an upgrade request
/// written by hand, then WebSocket frames built byte by byte, so that a
/// probe can leave a frame (or a request head) unfinished.
final class RawWebClient: Sendable {
    let channel: Channel

    init(port: Int, group: EventLoopGroup) async throws {
        channel = try await connectRawClient(port: port, group: group)
    }

    var isClosed: Bool { !channel.isActive }

    static let upgradeRequest = Array(
        ("GET /frames HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8)

    /// Sends the upgrade request whole.
    func upgrade() async throws { try await channel.send(Self.upgradeRequest) }

    /// The header of a masked (with the all-zero key, so the payload goes
    /// as it is) binary WebSocket frame of `length` payload bytes.
    static func binaryFrameHeader(length: Int, fin: Bool = true) -> [UInt8] {
        var header: [UInt8] = [fin ? 0x82 : 0x02, 0x80 | 127]
        for shift in stride(from: 56, through: 0, by: -8) { header.append(UInt8(truncatingIfNeeded: length >> shift)) }
        return header + [0, 0, 0, 0]
    }
}

/// The probes of a peer that faces the relay as an attacker would, over
/// loopback and bounded in time: unfinished WebSocket frames against the
/// buffer budget and the partial-frame timeout, a slow upgrade request,
/// headers that declare large frames without sending them, and frames that
/// are costly to check beside a control pair on the same loop.
@Suite(.serialized) struct RelayStrangerProbeTests {
    @Test func unfinishedWebSocketFramesCountAgainstTheBufferBudget() async throws {
        let budget = 8 << 20
        let relay = try await RelayHarness {
            $0.webPort = 0
            $0.maxBufferedBytes = budget
            $0.partialFrameTimeout = .seconds(60)
        }
        let port = try #require(relay.server.webAddress?.port)
        let chunk = [UInt8](repeating: 0x5A, count: 1 << 20)
        var clients: [RawWebClient] = []
        for _ in 0..<10 {
            let client = try await RawWebClient(port: port, group: relay.clientGroup)
            try await client.upgrade()
            // One WebSocket frame of 3 MiB, of which 1 MiB is sent.
            try await client.channel.send(RawWebClient.binaryFrameHeader(length: 3 << 20) + chunk)
            clients.append(client)
        }
        // 1 MiB and 14 bytes each: at most seven fit in 8 MiB; the others
        // are closed when their bytes would pass it (a closed one's bytes
        // stay reserved until its socket has closed, so it may be more).
        let held = (1 << 20) + 14
        // A client sees its socket close before the relay has logged why:
        // wait for both.
        try await eventually("the connections over the budget closed", seconds: 10) {
            let open = clients.filter { !$0.isClosed }.count
            return open <= 7 && relay.server.bufferedBytes == open * held && relay.closeReasons.count >= 10 - open
        }
        let open = clients.filter { !$0.isClosed }.count
        #expect(open >= 5)
        try await relay.closesLogged(Array(repeating: "connection.buffer-limit", count: 10 - open))
        #expect(relay.closeReasons == Array(repeating: "connection.buffer-limit", count: 10 - open))
        #expect(relay.server.bufferedBytes <= budget)
        // The meters are set after a read burst, at most four times a second.
        try await Task.sleep(for: .milliseconds(300))
        let reader = try await relay.client()
        try await reader.join("room", as: "reader")
        try await eventually("the budget sampled", seconds: 5) {
            (try? relay.metrics.expectMeter("imcodec_relay_websocket_partial_bytes").lastValue)
                == Double(open * held)
        }
        for client in clients { try? await client.channel.close() }
        try await eventually("every reservation given back", seconds: 5) { relay.server.bufferedBytes == 0 }
        try await relay.shutdown()
    }

    @Test func aWebSocketFrameTrickledAByteAtATimeIsClosedAtThePartialFrameTimeout() async throws {
        let relay = try await RelayHarness {
            $0.webPort = 0
            $0.partialFrameTimeout = .milliseconds(500)
        }
        let port = try #require(relay.server.webAddress?.port)
        let trickler = try await RawWebClient(port: port, group: relay.clientGroup)
        try await trickler.upgrade()
        // A good client on the same listener, whose message ends in time.
        let control = try await WebSocketClient(port: port, group: relay.clientGroup)
        try await control.join("room", as: "control")
        try await trickler.channel.send(RawWebClient.binaryFrameHeader(length: 4_096))
        let started = ContinuousClock.now
        let trickling = Task {
            while !Task.isCancelled, !trickler.isClosed {
                try? await trickler.channel.send([0x5A])
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        try await eventually("the trickler closed", seconds: 10) { trickler.isClosed }
        trickling.cancel()
        // Closed at the timeout (and the close frame's two seconds), not at
        // the end of the frame, which would take 40 seconds.
        #expect(ContinuousClock.now - started < .seconds(8))
        try await relay.closesLogged(["connection.partial-frame-timeout"])
        #expect(relay.closeReasons == ["connection.partial-frame-timeout"])
        #expect(!control.log.withLock { $0.isClosed })
        try await relay.shutdown()
    }

    @Test func aFragmentedMessageTrickledOneFragmentAtATimeIsClosedAtThePartialFrameTimeout() async throws {
        let relay = try await RelayHarness {
            $0.webPort = 0
            $0.partialFrameTimeout = .milliseconds(500)
        }
        let port = try #require(relay.server.webAddress?.port)
        let client = try await WebSocketClient(port: port, group: relay.clientGroup)
        let frame = Samples.frame(.message(Samples.message(group: "room", sender: "frag", textBytes: 2_000)))
        try await client.send(.binary, Array(frame.prefix(1)), fin: false)
        let trickling = Task {
            for byte in frame.dropFirst().dropLast() {
                guard !Task.isCancelled else { return }
                try? await client.send(.continuation, [byte], fin: false)
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        try await eventually("the fragmenter closed", seconds: 10) { client.log.withLock { $0.isClosed } }
        trickling.cancel()
        #expect(client.log.withLock { $0.close?.code } == 1008)
        try await relay.closesLogged(["connection.partial-frame-timeout"])
        #expect(relay.closeReasons == ["connection.partial-frame-timeout"])
        try await relay.shutdown()
    }

    @Test func slowUpgradeRequestsAreClosedAtTheRequestHeadTimeout() async throws {
        let relay = try await RelayHarness {
            $0.webPort = 0
            $0.requestHeadTimeout = .seconds(1)
        }
        let port = try #require(relay.server.webAddress?.port)
        var slow: [RawWebClient] = []
        for _ in 0..<20 {
            let client = try await RawWebClient(port: port, group: relay.clientGroup)
            // A connection the timeout closes early fails this write.
            try? await client.channel.send(RawWebClient.upgradeRequest.prefix(20))
            slow.append(client)
        }
        let trickled = slow
        let trickling = Task {
            for byte in RawWebClient.upgradeRequest.dropFirst(20) {
                for client in trickled where !client.isClosed { try? await client.channel.send([byte]) }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        // An upgraded client outlives the timeout: its timer left with the
        // HTTP handlers.
        let upgraded = try await WebSocketClient(port: port, group: relay.clientGroup)
        try await eventually("every slow request closed", seconds: 10) { slow.allSatisfy(\.isClosed) }
        trickling.cancel()
        try await Task.sleep(for: .milliseconds(1_200))
        try await upgraded.join("room", as: "patient")
        #expect(!upgraded.log.withLock { $0.isClosed })
        try await relay.closesLogged(Array(repeating: "connection.request-head-timeout", count: 20))
        #expect(relay.closeReasons == Array(repeating: "connection.request-head-timeout", count: 20))
        try await relay.shutdown()
    }

    @Test func headersThatDeclareLargeFramesDoNotStarveAMessageThatArrives() async throws {
        let relay = try await RelayHarness { $0.maxBufferedBytes = 64 << 20 }
        // 16 headers of 14 bytes, each declaring almost 4 MiB: 64 MiB
        // declared, 224 bytes held.
        let header = Samples.header(declaringBody: UInt32(DecodingLimits.default.maxFrameBytes - 64))
        var liars: [Channel] = []
        for _ in 0..<16 {
            let liar = try await connectRawClient(port: relay.port, group: relay.clientGroup)
            try await liar.send(header)
            liars.append(liar)
        }
        try await eventually("the headers read", seconds: 5) {
            relay.server.bufferedBytes == 16 * header.count
        }
        let (alice, bob) = try await relay.aliceAndBob()
        // About 200 KB, sent in two writes.
        var message = Samples.message(group: "room", sender: "alice", seq: 1)
        message.elems = (0..<20).map { _ in .text(String(repeating: "0123456789", count: 1_000)) }
        let frame = Samples.frame(.message(message))
        #expect(frame.count > 200_000)
        try await alice.channel.send(frame.prefix(frame.count / 2))
        try await Task.sleep(for: .milliseconds(50))
        try await alice.channel.send(frame.dropFirst(frame.count / 2))
        try await eventually("the message read whole", seconds: 10) {
            bob.sequences(from: "alice") == [1] || !alice.rejections.isEmpty
        }
        #expect(!alice.isClosed.withLock { $0 })
        #expect(!relay.closeReasons.contains("connection.buffer-limit"))
        #expect(liars.allSatisfy { $0.isActive })
        for liar in liars { try? await liar.close() }
        try await relay.shutdown()
    }

    @Test func longUserIDsAreRefusedAndNeverBindTheConnection() async throws {
        let relay = try await RelayHarness()
        let client = try await relay.client()
        let huge = String(repeating: "u", count: 1 << 20)
        for index in 0..<50 {
            try await client.channel.writeAndFlush(
                RelayClient.frame(Message(from: "\(index)" + huge, toGroup: "room", elems: [])))
        }
        try await eventually("50 answers", seconds: 30) { client.messages.count == 50 }
        #expect(client.rejections.count == 50)
        #expect(Set(client.rejections.compactMap { $0.findings.first?.code }) == ["relay.user-id-length"])
        #expect(client.rejections.allSatisfy { $0.findings.first?.path == "sender" })
        // No reply names the long user: none was bound to the connection.
        #expect(client.messages.allSatisfy { $0.receiver.isEmpty })
        // 32 bytes pass; the connection is still free to join as someone.
        try await client.join("room", as: String(repeating: "u", count: 32))
        try await relay.shutdown()
    }

    @Test func peerChosenValuesCannotForgeLogLines() async throws {
        let relay = try await RelayHarness()
        let eve = try await relay.client()
        let forged = "e\nclosed reason=x"
        try await eve.join("g\r\nrefused reason=x", as: forged)
        try await eve.send(Samples.message(group: "other\u{1B}[2J", sender: forged))
        try await eventually("eve's rejection") { !eve.rejections.isEmpty }
        try await eve.channel.close()
        try await eventually("eve's close logged") { relay.closeReasons.count == 1 }
        let values = relay.logs.entries.flatMap { $0.metadata.values.map(\.description) }
        #expect(!values.isEmpty)
        for value in values {
            #expect(!value.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(value)")
            #expect(!value.contains(" reason="), "\(value)")
        }
        let joined = relay.logs.entries.first { $0.message.description == "joined" }
        #expect(joined?.metadata["user"]?.description == #"e\x0Aclosed\x20reason\x3Dx"#)
        #expect(joined?.metadata["group"]?.description == #"g\x0D\x0Arefused\x20reason\x3Dx"#)
        try await relay.shutdown()
    }

    @Test func aRefusalRepeatedAtWillIsLoggedOncePerInterval() async throws {
        let relay = try await RelayHarness { $0.refusalLogInterval = .seconds(60) }
        let client = try await relay.client()
        try await client.join("room", as: "repeat")
        for seq in 0..<100 { try await client.send(Samples.message(group: "elsewhere", sender: "repeat", seq: seq)) }
        try await eventually("100 rejections") { client.rejections.count == 100 }
        let lines = relay.logs.entries.filter { $0.message.description == "rejected" }
        #expect(lines.count == 1)
        #expect(lines.first?.metadata["suppressed"] == "0")
        // Every rejection is still counted.
        #expect(
            try relay.metrics.expectCounter("imcodec_relay_rejections", [("code", "relay.not-a-member")]).totalValue
                == 100)
        #expect(relay.server.statistics.messagesRejected == 100)
        try await relay.shutdown()
    }

    @Test func aZstdFrameIsForwardedOverTCPAndWebSocket() async throws {
        let relay = try await RelayHarness { $0.webPort = 0 }
        let webPort = try #require(relay.server.webAddress?.port)
        let web = try await WebSocketClient(port: webPort, group: relay.clientGroup)
        let tcp = try await relay.client()
        try await web.join("room", as: "web")
        try await tcp.join("room", as: "tcp")
        let zstd = FrameEncoder(policy: .zstd())
        let fromTCP = Samples.frame(
            .message(Samples.message(group: "room", sender: "tcp", textBytes: 2_000)), with: zstd)
        let fromWeb = Samples.frame(
            .message(Samples.message(group: "room", sender: "web", textBytes: 2_000)), with: zstd)
        #expect(try FrameDecoder().decodeFrame(fromTCP).header.compression == .zstd)
        #expect(try FrameDecoder().decodeFrame(fromWeb).header.compression == .zstd)
        try await tcp.channel.send(fromTCP)
        try await web.send(.binary, fromWeb)
        try await eventually("both zstd frames delivered") {
            web.sequences(from: "tcp") == [0] && tcp.sequences(from: "web") == [0]
        }
        // The bytes as they were sent, on both transports.
        #expect(web.log.withLock { $0.messages.last } == fromTCP)
        #expect(relay.closeReasons.isEmpty)
        try await relay.shutdown()
    }

    @Test func repliesToGoodFramesGoOutBeforeTheCloseForABadOneInTheSameRead() async throws {
        let relay = try await RelayHarness()
        let client = try await relay.client()
        var join = Message()
        join.groupID = "room"
        join.sender = "hasty"
        // The join and a corrupt frame in one write, read in one read.
        try await client.channel.send(Samples.frame(.message(join)) + Samples.corruptFrame())
        try await eventually("the connection closed", seconds: 5) { client.isClosed.withLock { $0 } }
        #expect(client.messages.contains { $0.elems.isEmpty && $0.sender == "hasty" })
        try await relay.closesLogged(["frame.checksum"])
        #expect(relay.closeReasons == ["frame.checksum"])
        try await relay.shutdown()
    }

    @Test func aFlooderIsThrottledBeforeAnyMemberFallsBehind() async throws {
        // 1 MiB a second; the flood is 4 MB of 4 KB messages.
        let relay = try await RelayHarness { $0.maxBytesPerSecond = 1 << 20 }
        let flooder = try await relay.client()
        let control = try await relay.client()
        // A member that reads a little every millisecond, far slower than
        // the flooder can write.
        let paced = try await relay.client(autoRead: false, receiveBuffer: 4_096)
        try await flooder.join("room", as: "flooder")
        try await control.join("room", as: "control")
        paced.channel.read()
        try await paced.join("room", as: "paced")
        let reading = Task {
            while !Task.isCancelled {
                paced.channel.read()
                try await Task.sleep(for: .milliseconds(1))
            }
        }
        let count = 1_000
        let started = ContinuousClock.now
        // Written at once, as fast as the socket takes them.
        for seq in 0..<count {
            var message = Samples.message(group: "room", sender: "flooder", seq: seq)
            message.elems = [.text(String(repeating: "0123456789", count: 400))]
            flooder.channel.write(RelayClient.frame(message), promise: nil)
        }
        flooder.channel.flush()
        try await eventually("every frame delivered", seconds: 60) {
            control.sequences(from: "flooder").count == count && paced.sequences(from: "flooder").count == count
        }
        reading.cancel()
        // A second's worth of tokens at the start, and at most one read
        // burst (256 KiB) taken past them at the end: 4 MB takes at least
        // (4 - 1 - 0.25) seconds.
        #expect(ContinuousClock.now - started >= .seconds(2.5))
        #expect(control.sequences(from: "flooder") == Array(0..<count))
        #expect(paced.sequences(from: "flooder") == Array(0..<count))
        #expect(relay.server.statistics.throttles > 0)
        #expect(try relay.metrics.expectCounter("imcodec_relay_throttles").totalValue > 0)
        #expect(relay.closeReasons.isEmpty)
        try await relay.shutdown()
    }

    /// Chat-like text of about `bytes` bytes: words drawn at random, which
    /// deflate shrinks about sixfold (within the inflate-ratio limit) and
    /// which inflates at the speed of ordinary text.
    static func chatText(bytes: Int) -> String {
        let words = ["hello", "group", "message", "the", "to", "and", "you", "see", "today", "photo", "ok", "thanks"]
        var state: UInt64 = 0x5EED
        var text = ""
        text.reserveCapacity(bytes + 16)
        while text.utf8.count < bytes {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            text += words[Int((state >> 33) % UInt64(words.count))] + " "
        }
        return text
    }

    /// A flooder and a control pair on one event loop, the rates off: the
    /// flooder writes `count` frames whose payloads declare 12 MiB of chat
    /// text (alone in its group, so nothing is forwarded), each but its last
    /// byte first; once the relay holds the rest, the last byte goes, and
    /// 2 ms later (a check takes tens) the pair sends a message, which so
    /// reaches the relay while the relay checks that frame. Returns how long
    /// each of the pair's messages took.
    func pairBesideAFlood(offLoopPayloadBytes: Int?, count: Int) async throws -> [Duration] {
        let relay = try await RelayHarness(loops: 1) {
            $0.maxFramesPerSecond = nil
            $0.maxBytesPerSecond = nil
            $0.maxInflatedBytesPerSecond = nil
            $0.offLoopPayloadBytes = offLoopPayloadBytes
        }
        let flooder = try await relay.client()
        let alice = try await relay.client()
        let bob = try await relay.client()
        try await flooder.join("flood", as: "flooder")
        try await alice.join("room", as: "alice")
        try await bob.join("room", as: "bob")
        let costly = Samples.frame(
            .message(Message(from: "flooder", toGroup: "flood", elems: [.text(Self.chatText(bytes: 12 << 20))])),
            with: FrameEncoder(policy: .default))
        var latencies: [Duration] = []
        for seq in 0..<count {
            try await flooder.channel.writeAndFlush(ByteBuffer(bytes: costly.dropLast()))
            try await eventually("the flood frame but its last byte held") {
                relay.server.bufferedBytes == costly.count - 1
            }
            try await flooder.channel.writeAndFlush(ByteBuffer(bytes: costly.suffix(1)))
            try await Task.sleep(for: .milliseconds(2))
            let sent = ContinuousClock.now
            try await alice.send(Samples.message(group: "room", sender: "alice", seq: seq))
            try await eventually("bob's copy of \(seq)") { bob.sequences(from: "alice").count == seq + 1 }
            latencies.append(ContinuousClock.now - sent)
        }
        try await eventually("every flood frame taken") {
            relay.server.statistics.framesReceived == 3 + 2 * count
        }
        #expect(bob.sequences(from: "alice") == Array(0..<count))
        let offLoop = try relay.metrics.expectCounter("imcodec_relay_frames_checked_off_loop").totalValue
        #expect(offLoop == (offLoopPayloadBytes == nil ? 0 : count))
        #expect(relay.closeReasons.isEmpty)
        try await relay.shutdown()
        return latencies
    }

    @Test func costlyFramesAreCheckedOffTheLoopTheirSenderShares() async throws {
        let count = 7
        func median(_ latencies: [Duration]) -> Duration { latencies.sorted()[latencies.count / 2] }
        // Checked on the loop, each flood frame holds up the pair's
        // message that arrives meanwhile: the probe can tell.
        let onLoop = try await pairBesideAFlood(offLoopPayloadBytes: nil, count: count)
        // The default: frames whose payloads declare 64 KiB or more are
        // checked on the thread pool, and the pair's loop stays free.
        let offLoop = try await pairBesideAFlood(
            offLoopPayloadBytes: RelayConfiguration().offLoopPayloadBytes, count: count)
        print(
            "the pair's messages beside a flood: median \(median(onLoop)) with every frame checked on the loop, "
                + "\(median(offLoop)) with costly ones checked on the pool")
        #expect(median(offLoop) * 4 < median(onLoop), "on the loop \(onLoop), on the pool \(offLoop)")
    }

    @Test func framesCheckedOnThePoolKeepTheirPlaceInTheirSendersOrder() async throws {
        let relay = try await RelayHarness {
            $0.maxBytesPerSecond = nil
            $0.maxInflatedBytesPerSecond = nil
        }
        let carol = try await relay.client()
        let dave = try await relay.client()
        try await carol.join("room", as: "carol")
        try await dave.join("room", as: "dave")
        // Every third message declares a payload of about 1 MiB, checked on
        // the pool; the others are checked on the loop, in one write.
        var bytes: [UInt8] = []
        let count = 12
        for seq in 0..<count {
            var message = Samples.message(group: "room", sender: "carol", seq: seq)
            if seq % 3 == 1 { message.elems = [.text(Self.chatText(bytes: 1 << 20))] }
            bytes += Samples.frame(.message(message), with: FrameEncoder(policy: .default))
        }
        try await carol.channel.writeAndFlush(ByteBuffer(bytes: bytes))
        try await eventually("dave's copies") { dave.sequences(from: "carol").count == count }
        #expect(dave.sequences(from: "carol") == Array(0..<count))
        #expect(try relay.metrics.expectCounter("imcodec_relay_frames_checked_off_loop").totalValue == count / 3)
        #expect(relay.closeReasons.isEmpty)
        try await relay.shutdown()
    }

    /// A raw client from a chosen loopback address (the whole of 127/8 is
    /// this machine's), so that a test can be several hosts.
    func connect(from host: String, to port: Int, group: EventLoopGroup) async throws -> Channel {
        try await ClientBootstrap(group: group)
            .bind(to: try SocketAddress(ipAddress: host, port: 0))
            .connect(host: "127.0.0.1", port: port).get()
    }

    @Test func oneAddressCannotTakeEveryConnectionAndTheMetricsListenerStaysOpen() async throws {
        let relay = try await RelayHarness {
            $0.maxConnections = 6
            $0.maxConnectionsPerAddress = 5
            $0.metricsPort = 0
            $0.metricsExposition = { "imcodec_relay_test 1\n" }
        }
        var hog: [Channel] = []
        for _ in 0..<6 { hog.append(try await connect(from: "127.0.0.1", to: relay.port, group: relay.clientGroup)) }
        try await eventually("the sixth from one address closed", seconds: 5) { hog.filter { !$0.isActive }.count == 1 }
        // Another host still gets in, up to the cap on every connection.
        let other = try await connect(from: "127.0.0.2", to: relay.port, group: relay.clientGroup)
        let third = try await connect(from: "127.0.0.3", to: relay.port, group: relay.clientGroup)
        try await eventually("the seventh connection closed", seconds: 5) { !third.isActive }
        #expect(other.isActive)
        let statistics = relay.server.statistics
        #expect(statistics.connectionsRefused == 2)
        #expect(statistics.connectionsRefusedPerAddress == 1)
        let reasons = relay.logs.entries.filter { $0.message.description == "refused" }.compactMap {
            $0.metadata["reason"]?.description
        }
        #expect(reasons == ["connection.address-limit", "connection.limit"])
        // Every connection is taken, and the metrics still answer.
        let metricsPort = try #require(relay.server.metricsAddress?.port)
        let response = try await httpGet("/metrics", port: metricsPort, group: relay.clientGroup)
        #expect(response.hasPrefix("HTTP/1.1 200"))
        #expect(response.hasSuffix("imcodec_relay_test 1\n"))
        for channel in hog + [other] { try? await channel.close() }
        try await relay.shutdown()
    }

    /// The response to one GET with `Connection: close`, as text.
    func httpGet(_ path: String, port: Int, group: EventLoopGroup) async throws -> String {
        let received = Locked<[UInt8]>([])
        let channel = try await ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ResponseCollector(received: received))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        try await channel.send(Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
        try await channel.closeFuture.get()
        return String(decoding: received.withLock { $0 }, as: UTF8.self)
    }
}

/// Keeps every byte a client reads.
final class ResponseCollector: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    let received: Locked<[UInt8]>

    init(received: Locked<[UInt8]>) {
        self.received = received
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
        received.withLock { $0 += bytes }
    }
}
