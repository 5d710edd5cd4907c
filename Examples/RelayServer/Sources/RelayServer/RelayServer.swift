import IMCodec
import IMCodecNIO
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import ServiceLifecycle

/// A relay of IM frames over TCP and WebSocket, built as a chat server:
/// clients join groups and send group messages; the server checks every
/// frame, validates every message against a profile and forwards its bytes
/// unchanged to the other members of its group.
///
/// The protocol is frames only, the same on both transports (on WebSocket,
/// one frame per binary message at `/frames` of the HTTP listener). A group
/// message without elems is a join: the sender becomes a member and gets the
/// join back as its acknowledgement, and the connection is bound to that
/// sender. Any other group message from a member is validated and, when the
/// profile finds no error, delivered to every other member. Whatever is
/// refused is answered to its sender with a ``RelayRejection`` reply. A
/// malformed frame or payload closes only the connection that sent it.
///
/// Every connection is guarded (``RelayConfiguration``): an idle timeout, a
/// partial-frame timeout, a bound on what is queued toward it (a slow member
/// is disconnected), a cap on connections and a budget of buffered bytes
/// across them. Every open, join, close (with its reason) and rejection is
/// logged, and counted in swift-metrics.
///
/// A `Service` of swift-service-lifecycle: ``run()`` serves until a graceful
/// shutdown, then stops accepting, lets every connection write what is
/// queued for it and closes it (``shutdown()``). The group table is on one
/// event loop, which keeps it free of locks; the connections can be on
/// others (one per core), where each inflates, decodes and validates its
/// own frames, so that one sender's frames hold up its own loop only; and a
/// frame whose payload declares at least
/// ``RelayConfiguration/offLoopPayloadBytes`` is checked on a thread of
/// NIO's shared pool, so that a sender of costly frames holds up no one but
/// itself.
public final class RelayServer: Service, Sendable {
    /// The address of the frame stream, with the port the system chose.
    public let localAddress: SocketAddress
    /// The address of the HTTP listener (chat page and WebSocket), when
    /// there is one.
    public let webAddress: SocketAddress?
    /// The address of the metrics listener, when there is one.
    public let metricsAddress: SocketAddress?
    private let channel: Channel
    private let webChannel: Channel?
    private let metricsChannel: Channel?
    private let hub: RelayHub

    private init(channel: Channel, webChannel: Channel?, metricsChannel: Channel?, hub: RelayHub) throws {
        guard let address = channel.localAddress else { throw ChannelError.unknownLocalAddress }
        localAddress = address
        webAddress = webChannel?.localAddress
        metricsAddress = metricsChannel?.localAddress
        self.channel = channel
        self.webChannel = webChannel
        self.metricsChannel = metricsChannel
        self.hub = hub
    }

