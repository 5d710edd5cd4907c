/// State shared by the nested JSON decoders of one value: the limits and the
/// current merger layer.
@usableFromInline package struct JSONDecodeContext: Sendable {
    /// The limits the value is decoded under.
    package let limits: DecodingLimits
    /// The merger layer of the message being decoded; 0 at the top level.
    package var depth: Int

    /// Creates a context at layer 0.
    package init(limits: DecodingLimits) {
        self.limits = limits
        self.depth = 0
    }

    /// Enters the messages of a merger: one layer deeper.
    ///
    /// - Throws: `limit.depth` when the new layer is past `maxDepth`.
    package mutating func enterLayer() throws(IMCodecError) {
        depth += 1
        if depth > limits.maxDepth {
            throw IMCodecError(
                .limitDepth, reason: "messages nest deeper than the depth budget",
                limit: limits.maxDepth, observed: depth)
        }
    }

    /// Leaves a merger's messages.
    package mutating func leaveLayer() { depth -= 1 }
}

/// Reads proto3 JSON values as field values from a ``JSONReader``; used by
/// generated code. A value of the wrong type is refused before it is read.
package enum JSONScalar {
    static func typeError(_ value: JSONValue, _ expected: String) -> IMCodecError {
        IMCodecError(.jsonType, reason: "expected \(expected), found \(value.typeName)")
    }

    static func typeError(_ kind: JSONKind, _ expected: String) -> IMCodecError {
        IMCodecError(.jsonType, reason: "expected \(expected), found \(kind.typeName)")
    }

    static func valueError(_ reason: String) -> IMCodecError {
        IMCodecError(.jsonValue, reason: reason)
    }

    /// Reads the `{` of an object, whose members follow.
    ///
    /// - Throws: `json.type` when the next value is not an object.
    package static func beginObject(_ reader: inout JSONReader) throws(IMCodecError) {
        let kind = reader.kind()
        guard kind == .object else { throw typeError(kind, "an object") }
        reader.beginObject()
    }

    /// Reads the `[` of an array, whose entries follow.
    ///
    /// - Returns: The array's entry count when it has more entries than the
    ///   smallest count limit (``JSONReader/beginArray()``), else `nil`.
    /// - Throws: `json.type` when the next value is not an array.
    package static func beginArray(_ reader: inout JSONReader) throws(IMCodecError) -> Int? {
        let kind = reader.kind()
        guard kind == .array else { throw typeError(kind, "an array") }
        return reader.beginArray()
    }

    /// A string field.
    package static func string(_ reader: inout JSONReader) throws(IMCodecError) -> String {
        let value = reader.scalar()
        guard case .string(let text) = value else { throw typeError(value, "a string") }
        return text
    }

    /// A bool field: `true` or `false`.
    package static func bool(_ reader: inout JSONReader) throws(IMCodecError) -> Bool {
        let value = reader.scalar()
        guard case .bool(let flag) = value else { throw typeError(value, "true or false") }
        return flag
    }

    /// A bytes field: base64 in either alphabet, padding optional.
    package static func bytes(_ reader: inout JSONReader) throws(IMCodecError) -> [UInt8] {
        let value = reader.scalar()
        guard case .string(let text) = value else { throw typeError(value, "a base64 string") }
        guard let bytes = Base64.decode(text) else { throw valueError("not base64") }
        return bytes
    }

    // The integer text of a number or numeric string: an optional minus sign
    // and digits. Fractions and exponents are accepted when the value is whole.
    private static func integerText(_ value: JSONValue) throws(IMCodecError) -> String {
        let text: String
        switch value {
        case .number(let literal): text = literal
        case .string(let literal): text = literal
        default: throw typeError(value, "an integer")
        }
        if text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 || $0 == UInt8(ascii: "-") }) {
            return text
        }
        // 1e3 or 5.0: whole numbers in other notation, within 2^53.
        guard let double = Double(text), double.isFinite, double == double.rounded(.towardZero),
            abs(double) <= 9_007_199_254_740_992
        else { throw valueError("\(text) is not an integer") }
        return String(Int64(double))
    }

    /// An int32 field (also enum numbers): a number or a numeric string.
    package static func int32(_ reader: inout JSONReader) throws(IMCodecError) -> Int32 {
        try int32(reader.scalar())
    }

    private static func int32(_ value: JSONValue) throws(IMCodecError) -> Int32 {
        let text = try integerText(value)
        guard let number = Int32(text) else { throw valueError("\(text) is not a 32-bit integer") }
        return number
    }

    /// A uint32 field: a number or a numeric string.
    package static func uint32(_ reader: inout JSONReader) throws(IMCodecError) -> UInt32 {
        let text = try integerText(reader.scalar())
        guard let number = UInt32(text) else { throw valueError("\(text) is not an unsigned 32-bit integer") }
        return number
    }

    /// An int64 field: a numeric string (the canonical form) or a number.
    package static func int64(_ reader: inout JSONReader) throws(IMCodecError) -> Int64 {
        let text = try integerText(reader.scalar())
        guard let number = Int64(text) else { throw valueError("\(text) is not a 64-bit integer") }
        return number
    }

    /// A uint64 field: a numeric string (the canonical form) or a number.
    package static func uint64(_ reader: inout JSONReader) throws(IMCodecError) -> UInt64 {
        let text = try integerText(reader.scalar())
        guard let number = UInt64(text) else { throw valueError("\(text) is not an unsigned 64-bit integer") }
        return number
    }

    /// A double field: a number, a numeric string, or `"NaN"`, `"Infinity"`,
    /// `"-Infinity"`.
    package static func double(_ reader: inout JSONReader) throws(IMCodecError) -> Double {
        let value = reader.scalar()
        switch value {
        case .number(let text):
            guard let number = Double(text), number.isFinite else { throw valueError("\(text) is out of range") }
            return number
        case .string(let text):
            switch text {
            case "NaN": return .nan
            case "Infinity": return .infinity
            case "-Infinity": return -.infinity
            default:
                guard let number = Double(text), number.isFinite, !text.contains(where: { $0.isWhitespace })
                else { throw valueError("\(text) is not a number") }
                return number
            }
        default:
            throw typeError(value, "a number")
        }
    }

    /// An enum field: a value name, or a number (values outside the schema's
    /// names are kept, as in the binary form).
    package static func enumValue(_ reader: inout JSONReader, named: (String) -> Int32?) throws(IMCodecError) -> Int32 {
        let value = reader.scalar()
        switch value {
        case .string(let name):
            guard let number = named(name) else {
                guard let enumeration = SchemaEnumNames.enumeration(acceptedBy: named) else {
                    throw valueError("\(name) is not a value of the enum")
                }
                throw valueError(
                    "\(name) is not a value of \(enumeration.type): use one of \(enumeration.names.joined(separator: ", ")) or a number"
                )
            }
            return number
        case .number:
            return try int32(value)
        default:
            throw typeError(value, "an enum name or number")
        }
    }
}

