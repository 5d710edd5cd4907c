import ArgumentParser
import CoreMetrics
import IMCodec
import IMCodecNIO
import IMCodecValidation
import Logging
import NIOCore
import NIOPosix
import Prometheus
import RelayServer
import ServiceLifecycle

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(CMalloc)
    import CMalloc
#endif

/// Runs the relay server until it is sent SIGINT or SIGTERM, then drains it
/// and prints what it did.
@main
struct RelayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imcodec-relay",
        abstract: "Relays IM frames between the members of groups over TCP and WebSocket, validating every message.",
        discussion: """
            Prints `port N` (and `web port N`) once listening; logs every connection's open, join, close \
            (with its reason) and rejection to standard error; serves Prometheus metrics at /metrics of the \
            web port. SIGTERM or SIGINT drains the connections and exits.
            """
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The TCP port of the frame stream; 0 lets the system choose and prints it.")
    var port = 0

    @Option(help: "The HTTP port of the chat page, /metrics and the WebSocket endpoint /frames; none by default.")
    var webPort: Int?

    @Option(help: "The HTTP port of a listener serving /metrics only, outside the connection caps; none by default.")
    var metricsPort: Int?

    @Option(help: "The most connections open at once from one IP address.")
    var maxConnectionsPerAddress = RelayConfiguration().maxConnectionsPerAddress

    @Option(help: "The validation profile: \(ValidationLimits.profileNames.joined(separator: ", ")).")
    var profile = "sdk-guide"

    @Flag(help: "Frame each payload again (uncompressed with --no-compression) instead of forwarding its bytes.")
    var reframe = false

    @Flag(help: "With --reframe: frame payloads uncompressed.")
    var noCompression = false

    @Flag(help: "Write each forwarded frame to each member as it is read, instead of once per read burst.")
    var noCoalesce = false

    @Option(help: "The most connections open at once.")
    var maxConnections = RelayConfiguration().maxConnections

    @Option(help: "The bytes of incomplete frames all connections together may hold.")
    var maxBufferedBytes = RelayConfiguration().maxBufferedBytes

    @Option(help: "The bytes queued toward one member before it counts as slow.")
    var maxQueuedBytes = RelayConfiguration().maxQueuedBytesPerConnection

    @Option(help: "What happens to a slow member: disconnect, drop or backpressure.")
    var slowConsumer = "disconnect"

    @Option(help: "Seconds a connection may send nothing; 0 for no limit.")
    var idleTimeout = 120

    @Option(help: "Seconds a frame may take to arrive from its first byte; 0 for no limit.")
    var partialFrameTimeout = 10

    @Option(help: "Seconds an HTTP request head (a WebSocket upgrade request) may take to arrive; 0 for no limit.")
    var requestHeadTimeout = 10

    @Option(help: "The frames one connection may send per second before it is read more slowly; 0 for no limit.")
    var maxFramesPerSecond = RelayConfiguration().maxFramesPerSecond ?? 0

    @Option(help: "The frame bytes one connection may send per second; 0 for no limit.")
    var maxBytesPerSecond = RelayConfiguration().maxBytesPerSecond ?? 0

    @Option(help: "The bytes one connection's frames may inflate to per second; 0 for no limit.")
    var maxInflatedBytesPerSecond = RelayConfiguration().maxInflatedBytesPerSecond ?? 0

    @Option(
        help: """
            The payload size, as a frame's header declares it, from which a frame is inflated, decoded and \
            validated on a thread pool instead of its connection's event loop; 0 checks every frame on its loop.
            """)
    var offLoopBytes = RelayConfiguration().offLoopPayloadBytes ?? 0

    @Option(help: "The longest group ID a join may name, in bytes.")
    var maxGroupIDBytes = RelayConfiguration().maxGroupIDBytes

    @Option(help: "The longest user ID (sender) a join or message may name, in bytes.")
    var maxUserIDBytes = RelayConfiguration().maxUserIDBytes

    @Option(help: "How many groups one connection may join.")
    var maxGroupsPerConnection = RelayConfiguration().maxGroupsPerConnection

    @Option(help: "A file whose bytes are the secret that signs login tickets (HMAC-SHA256).")
    var ticketSecretFile: String?

    @Flag(help: "Log users in without tickets, as whatever user a first join names: for the chat page and demos only.")
    var insecureDemo = false

    @Option(help: "Print a login ticket for this user, signed with --ticket-secret-file, and exit.")
    var issueTicket: String?

    @Option(help: "With --issue-ticket: seconds the ticket is valid.")
    var ticketLifetime = 86_400

    @Option(help: "The chat page's folder (Examples/RelayServer/Web of this checkout by default).")
    var pageDirectory: String?

    @Option(help: "The JavaScript implementation's folder (js/ of this checkout by default).")
    var jsDirectory: String?

    @Option(
        help: """
            The event loops the connections run on, where each inflates, decodes, validates and routes its \
            frames; the listeners share the first. 1 runs everything on one loop. The number of cores by default.
            """)
    var eventLoops = System.coreCount

    @Option(help: "The log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    func validate() throws {
        guard (ticketSecretFile != nil) != insecureDemo else {
            throw ValidationError("give --ticket-secret-file to verify login tickets, or --insecure-demo to take none")
        }
        guard issueTicket == nil || ticketSecretFile != nil else {
            throw ValidationError("--issue-ticket signs with --ticket-secret-file")
        }
        guard ValidationLimits.profile(named: profile) != nil else {
            throw ValidationError("unknown profile \(profile); known: \(ValidationLimits.profileNames)")
        }
        guard policy != nil else { throw ValidationError("--slow-consumer is disconnect, drop or backpressure") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown log level \(logLevel)") }
        guard maxConnections >= 1, maxConnectionsPerAddress >= 1, maxBufferedBytes >= 0, maxQueuedBytes >= 2,
            idleTimeout >= 0, partialFrameTimeout >= 0, requestHeadTimeout >= 0, maxGroupIDBytes >= 1,
            maxUserIDBytes >= 1, maxGroupsPerConnection >= 1, eventLoops >= 1, offLoopBytes >= 0
        else { throw ValidationError("the bounds must be positive") }
    }

    private var policy: IMCodecOutboundLimitHandler.Policy? {
        switch slowConsumer {
        case "disconnect": .disconnect
        case "drop": .drop
        case "backpressure": .backpressure
        default: nil
        }
    }

    /// The secret's bytes, at least 16 of them.
    private func secret(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path), data.count >= 16 else {
            throw ValidationError("\(path): a ticket secret of at least 16 bytes")
        }
        return Array(data)
    }

    func run() async throws {
        if let user = issueTicket, let path = ticketSecretFile {
            let expiry = Int64(Date().timeIntervalSince1970) + Int64(ticketLifetime)
            print(RelayTicket.issue(user: user, expiry: expiry, secret: try secret(path)))
            return
        }
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))

        var configuration = RelayConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.webPort = webPort
        configuration.metricsPort = metricsPort
        configuration.maxConnectionsPerAddress = maxConnectionsPerAddress
        // validate() has refused any name that is not a profile's.
        configuration.profile = ValidationLimits.profile(named: profile) ?? .sdkGuide
        if reframe { configuration.forwarding = .reframed(noCompression ? .disabled : .default) }
        configuration.coalescesWrites = !noCoalesce
        configuration.maxConnections = maxConnections
        configuration.maxBufferedBytes = maxBufferedBytes
        configuration.maxQueuedBytesPerConnection = maxQueuedBytes
        configuration.slowConsumerPolicy = policy ?? .disconnect
        configuration.idleTimeout = idleTimeout > 0 ? .seconds(Int64(idleTimeout)) : nil
        configuration.partialFrameTimeout = partialFrameTimeout > 0 ? .seconds(Int64(partialFrameTimeout)) : nil
        configuration.requestHeadTimeout = requestHeadTimeout > 0 ? .seconds(Int64(requestHeadTimeout)) : nil
        configuration.maxGroupIDBytes = maxGroupIDBytes
        configuration.maxUserIDBytes = maxUserIDBytes
        configuration.maxFramesPerSecond = maxFramesPerSecond > 0 ? maxFramesPerSecond : nil
        configuration.maxBytesPerSecond = maxBytesPerSecond > 0 ? maxBytesPerSecond : nil
        configuration.maxInflatedBytesPerSecond = maxInflatedBytesPerSecond > 0 ? maxInflatedBytesPerSecond : nil
        configuration.offLoopPayloadBytes = offLoopBytes > 0 ? offLoopBytes : nil
        configuration.identity = try ticketSecretFile.map { .tickets(secret: try secret($0)) } ?? .insecureDemo
        configuration.maxGroupsPerConnection = maxGroupsPerConnection
        if let pageDirectory { configuration.web.pageDirectory = pageDirectory }
        if let jsDirectory { configuration.web.jsDirectory = jsDirectory }
        configuration.metricsExposition = { registry.emitToString() }
        let logger = Logger(label: "imcodec-relay")
        configuration.logger = logger
        returnsLargeBuffersToTheSystem()

        // One loop per core; the listeners share the first.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: eventLoops)
        let server = try await RelayServer.start(
            configuration: configuration, on: group.next(), connectionsOn: eventLoops > 1 ? group : nil)
        print("listening on \(server.localAddress)")
        if let port = server.localAddress.port { print("port \(port)") }
        if let port = server.webAddress?.port { print("web port \(port)") }
        if let port = server.metricsAddress?.port { print("metrics port \(port)") }
        // Scripts wait for the port lines; stdout is a pipe there, not a terminal.
        fflush(nil)

        let services = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [.init(service: server)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await services.run()
        let statistics = server.statistics
        let closes = statistics.closes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        print(
            """
            connections \(statistics.connections), refused \(statistics.connectionsRefused), \
            frames received \(statistics.framesReceived), delivered \(statistics.framesDelivered), \
            rejected \(statistics.messagesRejected), unrouted \(statistics.framesUnrouted), \
            joins refused \(statistics.joinsRefused), failed connections \(statistics.connectionsFailed), \
            slow consumers disconnected \(statistics.slowConsumerDisconnects), read pauses \(statistics.readPauses), \
            throttles \(statistics.throttles)
            closes: \(closes.joined(separator: ", "))
            """)
        try await group.shutdownGracefully()
    }

    /// Keeps glibc's threshold for allocating from `mmap` at its default of
    /// 128 KiB, unless the environment sets it (`MALLOC_MMAP_THRESHOLD_`, or
    /// `glibc.malloc.mmap_threshold` in `GLIBC_TUNABLES`). Left to itself,
    /// glibc raises the threshold to the size of each mapped block freed (up
    /// to 32 MiB), so after the first large frame a connection drops, the
    /// buffers of large frames come from the heap, whose freed pages stay
    /// resident: the relay's memory would then follow what it once held
    /// rather than what it holds, past the buffer budget
    /// (`RelayMemoryTests`).
    private func returnsLargeBuffersToTheSystem() {
        #if canImport(CMalloc)
            let environment = ProcessInfo.processInfo.environment
            guard environment["MALLOC_MMAP_THRESHOLD_"] == nil,
                environment["GLIBC_TUNABLES"]?.contains("glibc.malloc.mmap_threshold") != true
            else { return }
            _ = mallopt(M_MMAP_THRESHOLD, 128 << 10)
        #endif
    }
}
