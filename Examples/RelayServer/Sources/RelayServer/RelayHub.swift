import CoreMetrics
import IMCodec
import IMCodecNIO
import IMCodecValidation
import Logging
import NIOCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The groups of a relay and their members, confined to one event loop.
///
/// Connections run on loops of their own (one per core), where each checks
/// its frames: inflating, decoding and validating, the work whose cost a
/// sender chooses. The hub gets the frames already checked, by a hop per
/// read burst, and does only what needs the group table: the login, the
/// membership, and the fan-out, whose writes go to each member's loop, one
/// hop per member for all the bursts queued on the hub's loop together. One loop owning the table keeps it free of
/// locks and keeps each group's order without any ordering between shards,
/// and the work left on it is small and the same for every frame whatever
/// its size, so one sender's large frames stall its own loop, not the
/// routing of every group. (A relay on one loop runs the hub and every
/// connection there, and calls across with no hop.)
///
/// A connection becomes a member of a group by sending it a join, a group
/// message without elems; the relay checks it (the group ID's length, the
/// profile's rules, the sender) and echoes the join back to the sender as
/// its acknowledgement. The first accepted join binds the connection to its
/// sender, and every later frame must name that sender. Every other group
/// message is validated against the profile and, when the profile finds no
/// error and the sender is a member, its bytes are written unchanged, in one
/// shared buffer, to every other member. Anything refused is answered to its
/// sender alone with a ``RelayRejection`` reply.
///
/// A slow member is handled by its ``IMCodecOutboundLimitHandler``: under
/// the default policy it is disconnected and its groups keep flowing. Under
/// the backpressure policy, when a member stops keeping up (its channel is
/// no longer writable), every connection that shares a group with it stops
/// reading until it is writable again.
final class RelayHub: @unchecked Sendable {
    // @unchecked: every mutable property is touched on `eventLoop` only,
    // which each entry point asserts.
    let eventLoop: EventLoop
    let configuration: RelayConfiguration
    let budget: IMCodecBufferBudget
    private let logger: Logger
    private let metrics: RelayMetrics
    private var groups: [String: [ObjectIdentifier: RelayConnection]] = [:]
    private var channels: [ObjectIdentifier: Channel] = [:]
    /// The connection each logged-in user is on.
    private var users: [String: RelayConnection] = [:]
    /// Open connections by the peer's IP address.
    private var perAddress: [String: Int] = [:]
    /// Open connections of the metrics listener, outside the caps.
    private var metricsChannels = 0
    /// The channels that carry a ``RelayConnection``, whose closes it logs.
    private var relayChannels: Set<ObjectIdentifier> = []
    /// Why a plain HTTP connection was closed, when a guard closed it.
    private var httpReasons: [ObjectIdentifier: String] = [:]
    private var nextID = 0
    private let reframer: FrameEncoder?
    private let replyEncoder = FrameEncoder()
    private var scratch: [UInt8] = []
    private var stats = RelayStatistics()
    private var unflushed: [RelayConnection] = []
    private var isShuttingDown = false
    private var drained: [EventLoopPromise<Void>] = []
    /// When the budget's meters were last set.
    private var sampled = NIODeadline.uptimeNanoseconds(0)
    private let refusals: RelayLogLimiter

    /// What a connection reads of the configuration for each frame.
    let bounds: Checked.Bounds
    /// The declared payload size from which a frame is checked on the
    /// thread pool (``RelayConfiguration/offLoopPayloadBytes``).
    let offLoopPayloadBytes: Int?
    let rates: RelayThrottle.Rates

    init(eventLoop: EventLoop, configuration: RelayConfiguration) {
        self.eventLoop = eventLoop
        self.configuration = configuration
        bounds = Checked.Bounds(configuration)
        offLoopPayloadBytes = configuration.offLoopPayloadBytes
        rates = RelayThrottle.Rates(
            frames: configuration.maxFramesPerSecond, bytes: configuration.maxBytesPerSecond,
            inflatedBytes: configuration.maxInflatedBytesPerSecond)
        budget = IMCodecBufferBudget(capacity: configuration.maxBufferedBytes)
        logger = configuration.logger
        refusals = RelayLogLimiter(interval: configuration.refusalLogInterval)
        metrics = RelayMetrics(factory: configuration.metricsFactory ?? MetricsSystem.factory)
        if case .reframed(let policy) = configuration.forwarding {
            reframer = FrameEncoder(policy: policy, limits: configuration.limits)
        } else {
            reframer = nil
        }
    }

