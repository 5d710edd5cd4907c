import Foundation
import IMCodec
import IMCodecNIO
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import RelayServer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a raw WebSocket client received.
struct WebSocketLog: Sendable {
    var messages: [[UInt8]] = []
    var close: (code: UInt16, reason: String)?
    var isClosed = false
}

/// A WebSocket client that sends WebSocket frames as given and records the
/// binary messages and the close frame it receives.
final class WebSocketClient: Sendable {
    let channel: Channel
    let log = Locked(WebSocketLog())

    init(port: Int, group: EventLoopGroup, path: String = "/frames") async throws {
        let log = self.log
        let upgraded = group.next().makePromise(of: Void.self)
        channel = try await ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let request = UpgradeRequester(path: path)
                    let requester = NIOLoopBound(request, eventLoop: channel.eventLoop)
                    let upgrader = NIOWebSocketClientUpgrader(
                        maxFrameSize: 8 << 20, automaticErrorHandling: false,
                        upgradePipelineHandler: { channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                try channel.pipeline.syncOperations.addHandler(WebSocketRecorder(log: log))
                                upgraded.succeed()
                            }
                        })
                    try channel.pipeline.syncOperations.addHTTPClientHandlers(
                        withClientUpgrade: (
                            upgraders: [upgrader],
                            completionHandler: { context in
                                context.pipeline.syncOperations.removeHandler(requester.value, promise: nil)
                            }
                        ))
                    try channel.pipeline.syncOperations.addHandler(request)
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        try await upgraded.futureResult.get()
    }

    func send(_ opcode: WebSocketOpcode, _ bytes: [UInt8], fin: Bool = true) async throws {
        try await channel.writeAndFlush(
            WebSocketFrame(fin: fin, opcode: opcode, maskKey: .random(), data: ByteBuffer(bytes: bytes)))
    }

    func send(_ message: Message) async throws { try await send(.binary, Samples.frame(.message(message))) }

    func join(_ group: String, as user: String) async throws {
        try await send(Message(from: user, toGroup: group, elems: []))
        try await eventually("the join of \(user)") { !messages.isEmpty }
    }

    var messages: [Message] {
        log.withLock { $0.messages }.compactMap { bytes in
            if case .message(let message)? = try? FrameDecoder().decode(bytes) { message } else { nil }
        }
    }

    func sequences(from sender: String) -> [Int] {
        messages.filter { $0.sender == sender && !$0.elems.isEmpty }.map { Int($0.seq) }
    }
}

private final class UpgradeRequester: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart
    let path: String

    init(path: String) {
        self.path = path
    }

    func channelActive(context: ChannelHandlerContext) {
        let headers: HTTPHeaders = ["Host": "127.0.0.1", "Content-Length": "0"]
        context.write(
            wrapOutboundOut(.head(HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers))),
            promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.close(promise: nil)
    }
}

private final class WebSocketRecorder: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    let log: Locked<WebSocketLog>

    init(log: Locked<WebSocketLog>) {
        self.log = log
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        var bytes = frame.unmaskedData
        switch frame.opcode {
        case .binary:
            log.withLock { $0.messages.append(bytes.readBytes(length: bytes.readableBytes) ?? []) }
        case .connectionClose:
            let code = bytes.readInteger(as: UInt16.self) ?? 0
            let reason = bytes.readString(length: bytes.readableBytes) ?? ""
            log.withLock { $0.close = (code, reason) }
        default:
            break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        log.withLock { $0.isClosed = true }
        context.fireChannelInactive()
    }
}

/// The relay's WebSocket endpoint and chat page over loopback, beside TCP
/// clients in the same groups.
@Suite(.serialized) struct RelayWebSocketTests {
    func startRelay() async throws -> RelayHarness {
        try await RelayHarness { $0.webPort = 0 }
    }

    @Test func webSocketAndTCPClientsShareAGroupAndReceiveTheSendersBytes() async throws {
        let relay = try await startRelay()
        let webPort = try #require(relay.server.webAddress?.port)
        let web = try await WebSocketClient(port: webPort, group: relay.clientGroup)
        let tcp = try await relay.client()
        try await web.join("room", as: "web")
        try await tcp.join("room", as: "tcp")
        // A deflated frame from the TCP client reaches the page as its
        // exact bytes, one message per frame.
        let large = Samples.message(group: "room", sender: "tcp", seq: 0, textBytes: 2_000)
        let sent = Samples.frame(.message(large), with: FrameEncoder())
        #expect(try FrameDecoder().decodeFrame(sent).header.compression == .deflate)
        try await tcp.channel.writeAndFlush(ByteBuffer(bytes: sent))
        for seq in 1..<200 { try await tcp.send(Samples.message(group: "room", sender: "tcp", seq: seq)) }
        for seq in 0..<200 { try await web.send(Samples.message(group: "room", sender: "web", seq: seq)) }
        try await eventually("both ways") {
            web.sequences(from: "tcp").count == 200 && tcp.sequences(from: "web").count == 200
        }
        #expect(web.sequences(from: "tcp") == Array(0..<200))
        #expect(tcp.sequences(from: "web") == Array(0..<200))
        #expect(web.log.withLock { $0.messages[1] } == sent)
        try await relay.shutdown()
    }

