import CoreMetrics
import IMCodec
import IMCodecNIO
import IMCodecValidation
import Logging
import NIOCore

/// What a relay server checks, how it forwards, and the bounds it keeps.
///
/// Every bound is on by default; each is in `Servers.md` ("The example
/// relay") with what a client that reaches it gets.
public struct RelayConfiguration: Sendable {
    /// How fanned-out frames are written.
    public enum Forwarding: Sendable, Hashable {
        /// The bytes each frame arrived as, in one buffer shared by every
        /// member: the default.
        case unchanged
        /// The payload framed again under a policy, once per message (the
        /// relay before forwarding existed; kept to compare the two).
        case reframed(CompressionPolicy)
    }

    /// How a connection proves the user it logs in as.
    public enum Identity: Sendable {
        /// A login ticket (``RelayTicket``) in the first join's
        /// `cloudCustomData`, signed with `secret` for the join's sender and
        /// not expired. An expired one is answered with the seeds'
        /// signature-expired user status event; a connection whose ticket
        /// expires while it is open gets the same event and is closed.
        case tickets(secret: [UInt8])
        /// No proof: a connection logs in as whatever user its first join
        /// names. For the chat page and local demos only (`--insecure-demo`).
        case insecureDemo
    }

    /// The address to listen on; the loopback address by default.
    public var host = "127.0.0.1"
    /// The TCP port of the frame stream; 0 lets the system choose one.
    public var port = 0
    /// The port of the HTTP listener that serves the chat page and upgrades
    /// `/frames` to WebSocket; `nil` (the default) for none, 0 to let the
    /// system choose.
    public var webPort: Int?
    /// The files the HTTP listener serves: the chat page and the
    /// JavaScript implementation it runs on.
    public var web = RelayWebFiles()
    /// The profile every message and join is validated against: sdk-guide,
    /// the library's default.
    public var profile: ValidationLimits = .sdkGuide
    /// The limits every inbound frame and payload is checked against.
    public var limits: DecodingLimits = .default
    /// How fanned-out frames are written; unchanged by default.
    public var forwarding: Forwarding = .unchanged
    /// Whether the frames one read burst of a sender forwards to a group
    /// are gathered into one buffer, written once to each member when the
    /// burst ends (or the sender turns to another group): the default.
    /// Otherwise each frame is written to each member as it is read.
    /// Forwarding unchanged only; every member still receives exactly the
    /// bytes each frame arrived as, in the order they arrived.
    public var coalescesWrites = true
    /// How many groups one connection may join.
    public var maxGroupsPerConnection = 64
    /// The longest group ID a join or a message may name, in UTF-8 bytes,
    /// whatever the profile allows.
    public var maxGroupIDBytes = 128
    /// How logins are verified: tickets signed with a secret made at random
    /// when the configuration is created (so nobody can log in until the
    /// embedding program shares it, or sets its own), unless set otherwise.
    ///
    /// Whatever the mode, a user is logged in on one connection at a time:
    /// a second login of the same user forces the first connection offline
    /// with the seeds' forced-offline user status event.
    public var identity: Identity = .tickets(secret: (0..<32).map { _ in UInt8.random(in: 0...255) })
    /// The longest user ID (a join's or a message's sender) the relay
    /// accepts, in UTF-8 bytes, whatever the profile allows: 32, the limit
    /// Tencent documents for user IDs (the `current` profile's).
    public var maxUserIDBytes = 32
    /// How often a refusal a peer can repeat at will (a refused connection,
    /// a rejected message, by reason or code) is logged: one line per
    /// interval, which counts the lines left out; one second by default.
    public var refusalLogInterval: TimeAmount = .seconds(1)
    /// The frames one connection may send per second, on average over a
    /// second (a token bucket); past it the relay stops reading from the
    /// connection until it is back within the rate. 2,000 by default;
    /// `nil` for no limit.
    public var maxFramesPerSecond: Int? = 2_000
    /// The frame bytes one connection may send per second, as received;
    /// 8 MiB by default, `nil` for no limit.
    public var maxBytesPerSecond: Int? = 8 << 20
    /// The payload bytes one connection's frames may inflate to per second:
    /// the inflate work it may ask of the relay. 32 MiB by default, `nil`
    /// for no limit.
    public var maxInflatedBytesPerSecond: Int? = 32 << 20
    /// The payload size, as a frame's header declares it, from which a
    /// frame is inflated, decoded and validated on a thread of NIO's shared
    /// thread pool instead of on its connection's event loop, so that one
    /// sender's costly frames hold up no other connection of that loop;
    /// the connection reads nothing more, and its later frames wait, until
    /// the check is done. 64 KiB by default (a chat message's body is at
    /// most 12 KiB in the `current` profile); `nil` checks every frame on
    /// its loop.
    public var offLoopPayloadBytes: Int? = 64 << 10
    /// How many connections (TCP, WebSocket and plain HTTP together) may be
    /// open; one more is closed as soon as it is accepted.
    public var maxConnections = 1024
    /// How many of those connections may come from one IP address; one
    /// more from it is closed as soon as it is accepted, so that one host's
    /// idle sockets cannot lock everyone else out. 64 by default.
    public var maxConnectionsPerAddress = 64
    /// The port of a listener that serves `GET /metrics` only, outside the
    /// connection caps (it has its own: ``maxMetricsConnections``), so that
    /// the metrics stay readable while the caps turn clients away; `nil`
    /// (the default) for none, 0 to let the system choose.
    public var metricsPort: Int?
    /// How many connections the metrics listener keeps open at once.
    public var maxMetricsConnections = 8
    /// The bytes of incomplete frames every connection together may hold
    /// (an `IMCodecBufferBudget`); 64 MiB by default.
    public var maxBufferedBytes = 64 << 20
    /// The bytes queued toward one member before it counts as slow; 1 MiB.
    public var maxQueuedBytesPerConnection = 1 << 20
    /// What happens to a slow member: disconnected by default.
    public var slowConsumerPolicy: IMCodecOutboundLimitHandler.Policy = .disconnect
    /// How long a connection may send nothing; 120 seconds by default.
    public var idleTimeout: TimeAmount? = .seconds(120)
    /// How long a frame may take to arrive, from its first byte; 10 seconds
    /// by default.
    public var partialFrameTimeout: TimeAmount? = .seconds(10)
    /// How long an HTTP request head (the WebSocket upgrade request among
    /// them) may take to arrive whole, from the connection's start or the
    /// end of the request before; 10 seconds by default.
    public var requestHeadTimeout: TimeAmount? = .seconds(10)
    /// How long a graceful shutdown waits for members to read what is
    /// queued for them before it closes the rest; 5 seconds by default.
    public var shutdownGracePeriod: TimeAmount = .seconds(5)
    /// Where the connection lifecycle is logged: opens, joins, closes with
    /// their reason, rejections with their codes.
    public var logger = Logger(label: "imcodec-relay")
    /// Where the counters and timers go; `nil` for the process's
    /// `MetricsSystem` (a no-op until one is bootstrapped).
    public var metricsFactory: (any MetricsFactory)?
    /// The text of `GET /metrics` on the HTTP listener, such as a Prometheus
    /// registry's exposition; `nil` for none (404).
    public var metricsExposition: (@Sendable () -> String)?