extension WireMessage {
    /// Decodes a value from its proto3 JSON form.
    ///
    /// Field names may be the JSON (lowerCamelCase) or the original schema
    /// names; enums may be names or numbers; 64-bit integers may be strings or
    /// numbers; `null` leaves a field at its default. Unknown field names are
    /// an error.
    ///
    /// - Parameters:
    ///   - jsonUTF8: The JSON text as UTF-8 bytes.
    ///   - limits: Bounds on depth and repeated counts.
    /// - Throws: ``IMCodecError`` with a `json.*` or `limit.*` code and the
    ///   path; `limit.document-size` for a document past
    ///   ``DecodingLimits/maxDocumentBytes``, before it is parsed.
    public init(jsonUTF8: some Collection<UInt8>, limits: DecodingLimits = .default) throws(IMCodecError) {
        self = try JSONDocument.read(jsonUTF8, limits: limits, maxNesting: limits.jsonNesting) {
            (reader) throws(IMCodecError) in
            try Self(_jsonReader: &reader, limits: limits)
        }
    }

    /// Decodes a value from its proto3 JSON form at the reader's position,
    /// in a document ``JSONDocument`` has checked.
    ///
    /// - Throws: `json.*` and `limit.*` codes with the path.
    package init(_jsonReader reader: inout JSONReader, limits: DecodingLimits) throws(IMCodecError) {
        self.init()
        func decode<Codable: WireCodable>(as codable: Codable.Type) throws(IMCodecError) {
            var context = JSONDecodeContext(limits: limits)
            try withMutableCodable(as: codable) { (decoded) throws(IMCodecError) in
                decoded = try Codable(_json: &reader, &context)
            }
        }
        try decode(as: Self.codable)
    }

    /// Decodes a value from its proto3 JSON form.
    ///
    /// - Parameters:
    ///   - jsonString: The JSON text.
    ///   - limits: Bounds on depth and repeated counts.
    /// - Throws: ``IMCodecError`` with a `json.*` or `limit.*` code and the path.
    public init(jsonString: String, limits: DecodingLimits = .default) throws(IMCodecError) {
        try self.init(jsonUTF8: jsonString.utf8, limits: limits)
    }

    /// The proto3 JSON form: JSON field names, defaults omitted, 64-bit
    /// integers as strings, bytes as base64, enums by name. Unknown fields
    /// have no JSON form and are left out.
    ///
    /// - Parameter pretty: Indent nested values, one member per line.
    public func jsonString(pretty: Bool = false) -> String {
        var writer = JSONWriter(pretty: pretty)
        writeJSON(to: &writer)
        return writer.string
    }

    /// The proto3 JSON form as UTF-8 bytes, without whitespace.
    public func jsonUTF8() -> [UInt8] {
        var writer = JSONWriter()
        writeJSON(to: &writer)
        return writer.bytes
    }

    /// Writes the proto3 JSON form through the generated codec.
    package func writeJSON(to writer: inout JSONWriter) {
        func write<Codable: WireCodable>(as codable: Codable.Type) {
            withCodable(as: codable) { $0._writeJSON(to: &writer) }
        }
        write(as: Self.codable)
    }
}

extension JSONDecodeContext {
    /// Records that the field (or oneof) with `bit` was seen in an object.
    ///
    /// - Throws: `json.duplicate-field` when it was seen before: the same
    ///   field twice (under either of its names) or two members of one oneof.
    package static func markSeen(_ seen: inout UInt64, bit: Int, key: String) throws(IMCodecError) {
        let mask: UInt64 = 1 << UInt64(bit)
        if seen & mask != 0 {
            throw IMCodecError(
                .jsonDuplicateField, path: path(ofKey: key), reason: "\(key) repeats a field or a oneof already set")
        }
        seen |= mask
    }

    /// The path of the member `key` of the object being read, before the
    /// decoders above put their fields in front: the member's field, or the
    /// root for the empty key, so that a problem at an empty key reads as
    /// one at the object that holds it (`elems[0]`, not `elems[0].`).
    package static func path(ofKey key: String) -> FieldPath {
        key.isEmpty ? FieldPath() : [.field(key)]
    }
}