    /// Runs `body` on the hub's loop: at once from that loop, after what
    /// the caller has already sent there from another.
    func onLoop(_ body: @escaping @Sendable (RelayHub) -> Void) {
        if eventLoop.inEventLoop {
            body(self)
        } else {
            eventLoop.execute { body(self) }
        }
    }

    /// Takes a newly accepted channel under the connection cap, from the
    /// channel's loop.
    ///
    /// - Returns: A future on the channel's loop: false when the channel
    ///   must be closed at once.
    func admit(_ channel: Channel, web: Bool, metricsOnly: Bool = false) -> EventLoopFuture<Bool> {
        let take: @Sendable () -> Bool = { [self] in
            metricsOnly ? admitMetrics(channel) : admit(channel, web: web)
        }
        guard !eventLoop.inEventLoop else { return channel.eventLoop.makeSucceededFuture(take()) }
        return eventLoop.submit(take).hop(to: channel.eventLoop)
    }

    var statistics: RelayStatistics {
        eventLoop.preconditionInEventLoop()
        return stats
    }

    // MARK: Connections

    /// Takes a newly accepted channel under the connection cap; false when
    /// it must be closed at once (the cap is reached, or the server is
    /// shutting down).
    func admit(_ channel: Channel, web: Bool) -> Bool {
        eventLoop.preconditionInEventLoop()
        stats.connections += 1
        let address = channel.remoteAddress?.ipAddress ?? "?"
        let fromAddress = perAddress[address, default: 0]
        guard !isShuttingDown, channels.count < configuration.maxConnections,
            fromAddress < configuration.maxConnectionsPerAddress
        else {
            stats.connectionsRefused += 1
            metrics.refused.increment()
            let reason =
                isShuttingDown
                ? "connection.shutdown"
                : channels.count >= configuration.maxConnections ? "connection.limit" : "connection.address-limit"
            if reason == "connection.address-limit" { stats.connectionsRefusedPerAddress += 1 }
            if let suppressed = refusals.admit("refused " + reason) {
                logger.warning(
                    "refused",
                    metadata: [
                        "remote": "\(channel.remoteAddress?.description ?? "?")", "reason": "\(reason)",
                        "open": "\(channels.count)", "suppressed": "\(suppressed)",
                    ])
            }
            return false
        }
        channels[ObjectIdentifier(channel)] = channel
        perAddress[address] = fromAddress + 1
        (web ? metrics.webOpened : metrics.tcpOpened).increment()
        metrics.open.increment()
        channel.closeFuture.hop(to: eventLoop).whenComplete { [self] _ in
            channels[ObjectIdentifier(channel)] = nil
            if let count = perAddress[address], count > 1 {
                perAddress[address] = count - 1
            } else {
                perAddress[address] = nil
            }
            metrics.open.decrement()
            if relayChannels.remove(ObjectIdentifier(channel)) == nil {
                // A web connection that served files and never upgraded, or
                // one a guard closed before its request head was in.
                let reason = httpReasons.removeValue(forKey: ObjectIdentifier(channel)) ?? "http-closed"
                stats.closes[reason, default: 0] += 1
                metrics.closed(reason: reason)
                logger.log(
                    level: reason == "http-closed" ? .debug : .notice,
                    "closed",
                    metadata: [
                        "transport": "http", "reason": "\(reason)",
                        "remote": "\(channel.remoteAddress?.description ?? "?")",
                    ])
            }
            if channels.isEmpty {
                let waiting = drained
                drained.removeAll()
                for promise in waiting { promise.succeed() }
            }
        }
        return true
    }

    /// Takes a connection of the metrics listener under its own cap, apart
    /// from every other connection; false when it must be closed at once.
    func admitMetrics(_ channel: Channel) -> Bool {
        eventLoop.preconditionInEventLoop()
        guard !isShuttingDown, metricsChannels < configuration.maxMetricsConnections else { return false }
        metricsChannels += 1
        channel.closeFuture.hop(to: eventLoop).whenComplete { [self] _ in metricsChannels -= 1 }
        return true
    }

