import IMCodec
import IMCodecNIO
import NIOCore
import NIOPosix
import RelayServer
import Testing

/// A relay client: writes frames it encodes itself (so a test can also write
/// malformed ones), logs the payloads the relay sends back.
final class RelayClient: Sendable {
    let channel: Channel
    let received = Locked<[FramePayload]>([])
    let sawUnwritable = Locked(false)
    let isClosed = Locked(false)

    /// - Parameter receiveBuffer: When set, the socket's receive buffer
    ///   (SO_RCVBUF), to make a client that does not read fill up sooner.
    init(port: Int, group: EventLoopGroup, autoRead: Bool = true, receiveBuffer: Int? = nil) async throws {
        let received = self.received
        let sawUnwritable = self.sawUnwritable
        let isClosed = self.isClosed
        var bootstrap = ClientBootstrap(group: group)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelOption(.autoRead, value: autoRead)
        if let receiveBuffer {
            bootstrap = bootstrap.channelOption(.socketOption(.so_rcvbuf), value: SocketOptionValue(receiveBuffer))
        }
        channel =
            try await bootstrap
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(IMCodecPayloadDecoder(partialFrameTimeout: nil)))
                    try channel.pipeline.syncOperations.addHandler(
                        ClientLogger(received: received, sawUnwritable: sawUnwritable, isClosed: isClosed))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
    }

    var messages: [Message] {
        received.withLock { $0.compactMap { if case .message(let message) = $0 { message } else { nil } } }
    }

    /// The relay's rejection replies this client received.
    var rejections: [RelayRejection.Body] { messages.compactMap { RelayRejection.body(of: $0) } }

    /// Joins `group` and waits for the relay's acknowledgement.
    func join(_ group: String, as sender: String) async throws {
        var join = Message()
        join.groupID = group
        join.sender = sender
        try await channel.writeAndFlush(Self.frame(join))
        try await eventually("the join of \(sender)") { messages.contains { $0.elems.isEmpty && $0.sender == sender } }
    }

    func send(_ message: Message) async throws {
        try await channel.writeAndFlush(Self.frame(message))
    }

    static func frame(_ message: Message) -> ByteBuffer {
        ByteBuffer(bytes: Samples.frame(.message(message)))
    }

    /// The non-join messages received from `sender`, as their sequence numbers.
    func sequences(from sender: String) -> [Int] {
        messages.filter { $0.sender == sender && !$0.elems.isEmpty }.map { Int($0.seq) }
    }
}

final class ClientLogger: ChannelInboundHandler {
    typealias InboundIn = FramePayload
    let received: Locked<[FramePayload]>
    let sawUnwritable: Locked<Bool>
    let isClosed: Locked<Bool>

    init(received: Locked<[FramePayload]>, sawUnwritable: Locked<Bool>, isClosed: Locked<Bool>) {
        self.received = received
        self.sawUnwritable = sawUnwritable
        self.isClosed = isClosed
    }

    func channelInactive(context: ChannelHandlerContext) {
        isClosed.withLock { $0 = true }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let payload = unwrapInboundIn(data)
        received.withLock { $0.append(payload) }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if !context.channel.isWritable { sawUnwritable.withLock { $0 = true } }
        context.fireChannelWritabilityChanged()
    }
}

