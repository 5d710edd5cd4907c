import IMCodec
import IMCodecNIO
import NIOCore
import NIOPosix

/// A TCP relay of IM frames: clients join groups and send group messages;
/// the server checks every frame, validates every message against a profile
/// and fans it out to the other members of its group.
///
/// The protocol is frames only. A group message without elems is a join: the
/// sender becomes a member and gets the join back as its acknowledgement.
/// Any other group message from a member is validated and, when the profile
/// finds no error, delivered to every other member, framed once under the
/// configured compression. A malformed frame or payload closes only the
/// connection that sent it (IMCodecNIO's decoder fires the error); other
/// frames that are not group messages, and messages from non-members, are
/// counted and dropped.
///
/// All connections share one event loop, which keeps the group table free of
/// locks; a slow member pauses the reads of its groups (see `RelayHub`).
public final class RelayServer: Sendable {
    /// The address the server listens on, with the port the system chose.
    public let localAddress: SocketAddress
    private let channel: Channel
    private let hub: RelayHub

    private init(channel: Channel, hub: RelayHub, localAddress: SocketAddress) {
        self.channel = channel
        self.hub = hub
        self.localAddress = localAddress
    }

    /// Starts listening.
    ///
    /// - Parameters:
    ///   - configuration: The address, profile, limits and compression.
    ///   - eventLoop: The loop every connection of the server runs on.
    /// - Returns: The running server.
    /// - Throws: What binding the address throws.
    public static func start(configuration: RelayConfiguration, on eventLoop: EventLoop) async throws -> RelayServer {
        let hub = RelayHub(eventLoop: eventLoop, configuration: configuration)
        let limits = configuration.limits
        let channel = try await ServerBootstrap(group: eventLoop)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(IMCodecFrameDecoder(limits: limits)))
                    try channel.pipeline.syncOperations.addHandler(RelayConnection(hub: hub))
                }
            }
            .bind(host: configuration.host, port: configuration.port)
            .get()
        guard let address = channel.localAddress else {
            try? await channel.close()
            throw ChannelError.unknownLocalAddress
        }
        return RelayServer(channel: channel, hub: hub, localAddress: address)
    }

    /// What the server has done so far.
    ///
    /// - Returns: The counts at the moment the server's loop answers.
    /// - Throws: When the event loop has shut down.
    public func statistics() async throws -> RelayStatistics {
        let hub = self.hub
        return try await hub.eventLoop.submit { hub.statistics }.get()
    }

    /// Stops listening; connections already open stay open until their
    /// clients close them or the event loop shuts down.
    ///
    /// - Throws: What closing the listening socket throws.
    public func close() async throws {
        try await channel.close()
    }
}
