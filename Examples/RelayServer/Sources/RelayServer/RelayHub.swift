import IMCodec
import IMCodecValidation
import NIOCore

/// The groups of a relay and their members, confined to the server's one
/// event loop: every connection of the server is on that loop, so no state
/// here is ever touched from two threads.
///
/// A connection becomes a member of a group by sending it a join, a group
/// message without elems; the relay echoes the join back to the sender as
/// its acknowledgement. Every other group message is validated against the
/// profile and, when the profile finds no error, framed once and written to
/// every other member.
///
/// Backpressure: when a member stops keeping up (its channel is no longer
/// writable), every connection that shares a group with it stops reading
/// until it is writable again, so a slow reader holds its senders back
/// instead of making the server buffer without bound.
final class RelayHub: @unchecked Sendable {
    // @unchecked: every property is touched on `eventLoop` only, which each
    // entry point asserts.
    let eventLoop: EventLoop
    let configuration: RelayConfiguration
    private var groups: [String: [ObjectIdentifier: RelayConnection]] = [:]
    private let encoder: FrameEncoder
    private var scratch: [UInt8] = []
    private var stats = RelayStatistics()
    private var unflushed: [RelayConnection] = []

    init(eventLoop: EventLoop, configuration: RelayConfiguration) {
        self.eventLoop = eventLoop
        self.configuration = configuration
        encoder = FrameEncoder(policy: configuration.policy, limits: configuration.limits)
    }

    var statistics: RelayStatistics {
        eventLoop.preconditionInEventLoop()
        return stats
    }

    func connected(_ connection: RelayConnection) {
        eventLoop.preconditionInEventLoop()
        stats.connections += 1
    }

    func disconnected(_ connection: RelayConnection, failed: Bool) {
        eventLoop.preconditionInEventLoop()
        if failed { stats.connectionsFailed += 1 }
        connection.isWritable = true
        releasePauses(by: connection)
        for group in connection.groups {
            groups[group]?[ObjectIdentifier(connection)] = nil
            if groups[group]?.isEmpty == true { groups[group] = nil }
        }
        connection.groups.removeAll()
    }

    /// Joins, validates and fans out one frame from `sender`.
    func received(_ frame: Frame, from sender: RelayConnection) throws(IMCodecError) {
        eventLoop.preconditionInEventLoop()
        stats.framesReceived += 1
        guard case .message(let message) = try FramePayload(decoding: frame, limits: configuration.limits),
            message.isGroupMessage
        else {
            stats.framesUnrouted += 1
            return
        }
        if message.elems.isEmpty {
            guard join(message.groupID, sender) else {
                stats.joinsRefused += 1
                return
            }
            // A frame its readers would refuse is not written (it cannot
            // happen with the reader's own limits and a policy that compresses).
            guard let bytes = try? frameBytes(frame) else {
                stats.messagesRejected += 1
                return
            }
            write(bytes, to: sender)
            return
        }
        let findings = Validator.validate(message, limits: configuration.profile)
        if findings.contains(where: { $0.severity == .error }) {
            stats.messagesRejected += 1
            return
        }
        guard let members = groups[message.groupID], members[ObjectIdentifier(sender)] != nil else {
            stats.framesUnrouted += 1
            return
        }
        guard let bytes = try? frameBytes(frame) else {
            stats.messagesRejected += 1
            return
        }
        for member in members.values where member !== sender {
            write(bytes, to: member)
            stats.framesDelivered += 1
        }
    }

    /// Frames a payload once; every member is written the same buffer.
    ///
    /// - Throws: `limit.frame-size` when the members' readers would refuse
    ///   even the stored frame.
    private func frameBytes(_ frame: Frame) throws(IMCodecError) -> ByteBuffer {
        scratch.removeAll(keepingCapacity: true)
        _ = try frame.payload.withUnsafeBytes { payload in
            Result { () throws(IMCodecError) in
                try encoder.encodeFrame(payload: payload, kind: frame.header.kind, appendingTo: &scratch)
            }
        }.get()
        return ByteBuffer(bytes: scratch)
    }

    /// Adds a member; false when the connection is in as many groups as the
    /// configuration allows.
    private func join(_ group: String, _ connection: RelayConnection) -> Bool {
        if connection.groups.contains(group) { return true }
        guard connection.groups.count < configuration.maxGroupsPerConnection else { return false }
        connection.groups.insert(group)
        groups[group, default: [:]][ObjectIdentifier(connection)] = connection
        // A new member that is already behind holds back its new group too.
        if !connection.isWritable { pauseGroups(of: connection) }
        return true
    }

    func writabilityChanged(_ connection: RelayConnection) {
        eventLoop.preconditionInEventLoop()
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

    /// Flushes every connection written to since the last flush: once per
    /// read burst rather than once per frame.
    func flush() {
        eventLoop.preconditionInEventLoop()
        let written = unflushed
        unflushed.removeAll(keepingCapacity: true)
        for connection in written {
            connection.flush()
        }
    }

    /// Writes a frame to a connection, to be flushed with the burst.
    private func write(_ bytes: ByteBuffer, to connection: RelayConnection) {
        if connection.write(bytes) {
            unflushed.append(connection)
        }
    }
}
