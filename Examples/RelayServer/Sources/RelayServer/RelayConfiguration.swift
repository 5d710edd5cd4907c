import IMCodec
import IMCodecValidation

/// What a relay server checks and how it writes.
public struct RelayConfiguration: Sendable {
    /// The address to listen on; the loopback address by default.
    public var host = "127.0.0.1"
    /// The port to listen on; 0 lets the system choose one.
    public var port = 0
    /// The profile every message is validated against before it is fanned out.
    public var profile: ValidationLimits = .sdkGuide
    /// The limits every inbound frame and payload is checked against.
    public var limits: DecodingLimits = .default
    /// How fanned-out frames are compressed.
    public var policy: CompressionPolicy = .default
    /// How many groups one connection may join, which bounds the memory a
    /// connection can make the server hold.
    public var maxGroupsPerConnection = 64

    /// Creates the default configuration: loopback, any port, the
    /// sdk-guide profile (the library's default), default limits and
    /// compression.
    public init() {}
}

/// What a relay server has done since it started.
public struct RelayStatistics: Sendable, Hashable {
    /// Connections accepted.
    public var connections = 0
    /// Frames read, joins included.
    public var framesReceived = 0
    /// Frames written to members: one per member a message reached.
    public var framesDelivered = 0
    /// Messages not fanned out because the profile found an error in them.
    public var messagesRejected = 0
    /// Joins refused because the connection was in as many groups as allowed.
    public var joinsRefused = 0
    /// Frames that were not group messages, which this relay does not route.
    public var framesUnrouted = 0
    /// Connections closed because of a malformed frame or payload.
    public var connectionsFailed = 0
    /// Times a member that could not keep up paused reading from its groups.
    public var readPauses = 0

    /// Creates statistics of a server that has done nothing yet.
    public init() {}
}