    /// Creates the default configuration: loopback, any port, no HTTP
    /// listener, the sdk-guide profile (the library's default), default
    /// limits and bounds.
    public init() {}
}

/// What a relay server has done since it started.
public struct RelayStatistics: Sendable, Hashable {
    /// Connections accepted (TCP, WebSocket and HTTP), the refused ones
    /// included.
    public var connections = 0
    /// Connections closed as soon as they were accepted because
    /// ``RelayConfiguration/maxConnections`` were open.
    public var connectionsRefused = 0
    /// Connections among ``connectionsRefused`` refused because
    /// ``RelayConfiguration/maxConnectionsPerAddress`` were open from their
    /// address.
    public var connectionsRefusedPerAddress = 0
    /// Frames read, joins included.
    public var framesReceived = 0
    /// Frames written to members: one per member a message reached.
    public var framesDelivered = 0
    /// Messages and joins answered with a rejection.
    public var messagesRejected = 0
    /// Joins refused: rejected joins, counted in ``messagesRejected`` too.
    public var joinsRefused = 0
    /// Frames that were not group messages, which this relay does not route
    /// (rejected too).
    public var framesUnrouted = 0
    /// Connections closed because of a malformed frame or payload.
    public var connectionsFailed = 0
    /// Times a connection was not read for a while because it sent past
    /// its rates (``RelayConfiguration/maxFramesPerSecond`` and the others).
    public var throttles = 0
    /// Members disconnected because they did not read fast enough.
    public var slowConsumerDisconnects = 0
    /// Times a member that could not keep up paused reading from its groups
    /// (the backpressure policy only).
    public var readPauses = 0
    /// Closed connections by reason: `client-closed`, a connection code
    /// such as `connection.idle-timeout`, or the code of a malformed frame.
    public var closes: [String: Int] = [:]

    /// Creates statistics of a server that has done nothing yet.
    public init() {}
}
