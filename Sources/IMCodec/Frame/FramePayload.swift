/// The decoded content of a frame: a message, a batch of messages or an event.
public enum FramePayload: Hashable, Sendable {
    /// A frame of kind ``FrameKind/message``.
    case message(Message)
    /// A frame of kind ``FrameKind/batch``.
    case batch(MessageBatch)
    /// A frame of kind ``FrameKind/event``.
    case event(Event)

    /// The frame kind that holds this payload.
    ///
    /// This and the other members switch on the payload rather than hand out
    /// the value as `any FrameContent`: boxing it costs an allocation and a
    /// copy of the message, which doubled the cost of encoding a short text
    /// message and nearly tripled that of framing it.
    public var kind: FrameKind {
        switch self {
        case .message: .message
        case .batch: .batch
        case .event: .event
        }
    }

    /// Decodes the protobuf payload of a frame of `kind`.
    ///
    /// - Parameters:
    ///   - kind: The frame's kind, which names the payload's type.
    ///   - serializedBytes: The payload.
    ///   - limits: Bounds on depth and repeated counts.
    /// - Throws: `payload.*` and `limit.*` codes, with the path of the field
    ///   where decoding stopped.
    public init(kind: FrameKind, serializedBytes: UnsafeRawBufferPointer, limits: DecodingLimits = .default)
        throws(IMCodecError)
    {
        switch kind {
        case .message: self = .message(try Message(serializedBytes: serializedBytes, limits: limits))
        case .batch: self = .batch(try MessageBatch(serializedBytes: serializedBytes, limits: limits))
        case .event: self = .event(try Event(serializedBytes: serializedBytes, limits: limits))
        }
    }

    /// Decodes the payload of a decoded frame.
    ///
    /// - Parameters:
    ///   - frame: A frame from ``FrameDecoder`` or ``FrameReader``.
    ///   - limits: Bounds on depth and repeated counts.
    /// - Throws: `payload.*` and `limit.*` codes, with the path of the field
    ///   where decoding stopped.
    public init(decoding frame: Frame, limits: DecodingLimits = .default) throws(IMCodecError) {
        try self.init(kind: frame.header.kind, payload: frame.payload, limits: limits)
    }

    /// Decodes a payload held in an array slice, straight into the value.
    init(kind: FrameKind, payload: ArraySlice<UInt8>, limits: DecodingLimits) throws(IMCodecError) {
        switch kind {
        case .message: self = .message(try Message(serializedSlice: payload, limits: limits))
        case .batch: self = .batch(try MessageBatch(serializedSlice: payload, limits: limits))
        case .event: self = .event(try Event(serializedSlice: payload, limits: limits))
        }
    }

    /// Decodes the proto3 JSON form of a value of `kind`.
    ///
    /// - Parameters:
    ///   - kind: Which type the JSON holds.
    ///   - jsonUTF8: The JSON text as UTF-8 bytes.
    ///   - limits: Bounds on depth and repeated counts.
    /// - Throws: `json.*` and `limit.*` codes, with the path.
    public init(kind: FrameKind, jsonUTF8: some Collection<UInt8>, limits: DecodingLimits = .default)
        throws(IMCodecError)
    {
        switch kind {
        case .message: self = .message(try Message(jsonUTF8: jsonUTF8, limits: limits))
        case .batch: self = .batch(try MessageBatch(jsonUTF8: jsonUTF8, limits: limits))
        case .event: self = .event(try Event(jsonUTF8: jsonUTF8, limits: limits))
        }
    }

    /// Decodes the proto3 JSON form of a value of `kind`.
    ///
    /// - Parameters:
    ///   - kind: Which type the JSON holds.
    ///   - jsonString: The JSON text.
    ///   - limits: Bounds on depth and repeated counts.
    /// - Throws: `json.*` and `limit.*` codes, with the path.
    public init(kind: FrameKind, jsonString: String, limits: DecodingLimits = .default) throws(IMCodecError) {
        try self.init(kind: kind, jsonUTF8: jsonString.utf8, limits: limits)
    }

    /// The canonical protobuf encoding of the payload.
    public func serializedBytes() -> [UInt8] {
        switch self {
        case .message(let message): message.serializedBytes()
        case .batch(let batch): batch.serializedBytes()
        case .event(let event): event.serializedBytes()
        }
    }

    /// The proto3 JSON form of the payload.
    ///
    /// - Parameter pretty: Indent nested values, one member per line.
    public func jsonString(pretty: Bool = false) -> String {
        switch self {
        case .message(let message): message.jsonString(pretty: pretty)
        case .batch(let batch): batch.jsonString(pretty: pretty)
        case .event(let event): event.jsonString(pretty: pretty)
        }
    }
}