    @Test func aMalformedMessageClosesOnlyItsSocketWithItsCode() async throws {
        let relay = try await startRelay()
        let webPort = try #require(relay.server.webAddress?.port)
        let first = try await WebSocketClient(port: webPort, group: relay.clientGroup)
        let second = try await WebSocketClient(port: webPort, group: relay.clientGroup)
        let bad = try await WebSocketClient(port: webPort, group: relay.clientGroup)
        let text = try await WebSocketClient(port: webPort, group: relay.clientGroup)
        try await first.join("room", as: "first")
        try await second.join("room", as: "second")
        try await bad.join("room", as: "bad")
        try await bad.send(.binary, Samples.corruptFrame())
        try await text.send(.text, Array("hello".utf8))
        for seq in 0..<100 { try await first.send(Samples.message(group: "room", sender: "first", seq: seq)) }
        try await eventually("the bad sockets closed", seconds: 5) {
            bad.log.withLock { $0.isClosed } && text.log.withLock { $0.isClosed }
        }
        #expect(bad.log.withLock { $0.close?.code } == 1007)
        #expect(bad.log.withLock { $0.close?.reason } == "frame.checksum")
        #expect(text.log.withLock { $0.close?.code } == 1003)
        #expect(text.log.withLock { $0.close?.reason } == "connection.websocket-text")
        try await eventually("first's messages") { second.sequences(from: "first").count == 100 }
        #expect(second.sequences(from: "first") == Array(0..<100))
        #expect(!first.log.withLock { $0.isClosed } && !second.log.withLock { $0.isClosed })
        try await relay.closesLogged(["connection.websocket-text", "frame.checksum"])
        #expect(relay.closeReasons.sorted() == ["connection.websocket-text", "frame.checksum"])
        try await relay.shutdown()
    }

    @Test func aRejectionReachesThePageAsAFrame() async throws {
        let relay = try await startRelay()
        let webPort = try #require(relay.server.webAddress?.port)
        let page = try await WebSocketClient(port: webPort, group: relay.clientGroup)
        try await page.join("room", as: "page")
        try await page.send(Samples.message(group: "room", sender: "someone-else"))
        try await eventually("the rejection") { page.messages.count == 2 }
        let body = try #require(page.messages.last.flatMap { RelayRejection.body(of: $0) })
        #expect(body.findings.map(\.code) == ["relay.sender-mismatch"])
        try await relay.shutdown()
    }

    @Test func servesTheChatPageAndTheJavaScriptItRunsOn() async throws {
        let relay = try await startRelay()
        let base = "http://127.0.0.1:\(try #require(relay.server.webAddress?.port))"
        func get(_ path: String, method: String = "GET") async throws -> (status: Int, type: String, body: String) {
            var request = URLRequest(url: try #require(URL(string: base + path)))
            request.httpMethod = method
            let (data, response) = try await URLSession.shared.data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            return (
                http.statusCode, http.value(forHTTPHeaderField: "Content-Type") ?? "",
                String(decoding: data, as: UTF8.self)
            )
        }
        let page = try await get("/")
        #expect(page.status == 200 && page.type.hasPrefix("text/html"))
        for id in ["user", "group", "join", "text", "send", "log", "status"] {
            #expect(page.body.contains("id=\"\(id)\""), "the page has #\(id)")
        }
        let script = try await get("/chat.js")
        #expect(script.status == 200 && script.type.hasPrefix("text/javascript"))
        #expect(script.body.contains("window.imcodecChat"))
        let library = try await get("/js/src/api.js")
        #expect(library.status == 200 && library.body.contains("decodeFramePayload"))
        #expect(try await get("/js/generated/model.js").status == 200)
        #expect(try await get("/../Package.swift").status == 404)
        #expect(try await get("/frames").status == 404)
        #expect(try await get("/", method: "POST").status == 405)
        try await relay.shutdown()
    }
}
