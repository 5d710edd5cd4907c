/// A strict RFC 8259 parser producing ``JSONValue``.
struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private let maxNesting: Int
    /// The most entries an array keeps; later ones are parsed, then dropped.
    private let maxArrayEntries: Int

    init(bytes: [UInt8], maxNesting: Int, maxArrayEntries: Int = .max) {
        self.bytes = bytes
        self.maxNesting = maxNesting
        self.maxArrayEntries = maxArrayEntries
    }

    mutating func parseDocument() throws(IMCodecError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw syntax("unexpected text after the JSON value") }
        return value
    }

    private func syntax(_ reason: String) -> IMCodecError {
        IMCodecError(.jsonSyntax, reason: "\(reason) at byte offset \(index)")
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// An array or object still open, innermost last.
    private enum OpenContainer {
        /// An object, its members so far and the key of the value being read.
        case object([JSONValue.Member], key: String)
        /// An array and its elements so far.
        case array([JSONValue])
    }

    /// Parses one value. Nesting is kept on a heap stack of open containers,
    /// not on the call stack, so a document nested as deep as `maxNesting`
    /// allows costs no stack space per level.
    private mutating func parseValue() throws(IMCodecError) -> JSONValue {
        var open: [OpenContainer] = []
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw syntax("the text ends where a value was expected") }
            var value: JSONValue
            switch bytes[index] {
            case UInt8(ascii: "{"):
                try enter(depth: open.count + 1)
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    value = .object([])
                } else {
                    open.append(.object([], key: try parseMemberKey()))
                    continue
                }
            case UInt8(ascii: "["):
                try enter(depth: open.count + 1)
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    value = .array([])
                } else {
                    open.append(.array([]))
                    continue
                }
            case UInt8(ascii: "\""): value = .string(try parseString())
            case UInt8(ascii: "t"): try expectLiteral("true"); value = .bool(true)
            case UInt8(ascii: "f"): try expectLiteral("false"); value = .bool(false)
            case UInt8(ascii: "n"): try expectLiteral("null"); value = .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = .number(try parseNumber())
            default: throw syntax("unexpected character")
            }
            // A value is complete: add it to the innermost container, and
            // close every container that ends after it. `consume` ends the
            // binding's hold on the container's storage, so the append below
            // grows it in place instead of copying it (which made an array
            // of n values cost O(n²)).
            closing: while let container = open.popLast() {
                skipWhitespace()
                switch consume container {
                case .object(var members, let key):
                    members.append(JSONValue.Member(key, value))
                    guard index < bytes.count else { throw syntax("the text ends inside an object") }
                    if bytes[index] == UInt8(ascii: ",") {
                        index += 1
                        open.append(.object(members, key: try parseMemberKey()))
                        break closing
                    }
                    guard bytes[index] == UInt8(ascii: "}") else { throw syntax("expected ',' or '}'") }
                    index += 1
                    value = .object(members)
                case .array(var elements):
                    if elements.count < maxArrayEntries { elements.append(value) }
                    guard index < bytes.count else { throw syntax("the text ends inside an array") }
                    if bytes[index] == UInt8(ascii: ",") {
                        index += 1
                        open.append(.array(elements))
                        break closing
                    }
                    guard bytes[index] == UInt8(ascii: "]") else { throw syntax("expected ',' or ']'") }
                    index += 1
                    value = .array(elements)
                }
            }
            if open.isEmpty { return value }
        }
    }

    /// Reads `"key" :` and the whitespace around it.
    private mutating func parseMemberKey() throws(IMCodecError) -> String {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            throw syntax("an object member must start with a string key")
        }
        let key = try parseString()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw syntax("expected ':'") }
        index += 1
        return key
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(IMCodecError) {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw syntax("invalid literal") }
        let matches = literal.withUTF8Buffer { expected in
            for offset in 0..<count where bytes[index + offset] != expected[offset] { return false }
            return true
        }
        guard matches else { throw syntax("invalid literal") }
        index += count
    }

    private func enter(depth: Int) throws(IMCodecError) {
        if depth > maxNesting {
            throw IMCodecError(
                .jsonDepth, reason: "arrays and objects nest deeper than allowed",
                limit: maxNesting, observed: depth)
        }
    }

    private mutating func parseNumber() throws(IMCodecError) -> String {
        let start = index
        guard let end = Self.numberEnd(bytes, from: index) else { throw syntax("invalid number") }
        index = end
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// Whether `text` is exactly one number of the JSON grammar (RFC 8259,
    /// section 6): how proto3 JSON reads a number given as a string.
    static func isNumber(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return numberEnd(bytes, from: 0) == bytes.count
    }

    /// Where the number of the JSON grammar that starts at `start` ends, or
    /// nil when none starts there.
    private static func numberEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        func digits() -> Bool {
            let first = index
            while index < bytes.count, bytes[index] >= 0x30 && bytes[index] <= 0x39 { index += 1 }
            return index > first
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if !digits() {
            return nil
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() else { return nil }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits() else { return nil }
        }
        return index
    }

    private mutating func parseString() throws(IMCodecError) -> String {
        index += 1
        // The unescaped text so far; a string without escapes (most keys
        // and values) is made straight from the input instead.
        var utf8: [UInt8] = []
        var escaped = false
        var runStart = index
        while true {
            guard index < bytes.count else { throw syntax("the text ends inside a string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                if !escaped {
                    let run = bytes[runStart..<index]
                    index += 1
                    guard let string = String(validatingUTF8: run) else {
                        throw syntax("a string is not valid UTF-8")
                    }
                    return string
                }
                utf8.append(contentsOf: bytes[runStart..<index])
                index += 1
                break
            }
            if byte < 0x20 { throw syntax("a control character inside a string must be escaped") }
            if byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            escaped = true
            utf8.append(contentsOf: bytes[runStart..<index])
            index += 1
            guard index < bytes.count else { throw syntax("the text ends inside an escape") }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): utf8.append(0x22)
            case UInt8(ascii: "\\"): utf8.append(0x5C)
            case UInt8(ascii: "/"): utf8.append(0x2F)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try parseHex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    else { throw syntax("a high surrogate escape without its low surrogate") }
                    index += 2
                    let low = try parseHex4()
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw syntax("a high surrogate escape without its low surrogate")
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw syntax("a low surrogate escape without its high surrogate")
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw syntax("invalid \\u escape") }
                utf8.append(contentsOf: String(unicode).utf8)
            default:
                throw syntax("invalid escape")
            }
            runStart = index
        }
        guard let string = String(validatingUTF8: utf8) else {
            throw syntax("a string is not valid UTF-8")
        }
        return string
    }

    private mutating func parseHex4() throws(IMCodecError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw syntax("invalid \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw syntax("invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}
