/// A JSON value as the conformance runner reads it from vector files and from
/// testees' `payload_to_json` answers.
///
/// The runner has its own small JSON reader rather than the library's, so a
/// bug in the JSON code under test cannot hide itself by reading the
/// expectations the same wrong way. Numbers keep their literal text, so 64-bit
/// integers and 17-digit doubles survive, and objects keep their member order,
/// so a value can be written back exactly as it was given.
public enum VectorJSON: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number, as its literal text.
    case number(String)
    case string(String)
    case array([VectorJSON])
    /// An object's members in document order.
    case object([(key: String, value: VectorJSON)])

    public static func == (lhs: VectorJSON, rhs: VectorJSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .number(let text): hasher.combine(text)
        case .string(let text): hasher.combine(text)
        case .array(let values): hasher.combine(values)
        case .object(let members):
            for member in members {
                hasher.combine(member.key)
                hasher.combine(member.value)
            }
        }
    }

    /// The value of member `key` of an object, or nil.
    public subscript(key: String) -> VectorJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The string, or nil for any other type.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The elements, or nil for any other type.
    public var arrayValue: [VectorJSON]? {
        if case .array(let values) = self { return values }
        return nil
    }

    /// The boolean, or nil for any other type.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The number as an integer, or nil when it is not a JSON integer that
    /// fits an `Int`.
    public var intValue: Int? {
        if case .number(let text) = self { return Int(text) }
        return nil
    }
}

// MARK: - Semantic comparison

extension VectorJSON {
    /// Whether two proto3 JSON documents say the same thing.
    ///
    /// Member order does not matter; numbers are equal when they denote the
    /// same value (`1`, `1.0` and `1e0` are equal; `-0.0` and `0` are not, as
    /// proto3 keeps the sign of a zero double). Everything else compares
    /// exactly.
    public func isEquivalent(to other: VectorJSON) -> Bool {
        switch (self, other) {
        case (.number(let a), .number(let b)):
            return Self.numbersEqual(a, b)
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isEquivalent(to: $1) }
        case (.object(let a), .object(let b)):
            // Member names are compared as sets of distinct names, so an
            // object that repeats a name never matches, whatever the counts.
            guard a.count == b.count, Self.hasDistinctKeys(a), Self.hasDistinctKeys(b) else { return false }
            for member in a {
                guard let match = b.first(where: { $0.key == member.key }),
                    member.value.isEquivalent(to: match.value)
                else { return false }
            }
            return true
        default:
            return self == other
        }
    }

    private static func hasDistinctKeys(_ members: [(key: String, value: VectorJSON)]) -> Bool {
        Set(members.map(\.key)).count == members.count
    }

    /// The first member name that occurs twice in one object, depth first,
    /// or nil when every object's names are distinct. RFC 8259 leaves such
    /// documents to the reader; an answer with one is always wrong.
    public func firstDuplicateKey() -> String? {
        switch self {
        case .array(let values):
            for value in values {
                if let duplicate = value.firstDuplicateKey() { return duplicate }
            }
            return nil
        case .object(let members):
            var seen = Set<String>()
            for member in members {
                if !seen.insert(member.key).inserted { return member.key }
                if let duplicate = member.value.firstDuplicateKey() { return duplicate }
            }
            return nil
        default:
            return nil
        }
    }

    private static func isIntegerLiteral(_ text: String) -> Bool {
        !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
    }

    private static func numbersEqual(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        if isIntegerLiteral(a) && isIntegerLiteral(b) {
            // Exact for integers of any size; -0 stays distinct from 0.
            func normalized(_ text: String) -> String {
                let negative = text.hasPrefix("-")
                let digits = text.drop(while: { $0 == "-" || $0 == "+" }).drop(while: { $0 == "0" })
                return (negative ? "-" : "") + (digits.isEmpty ? "0" : String(digits))
            }
            return normalized(a) == normalized(b)
        }
        guard let x = Double(a), let y = Double(b) else { return false }
        return x.bitPattern == y.bitPattern
    }
}

// MARK: - Canonical REST text

extension VectorJSON {
    /// The canonical REST text of this document (Sources/IMCodecREST/IMCodecREST.docc/REST.md, "Export"):
    /// compact, members in the order given, strings escaped as Python's
    /// `json.dumps(ensure_ascii=False)` escapes them, integers as written,
    /// and numbers written with a fraction or an exponent (doubles) as
    /// JavaScript's `Number` to string writes them (`30`, `1e-7`, `-0`).
    ///
    /// A REST export answer must equal this text byte for byte.
    public var canonicalRESTText: String {
        var out = ""
        write(to: &out, canonicalREST: true)
        return out
    }

