import Foundation
import IMCodec
import NIOCore
import RelayServer
import Testing

/// Logins with tickets over loopback: impersonation refused, a second login
/// forcing the first offline, expired tickets, and the ticket's form.
@Suite(.serialized) struct RelayLoginTests {
    static let secret = Array("0123456789abcdef0123456789abcdef".utf8)

    func startRelay() async throws -> RelayHarness {
        try await RelayHarness {
            $0.webPort = 0
            $0.identity = .tickets(secret: Self.secret)
        }
    }

    static func ticket(_ user: String, in seconds: Int64 = 3_600) -> String {
        RelayTicket.issue(user: user, expiry: Int64(Date().timeIntervalSince1970) + seconds, secret: secret)
    }

    /// A join carrying `ticket` in its `cloudCustomData`.
    static func join(_ group: String, as user: String, ticket: String?) -> Message {
        var join = Message(from: user, toGroup: group, elems: [])
        if let ticket { join.cloudCustomData = Array(ticket.utf8) }
        return join
    }

    /// The user status events a client received.
    func statusEvents(_ client: RelayClient) -> [UserStatusType] {
        client.received.withLock { received in
            received.compactMap { payload in
                if case .event(let event) = payload, case .userStatus(let status)? = event.kind {
                    status.type
                } else {
                    nil
                }
            }
        }
    }

    @Test func theTicketIsAnHMACSHA256OverTheUserAndTheExpiry() {
        // The MAC computed apart from the code under test, with Python's
        // hmac and hashlib over the same bytes.
        let ticket = RelayTicket.issue(user: "alice", expiry: 2_000_000_000, secret: Self.secret)
        #expect(ticket == "2000000000.WXYyjU8daxgB-Oi3bMTnu49BFZc-UYyT6J2g_q9zDxA")
        #expect(
            RelayTicket.verify(ticket, user: "alice", secret: Self.secret, now: 1_999_999_999)
                == .valid(expiry: 2_000_000_000))
        #expect(
            RelayTicket.verify(ticket, user: "alice", secret: Self.secret, now: 2_000_000_000)
                == .expired(expiry: 2_000_000_000))
        #expect(RelayTicket.verify(ticket, user: "alicf", secret: Self.secret, now: 0) == .invalid)
        #expect(RelayTicket.verify(ticket, user: "alice", secret: Array("another secret!!".utf8), now: 0) == .invalid)
        // A later expiry under the same MAC, a changed MAC, and no ticket.
        let mac = ticket.split(separator: ".")[1]
        #expect(RelayTicket.verify("2000000001.\(mac)", user: "alice", secret: Self.secret, now: 0) == .invalid)
        #expect(
            RelayTicket.verify(String(ticket.dropLast()) + "B", user: "alice", secret: Self.secret, now: 0) == .invalid)
        for garbage in ["", ".", "2000000000", "2000000000.", "-1.\(mac)", "02000000000.\(mac)", "x.\(mac)"] {
            #expect(RelayTicket.verify(garbage, user: "alice", secret: Self.secret, now: 0) == .invalid, "\(garbage)")
        }
    }

    @Test func nobodyLogsInAsAnotherUserWithoutTheirTicket() async throws {
        let relay = try await startRelay()
        let alice = try await relay.client()
        let bob = try await relay.client()
        try await alice.channel.writeAndFlush(
            RelayClient.frame(Self.join("room", as: "alice", ticket: Self.ticket("alice"))))
        try await bob.channel.writeAndFlush(RelayClient.frame(Self.join("room", as: "bob", ticket: Self.ticket("bob"))))
        try await eventually("both joined") {
            alice.messages.contains { $0.elems.isEmpty } && bob.messages.contains { $0.elems.isEmpty }
        }
        let mallory = try await relay.client()
        // No ticket, mallory's own ticket, and a ticket for alice signed
        // with another secret.
        let forged = RelayTicket.issue(user: "alice", expiry: 4_000_000_000, secret: Array("not the secret!!".utf8))
        for ticket in [nil, Self.ticket("mallory"), forged] {
            try await mallory.channel.writeAndFlush(RelayClient.frame(Self.join("room", as: "alice", ticket: ticket)))
        }
        try await mallory.send(Samples.message(group: "room", sender: "alice", seq: 99))
        try await eventually("mallory's four answers") { mallory.rejections.count == 4 }
        #expect(
            mallory.rejections.map { $0.findings.first?.code ?? "" } == [
                "relay.ticket-invalid", "relay.ticket-invalid", "relay.ticket-invalid", "relay.not-a-member",
            ])
        #expect(mallory.rejections.first?.findings.first?.path == "cloudCustomData")
        // Alice is still on, and bob heard nothing from the impostor.
        try await alice.send(Samples.message(group: "room", sender: "alice", seq: 1))
        try await eventually("alice's message") { bob.sequences(from: "alice") == [1] }
        #expect(!alice.isClosed.withLock { $0 })
        #expect(relay.closeReasons.isEmpty)
        try await relay.shutdown()
    }

    @Test func aSecondLoginForcesTheFirstOffline() async throws {
        let relay = try await startRelay()
        let first = try await relay.client()
        let bob = try await relay.client()
        try await first.channel.writeAndFlush(
            RelayClient.frame(Self.join("room", as: "alice", ticket: Self.ticket("alice"))))
        try await bob.channel.writeAndFlush(RelayClient.frame(Self.join("room", as: "bob", ticket: Self.ticket("bob"))))
        try await eventually("both joined") { first.messages.count == 1 && bob.messages.count == 1 }
        // The same user from a WebSocket.
        let webPort = try #require(relay.server.webAddress?.port)
        let second = try await WebSocketClient(port: webPort, group: relay.clientGroup)
        try await second.send(Self.join("room", as: "alice", ticket: Self.ticket("alice")))
        try await eventually("the first connection forced offline", seconds: 5) { first.isClosed.withLock { $0 } }
        #expect(statusEvents(first) == [.forcedOffline])
        try await relay.closesLogged(["relay.kicked-offline"])
        #expect(relay.closeReasons == ["relay.kicked-offline"])
        try await second.send(Samples.message(group: "room", sender: "alice", seq: 2))
        try await eventually("the second connection's message") { bob.sequences(from: "alice") == [2] }
        #expect(!second.log.withLock { $0.isClosed })
        try await relay.shutdown()
    }

    @Test func anExpiredTicketGetsTheSignatureExpiredEvent() async throws {
        let relay = try await startRelay()
        let late = try await relay.client()
        try await late.channel.writeAndFlush(
            RelayClient.frame(Self.join("room", as: "late", ticket: Self.ticket("late", in: -10))))
        try await eventually("the answers") { late.received.withLock { $0.count } == 2 }
        #expect(statusEvents(late) == [.userSigExpired])
        #expect(late.rejections.map { $0.findings.first?.code } == ["relay.ticket-expired"])
        // A ticket that expires while its connection is open ends it the
        // same way.
        let brief = try await relay.client()
        try await brief.channel.writeAndFlush(
            RelayClient.frame(Self.join("room", as: "brief", ticket: Self.ticket("brief", in: 1))))
        try await eventually("brief joined") { brief.messages.count == 1 }
        try await eventually("brief's ticket expired", seconds: 5) { brief.isClosed.withLock { $0 } }
        #expect(statusEvents(brief) == [.userSigExpired])
        try await relay.closesLogged(["relay.ticket-expired"])
        #expect(relay.closeReasons == ["relay.ticket-expired"])
        try await relay.shutdown()
    }
}