    /// Notes why a guard closes a plain HTTP connection, for its close line.
    func httpFailed(_ channel: Channel, reason: String) {
        eventLoop.preconditionInEventLoop()
        guard channels[ObjectIdentifier(channel)] != nil else { return }
        httpReasons[ObjectIdentifier(channel)] = reason
    }

    func connected(_ connection: RelayConnection, on channel: Channel) {
        eventLoop.preconditionInEventLoop()
        relayChannels.insert(ObjectIdentifier(channel))
        nextID += 1
        connection.id = nextID
        if connection.transport == .webSocket { metrics.webSocketUpgraded.increment() }
        logger.info(
            "opened",
            metadata: [
                "connection": "\(connection.id)", "transport": "\(connection.transport.rawValue)",
                "remote": "\(connection.remote)",
            ])
    }

    func disconnected(
        _ connection: RelayConnection, reason closeReason: (code: String, detail: String)?, hasFailed: Bool
    ) {
        eventLoop.preconditionInEventLoop()
        let (reason, detail) = closeReason ?? ("client-closed", "the peer closed the connection")
        if hasFailed { stats.connectionsFailed += 1 }
        if reason == IMCodecConnectionError.Code.slowConsumer.rawValue {
            stats.slowConsumerDisconnects += 1
            metrics.slowConsumerDisconnects.increment()
        }
        stats.closes[reason, default: 0] += 1
        metrics.closed(reason: reason)
        var metadata: Logger.Metadata = [
            "connection": "\(connection.id)", "transport": "\(connection.transport.rawValue)",
            "reason": "\(reason)", "detail": RelayLog.escaped(detail, limit: 200),
        ]
        if let user = connection.user { metadata["user"] = RelayLog.escaped(user) }
        logger.log(
            level: reason == "client-closed" || reason == "connection.shutdown" ? .info : .notice, "closed",
            metadata: metadata)
        connection.expiryTask?.cancel()
        if let user = connection.user, users[user] === connection { users[user] = nil }
        connection.isWritable = true
        connection.outbox.removeAll()
        // Its channel has closed: nothing waits for the answers.
        connection.unanswered = 0
        sampleBudget()
        releasePauses(by: connection)
        for group in connection.groups {
            groups[group]?[ObjectIdentifier(connection)] = nil
            if groups[group]?.isEmpty == true { groups[group] = nil }
        }
        connection.groups.removeAll()
    }

    // MARK: Frames

    /// A frame as its connection checked it, on its loop or, for a costly
    /// one, on a thread of the pool: its body checked and inflated, its
    /// payload decoded and, unless a check the hub makes first refuses it
    /// anyway, its message validated against the profile.
    ///
    /// A decoded message, its findings and its frame are held by one
    /// ``Decoded`` object, so that a checked frame is a few words: it is
    /// queued, handed from the connection's loop to the hub's and read
    /// there without the message being copied.
    struct Checked: Sendable {
        enum Outcome: Sendable {
            /// The frame's body fails the format's checks: it is not a
            /// frame read, the hub never sees it, and the connection is
            /// closed.
            case damaged(IMCodecError)
            /// The payload does not decode: the connection is closed.
            case malformed(IMCodecError)
            /// A payload that is not a group message: a message (kept for
            /// the reply), or a batch or an event (`nil`).
            case unrouted(Decoded?)
            /// A group message, the errors the profile finds in it and its
            /// frame.
            case message(Decoded)

            /// The error that closes the connection, if any.
            var error: IMCodecError? {
                switch self {
                case .damaged(let error), .malformed(let error): error
                case .unrouted, .message: nil
                }
            }
        }

        /// A message as checked: the message, the errors the profile finds
        /// in a group message (none checked when its IDs' lengths or sender
        /// refuse it, nor in a message that is not routed) and its frame, in
        /// one object shared by reference.
        final class Decoded: Sendable {
            let message: Message
            let errors: [ValidationFinding]
            let frame: Frame

            init(_ message: Message, errors: [ValidationFinding], frame: Frame) {
                self.message = message
                self.errors = errors
                self.frame = frame
            }
        }

        /// The frame's bytes as received.
        let wireBytes: Int
        let outcome: Outcome
        /// Whether it was checked on the thread pool.
        var wasCheckedOffLoop = false
        /// When the connection read the frame.
        let started: NIODeadline

