/// Writes JSON text: the proto3 JSON form of generated types, or any
/// ``JSONValue``.
@usableFromInline package struct JSONWriter: Sendable {
    /// The UTF-8 text written so far.
    package private(set) var bytes: [UInt8] = []
    private let pretty: Bool
    private var indent = 0
    // A value was written in the innermost container, so the next needs a comma.
    private var needsComma = false
    // A key was just written, so the next value follows it directly.
    private var afterKey = false

    /// Creates an empty writer.
    ///
    /// - Parameter pretty: Indent by two spaces, one member per line.
    package init(pretty: Bool = false) {
        self.pretty = pretty
    }

    /// The text written so far.
    package var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Hands over the text written so far and forgets it, so that a long
    /// document can be written out a piece at a time; what is written next
    /// continues it.
    package mutating func take() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    private mutating func newline() {
        guard pretty else { return }
        bytes.append(0x0A)
        bytes.append(contentsOf: repeatElement(0x20, count: indent * 2))
    }

    private mutating func startValue() {
        if afterKey {
            afterKey = false
            return
        }
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        if indent > 0 { newline() }
    }

    /// Opens an object as the next value.
    package mutating func beginObject() {
        startValue()
        bytes.append(UInt8(ascii: "{"))
        indent += 1
        needsComma = false
    }

    /// Closes the innermost object.
    package mutating func endObject() {
        indent -= 1
        if needsComma { newline() }
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Opens an array as the next value.
    package mutating func beginArray() {
        startValue()
        bytes.append(UInt8(ascii: "["))
        indent += 1
        needsComma = false
    }

    /// Closes the innermost array.
    package mutating func endArray() {
        indent -= 1
        if needsComma { newline() }
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Starts an object member; its value is written next.
    package mutating func key(_ name: StaticString) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        newline()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        if pretty { bytes.append(0x20) }
        afterKey = true
    }

    /// Starts an object member with a run-time name.
    package mutating func key(_ name: String) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        newline()
        writeQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        if pretty { bytes.append(0x20) }
        afterKey = true
    }

    /// Writes a string value.
    package mutating func string(_ value: String) {
        startValue()
        writeQuoted(value)
        needsComma = true
    }

    /// Writes a literal value: a number or `true`, `false`, `null`.
    package mutating func literal(_ text: String) {
        startValue()
        bytes.append(contentsOf: text.utf8)
        needsComma = true
    }

    /// Writes a boolean.
    package mutating func bool(_ value: Bool) { literal(value ? "true" : "false") }

    /// Writes a 32-bit integer as a JSON number.
    package mutating func int32(_ value: Int32) { literal(String(value)) }

    /// Writes an unsigned 32-bit integer as a JSON number.
    package mutating func uint32(_ value: UInt32) { literal(String(value)) }

    /// Writes a 64-bit integer as a JSON string, as proto3 JSON requires.
    package mutating func int64(_ value: Int64) { string(String(value)) }

    /// Writes an unsigned 64-bit integer as a JSON string, as proto3 JSON requires.
    package mutating func uint64(_ value: UInt64) { string(String(value)) }

    /// Writes a double: the shortest text that reads back to the same value,
    /// or `"NaN"`, `"Infinity"`, `"-Infinity"`.
    package mutating func double(_ value: Double) {
        if value.isNaN {
            string("NaN")
        } else if value.isInfinite {
            string(value < 0 ? "-Infinity" : "Infinity")
        } else {
            literal(value.description)
        }
    }

    /// Writes bytes as standard base64 with padding.
    package mutating func bytes(_ value: [UInt8]) { string(Base64.encode(value)) }

    /// Writes any JSON value.
    package mutating func value(_ value: JSONValue) {
        switch value {
        case .null: literal("null")
        case .bool(let flag): bool(flag)
        case .number(let text): literal(text)
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let members):
            beginObject()
            for member in members {
                key(member.key)
                self.value(member.value)
            }
            endObject()
        }
    }

    private mutating func writeQuoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x08: bytes.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [
                    0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
                ])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
