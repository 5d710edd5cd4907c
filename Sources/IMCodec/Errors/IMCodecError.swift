/// The one error type of the library: every decoding, framing and JSON problem.
///
/// An error carries a stable ``Code`` (a short string such as `frame.truncated`
/// that every implementation of the format uses), the ``path`` into the value
/// where the problem was found (a ``FieldPath``, written
/// `elems[2].image.levels[1].width`; empty for the root), a human ``reason``, and for limit errors the ``limit`` and the
/// ``observed`` value. An error of a stream of frames also says which frame:
/// its ``frameIndex`` and the ``frameOffset`` where it starts in the stream.
/// Two errors are equal when their codes and paths are equal; the reason, the
/// frame and the source location are for people, not for matching.
///
/// Limits and observed values are `Int64`, as in `IMCodecValidation`'s
/// `ValidationFinding` (its `limit` and `actual`): one type for every
/// observed number in the library. Not `Int`, which is 32 bits on
/// watchOS (arm64_32), where a declared frame length or a `uint32` field
/// value can pass `Int32.max`; and `Int64` is what the testee protocol
/// (`Finding.limit`, `Finding.actual`), the C reference (`long long`,
/// `int64_t`) and the Python testee carry, so a number crosses every
/// implementation unchanged.
public struct IMCodecError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The error's fields, in one immutable box: an error is a single
    /// pointer wherever it is returned or stored, which keeps the stack
    /// frames of the decoders that pass it on small.
    private final class Storage: Sendable {
        let code: Code
        let path: FieldPath
        let reason: String
        let limit: Int64?
        let observed: Int64?
        let frameIndex: Int?
        let frameOffset: Int?
        let underlyingError: (any Error)?
        let file: String
        let line: UInt

        init(
            code: Code, path: FieldPath, reason: String, limit: Int64?, observed: Int64?, frameIndex: Int?,
            frameOffset: Int?, underlyingError: (any Error)? = nil, file: String, line: UInt
        ) {
            self.code = code
            self.path = path
            self.reason = reason
            self.limit = limit
            self.observed = observed
            self.frameIndex = frameIndex
            self.frameOffset = frameOffset
            self.underlyingError = underlyingError
            self.file = file
            self.line = line
        }
    }

    private var storage: Storage

    /// Replaces one field, leaving the others as they are.
    private mutating func update(
        code: Code? = nil, path: FieldPath? = nil, reason: String? = nil, limit: Int64?? = nil, observed: Int64?? = nil,
        frameIndex: Int?? = nil, frameOffset: Int?? = nil, underlyingError: (any Error)?? = nil, file: String? = nil,
        line: UInt? = nil
    ) {
        let old = storage
        storage = Storage(
            code: code ?? old.code, path: path ?? old.path, reason: reason ?? old.reason, limit: limit ?? old.limit,
            observed: observed ?? old.observed, frameIndex: frameIndex ?? old.frameIndex,
            frameOffset: frameOffset ?? old.frameOffset, underlyingError: underlyingError ?? old.underlyingError,
            file: file ?? old.file, line: line ?? old.line)
    }

    /// The stable code naming the kind of problem.
    public var code: Code {
        get { storage.code }
        set { update(code: newValue) }
    }
    /// Where in the value the problem was found, as field names and indexes;
    /// empty for the root. Its ``FieldPath/description`` is the text form
    /// (`elems[2].text.text`).
    public var path: FieldPath {
        get { storage.path }
        set { update(path: newValue) }
    }
    /// A human explanation; its wording may change between releases.
    public var reason: String {
        get { storage.reason }
        set { update(reason: newValue) }
    }
    /// The limit that was crossed, for `limit.*` codes.
    public var limit: Int64? {
        get { storage.limit }
        set { update(limit: .some(newValue)) }
    }
    /// The value that crossed the limit, for `limit.*` codes.
    public var observed: Int64? {
        get { storage.observed }
        set { update(observed: .some(newValue)) }
    }
    /// For an error of a stream of frames (``FrameReader``, the asynchronous
    /// frame sequences): the index of the frame it is about, 0 for the first,
    /// counting every frame of the stream, skipped ones too; `nil` for the
    /// errors of a single value.
    public var frameIndex: Int? {
        get { storage.frameIndex }
        set { update(frameIndex: .some(newValue)) }
    }
    /// For an error of a stream of frames: the byte offset in the stream
    /// where the frame it is about starts; `nil` for the errors of a single
    /// value.
    public var frameOffset: Int? {
        get { storage.frameOffset }
        set { update(frameOffset: .some(newValue)) }
    }
    /// For `stream.source` and `stream.cancelled`, the errors of an
    /// asynchronous frame sequence that are not the format's: the error the
    /// source of chunks threw, or the `CancellationError`; `nil` otherwise.
    public var underlyingError: (any Error)? {
        storage.underlyingError
    }
    /// The source file that raised the error, for debugging.
    public var file: String {
        get { storage.file }
        set { update(file: newValue) }
    }
    /// The source line that raised the error, for debugging.
    public var line: UInt {
        get { storage.line }
        set { update(line: newValue) }
    }

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The stable code.
    ///   - path: The path into the value; empty for the root.
    ///   - reason: A human explanation.
    ///   - limit: The limit crossed, for limit errors.
    ///   - observed: The observed value, for limit errors.
    ///   - file: The source file that raises the error, for debugging.
    ///   - line: The source line that raises the error, for debugging.
    public init(
        _ code: Code,
        path: FieldPath = FieldPath(),
        reason: String,
        limit: Int64? = nil,
        observed: Int64? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) {
        storage = Storage(
            code: code, path: path, reason: reason, limit: limit, observed: observed, frameIndex: nil,
            frameOffset: nil, file: file, line: line)
    }

    /// Creates a limit error from the library's own counts and limits,
    /// which are `Int`s.
    @usableFromInline
    package init(
        _ code: Code, path: FieldPath = FieldPath(), reason: String, limit: Int, observed: Int, file: String = #fileID,
        line: UInt = #line
    ) {
        self.init(
            code, path: path, reason: reason, limit: Int64(limit), observed: Int64(observed), file: file, line: line)
    }

    public static func == (lhs: IMCodecError, rhs: IMCodecError) -> Bool {
        lhs.code == rhs.code && lhs.path == rhs.path
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(path)
    }

    /// `code at path: reason`, with the limit and observed value when
    /// present, and `[frame 3 at byte 120]` for an error of a stream.
    public var description: String {
        var text = code.rawValue
        if !path.isEmpty { text += " at \(path)" }
        text += ": \(reason)"
        if let limit, let observed { text += " (limit \(limit), observed \(observed))" }
        if let frameIndex, let frameOffset { text += " [frame \(frameIndex) at byte \(frameOffset)]" }
        return text
    }

    /// Returns this error with the frame of a stream it is about.
    ///
    /// - Parameters:
    ///   - index: The frame's index in the stream.
    ///   - offset: The byte offset where the frame starts.
    /// - Returns: The same error, saying which frame.
    package func inFrame(_ index: Int, at offset: Int) -> IMCodecError {
        var copy = self
        copy.update(frameIndex: .some(index), frameOffset: .some(offset))
        return copy
    }

    /// Returns this error with the error that caused it, which is not the
    /// format's (``underlyingError``).
    ///
    /// - Parameter cause: The source's error, or the `CancellationError`.
    /// - Returns: The same error, holding its cause.
    package func caused(by cause: any Error) -> IMCodecError {
        var copy = self
        copy.update(underlyingError: .some(cause))
        return copy
    }

    /// Returns this error with the field `name` put in front of its path.
    ///
    /// Decoders build paths on the way out of a failed nested decode, so the
    /// successful path pays nothing for them.
    @usableFromInline
    package func prefixed(field name: String) -> IMCodecError {
        var copy = self
        copy.path.prepend(.field(name))
        return copy
    }

    /// Returns this error with entry `index` of the repeated field `name`
    /// put in front of its path.
    @usableFromInline
    package func prefixed(field name: String, index: Int) -> IMCodecError {
        var copy = self
        copy.path.prepend([.field(name), .index(index)])
        return copy
    }
}