        /// What the checks read of the configuration, kept apart so that a
        /// frame's check reads no more than this, and shared by reference
        /// so that reading it copies nothing.
        final class Bounds: Sendable {
            let limits: DecodingLimits
            let profile: ValidationLimits
            let maxGroupIDBytes: Int
            let maxUserIDBytes: Int

            init(_ configuration: RelayConfiguration) {
                limits = configuration.limits
                profile = configuration.profile
                maxGroupIDBytes = configuration.maxGroupIDBytes
                maxUserIDBytes = configuration.maxUserIDBytes
            }
        }

        /// Checks a frame's body with `decoder`, then decodes and validates
        /// its payload: no state of the hub's or the connection's is read,
        /// so it runs on any thread.
        init(_ unchecked: UncheckedFrame, decoder: FrameDecoder, started: NIODeadline, bounds configuration: Bounds) {
            let frame: Frame
            do throws(IMCodecError) {
                frame = try decoder.decodeFrame(unchecked.bytes)
            } catch {
                self.init(wireBytes: unchecked.bytes.count, started: started, outcome: .damaged(error))
                return
            }
            self.init(frame, started: started, bounds: configuration)
        }

        private init(wireBytes: Int, started: NIODeadline, outcome: Outcome) {
            self.wireBytes = wireBytes
            self.started = started
            self.outcome = outcome
        }

        /// Decodes and validates a checked frame, likewise.
        init(_ frame: Frame, started: NIODeadline, bounds configuration: Bounds) {
            wireBytes = frame.bytes.count
            self.started = started
            guard frame.header.kind == .message else {
                // A batch or an event: decoded to be told apart from a
                // malformed payload, and answered as not routed.
                do throws(IMCodecError) {
                    _ = try FramePayload(decoding: frame, limits: configuration.limits)
                    outcome = .unrouted(nil)
                } catch {
                    outcome = .malformed(error)
                }
                return
            }
            // The message decoded straight from the frame's payload, not
            // through a `FramePayload` it would be copied out of.
            let decoded = frame.payload.withUnsafeBytes { payload in
                Result { () throws(IMCodecError) in
                    try Message(serializedBytes: payload, limits: configuration.limits)
                }
            }
            let message: Message
            do throws(IMCodecError) {
                // Taken out of the result, not copied.
                message = try decoded.get()
            } catch {
                outcome = .malformed(error)
                return
            }
            guard message.isGroupMessage else {
                outcome = .unrouted(Decoded(message, errors: [], frame: frame))
                return
            }
            // Cheap checks first: a huge group ID is refused before the
            // validator looks at it, and never kept.
            guard message.groupID.utf8.count <= configuration.maxGroupIDBytes,
                message.sender.utf8.count <= configuration.maxUserIDBytes, !message.sender.isEmpty
            else {
                outcome = .message(Decoded(message, errors: [], frame: frame))
                return
            }
            var errors = Validator.validate(message, limits: configuration.profile).filter { $0.severity == .error }
            if message.elems.isEmpty {
                // A join is a group message without elems by definition.
                errors.removeAll { $0.code == .messageElemsMissing }
            }
            outcome = .message(Decoded(message, errors: errors, frame: frame))
        }
    }

    /// Checks, joins, validates and fans out one frame from `sender`, on
    /// the hub's loop (the fan-out measurement's way in).
    ///
    /// - Throws: The `payload.*` or `limit.*` error of a payload that does
    ///   not decode.
    func received(_ frame: Frame, from sender: RelayConnection) throws(IMCodecError) {
        let checked = Checked(frame, started: NIODeadline.now(), bounds: bounds)
        received(checked, from: sender)
        if case .malformed(let error) = checked.outcome { throw error }
    }

    /// Takes the frames of one read burst of a connection on another loop,
    /// and flushes after every hand-over already queued on this loop: the
    /// frames of several senders' bursts then reach each member in one hop.
    func received(_ frames: [Checked], from sender: RelayConnection) {
        eventLoop.preconditionInEventLoop()
        for frame in frames { received(frame, from: sender) }
        if sender.unanswered == 0 { answering.append(sender) }
        sender.unanswered += 1
        guard !isFlushScheduled else { return }
        isFlushScheduled = true
        eventLoop.execute { [self] in
            isFlushScheduled = false
            flush()
        }
    }

