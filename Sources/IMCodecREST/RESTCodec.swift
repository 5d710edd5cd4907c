import IMCodec

/// Reads and writes Tencent Cloud IM REST `MsgBody` JSON (docs/spec/rest.md).
///
/// ```swift
/// let text = #"[{"MsgType": "TIMTextElem", "MsgContent": {"Text": "hi"}}]"#
/// let message = try RESTCodec.importMessage(Array(text.utf8)).value
/// let back = try RESTCodec.export(message)   // the same text, compact
/// ```
///
/// Import is strict: keys are case-sensitive, types and ranges are checked,
/// and a key the form does not have is an error rather than a silent loss.
/// The first problem is thrown; `RESTValidator` reports all of them.
/// Export writes the canonical form, and throws `rest.unrepresentable` for a
/// value the REST form cannot hold.
public enum RESTCodec {
    /// Reads a message: a bare `MsgBody` array or a message object (a send
    /// request, a callback, one history entry).
    ///
    /// - Parameters:
    ///   - utf8: The document's UTF-8 text.
    ///   - limits: Bounds on elements, arrays, batch size and relay nesting.
    /// - Returns: The message and the envelope keys skipped.
    /// - Throws: The first problem in document order: `json.*`, `rest.*` or
    ///   `limit.*` with its JSON path.
    public static func importMessage(
        _ utf8: some Collection<UInt8>,
        limits: DecodingLimits = .default
    ) throws(IMCodecError) -> RESTImport<Message> {
        let reader = RESTReader(limits: limits, keep: 1)
        let message = try RESTReader.withDocument(utf8, limits: limits) { reader.message(document: &$0) }
        return try result(message, reader)
    }

    /// Reads a message list (`{"MsgList": [...]}` or `{"RspMsgList": [...]}`,
    /// a history answer) as a batch.
    ///
    /// - Parameters:
    ///   - utf8: The document's UTF-8 text.
    ///   - limits: Bounds on elements, arrays, batch size and relay nesting.
    /// - Returns: The batch and the envelope keys skipped.
    /// - Throws: The first problem in document order.
    public static func importBatch(
        _ utf8: some Collection<UInt8>,
        limits: DecodingLimits = .default
    ) throws(IMCodecError) -> RESTImport<MessageBatch> {
        let reader = RESTReader(limits: limits, keep: 1)
        let batch = try RESTReader.withDocument(utf8, limits: limits) { reader.batch(document: &$0) }
        return try result(batch, reader)
    }

    /// Reads any REST document: a message list as a batch, anything else as
    /// a message.
    ///
    /// - Parameters:
    ///   - utf8: The document's UTF-8 text.
    ///   - limits: Bounds on elements, arrays, batch size and relay nesting.
    /// - Returns: The payload and the envelope keys skipped.
    /// - Throws: The first problem in document order.
    public static func importPayload(
        _ utf8: some Collection<UInt8>,
        limits: DecodingLimits = .default
    ) throws(IMCodecError) -> RESTImport<FramePayload> {
        let reader = RESTReader(limits: limits, keep: 1)
        let payload = try RESTReader.withDocument(utf8, limits: limits) { (document) -> FramePayload in
            if document.kind() == .object, reader.isMessageList(document) {
                return .batch(reader.batch(document: &document))
            }
            return .message(reader.message(document: &document))
        }
        return try result(payload, reader)
    }

    /// Reads any REST document as ``importPayload(_:limits:)`` does, with the
    /// same problems in the same order, handing the messages of a message
    /// list to `body` one by one as they are read instead of collecting
    /// them, so that a list is never held whole.
    ///
    /// `body` may see messages of a document that then fails: the first
    /// problem is thrown once the whole document is read.
    ///
    /// - Parameters:
    ///   - utf8: The document's UTF-8 text.
    ///   - limits: Bounds on elements, arrays, batch size and relay nesting.
    ///   - keepsMessages: Whether the messages are kept: `false` finds the
    ///     problems and the skipped keys alone, holding one message at a
    ///     time, and the messages come back empty.
    ///   - body: Called with each message of a message list and its index.
    /// - Returns: The message of a message document, `nil` for a message
    ///   list; and the envelope keys skipped.
    /// - Throws: The first problem in document order.
    package static func importPayload(
        _ utf8: some Collection<UInt8>, limits: DecodingLimits, keepsMessages: Bool = true,
        eachListMessage body: (Message, Int) -> Void
    ) throws(IMCodecError) -> RESTImport<Message?> {
        let reader = RESTReader(limits: limits, keep: 1, keepsMessages: keepsMessages)
        let message = try RESTReader.withDocument(utf8, limits: limits) { (document) -> Message? in
            if document.kind() == .object, reader.isMessageList(document) {
                _ = reader.batch(document: &document, each: body)
                return nil
            }
            return reader.message(document: &document)
        }
        return try result(message, reader)
    }

    /// Writes a message as a canonical REST document: a bare `MsgBody` array
    /// when no envelope field is set, else a message object.
    ///
    /// - Parameter message: The message.
    /// - Returns: Compact JSON text.
    /// - Throws: `rest.unrepresentable` at the payload path of the first
    ///   value the REST form cannot hold.
    public static func export(_ message: Message) throws(IMCodecError) -> String {
        try RESTRepresentability.check(message, at: FieldPath())
        var writer = RESTWriter()
        writer.document(message)
        return writer.json.string
    }

    /// Writes a batch as `{"MsgList": [...]}`.
    ///
    /// - Parameter batch: The batch.
    /// - Returns: Compact JSON text.
    /// - Throws: `rest.unrepresentable` at the payload path of the first
    ///   value the REST form cannot hold.
    public static func export(_ batch: MessageBatch) throws(IMCodecError) -> String {
        try RESTRepresentability.check(batch)
        var writer = RESTWriter()
        writer.document(batch)
        return writer.json.string
    }

    /// Writes a message or batch payload; events have no REST form.
    ///
    /// - Parameter payload: The payload.
    /// - Returns: Compact JSON text.
    /// - Throws: `rest.unrepresentable` for an event or a value the REST
    ///   form cannot hold.
    public static func export(_ payload: FramePayload) throws(IMCodecError) -> String {
        switch payload {
        case .message(let message): try export(message)
        case .batch(let batch): try export(batch)
        case .event: throw IMCodecError(.restUnrepresentable, reason: "events have no REST form")
        }
    }

    private static func result<Value>(_ value: Value, _ reader: RESTReader) throws(IMCodecError) -> RESTImport<Value> {
        if let first = reader.problems.first { throw first }
        return RESTImport(value: value, skippedKeys: reader.skippedKeys)
    }
}

/// What a REST import produced: the value, and the paths of the envelope keys
/// that were accepted but not carried into it (`CallbackCommand`, `MsgTime`,
/// … — docs/spec/rest.md lists them).
public struct RESTImport<Value> {
    /// The imported value.
    public var value: Value
    /// Paths of the skipped envelope keys, in document order
    /// (`MsgList[0].MsgTime`).
    public var skippedKeys: [FieldPath]

    /// Creates an import result.
    public init(value: Value, skippedKeys: [FieldPath]) {
        self.value = value
        self.skippedKeys = skippedKeys
    }
}
extension RESTImport: Equatable where Value: Equatable {}