extension IMCodecError {
    /// A stable error code. Codes are strings shared by every implementation of
    /// the format and named in the golden vectors; new codes may be added in
    /// later releases, so switch over them with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's string form, such as `frame.truncated`.
        public let rawValue: String

        /// Creates a code from its string form.
        public init(_ rawValue: String) { self.rawValue = rawValue }

        public var description: String { rawValue }
    }
}

extension IMCodecError.Code {
    // MARK: Payload (protobuf binary) codes

    /// The payload ends inside a tag, a value or a length-delimited body.
    public static let payloadTruncated = Self("payload.truncated")
    /// A varint is longer than 10 bytes.
    public static let payloadVarint = Self("payload.varint")
    /// A tag has field number 0 or above 2^29 - 1, or wire type 6 or 7.
    public static let payloadTag = Self("payload.tag")
    /// An end-group tag does not close the group that is open.
    public static let payloadGroup = Self("payload.group")
    /// A length-delimited field claims 2 GiB or more.
    public static let payloadLength = Self("payload.length")
    /// A string field holds bytes that are not valid UTF-8.
    public static let payloadUTF8 = Self("payload.utf8")

    // MARK: Limit codes

    /// Messages nest deeper than the depth budget (merger layers).
    public static let limitDepth = Self("limit.depth")
    /// A message holds more elems than allowed.
    public static let limitElems = Self("limit.elems")
    /// A repeated field holds more entries than allowed.
    public static let limitRepeated = Self("limit.repeated")
    /// A batch holds more messages than allowed.
    public static let limitBatchMessages = Self("limit.batch-messages")
    /// A REST document has more problems than a validation reports.
    public static let limitProblems = Self("limit.problems")
    /// A frame's body is larger than allowed.
    public static let limitFrameSize = Self("limit.frame-size")
    /// A frame's payload is larger than allowed.
    public static let limitInflatedSize = Self("limit.inflated-size")
    /// A frame's payload is larger than its body times the allowed ratio.
    public static let limitInflateRatio = Self("limit.inflate-ratio")
    /// A JSON document is larger than allowed.
    public static let limitDocumentSize = Self("limit.document-size")

    // MARK: JSON codes

    /// The text is not JSON.
    public static let jsonSyntax = Self("json.syntax")
    /// A value has the wrong JSON type for its field.
    public static let jsonType = Self("json.type")
    /// A value has the right JSON type but is not valid for its field (range,
    /// enum name, base64, number form).
    public static let jsonValue = Self("json.value")
    /// An object names a field the schema does not have.
    public static let jsonUnknownField = Self("json.unknown-field")
    /// An object names the same field twice, or two members of one oneof.
    public static let jsonDuplicateField = Self("json.duplicate-field")
    /// JSON arrays and objects nest deeper than allowed.
    public static let jsonDepth = Self("json.depth")
}