    /// The connections whose hand-overs the next flush answers.
    private var answering: [RelayConnection] = []
    private var isFlushScheduled = false

    /// Joins or fans out one frame its connection has checked, or answers
    /// why not; a malformed one is only counted (its connection closes).
    func received(_ checked: Checked, from sender: RelayConnection) {
        eventLoop.preconditionInEventLoop()
        // From the read, so that a hop's wait counts.
        defer { metrics.frameDuration.recordNanoseconds((NIODeadline.now() - checked.started).nanoseconds) }
        stats.framesReceived += 1
        metrics.framesReceived.increment()
        metrics.bytesReceived.increment(by: checked.wireBytes)
        if checked.wasCheckedOffLoop { metrics.framesCheckedOffLoop.increment() }
        switch checked.outcome {
        case .damaged, .malformed:
            return
        case .unrouted(let refused):
            stats.framesUnrouted += 1
            return reject(
                refused?.message ?? Message(), from: sender,
                [finding(RelayRejection.Code.notRouted, "", "only group messages are relayed")])
        case .message(let decoded):
            route(decoded, from: sender)
        }
    }

    /// Joins or fans out a group message, or answers why not. The message
    /// is read where its ``Checked/Decoded`` holds it, never copied out.
    private func route(_ decoded: Checked.Decoded, from sender: RelayConnection) {
        let isJoin = decoded.message.elems.isEmpty
        if decoded.message.groupID.utf8.count > configuration.maxGroupIDBytes {
            return reject(
                decoded.message, from: sender, join: isJoin,
                [
                    finding(
                        RelayRejection.Code.groupIDLength, "groupId",
                        "a group ID of \(decoded.message.groupID.utf8.count) bytes; the relay takes at most "
                            + "\(configuration.maxGroupIDBytes)",
                        limit: configuration.maxGroupIDBytes, actual: decoded.message.groupID.utf8.count)
                ])
        }
        if decoded.message.sender.utf8.count > configuration.maxUserIDBytes {
            return reject(
                decoded.message, from: sender, join: isJoin,
                [
                    finding(
                        RelayRejection.Code.userIDLength, "sender",
                        "a sender of \(decoded.message.sender.utf8.count) bytes; the relay takes at most "
                            + "\(configuration.maxUserIDBytes)",
                        limit: configuration.maxUserIDBytes, actual: decoded.message.sender.utf8.count)
                ])
        }
        if decoded.message.sender.isEmpty {
            return reject(
                decoded.message, from: sender, join: isJoin,
                [finding(RelayRejection.Code.senderMissing, "sender", "a message without a sender")])
        }
        if let user = sender.user, decoded.message.sender != user {
            return reject(
                decoded.message, from: sender, join: isJoin,
                [
                    finding(
                        RelayRejection.Code.senderMismatch, "sender",
                        "this connection speaks for the user its first join named, not for another")
                ])
        }
        if isJoin, sender.user == nil, case .tickets(let secret) = configuration.identity {
            let ticket = String(
                decoding: decoded.message.cloudCustomData.prefix(RelayTicket.maxLength + 1), as: UTF8.self)
            switch RelayTicket.verify(ticket, user: decoded.message.sender, secret: secret, now: Self.now()) {
            case .valid(let expiry):
                sender.ticketExpiry = expiry
            case .expired:
                sendUserStatus(.userSigExpired, to: sender)
                return reject(
                    decoded.message, from: sender, join: true,
                    [finding(RelayRejection.Code.ticketExpired, "cloudCustomData", "the login ticket has expired")])
            case .invalid:
                return reject(
                    decoded.message, from: sender, join: true,
                    [
                        finding(
                            RelayRejection.Code.ticketInvalid, "cloudCustomData",
                            "a first join carries a login ticket signed for its sender")
                    ])
            }
        }
        guard decoded.errors.isEmpty else { return reject(decoded.message, from: sender, join: isJoin, decoded.errors) }
        if isJoin {
            join(decoded, from: sender)
        } else {
            fanOut(decoded, from: sender)
        }
    }

