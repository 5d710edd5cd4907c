/// The text of a group @ message and the @ fields that go with it, built
/// together so that they agree.
///
/// Each mention is written into the text as `@` and a display name, and its
/// user ID goes into ``atUserList`` once, however often it is mentioned;
/// mentioning every member adds ``Message/atAllUserID``. ``atType`` follows
/// from the list. ``Message/init(from:toGroup:mentioning:msgID:)`` makes the
/// message, which then obeys the rules of `docs/spec/limits.md` that tie these
/// fields together:
///
/// - M10: an @ user list only on a group message, and an @ message holds
///   text elems only (`rule.at.not-group-message`, `rule.at.text-only`): the
///   message is a group message of one text elem;
/// - M11: a targeted group message is never an @ message
///   (`rule.targeted.with-at`): the message has no targeted receivers;
/// - M16 and M20: the @ type is a documented value that follows from the @
///   user list (`enum.unknown-value`, `rule.at.type-mismatch`).
///
/// The user IDs themselves are not checked here: `Validator` reports one
/// that is empty or too long (`limit.user.id-bytes`).
///
/// Build it step by step or with string interpolation:
///
/// ```swift
/// var text = MentionText()
/// text.appendMention(of: "bob", as: "Bob")
/// text.append(" lunch at 12?")
///
/// let same: MentionText = "\(mention: "bob", as: "Bob") lunch at 12?"
/// let everyone: MentionText = "\(mentionAll: "All") the build is green, \(mention: "bob", as: "Bob") thanks"
/// let message = Message(from: "alice", toGroup: "@TGS#1ABC", mentioning: everyone)
/// ```
public struct MentionText: Hashable, Sendable, ExpressibleByStringInterpolation {
    /// The text, mentions written as `@` and their display names.
    public private(set) var text = ""
    /// The user IDs mentioned, in the order of their first mention, each
    /// once; ``Message/atAllUserID`` when every member is mentioned.
    public private(set) var atUserList: [String] = []

    /// An empty text that mentions no one.
    public init() {}

    /// A text that mentions no one.
    ///
    /// - Parameter value: The text.
    public init(stringLiteral value: String) {
        text = value
    }

    /// The text an interpolation built, with its mentions.
    ///
    /// - Parameter stringInterpolation: The parts, in order.
    public init(stringInterpolation: StringInterpolation) {
        self = stringInterpolation.mentionText
    }

    /// Appends plain text.
    ///
    /// - Parameter text: The text, written as it is.
    public mutating func append(_ text: String) {
        self.text += text
    }

    /// Mentions one user: appends `@` and `name` to the text and the user ID
    /// to ``atUserList``, unless it is there already.
    ///
    /// - Parameters:
    ///   - userID: The user's ID. ``Message/atAllUserID`` mentions every
    ///     member, as ``appendMentionOfAll(as:)`` does.
    ///   - name: What the text shows after the `@`: a nickname or name card.
    public mutating func appendMention(of userID: String, as name: String) {
        text += "@" + name
        if !atUserList.contains(where: { $0.utf8.elementsEqual(userID.utf8) }) {
            atUserList.append(userID)
        }
    }

    /// Mentions every member of the group: appends `@` and `name` to the
    /// text and ``Message/atAllUserID`` to ``atUserList``, unless it is there
    /// already.
    ///
    /// - Parameter name: What the text shows after the `@`, such as `All`.
    public mutating func appendMentionOfAll(as name: String) {
        appendMention(of: Message.atAllUserID, as: name)
    }

    /// Whether every member is mentioned.
    public var mentionsAllMembers: Bool { atUserList.contains(where: Message.isAtAllUserID) }

    /// Whether a user is mentioned by ID.
    public var mentionsUsers: Bool { atUserList.contains { !Message.isAtAllUserID($0) } }

    /// The @ type of the message as the users it names see it (the messaging
    /// guide's `V2TIMGroupAtInfo.atType`): ``GroupAtType/atMe`` when it
    /// names users, ``GroupAtType/atAll`` when it mentions every member,
    /// ``GroupAtType/atAllAtMe`` when it does both, and
    /// ``GroupAtType/unspecified`` when it mentions no one.
    public var atType: GroupAtType {
        switch (mentionsAllMembers, mentionsUsers) {
        case (true, true): .atAllAtMe
        case (true, false): .atAll
        case (false, true): .atMe
        case (false, false): .unspecified
        }
    }

    /// The parts of a ``MentionText`` written as a string literal with
    /// interpolations: `"\(mention: "bob", as: "Bob") hi"`.
    public struct StringInterpolation: StringInterpolationProtocol {
        var mentionText = MentionText()

        /// Makes room for the parts.
        ///
        /// - Parameters:
        ///   - literalCapacity: The number of characters of the literal parts.
        ///   - interpolationCount: The number of interpolations.
        public init(literalCapacity: Int, interpolationCount: Int) {
            mentionText.text.reserveCapacity(literalCapacity + interpolationCount * 8)
        }

        /// Appends a literal part as plain text.
        ///
        /// - Parameter literal: The text.
        public mutating func appendLiteral(_ literal: String) {
            mentionText.append(literal)
        }

        /// Mentions one user: `"\(mention: "bob", as: "Bob")"`.
        ///
        /// - Parameters:
        ///   - userID: The user's ID.
        ///   - name: What the text shows after the `@`.
        public mutating func appendInterpolation(mention userID: String, as name: String) {
            mentionText.appendMention(of: userID, as: name)
        }

        /// Mentions every member: `"\(mentionAll: "All")"`.
        ///
        /// - Parameter name: What the text shows after the `@`.
        public mutating func appendInterpolation(mentionAll name: String) {
            mentionText.appendMentionOfAll(as: name)
        }

        /// Appends a value's description as plain text.
        ///
        /// - Parameter value: The value.
        public mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            mentionText.append(value.description)
        }
    }
}

extension Message {
    /// A group @ message: one text elem with the mentions, the @ user list
    /// and the @ type that go with it (``MentionText``).
    ///
    /// - Parameters:
    ///   - sender: The sender's user ID.
    ///   - groupID: The group's ID.
    ///   - text: The text and its mentions.
    ///   - msgID: The message ID; empty until a server assigns one.
    public init(from sender: String, toGroup groupID: String, mentioning text: MentionText, msgID: String = "") {
        self.init(from: sender, toGroup: groupID, elems: [.text(text.text)], msgID: msgID)
        atUserList = text.atUserList
        atType = text.atType
    }
}
