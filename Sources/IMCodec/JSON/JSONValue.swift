/// A parsed JSON document, keeping what proto3 JSON needs exactly: object
/// members in order (so duplicates can be reported) and numbers as their
/// literal text (so 64-bit integers and 17-digit doubles lose nothing).
@usableFromInline package enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as its literal text.
    case number(String)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, members in document order.
    case object([Member])

    /// One member of a JSON object.
    @usableFromInline package struct Member: Sendable, Hashable {
        /// The member name.
        package var key: String
        /// The member value.
        package var value: JSONValue

        /// Creates a member.
        package init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// A short name of the value's JSON type, for error reasons.
    package var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

extension JSONValue {
    /// Parses a JSON document.
    ///
    /// - Parameters:
    ///   - utf8: The document's UTF-8 bytes.
    ///   - maxNesting: The deepest nesting of arrays and objects accepted.
    /// - Throws: `json.syntax` for text that is not JSON, `json.depth` for
    ///   nesting past `maxNesting`.
    package init(parsing utf8: some Collection<UInt8>, maxNesting: Int = 1_000) throws(IMCodecError) {
        let bytes = Array(utf8)
        var parser = JSONParser(bytes: bytes, maxNesting: maxNesting)
        self = try parser.parseDocument()
    }

    /// Parses a document that is read as a value under `limits`: refused
    /// as `limit.document-size` past ``DecodingLimits/maxDocumentBytes``
    /// before it is parsed, and no array keeping more than
    /// ``DecodingLimits/largestCount`` + 1 entries, so a document past the
    /// count limits costs no memory for the entries no reader looks at.
    ///
    /// - Parameters:
    ///   - utf8: The document's UTF-8 bytes.
    ///   - limits: The limits the value is read with.
    ///   - maxNesting: The deepest nesting of arrays and objects accepted.
    /// - Throws: `limit.document-size`, `json.syntax`, `json.depth`.
    package init(parsing utf8: some Collection<UInt8>, limits: DecodingLimits, maxNesting: Int) throws(IMCodecError) {
        let count = utf8.count
        guard count <= limits.maxDocumentBytes else {
            throw IMCodecError(
                .limitDocumentSize, reason: "a JSON document of \(count) bytes is too large",
                limit: limits.maxDocumentBytes, observed: count)
        }
        let (entries, overflow) = limits.largestCount.addingReportingOverflow(1)
        var parser = JSONParser(bytes: Array(utf8), maxNesting: maxNesting, maxArrayEntries: overflow ? .max : entries)
        self = try parser.parseDocument()
    }

    /// The value as JSON text.
    ///
    /// - Parameter pretty: Indent nested values by two spaces, one member per
    ///   line; otherwise the text has no whitespace.
    package func serialized(pretty: Bool = false) -> String {
        var writer = JSONWriter(pretty: pretty)
        writer.value(self)
        return writer.string
    }
}