    private func join(_ decoded: Checked.Decoded, from connection: RelayConnection) {
        let group = decoded.message.groupID
        if !connection.groups.contains(group) {
            guard connection.groups.count < configuration.maxGroupsPerConnection else {
                return reject(
                    decoded.message, from: connection, join: true,
                    [
                        finding(
                            RelayRejection.Code.tooManyGroups, "groupId",
                            "this connection is in \(connection.groups.count) groups, the most it may join",
                            limit: configuration.maxGroupsPerConnection, actual: connection.groups.count + 1)
                    ])
            }
            connection.groups.insert(group)
            groups[group, default: [:]][ObjectIdentifier(connection)] = connection
            // A new member that is already behind holds back its new group too.
            if configuration.slowConsumerPolicy == .backpressure, !connection.isWritable { pauseGroups(of: connection) }
        }
        if connection.user == nil { logIn(connection, as: decoded.message.sender) }
        logger.info(
            "joined",
            metadata: [
                "connection": "\(connection.id)", "user": RelayLog.escaped(decoded.message.sender),
                "group": RelayLog.escaped(group), "members": "\(groups[group]?.count ?? 0)",
            ])
        // The acknowledgement is the join itself, forwarded.
        guard let bytes = outgoing(decoded.frame) else { return }
        write(bytes, to: connection)
    }

    /// Counts a connection that its throttle stops reading (`true`) or
    /// reads again (`false`).
    func throttled(_ isThrottled: Bool) {
        eventLoop.preconditionInEventLoop()
        if isThrottled {
            stats.throttles += 1
            metrics.throttles.increment()
            throttledCount += 1
        } else {
            throttledCount -= 1
        }
        metrics.throttled.set(throttledCount)
    }

    private var throttledCount = 0

    /// Binds a connection to its user: a connection the user was logged in
    /// on before is forced offline, and a ticket's expiry is scheduled.
    private func logIn(_ connection: RelayConnection, as user: String) {
        connection.user = user
        if let earlier = users[user], earlier !== connection {
            sendUserStatus(.forcedOffline, to: earlier)
            end(
                earlier,
                with: IMCodecConnectionError(
                    .init("relay.kicked-offline"), reason: "the user logged in on another connection"))
        }
        users[user] = connection
        if let expiry = connection.ticketExpiry {
            let delay = TimeAmount.seconds(max(0, expiry - Self.now()))
            connection.expiryTask = eventLoop.assumeIsolated().scheduleTask(in: delay) {
                [self, weak connection] in
                guard let connection else { return }
                sendUserStatus(.userSigExpired, to: connection)
                end(
                    connection,
                    with: IMCodecConnectionError(.init("relay.ticket-expired"), reason: "the login ticket expired"))
            }
        }
    }

    /// Writes a user status event (the seeds' forced-offline or
    /// signature-expired) to a connection, flushed with the burst.
    private func sendUserStatus(_ type: UserStatusType, to connection: RelayConnection) {
        var event = Event()
        event.kind = .userStatus(UserStatusEvent(type: type))
        // An event of one enum field: within every default limit.
        guard let bytes = try? replyEncoder.encode(FramePayload.event(event)) else { return }
        write(ByteBuffer(bytes: bytes), to: connection)
    }

    /// The time in Unix seconds.
    static func now() -> Int64 { Int64(Date().timeIntervalSince1970) }

    private func fanOut(_ decoded: Checked.Decoded, from sender: RelayConnection) {
        let group = decoded.message.groupID
        if reframer == nil, configuration.coalescesWrites {
            // The batch of this group and sender: its first frame found the
            // sender a member, and a member leaves a group only when its
            // connection closes, after its last frame. It is read through
            // the optional, not bound: a bound copy would share the batch's
            // buffer, and appending would then copy the whole buffer.
            if batch?.group == group, batch?.sender === sender {
                appendToBatch(decoded.frame)
                return
            }
        }
        guard let members = groups[group], members[ObjectIdentifier(sender)] != nil else {
            return reject(
                decoded.message, from: sender,
                [finding(RelayRejection.Code.notAMember, "groupId", "the sender has not joined this group")])
        }
        if reframer == nil, configuration.coalescesWrites {
            writeBatch()
            batch = Batch(group: group, sender: sender, bytes: ByteBuffer())
            appendToBatch(decoded.frame)
            return
        }
        guard let bytes = outgoing(decoded.frame) else { return }
        deliver(bytes, frames: 1, to: members, from: sender)
    }

