import CoreMetrics
import IMCodec
import IMCodecNIO
import IMCodecValidation
import Logging
import NIOConcurrencyHelpers
import NIOCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The groups of a relay and their members, under one lock.
///
/// Connections run on event loops of their own (one per core), where each
/// checks its frames: inflating, decoding and validating, the work whose
/// cost a sender chooses. A connection then routes a read burst's checked
/// frames itself, on its loop, holding the hub's lock for what needs the
/// group table only: the login, the membership, and queueing each frame's
/// bytes for every member. That work is small and the same for every frame
/// whatever its size, so the lock is held briefly, and one sender's large
/// frames stall its own loop, not the routing of the groups on the others.
///
/// The bytes for a member are queued, under the lock, in its outbox, and
/// written on the member's own loop: at once, after the lock is released,
/// for the members on the loop that routed them; by one hop for a member on
/// another loop, which takes everything queued for it by then. Each
/// member's writes are taken from its outbox in the order the lock queued
/// them, so every member of a group sees the group's messages in one order.
/// Nothing that can call back into the hub (a write, a flush, a close) runs
/// while the lock is held.
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
    // @unchecked: every mutable property, and the properties of each
    // RelayConnection its comments give to the hub, is touched with `lock`
    // held, which each entry point takes.
    /// The loop of the listeners, and of the shutdown's grace period.
    let eventLoop: EventLoop
    private let lock = NIOLock()
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
    /// The connections written to in this hold of the lock.
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

    /// Runs `body` with the lock held, then sends what it wrote: the
    /// writes for a connection of the calling loop are made at once, after
    /// the lock is released; a connection on another loop is sent one hop
    /// that makes them there.
    private func locked<Result>(_ body: () -> Result) -> Result {
        let (result, here) = lock.withLock { () -> (Result, [RelayConnection]) in
            let result = body()
            return (result, sendWritten())
        }
        for connection in here { connection.drain() }
        return result
    }

    /// Takes a newly accepted channel under the connection cap, on the
    /// channel's loop.
    ///
    /// - Returns: A future on the channel's loop: false when the channel
    ///   must be closed at once.
    func admit(_ channel: Channel, web: Bool, metricsOnly: Bool = false) -> EventLoopFuture<Bool> {
        let admitted = locked { metricsOnly ? admitMetrics(channel) : admit(channel, web: web) }
        return channel.eventLoop.makeSucceededFuture(admitted)
    }

    var statistics: RelayStatistics {
        locked { stats }
    }

    // MARK: Connections

    /// Takes a newly accepted channel under the connection cap; false when
    /// it must be closed at once (the cap is reached, or the server is
    /// shutting down).
    private func admit(_ channel: Channel, web: Bool) -> Bool {
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
        channel.closeFuture.whenComplete { [self] _ in
            let drained = locked { closed(channel, from: address) }
            for promise in drained { promise.succeed() }
        }
        return true
    }

    /// Forgets a closed channel of ``admit(_:web:)``.
    ///
    /// - Returns: The promises of a drain that it completes: the caller
    ///   succeeds them, without the lock.
    private func closed(_ channel: Channel, from address: String) -> [EventLoopPromise<Void>] {
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
        guard channels.isEmpty else { return [] }
        defer { drained.removeAll() }
        return drained
    }

    /// Takes a connection of the metrics listener under its own cap, apart
    /// from every other connection; false when it must be closed at once.
    private func admitMetrics(_ channel: Channel) -> Bool {
        guard !isShuttingDown, metricsChannels < configuration.maxMetricsConnections else { return false }
        metricsChannels += 1
        channel.closeFuture.whenComplete { [self] _ in locked { metricsChannels -= 1 } }
        return true
    }

    /// Notes why a guard closes a plain HTTP connection, for its close line.
    func httpFailed(_ channel: Channel, reason: String) {
        locked {
            guard channels[ObjectIdentifier(channel)] != nil else { return }
            httpReasons[ObjectIdentifier(channel)] = reason
        }
    }

    /// Takes a new connection, whose channel has been admitted, as it is
    /// added to the channel's pipeline.
    func connected(_ connection: RelayConnection, on channel: Channel, isWritable: Bool) {
        locked {
            connection.isWritable = isWritable
            connected(connection, on: channel)
        }
    }

    private func connected(_ connection: RelayConnection, on channel: Channel) {
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

    /// Forgets a connection whose channel has closed: its login, its
    /// groups, what was queued for it.
    func disconnected(
        _ connection: RelayConnection, reason closeReason: (code: String, detail: String)?, hasFailed: Bool
    ) {
        locked { forget(connection, reason: closeReason, hasFailed: hasFailed) }
    }

    private func forget(
        _ connection: RelayConnection, reason closeReason: (code: String, detail: String)?, hasFailed: Bool
    ) {
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
        connection.ending = nil
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
    /// queued (and handed back from the pool) and routed without the
    /// message being copied.
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

    /// Routes the frames of one read burst of `sender`, checked, from the
    /// sender's loop: the frames of a group from one sender go to each
    /// member as one buffer, written on the member's loop. When this
    /// returns, what the frames made the hub write to the connections of
    /// the calling loop (the sender's replies among them) is written and
    /// flushed.
    func received(_ frames: [Checked], from sender: RelayConnection) {
        locked {
            var bytes = 0
            var checkedOffLoop = 0
            for frame in frames {
                bytes += frame.wireBytes
                if frame.wasCheckedOffLoop { checkedOffLoop += 1 }
                received(frame, from: sender)
            }
            // Counted once a burst, and timed with one clock reading: from
            // each frame's read, so that a wait for the pool or the lock
            // counts, to its copies queued.
            let now = NIODeadline.now()
            for frame in frames { metrics.frameDuration.recordNanoseconds((now - frame.started).nanoseconds) }
            stats.framesReceived += frames.count
            metrics.framesReceived.increment(by: frames.count)
            metrics.bytesReceived.increment(by: bytes)
            if checkedOffLoop > 0 { metrics.framesCheckedOffLoop.increment(by: checkedOffLoop) }
            sampleBudget(at: now)
        }
    }

    /// Joins or fans out one frame its connection has checked, or answers
    /// why not; a malformed one is only counted (its connection closes).
    private func received(_ checked: Checked, from sender: RelayConnection) {
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
        locked {
            if isThrottled {
                stats.throttles += 1
                metrics.throttles.increment()
                throttledCount += 1
            } else {
                throttledCount -= 1
            }
            metrics.throttled.set(throttledCount)
        }
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
            connection.expiryTask = connection.eventLoop.scheduleTask(in: delay) { [self, weak connection] in
                guard let connection else { return }
                locked {
                    sendUserStatus(.userSigExpired, to: connection)
                    end(
                        connection,
                        with: IMCodecConnectionError(.init("relay.ticket-expired"), reason: "the login ticket expired"))
                }
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

    /// Ends a hold of the lock (a read burst's routing): writes the batch,
    /// and sends each connection written to a hop to its loop that writes
    /// what is queued for it, unless one is on its way.
    ///
    /// - Returns: The connections written to that are on the calling loop,
    ///   whose writes the caller makes once the lock is released.
    private func sendWritten() -> [RelayConnection] {
        guard !unflushed.isEmpty || batch != nil else { return [] }
        writeBatch()
        var here: [RelayConnection] = []
        for connection in unflushed {
            if connection.eventLoop.inEventLoop {
                here.append(connection)
            } else if !connection.isDrainScheduled {
                connection.isDrainScheduled = true
                connection.eventLoop.execute { connection.drain() }
            }
        }
        unflushed.removeAll(keepingCapacity: true)
        return here
    }

    /// Takes what is queued for a connection, from the connection's loop,
    /// to be written there in the order it was queued.
    ///
    /// - Returns: The frames, and the error to close the connection with
    ///   after them, if the relay ends it.
    func takeOutbox(of connection: RelayConnection) -> (frames: [ByteBuffer], ending: IMCodecConnectionError?) {
        lock.withLock {
            connection.isDrainScheduled = false
            defer {
                connection.outbox.removeAll()
                connection.ending = nil
            }
            return (connection.outbox, connection.ending)
        }
    }

    /// Records the bytes queued toward a member after its writes are
    /// flushed (a metric, safe from any loop).
    func record(queuedBytes: Int) {
        metrics.queuedBytes.record(queuedBytes)
    }

    /// Closes a connection for the relay's own reason, after what the hub
    /// has written to it.
    private func end(_ connection: RelayConnection, with error: IMCodecConnectionError) {
        guard connection.ending == nil else { return }
        if connection.outbox.isEmpty { unflushed.append(connection) }
        connection.ending = error
    }

    /// Sets the budget's meters, at most four times a second: after a read
    /// burst, and when a connection closes.
    private func sampleBudget(at now: NIODeadline = .now()) {
        guard now - sampled >= .milliseconds(250) else { return }
        sampled = now
        metrics.bufferedBytes.set(budget.reservedBytes)
        metrics.webSocketPartialBytes.set(budget.reservedWebSocketFrameBytes)
    }

    /// Queues a frame for a connection, written on its loop when this hold
    /// of the lock ends.
    private func write(_ bytes: ByteBuffer, to connection: RelayConnection) {
        guard connection.ending == nil else { return }
        if connection.outbox.isEmpty { unflushed.append(connection) }
        connection.outbox.append(bytes)
    }

    // MARK: Backpressure (the backpressure policy only)

    func writabilityChanged(_ connection: RelayConnection, isWritable: Bool) {
        locked {
            connection.isWritable = isWritable
            guard configuration.slowConsumerPolicy == .backpressure else { return }
            if connection.isWritable {
                releasePauses(by: connection)
            } else {
                pauseGroups(of: connection)
            }
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
        let promise = eventLoop.makePromise(of: Void.self)
        let open = locked { () -> [Channel] in
            isShuttingDown = true
            guard !channels.isEmpty else { return [] }
            drained.append(promise)
            return Array(channels.values)
        }
        guard !open.isEmpty else {
            promise.succeed()
            return promise.futureResult
        }
        logger.info("draining", metadata: ["connections": "\(open.count)"])
        for channel in open {
            channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        }
        eventLoop.scheduleTask(in: configuration.shutdownGracePeriod) { [self] in
            for channel in locked({ Array(channels.values) }) { channel.close(promise: nil) }
        }
        return promise.futureResult
    }
}
