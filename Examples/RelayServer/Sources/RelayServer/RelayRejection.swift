import IMCodec
import IMCodecValidation

#if canImport(FoundationEssentials)
    // Not the whole of Foundation: its internationalization and ICU cost
    // the relay about 10 MB of resident memory, and none of it is used.
    import FoundationEssentials
#else
    import Foundation
#endif

/// The relay's answer to a message or join it refuses: a frame sent to the
/// sender alone, holding the findings.
///
/// The reply is a one-to-one `Message` (a frame of kind message) from the
/// relay, which has no user ID: `sender` is empty, `receiver` is the
/// connection's user (empty before its first accepted join), `msgId` is the
/// refused message's (at most 128 bytes of it), and its one elem is a custom
/// elem whose `desc` is ``desc`` and whose `data` is UTF-8 JSON:
///
/// ```json
/// {"msgId": "m7", "groupId": "room", "findings": [
///   {"code": "rule.message.target-ambiguous", "path": "", "severity": "error", "reason": "…"}],
///  "omitted": 0}
/// ```
///
/// `findings` are the errors that decided the refusal, in the validator's
/// order, at most ``maxFindings`` of them (`omitted` counts the rest); each
/// has `code`, `path` (the payload path syntax, empty for the root),
/// `severity`, `reason` (for people, at most 200 bytes) and, for `limit.*`
/// codes, `limit` and `actual`. `groupId` is left out when it is longer
/// than the relay accepts. The relay forwards group messages only, so a
/// client knows a one-to-one message from the relay as its reply.
///
/// Besides the validator's codes (docs/spec/error-and-finding-codes.md), the relay's own:
/// ``Code``.
public enum RelayRejection {
    /// The `desc` of the reply's custom elem.
    public static let desc = "imcodec-relay.rejection"
    /// The most findings one reply lists.
    public static let maxFindings = 32

    /// The relay's own finding codes.
    public enum Code {
        /// The message names a sender other than the connection's user,
        /// which its first accepted join bound it to (path `sender`).
        public static let senderMismatch = FindingCode("relay.sender-mismatch")
        /// A message to a group the connection has not joined (path `groupId`).
        public static let notAMember = FindingCode("relay.not-a-member")
        /// A join past the groups one connection may be in.
        public static let tooManyGroups = FindingCode("relay.too-many-groups")
        /// A group ID longer than the relay accepts, whatever the profile
        /// allows (path `groupId`); checked before anything else.
        public static let groupIDLength = FindingCode("relay.group-id-length")
        /// A frame that is not a group message: a one-to-one message, a
        /// batch or an event, which the relay does not route.
        public static let notRouted = FindingCode("relay.not-routed")
        /// A sender (user ID) longer than the relay accepts
        /// (``RelayConfiguration/maxUserIDBytes``; path `sender`), checked
        /// before anything else about the sender.
        public static let userIDLength = FindingCode("relay.user-id-length")
        /// A first join without a valid login ticket for its sender (path
        /// `cloudCustomData`).
        public static let ticketInvalid = FindingCode("relay.ticket-invalid")
        /// A first join whose login ticket has expired (path
        /// `cloudCustomData`); the signature-expired event comes before the
        /// reply.
        public static let ticketExpired = FindingCode("relay.ticket-expired")
        /// A join or message without a sender.
        public static let senderMissing = FindingCode("relay.sender-missing")
    }

    /// The JSON of a reply's custom elem.
    package struct Body: Codable, Equatable {
        package struct Finding: Codable, Equatable {
            package var code: String
            package var path: String
            package var severity: String
            package var reason: String
            package var limit: Int64?
            package var actual: Int64?
        }

        package var msgId: String
        package var groupId: String?
        package var findings: [Finding]
        package var omitted: Int
    }

    /// The reply to a refused message.
    ///
    /// - Parameters:
    ///   - message: The refused message (its IDs are quoted, bounded).
    ///   - user: The connection's user, or empty.
    ///   - findings: The errors that decided the refusal.
    ///   - maxGroupIDBytes: The longest group ID the relay accepts.
    /// - Returns: The reply's message.
    static func reply(
        to message: Message, user: String, findings: [ValidationFinding], maxGroupIDBytes: Int
    ) -> Message {
        let listed = findings.prefix(maxFindings).map { finding in
            Body.Finding(
                code: finding.code.rawValue, path: finding.path.description, severity: finding.severity.rawValue,
                reason: String(decoding: finding.reason.utf8.prefix(200), as: UTF8.self), limit: finding.limit,
                actual: finding.actual)
        }
        let msgID = String(decoding: message.msgID.utf8.prefix(128), as: UTF8.self)
        let body = Body(
            msgId: msgID, groupId: message.groupID.utf8.count <= maxGroupIDBytes ? message.groupID : nil,
            findings: Array(listed), omitted: findings.count - listed.count)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings, numbers and arrays of them always encode.
        let data = (try? encoder.encode(body)) ?? Data()
        var reply = Message(from: "", to: user, elems: [.custom(Array(data), desc: desc)], msgID: msgID)
        reply.timestamp = Int64(Date().timeIntervalSince1970)
        return reply
    }

    /// The findings a reply carries, when `message` is one.
    ///
    /// - Parameter message: A message the relay sent.
    /// - Returns: The reply's body, or `nil` for any other message.
    package static func body(of message: Message) -> Body? {
        guard message.sender.isEmpty, !message.isGroupMessage, message.elems.count == 1,
            case .custom(let custom) = message.elems[0].kind, custom.desc == desc
        else { return nil }
        return try? JSONDecoder().decode(Body.self, from: Data(custom.data))
    }
}