    /// Appends a frame's bytes to the batch, which is written at once when
    /// it has grown large.
    private func appendToBatch(_ frame: Frame) {
        batch?.bytes.writeBytes(frame.bytes)
        batch?.frames += 1
        // One write stays small beside a member's queue bound.
        if let batch, batch.bytes.readableBytes >= Self.maxBatchBytes { writeBatch() }
    }

    /// The frames of the current read burst for one group from one sender,
    /// back to back, as they arrived.
    private struct Batch {
        var group: String
        var sender: RelayConnection
        var bytes: ByteBuffer
        var frames = 0
    }

    private var batch: Batch?

    /// A batch this large is written at once, before its burst ends.
    static let maxBatchBytes = 64 << 10

    /// Writes the batch, one shared buffer, to every member but its sender.
    private func writeBatch() {
        guard let batch else { return }
        self.batch = nil
        guard let members = groups[batch.group] else { return }
        deliver(batch.bytes, frames: batch.frames, to: members, from: batch.sender)
    }

    /// Writes one buffer, shared, to every member but the sender.
    private func deliver(
        _ bytes: ByteBuffer, frames: Int, to members: [ObjectIdentifier: RelayConnection], from sender: RelayConnection
    ) {
        var delivered = 0
        for member in members.values where member !== sender {
            write(bytes, to: member)
            delivered += frames
        }
        stats.framesDelivered += delivered
        metrics.framesDelivered.increment(by: delivered)
        metrics.bytesDelivered.increment(by: delivered / max(frames, 1) * bytes.readableBytes)
    }

    /// The buffer every member is written: the frame's own bytes, or (kept
    /// to compare) its payload framed again; `nil` when the members'
    /// readers would refuse the frame framed again, which cannot happen
    /// with their default limits.
    private func outgoing(_ frame: Frame) -> ByteBuffer? {
        guard let reframer else { return ByteBuffer(bytes: frame.bytes) }
        scratch.removeAll(keepingCapacity: true)
        let framed = frame.payload.withUnsafeBytes { payload in
            Result { () throws(IMCodecError) in
                try reframer.encodeFrame(payload: payload, kind: frame.header.kind, appendingTo: &scratch)
            }
        }
        guard case .success = framed else { return nil }
        return ByteBuffer(bytes: scratch)
    }

    /// Answers a refused message or join to its sender alone.
    private func reject(
        _ message: Message, from connection: RelayConnection, join: Bool = false, _ findings: [ValidationFinding]
    ) {
        stats.messagesRejected += 1
        if join { stats.joinsRefused += 1 }
        let code = findings.first?.code.rawValue ?? "?"
        metrics.rejected(code: code)
        // One line per first code a second: a peer repeats rejections at will.
        if let suppressed = refusals.admit("rejected " + code) {
            logger.notice(
                "rejected",
                metadata: [
                    "connection": "\(connection.id)", "user": RelayLog.escaped(connection.user ?? ""),
                    "kind": "\(join ? "join" : "message")",
                    "codes": RelayLog.escaped(
                        findings.prefix(RelayRejection.maxFindings).map(\.code.rawValue).joined(separator: ","),
                        limit: 512),
                    "suppressed": "\(suppressed)",
                ])
        }
        let reply = RelayRejection.reply(
            to: message, user: connection.user ?? "", findings: findings,
            maxGroupIDBytes: configuration.maxGroupIDBytes)
        // A reply holds a bounded JSON text: within every default limit.
        guard let bytes = try? replyEncoder.encode(reply) else { return }
        write(ByteBuffer(bytes: bytes), to: connection)
    }

    private func finding(
        _ code: FindingCode, _ path: String, _ reason: String, limit: Int? = nil, actual: Int? = nil
    ) -> ValidationFinding {
        var fieldPath = FieldPath()
        if !path.isEmpty { fieldPath.append(.field(path)) }
        return ValidationFinding(
            code, path: fieldPath, severity: .error, limit: limit.map(Int64.init), actual: actual.map(Int64.init),
            reason: reason)
    }

    // MARK: Writing