/// The example relay over 127.0.0.1: fan-out, one bad connection among
/// good ones, and a member that stops reading.
@Suite(.serialized) struct RelayLoopbackTests {
    /// A relay on `loops` event loops: with one, everything on it; with
    /// more, the listeners on the first and the connections on each in
    /// turn.
    func startRelay(loops: Int = 1, _ configure: (inout RelayConfiguration) -> Void = { _ in }) async throws
        -> (RelayServer, MultiThreadedEventLoopGroup)
    {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: loops)
        var configuration = RelayConfiguration()
        // Routing, not logins: RelayLoginTests has the tickets.
        configuration.identity = .insecureDemo
        configure(&configuration)
        let server = try await RelayServer.start(
            configuration: configuration, on: group.next(), connectionsOn: loops > 1 ? group : nil)
        return (server, group)
    }

    /// A client for each name, connected in turn and joined to `group`.
    func clientsJoined(_ names: [String], to group: String, port: Int, on clientGroup: EventLoopGroup)
        async throws -> [RelayClient]
    {
        var clients: [RelayClient] = []
        for name in names {
            let client = try await RelayClient(port: port, group: clientGroup)
            try await client.join(group, as: name)
            clients.append(client)
        }
        return clients
    }

    @Test(arguments: [1, 3]) func fansMessagesOutToTheOtherMembersOnly(loops: Int) async throws {
        let (server, serverGroup) = try await startRelay(loops: loops)
        let clientGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let port = try #require(server.localAddress.port)
        let members = [
            try await RelayClient(port: port, group: clientGroup),
            try await RelayClient(port: port, group: clientGroup),
        ]
        let outsider = try await RelayClient(port: port, group: clientGroup)
        try await members[0].join("g1", as: "a")
        try await members[1].join("g1", as: "b")
        try await outsider.join("g2", as: "c")

        for seq in 0..<50 { try await members[0].send(Samples.message(group: "g1", sender: "a", seq: seq)) }
        try await eventually("b's copies") { members[1].sequences(from: "a").count == 50 }
        #expect(members[1].sequences(from: "a") == Array(0..<50))
        #expect(members[0].sequences(from: "a").isEmpty)
        #expect(outsider.messages.count == 1)

        // A message the profile refuses is not delivered: a group message
        // must not also name a receiver.
        var invalid = Samples.message(group: "g1", sender: "a", seq: 50)
        invalid.receiver = "b"
        try await members[0].send(invalid)
        try await members[0].send(Samples.message(group: "g1", sender: "a", seq: 51))
        try await eventually("the message after the refused one") { members[1].sequences(from: "a").last == 51 }
        #expect(!members[1].sequences(from: "a").contains(50))
        let statistics = server.statistics
        #expect(statistics.messagesRejected == 1)
        #expect(statistics.framesDelivered == 51)

        for client in members + [outsider] { try await client.channel.close() }
        try await server.close()
        try await clientGroup.shutdownGracefully()
        try await serverGroup.shutdownGracefully()
    }

    /// Two members send at once from connections on different loops; the
    /// two others, each on a loop of its own, receive the group's messages
    /// in one and the same order.
    @Test(arguments: [1, 3]) func everyMemberSeesTheGroupsMessagesInOneOrder(loops: Int) async throws {
        let (server, serverGroup) = try await startRelay(loops: loops)
        let clientGroup = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let port = try #require(server.localAddress.port)
        let names = ["a", "b", "c", "d"]
        let clients = try await clientsJoined(names, to: "g", port: port, on: clientGroup)
        let rounds = 400
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            for index in 0...1 {
                tasks.addTask {
                    for seq in 0..<rounds {
                        try await clients[index].send(Samples.message(group: "g", sender: names[index], seq: seq))
                    }
                }
            }
            try await tasks.waitForAll()
        }
        func order(_ client: RelayClient) -> [String] {
            client.messages.filter { !$0.elems.isEmpty }.map { "\($0.sender)\($0.seq)" }
        }
        try await eventually("every message at c and d") {
            order(clients[2]).count == 2 * rounds && order(clients[3]).count == 2 * rounds
        }
        #expect(order(clients[2]) == order(clients[3]))
        // Each sender's own messages in the order sent, at every member.
        for receiver in clients[2...3] {
            #expect(receiver.sequences(from: "a") == Array(0..<rounds))
            #expect(receiver.sequences(from: "b") == Array(0..<rounds))
        }
        #expect(clients[1].sequences(from: "a") == Array(0..<rounds))
        #expect(clients[0].sequences(from: "b") == Array(0..<rounds))

        for client in clients { try await client.channel.close() }
        try await server.close()
        try await clientGroup.shutdownGracefully()
        try await serverGroup.shutdownGracefully()
    }

    @Test(arguments: [1, 3]) func aMalformedFrameClosesItsSenderWhileTheGroupLosesNothing(loops: Int) async throws {
        let (server, serverGroup) = try await startRelay(loops: loops)
        let clientGroup = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let port = try #require(server.localAddress.port)
        let names = ["a", "b", "c"]
        let clients = try await clientsJoined(names, to: "g", port: port, on: clientGroup)
        let rounds = 300
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                for seq in 0..<20 { try await clients[0].send(Samples.message(group: "g", sender: "a", seq: seq)) }
                try await clients[0].channel.writeAndFlush(ByteBuffer(bytes: Samples.corruptFrame()))
                for seq in 20..<40 {
                    try? await clients[0].send(Samples.message(group: "g", sender: "a", seq: seq))
                }
            }
            for index in 1...2 {
                tasks.addTask {
                    for seq in 0..<rounds {
                        try await clients[index].send(Samples.message(group: "g", sender: names[index], seq: seq))
                    }
                }
            }
            try await tasks.waitForAll()
        }
        try await clients[0].channel.closeFuture.get()
        try await eventually("every frame of b and c") {
            clients[1].sequences(from: "c").count == rounds && clients[2].sequences(from: "b").count == rounds
        }
        #expect(clients[1].sequences(from: "c") == Array(0..<rounds))
        #expect(clients[2].sequences(from: "b") == Array(0..<rounds))
        // What a sent before its malformed frame arrived, and nothing after.
        #expect(clients[1].sequences(from: "a") == Array(0..<20))
        #expect(clients[2].sequences(from: "a") == Array(0..<20))
        let statistics = server.statistics
        #expect(statistics.connectionsFailed == 1)
        #expect(clients[1].channel.isActive && clients[2].channel.isActive)

        for client in clients.dropFirst() { try await client.channel.close() }
        try await server.close()
        try await clientGroup.shutdownGracefully()
        try await serverGroup.shutdownGracefully()
    }

    /// The backpressure policy, kept beside the default (a slow member is
    /// disconnected: RelayProbeTests).
    @Test(arguments: [1, 3])
    func underTheBackpressurePolicyAMemberThatStopsReadingHoldsItsSendersBack(loops: Int) async throws {
        let (server, serverGroup) = try await startRelay(loops: loops) { $0.slowConsumerPolicy = .backpressure }
        let clientGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let port = try #require(server.localAddress.port)
        let sender = try await RelayClient(port: port, group: clientGroup)
        let reader = try await RelayClient(port: port, group: clientGroup, autoRead: false)
        try await sender.join("g", as: "sender")
        // The reader reads once, for its join's acknowledgement, then stops.
        reader.channel.read()
        try await reader.join("g", as: "reader")

        // 6,000 messages of 10 KB: far more than the socket buffers between
        // the three processes' ends hold, so the relay must stop reading.
        let count = 6_000
        let text = String(repeating: "0123456789", count: 1_000)
        let sending = Task {
            for seq in 0..<count {
                var message = Samples.message(group: "g", sender: "sender", seq: seq)
                message.elems = [.text(text)]
                sender.channel.writeAndFlush(RelayClient.frame(message), promise: nil)
                // Writes queue in the channel until it turns unwritable, then
                // the sender waits for the socket to take them.
                while !sender.channel.isWritable { try await Task.sleep(for: .milliseconds(1)) }
            }
        }
        try await eventually("the relay pausing the sender") { server.statistics.readPauses > 0 }
        try await eventually("the sender's channel filling up") { sender.sawUnwritable.withLock { $0 } }
        // Paused, the relay stops reading from the sender (the pause may come
        // and go while the kernel's buffers toward the reader still grow),
        // far short of everything sent.
        var received = server.statistics.framesReceived
        try await eventually("the relay to stop reading from the sender") {
            try await Task.sleep(for: .milliseconds(200))
            let now = server.statistics.framesReceived
            defer { received = now }
            return now == received
        }
        #expect(received < count / 2)

        // Reading again lets every frame through, in order.
        try await reader.channel.setOption(.autoRead, value: true).get()
        reader.channel.read()
        try await eventually("every frame", seconds: 60) { reader.sequences(from: "sender").count == count }
        #expect(reader.sequences(from: "sender") == Array(0..<count))
        try await sending.value

        try await sender.channel.close()
        try await reader.channel.close()
        try await server.close()
        try await clientGroup.shutdownGracefully()
        try await serverGroup.shutdownGracefully()
    }
}