    /// Starts listening.
    ///
    /// - Parameters:
    ///   - configuration: The addresses, profile, limits, bounds and
    ///     observability.
    ///   - eventLoop: The loop of the listeners and of the shutdown's grace
    ///     period; the group table has no loop (it is used under a lock).
    ///   - connectionLoops: The loops the connections run on, each on one
    ///     of them in turn; `nil` runs them on `eventLoop` too.
    /// - Returns: The running server.
    /// - Throws: What binding an address throws, or reading the chat page's
    ///   files when there is an HTTP listener.
    public static func start(
        configuration: RelayConfiguration, on eventLoop: EventLoop, connectionsOn connectionLoops: EventLoopGroup? = nil
    ) async throws -> RelayServer {
        let hub = RelayHub(eventLoop: eventLoop, configuration: configuration)
        let children = connectionLoops ?? eventLoop
        let channel = try await ServerBootstrap(group: eventLoop, childGroup: children)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                hub.admit(channel, web: false).flatMapThrowing { admitted in
                    guard admitted else { throw RelayRefused() }
                    let pipeline = channel.pipeline.syncOperations
                    try addGuards(pipeline, configuration)
                    try pipeline.addHandler(
                        ByteToMessageHandler(
                            IMCodecUncheckedFrameDecoder(
                                limits: configuration.limits, partialFrameTimeout: configuration.partialFrameTimeout,
                                budget: hub.budget)))
                    try pipeline.addHandler(
                        RelayConnection(hub: hub, transport: .tcp, eventLoop: channel.eventLoop))
                }
            }
            .bind(host: configuration.host, port: configuration.port)
            .get()
        var webChannel: Channel?
        var metricsChannel: Channel?
        do {
            if let webPort = configuration.webPort {
                webChannel = try await bindWeb(
                    port: webPort, hub: hub, configuration: configuration, on: eventLoop, children: children)
            }
            if let metricsPort = configuration.metricsPort {
                metricsChannel = try await bindMetrics(
                    port: metricsPort, hub: hub, configuration: configuration, on: eventLoop, children: children)
            }
        } catch {
            try? await channel.close()
            try? await webChannel?.close()
            throw error
        }
        do {
            let server = try RelayServer(
                channel: channel, webChannel: webChannel, metricsChannel: metricsChannel, hub: hub)
            configuration.logger.info(
                "listening",
                metadata: [
                    "tcp": "\(server.localAddress)", "web": "\(server.webAddress.map { "\($0)" } ?? "none")",
                    "metrics": "\(server.metricsAddress.map { "\($0)" } ?? "none")",
                ])
            return server
        } catch {
            try? await channel.close()
            try? await webChannel?.close()
            try? await metricsChannel?.close()
            throw error
        }
    }

    /// The HTTP listener: the chat page's files, `/metrics`, and the
    /// WebSocket upgrade at `/frames`.
    private static func bindWeb(
        port: Int, hub: RelayHub, configuration: RelayConfiguration, on eventLoop: EventLoop,
        children: EventLoopGroup
    ) async throws -> Channel {
        let content = try RelayWebContent(configuration.web)
        let metrics = configuration.metricsExposition
        return try await ServerBootstrap(group: eventLoop, childGroup: children)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                hub.admit(channel, web: true).flatMapThrowing { admitted in
                    guard admitted else { throw RelayRefused() }
                    let pipeline = channel.pipeline.syncOperations
                    try addGuards(pipeline, configuration)
                    let http = RelayHTTPHandler(content: content, metrics: metrics, hub: hub)
                    let removable = NIOLoopBound(http, eventLoop: channel.eventLoop)
                    let upgrader = NIOWebSocketServerUpgrader.imcodec(
                        limits: configuration.limits,
                        shouldUpgrade: { channel, head in
                            let path = head.uri.prefix { $0 != "?" }
                            return channel.eventLoop.makeSucceededFuture(path == "/frames" ? HTTPHeaders() : nil)
                        },
                        upgradePipelineHandler: { channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                let pipeline = channel.pipeline.syncOperations
                                try pipeline.addHandler(
                                    IMCodecWebSocketUncheckedFrameHandler(
                                        limits: configuration.limits,
                                        partialFrameTimeout: configuration.partialFrameTimeout, budget: hub.budget))
                                try pipeline.addHandler(
                                    RelayConnection(hub: hub, transport: .webSocket, eventLoop: channel.eventLoop))
                            }
                        })
                    try pipeline.configureHTTPServerPipeline(
                        withServerUpgrade: (
                            upgraders: [upgrader],
                            completionHandler: { context in
                                context.pipeline.syncOperations.removeHandler(removable.value, promise: nil)
                            }
                        ))
                    if let timeout = configuration.requestHeadTimeout {
                        // Taken out by the upgrader when the connection upgrades.
                        try pipeline.addHandler(IMCodecRequestHeadTimeoutHandler(timeout: timeout))
                    }
                    try pipeline.addHandler(http)
                }
            }
            .bind(host: configuration.host, port: port)
            .get()
    }

    /// The metrics listener: `GET /metrics` only, under its own small cap
    /// and outside the connection caps, with the request-head and idle
    /// timeouts.
    private static func bindMetrics(
        port: Int, hub: RelayHub, configuration: RelayConfiguration, on eventLoop: EventLoop,
        children: EventLoopGroup
    ) async throws -> Channel {
        let metrics = configuration.metricsExposition
        return try await ServerBootstrap(group: eventLoop, childGroup: children)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                hub.admit(channel, web: false, metricsOnly: true).flatMapThrowing { admitted in
                    guard admitted else { throw RelayRefused() }
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addIMCodecIdleTimeout(configuration.idleTimeout ?? .seconds(120))
                    try pipeline.configureHTTPServerPipeline()
                    try pipeline.addHandler(
                        IMCodecRequestHeadTimeoutHandler(timeout: configuration.requestHeadTimeout ?? .seconds(10)))
                    try pipeline.addHandler(RelayHTTPHandler(content: RelayWebContent(), metrics: metrics, hub: hub))
                }
            }
            .bind(host: configuration.host, port: port)
            .get()
    }

    /// The guards in front of every connection, next to the socket: the
    /// idle timeout and the bound on what is queued toward the peer.
    private static func addGuards(
        _ pipeline: ChannelPipeline.SynchronousOperations, _ configuration: RelayConfiguration
    ) throws {
        try pipeline.addHandler(
            IMCodecOutboundLimitHandler(
                maxQueuedBytes: configuration.maxQueuedBytesPerConnection, policy: configuration.slowConsumerPolicy))
        if let idle = configuration.idleTimeout {
            try pipeline.addIMCodecIdleTimeout(idle)
        }
    }

    /// What the server has done so far: the counts as the hub's lock is
    /// next taken.
    public var statistics: RelayStatistics { hub.statistics }

    /// The bytes of incomplete frames the connections hold now, in the
    /// shared budget.
    public var bufferedBytes: Int { hub.budget.reservedBytes }

    /// Serves until a graceful shutdown (SIGTERM or SIGINT through a
    /// `ServiceGroup`), then shuts down as ``shutdown()`` does.
    ///
    /// - Throws: What closing the listening sockets throws.
    public func run() async throws {
        // Serving happens on the event loop; this task only waits for the
        // signal, or for the listeners to close some other way.
        await withGracefulShutdownHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                channel.closeFuture.whenComplete { _ in continuation.resume() }
            }
        } onGracefulShutdown: {
            self.channel.close(promise: nil)
        }
        try await shutdown()
    }

    /// Stops listening, lets every connection write what is queued for it
    /// and closes it (a WebSocket with close code 1001), and closes those
    /// still open after ``RelayConfiguration/shutdownGracePeriod``; every
    /// close is logged with the reason `connection.shutdown`.
    ///
    /// - Throws: What closing the listening sockets throws.
    public func shutdown() async throws {
        try? await channel.close()
        try? await webChannel?.close()
        try? await metricsChannel?.close()
        try await hub.drain().get()
    }

    /// Stops listening; connections already open stay open until their
    /// clients close them, the server shuts down or its event loop does.
    ///
    /// - Throws: What closing the listening sockets throws.
    public func close() async throws {
        try await channel.close()
        try await webChannel?.close()
        try await metricsChannel?.close()
    }
}

/// The error a connection over the cap is closed with by its initializer.
struct RelayRefused: Error {}
