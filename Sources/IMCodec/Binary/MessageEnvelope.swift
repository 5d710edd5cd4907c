/// The routing fields of a message — who sent it, to whom, its id, sequence,
/// time and how many elems it holds — read from its encoding without decoding
/// the message.
///
/// A server that only routes a message needs these fields and nothing of its
/// elems. Reading them from the payload steps over every nested message (the
/// elems, the offline push settings) by its length: nothing is allocated but
/// the strings asked for (``Fields``), and a string of up to 15 UTF-8 bytes,
/// as most ids are, is held inline by `String` without an allocation.
///
/// ```swift
/// let envelope = try MessageEnvelope(serializedBytes: payload)
/// if envelope.isGroup { fanOut(to: envelope.groupID) } else { deliver(to: envelope.receiver) }
/// ```
///
/// The top-level fields are read as the full decoder reads them, with the same
/// checks, error codes and paths: a truncated field, a malformed tag or varint,
/// a length past the end, an invalid UTF-8 string among the fields asked for,
/// and more entries in a repeated field than ``DecodingLimits`` allow fail as
/// they fail in `Message(serializedBytes:)`. What the peek does not read is not
/// checked: a problem inside an elem, inside the offline push settings or in a
/// string not asked for is only found by decoding the message. So a message
/// that decodes has an envelope equal to ``init(_:)`` of the decoded message,
/// and one whose envelope fails to read fails to decode with the same error
/// when the problem is in what the peek reads.
///
/// The field numbers come from `Schemas/imcodec/v1/model.proto` through the
/// generated code (`scripts/codegen/generate_swift.py`), like the decoder's.
public struct MessageEnvelope: Hashable, Sendable {
    /// Which string fields a peek reads into the envelope. The others are
    /// stepped over by their length: left empty, not checked, not allocated.
    public struct Fields: OptionSet, Hashable, Sendable {
        /// The option bits.
        public let rawValue: UInt8

        /// Creates a set from its bits.
        ///
        /// - Parameter rawValue: The option bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// ``MessageEnvelope/msgID``.
        public static let msgID = Fields(rawValue: 1 << 0)
        /// ``MessageEnvelope/sender``.
        public static let sender = Fields(rawValue: 1 << 1)
        /// ``MessageEnvelope/receiver``.
        public static let receiver = Fields(rawValue: 1 << 2)
        /// ``MessageEnvelope/groupID``.
        public static let groupID = Fields(rawValue: 1 << 3)
        /// Where a message goes: the receiver and the group.
        public static let destination: Fields = [.receiver, .groupID]
        /// Every string field of the envelope.
        public static let all: Fields = [.msgID, .sender, .receiver, .groupID]
    }

    /// The message id (`msg_id`, field 1).
    public var msgID: String = ""
    /// The sender's user id (`sender`, field 2).
    public var sender: String = ""
    /// The receiver's user id of a one-to-one message (`receiver`, field 3).
    public var receiver: String = ""
    /// The group id of a group message (`group_id`, field 4).
    public var groupID: String = ""
    /// The server time, in seconds (`timestamp`, field 6).
    public var timestamp: Int64 = 0
    /// The sequence number (`seq`, field 7).
    public var seq: UInt64 = 0
    /// How many elems the message holds (entries of `elems`, field 18).
    public var elemCount: Int = 0

    /// Whether the message goes to a group: its group id is set.
    public var isGroup: Bool { !groupID.isEmpty }

    /// Creates an envelope with every field at its default.
    @inlinable
    public init() {}

    /// The envelope of a message already decoded.
    ///
    /// - Parameter message: The message.
    public init(_ message: Message) {
        msgID = message.msgID
        sender = message.sender
        receiver = message.receiver
        groupID = message.groupID
        timestamp = message.timestamp
        seq = message.seq
        elemCount = message.elems.count
    }

    /// Reads the envelope of an encoded `Message`.
    ///
    /// - Parameters:
    ///   - serializedBytes: The message's protobuf encoding (a message frame's payload).
    ///   - fields: The string fields to read; the others stay empty.
    ///   - limits: Bounds on repeated counts and on the nesting of unknown groups.
    /// - Throws: ``IMCodecError`` with the code and path `Message(serializedBytes:)`
    ///   gives for the same bytes: `payload.truncated`, `payload.tag`,
    ///   `payload.varint`, `payload.length`, `payload.group`, `payload.utf8`
    ///   (a string of `fields` only), `limit.elems`, `limit.repeated`,
    ///   `limit.depth` (groups of unknown fields).
    @inlinable
    public init(
        serializedBytes: UnsafeRawBufferPointer, fields: Fields = .all, limits: DecodingLimits = .default
    ) throws(IMCodecError) {
        var reader = WireReader(serializedBytes)
        self.init()
        try Message._peekEnvelope(from: &reader, into: &self, fields: fields, DecodeContext(limits: limits))
    }

    /// Reads the envelope of an encoded `Message`.
    ///
    /// - Parameters:
    ///   - serializedBytes: The message's protobuf encoding.
    ///   - fields: The string fields to read; the others stay empty.
    ///   - limits: Bounds on repeated counts and on the nesting of unknown groups.
    /// - Throws: The codes of ``init(serializedBytes:fields:limits:)-(UnsafeRawBufferPointer,_,_)``.
    @inlinable
    public init(serializedBytes: [UInt8], fields: Fields = .all, limits: DecodingLimits = .default)
        throws(IMCodecError)
    {
        try self.init(serializedBytes: serializedBytes[...], fields: fields, limits: limits)
    }

    /// Reads the envelope of an encoded `Message` held in an array slice, such as a frame's payload.
    ///
    /// - Parameters:
    ///   - serializedBytes: The message's protobuf encoding.
    ///   - fields: The string fields to read; the others stay empty.
    ///   - limits: Bounds on repeated counts and on the nesting of unknown groups.
    /// - Throws: The codes of ``init(serializedBytes:fields:limits:)-(UnsafeRawBufferPointer,_,_)``.
    @inlinable
    public init(serializedBytes: ArraySlice<UInt8>, fields: Fields = .all, limits: DecodingLimits = .default)
        throws(IMCodecError)
    {
        // Read straight into `self`: going through a `Result` copied the
        // envelope, its strings retained and released, twice.
        self.init()
        var failure: IMCodecError?
        serializedBytes.withUnsafeBytes { buffer in
            do throws(IMCodecError) {
                var reader = WireReader(buffer)
                try Message._peekEnvelope(from: &reader, into: &self, fields: fields, DecodeContext(limits: limits))
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }
}