    /// A number literal as JavaScript writes the same double: the literal's
    /// significant digits (a shortest round-trip literal, as vector files
    /// hold, has JavaScript's digits) placed by ECMA-262's Number::toString.
    /// Integer literals are kept as they are.
    static func javaScriptNumber(_ literal: String) -> String {
        guard literal.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) else { return literal }
        var text = Substring(literal)
        var sign = ""
        if text.first == "-" {
            sign = "-"
            text = text.dropFirst()
        }
        var exponent = 0
        if let marker = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: marker)...].filter { $0 != "+" }) ?? 0
            text = text[..<marker]
        }
        var digits = String(text.filter { $0 != "." })
        if let dot = text.firstIndex(of: ".") {
            exponent -= text.distance(from: text.index(after: dot), to: text.endIndex)
        }
        digits = String(digits.drop(while: { $0 == "0" }))
        guard !digits.isEmpty else { return sign + "0" }
        while digits.hasSuffix("0") {
            digits.removeLast()
            exponent += 1
        }
        let k = digits.count
        let n = exponent + k
        let body: String
        if k <= n && n <= 21 {
            body = digits + String(repeating: "0", count: n - k)
        } else if 0 < n && n <= 21 {
            body = String(digits.prefix(n)) + "." + String(digits.dropFirst(n))
        } else if -6 < n && n <= 0 {
            body = "0." + String(repeating: "0", count: -n) + digits
        } else {
            let e = n - 1
            let mantissa = k == 1 ? digits : String(digits.prefix(1)) + "." + String(digits.dropFirst())
            body = mantissa + "e" + (e >= 0 ? "+" : "-") + String(abs(e))
        }
        return sign + body
    }
}

// MARK: - Writing

extension VectorJSON {
    /// Compact JSON text: numbers as their literal text, non-ASCII characters
    /// as they are, control characters escaped.
    public var text: String {
        var out = ""
        write(to: &out, canonicalREST: false)
        return out
    }

    /// Writes compact JSON; `canonicalREST` writes doubles as JavaScript does
    /// and escapes backspace and form feed by letter, as ``canonicalRESTText``
    /// says.
    private func write(to out: inout String, canonicalREST: Bool) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .number(let literal): out += canonicalREST ? Self.javaScriptNumber(literal) : literal
        case .string(let text): Self.writeString(text, to: &out, canonicalREST: canonicalREST)
        case .array(let values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                value.write(to: &out, canonicalREST: canonicalREST)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += "," }
                Self.writeString(member.key, to: &out, canonicalREST: canonicalREST)
                out += ":"
                member.value.write(to: &out, canonicalREST: canonicalREST)
            }
            out += "}"
        }
    }

    private static func writeString(_ text: String, to out: inout String, canonicalREST: Bool) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}" where canonicalREST: out += "\\b"
            case "\u{0C}" where canonicalREST: out += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

// MARK: - Reading

/// Why a JSON text could not be read.
public struct VectorJSONError: Error, CustomStringConvertible, Sendable {
    /// The byte offset where reading stopped.
    public var offset: Int
    /// What was wrong there.
    public var reason: String

    public var description: String { "JSON error at byte \(offset): \(reason)" }
}

extension VectorJSON {
    /// Reads one JSON document (RFC 8259).
    ///
    /// - Parameter text: The document.
    /// - Throws: ``VectorJSONError`` for anything that is not one JSON value
    ///   surrounded by whitespace, or that nests deeper than 10,000 levels.
    public init(parsing text: String) throws(VectorJSONError) {
        var reader = Reader(bytes: Array(text.utf8))
        reader.skipWhitespace()
        self = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.index == reader.bytes.count else { throw reader.error("text after the value") }
    }

    /// Reads one JSON document from UTF-8 bytes.
    ///
    /// - Parameter bytes: The document's UTF-8 bytes.
    /// - Throws: ``VectorJSONError``, as ``init(parsing:)-(String)``.
    public init(parsing bytes: [UInt8]) throws(VectorJSONError) {
        var reader = Reader(bytes: bytes)
        reader.skipWhitespace()
        self = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.index == reader.bytes.count else { throw reader.error("text after the value") }
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        func error(_ reason: String) -> VectorJSONError { VectorJSONError(offset: index, reason: reason) }

        mutating func skipWhitespace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        }

