import ArgumentParser
import IMCodec
import IMCodecNIO
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// How the load clients reach the relay.
enum LoadTransport: String, ExpressibleByArgument, CaseIterable {
    /// The frame stream on the relay's TCP port.
    case tcp
    /// Binary WebSocket messages at `/frames` of the relay's web port.
    case websocket
}

/// What a client's handler reads.
enum LoadClientInput {
    /// Checked `Frame`s, from IMCodecNIO's decoders.
    case frames
    /// `ByteBuffer`s of whole frames, back to back, for a handler that reads
    /// them with its own `FrameReader`: over TCP the stream as it arrives,
    /// with no handler between, which keeps the load clients' own cost per
    /// frame low.
    case frameBytes
}

/// Connects one client to the relay. Once it returns (over WebSocket, once
/// the upgrade is done) the channel reads what `input` says into the
/// handler `makeHandler` made, and writes `ByteBuffer`s that hold whole
/// frames.
///
/// - Parameters:
///   - autoRead: Whether the channel reads by itself; a client that never
///     reads passes false.
func connectClient(
    _ transport: LoadTransport, to address: SocketAddress, on loop: EventLoop, input: LoadClientInput = .frames,
    autoRead: Bool = true, makeHandler: @escaping @Sendable () -> any ChannelHandler
) async throws -> Channel {
    let bootstrap = ClientBootstrap(group: loop)
        .channelOption(.tcpOption(.tcp_nodelay), value: 1)
        .channelOption(.autoRead, value: autoRead)
        .connectTimeout(.seconds(10))
    switch transport {
    case .tcp:
        return try await bootstrap.channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                if input == .frames {
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(IMCodecFrameDecoder()))
                }
                try channel.pipeline.syncOperations.addHandler(makeHandler())
            }
        }.connect(to: address).get()
    case .websocket:
        let upgraded = loop.makePromise(of: Void.self)
        let outcome = UpgradeOutcome(promise: upgraded)
        let channel = try await bootstrap.channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                let request = UpgradeRequest(host: address.ipAddress ?? "127.0.0.1", path: "/frames")
                let removable = NIOLoopBound(request, eventLoop: channel.eventLoop)
                let upgrader = NIOWebSocketClientUpgrader(
                    maxFrameSize: DecodingLimits.default.maxFrameBytes + FrameHeader.maxEncodedLength,
                    automaticErrorHandling: false,
                    upgradePipelineHandler: { channel, _ in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHandler(IMCodecWebSocketFrameHandler(role: .client))
                            if input == .frameBytes {
                                try channel.pipeline.syncOperations.addHandler(FrameBytes())
                            }
                            try channel.pipeline.syncOperations.addHandler(makeHandler())
                            outcome.complete(.success(()))
                        }
                    })
                try channel.pipeline.syncOperations.addHTTPClientHandlers(
                    withClientUpgrade: (
                        upgraders: [upgrader],
                        completionHandler: { context in
                            context.pipeline.syncOperations.removeHandler(removable.value, promise: nil)
                        }
                    ))
                try channel.pipeline.syncOperations.addHandler(request)
                channel.closeFuture.whenComplete { _ in outcome.complete(.failure(ChannelError.ioOnClosedChannel)) }
            }
        }.connect(to: address).get()
        if !autoRead { channel.read() }
        try await upgraded.futureResult.get()
        return channel
    }
}

/// Completes the upgrade's promise once: with success when the pipeline is
/// upgraded, or with failure when the channel closes first.
private final class UpgradeOutcome: @unchecked Sendable {
    // @unchecked: `done` is touched on the channel's event loop only.
    private let promise: EventLoopPromise<Void>
    private var done = false

    init(promise: EventLoopPromise<Void>) {
        self.promise = promise
    }

    func complete(_ result: Result<Void, Error>) {
        promise.futureResult.eventLoop.preconditionInEventLoop()
        guard !done else { return }
        done = true
        promise.completeWith(result)
    }
}

/// Sends the upgrade request as soon as the connection is up.
private final class UpgradeRequest: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let host: String
    private let path: String

    init(host: String, path: String) {
        self.host = host
        self.path = path
    }

    func channelActive(context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: host)
        headers.add(name: "Content-Length", value: "0")
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // A response that is not the upgrade: the endpoint refused it.
        context.close(promise: nil)
    }
}

/// Passes each frame on as the bytes it arrived as.
private final class FrameBytes: ChannelInboundHandler {
    typealias InboundIn = Frame
    typealias InboundOut = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(wrapInboundOut(ByteBuffer(bytes: unwrapInboundIn(data).bytes)))
    }
}
