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
    /// Parses a JSON document into a tree.
    ///
    /// The input readers of the library do not build trees: they read their
    /// values straight from the document (``JSONReader``). A tree is for
    /// JSON the library has written itself, such as a value to print again
    /// with indentation.
    ///
    /// - Parameters:
    ///   - utf8: The document's UTF-8 bytes.
    ///   - maxNesting: The deepest nesting of arrays and objects accepted.
    /// - Throws: `json.syntax` for text that is not JSON, `json.depth` for
    ///   nesting past `maxNesting`.
    package init(parsing utf8: some Collection<UInt8>, maxNesting: Int = 1_000) throws(IMCodecError) {
        self = try JSONDocument.read(utf8, limits: nil, maxNesting: maxNesting) { reader in
            JSONValue(reading: &reader)
        }
    }

    /// An array or object still open while a tree is built, innermost last.
    private enum OpenContainer {
        /// An object, its members so far and the key of the value being read.
        case object([Member], key: String)
        /// An array and its elements so far.
        case array([JSONValue])
    }

    /// Reads the reader's next value into a tree. Nesting is kept on a heap
    /// stack of open containers, not on the call stack.
    private init(reading reader: inout JSONReader) {
        var open: [OpenContainer] = []
        while true {
            var value: JSONValue
            switch reader.kind() {
            case .object:
                reader.beginObject()
                if let key = reader.nextKey() {
                    open.append(.object([], key: key))
                    continue
                }
                value = .object([])
            case .array:
                reader.beginArray()
                if reader.nextEntry() {
                    open.append(.array([]))
                    continue
                }
                value = .array([])
            default:
                value = reader.scalar()
            }
            // A value is complete: add it to the innermost container, and
            // close every container that ends after it. `consume` ends the
            // binding's hold on the container's storage, so the append grows
            // it in place instead of copying it.
            closing: while let container = open.popLast() {
                switch consume container {
                case .object(var members, let key):
                    members.append(Member(key, value))
                    if let next = reader.nextKey() {
                        open.append(.object(members, key: next))
                        break closing
                    }
                    value = .object(members)
                case .array(var elements):
                    elements.append(value)
                    if reader.nextEntry() {
                        open.append(.array(elements))
                        break closing
                    }
                    value = .array(elements)
                }
            }
            if open.isEmpty {
                self = value
                return
            }
        }
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