        mutating func expect(_ literal: String) throws(VectorJSONError) {
            for byte in literal.utf8 {
                guard index < bytes.count, bytes[index] == byte else { throw error("expected \(literal)") }
                index += 1
            }
        }

        mutating func value(depth: Int) throws(VectorJSONError) -> VectorJSON {
            guard depth < 10_000 else { throw error("nested too deeply") }
            guard index < bytes.count else { throw error("unexpected end") }
            switch bytes[index] {
            case UInt8(ascii: "n"):
                try expect("null")
                return .null
            case UInt8(ascii: "t"):
                try expect("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try expect("false")
                return .bool(false)
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "["):
                index += 1
                var values: [VectorJSON] = []
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(values)
                }
                while true {
                    skipWhitespace()
                    values.append(try value(depth: depth + 1))
                    skipWhitespace()
                    guard index < bytes.count else { throw error("unterminated array") }
                    if bytes[index] == UInt8(ascii: ",") {
                        index += 1
                    } else if bytes[index] == UInt8(ascii: "]") {
                        index += 1
                        return .array(values)
                    } else {
                        throw error("expected , or ]")
                    }
                }
            case UInt8(ascii: "{"):
                index += 1
                var members: [(key: String, value: VectorJSON)] = []
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                }
                while true {
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                        throw error("expected a member name")
                    }
                    let key = try string()
                    skipWhitespace()
                    try expect(":")
                    skipWhitespace()
                    members.append((key, try value(depth: depth + 1)))
                    skipWhitespace()
                    guard index < bytes.count else { throw error("unterminated object") }
                    if bytes[index] == UInt8(ascii: ",") {
                        index += 1
                    } else if bytes[index] == UInt8(ascii: "}") {
                        index += 1
                        return .object(members)
                    } else {
                        throw error("expected , or }")
                    }
                }
            default:
                return .number(try number())
            }
        }

        mutating func number() throws(VectorJSONError) -> String {
            let start = index
            func digits(_ reader: inout Reader) -> Int {
                let from = reader.index
                while reader.index < reader.bytes.count, (0x30...0x39).contains(reader.bytes[reader.index]) {
                    reader.index += 1
                }
                return reader.index - from
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            let integerStart = index
            let integerDigits = digits(&self)
            guard integerDigits > 0 else { throw error("expected a value") }
            if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") { throw error("leading zero") }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits(&self) > 0 else { throw error("expected digits after .") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard digits(&self) > 0 else { throw error("expected exponent digits") }
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        mutating func hex4() throws(VectorJSONError) -> UInt32 {
            guard index + 4 <= bytes.count else { throw error("cut \\u escape") }
            var value: UInt32 = 0
            for byte in bytes[index..<index + 4] {
                guard let digit = Hex.digit(byte) else { throw error("bad \\u escape") }
                value = value << 4 | UInt32(digit)
            }
            index += 4
            return value
        }

        mutating func string() throws(VectorJSONError) -> String {
            index += 1  // the opening quote
            var scalars = String.UnicodeScalarView()
            var runStart = index
            func flushRun(_ reader: Reader, to scalars: inout String.UnicodeScalarView) throws(VectorJSONError) {
                guard runStart < reader.index else { return }
                guard let run = String(validating: reader.bytes[runStart..<reader.index], as: UTF8.self) else {
                    throw reader.error("invalid UTF-8 in a string")
                }
                scalars.append(contentsOf: run.unicodeScalars)
            }
            while true {
                guard index < bytes.count else { throw error("unterminated string") }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    try flushRun(self, to: &scalars)
                    index += 1
                    return String(scalars)
                }
                if byte < 0x20 { throw error("control character in a string") }
                if byte != UInt8(ascii: "\\") {
                    index += 1
                    continue
                }
                try flushRun(self, to: &scalars)
                index += 1
                guard index < bytes.count else { throw error("unterminated escape") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code) {
                        guard index + 2 <= bytes.count, bytes[index] == UInt8(ascii: "\\"),
                            bytes[index + 1] == UInt8(ascii: "u")
                        else { throw error("lone surrogate") }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("lone surrogate") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("lone surrogate") }
                    scalars.append(scalar)
                default:
                    throw error("unknown escape")
                }
                runStart = index
            }
        }
    }
}