    /// Flushes every connection written to since the last flush: once per
    /// read burst rather than once per frame.
    func flush() {
        eventLoop.preconditionInEventLoop()
        sampleBudget()
        writeBatch()
        let written = unflushed
        unflushed.removeAll(keepingCapacity: true)
        for connection in written {
            guard !connection.sharesHubLoop else {
                connection.flush()
                if let queued = connection.queuedBytes { metrics.queuedBytes.record(queued) }
                continue
            }
            let frames = connection.outbox
            guard !frames.isEmpty else { continue }
            connection.outbox.removeAll()
            let answers = connection.unanswered
            connection.unanswered = 0
            let queuedBytes = metrics.queuedBytes
            // The writes, then the answer: the connection's close gate lets
            // a close through only after them.
            connection.onOwnLoop { connection in
                for bytes in frames { _ = connection.write(bytes) }
                connection.flush()
                if let queued = connection.queuedBytes { queuedBytes.record(queued) }
                if answers > 0 { connection.answered(answers) }
            }
        }
        let senders = answering
        answering.removeAll(keepingCapacity: true)
        for sender in senders where sender.unanswered > 0 {
            let answers = sender.unanswered
            sender.unanswered = 0
            sender.onOwnLoop { $0.answered(answers) }
        }
    }

    /// Closes a connection for the relay's own reason, after what the hub
    /// has written to it.
    private func end(_ connection: RelayConnection, with error: IMCodecConnectionError) {
        let frames = connection.outbox
        connection.outbox.removeAll()
        connection.onOwnLoop { connection in
            for bytes in frames { _ = connection.write(bytes) }
            connection.end(with: error)
        }
    }

    /// Sets the budget's meters, at most four times a second: after a read
    /// burst, and when a connection closes.
    private func sampleBudget() {
        let now = NIODeadline.now()
        guard now - sampled >= .milliseconds(250) else { return }
        sampled = now
        metrics.bufferedBytes.set(budget.reservedBytes)
        metrics.webSocketPartialBytes.set(budget.reservedWebSocketFrameBytes)
    }

    /// Writes a frame to a connection, to be flushed with the burst: at
    /// once on the hub's loop, or on the connection's own in one hop when
    /// the burst is flushed.
    private func write(_ bytes: ByteBuffer, to connection: RelayConnection) {
        if connection.sharesHubLoop {
            if connection.write(bytes) { unflushed.append(connection) }
        } else {
            if connection.outbox.isEmpty { unflushed.append(connection) }
            connection.outbox.append(bytes)
        }
    }

    // MARK: Backpressure (the backpressure policy only)

    func writabilityChanged(_ connection: RelayConnection, isWritable: Bool) {
        eventLoop.preconditionInEventLoop()
        connection.isWritable = isWritable
        guard configuration.slowConsumerPolicy == .backpressure else { return }
        if connection.isWritable {
            releasePauses(by: connection)
        } else {
            pauseGroups(of: connection)
        }
    }

    private func pauseGroups(of slow: RelayConnection) {
        for group in slow.groups {
            for member in groups[group, default: [:]].values where member !== slow {
                if slow.paused.updateValue(member, forKey: ObjectIdentifier(member)) == nil {
                    member.pauseCount += 1
                    stats.readPauses += 1
                }
            }
        }
    }

    private func releasePauses(by slow: RelayConnection) {
        let paused = slow.paused.values
        slow.paused.removeAll()
        for member in paused {
            member.pauseCount -= 1
        }
    }

    // MARK: Shutdown

    /// Refuses new connections, asks every open one to finish
    /// (`ChannelShouldQuiesceEvent`: a stream closes once what is queued
    /// for it is written, a WebSocket sends its close frame after it), and
    /// closes those still open after the grace period.
    ///
    /// - Returns: A future that succeeds when every connection has closed.
    func drain() -> EventLoopFuture<Void> {
        eventLoop.preconditionInEventLoop()
        isShuttingDown = true
        guard !channels.isEmpty else { return eventLoop.makeSucceededVoidFuture() }
        let promise = eventLoop.makePromise(of: Void.self)
        drained.append(promise)
        logger.info("draining", metadata: ["connections": "\(channels.count)"])
        for channel in channels.values {
            channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        }
        eventLoop.scheduleTask(in: configuration.shutdownGracePeriod) { [self] in
            for channel in channels.values { channel.close(promise: nil) }
        }
        return promise.futureResult
    }
}
