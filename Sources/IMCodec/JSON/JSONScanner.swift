import CIMCodecUTF8

/// The first of the two passes over a JSON document: checks that it is one
/// RFC 8259 value nested no deeper than allowed, without building anything,
/// and records the few facts the reading pass needs before it reaches them
/// (``JSONDocumentIndex``).
///
/// Every syntax rule, error code, reason and byte offset is the one the
/// reading of a document has always reported, in document order: so a
/// document with a syntax error anywhere is refused with that error before
/// any of its values is looked at, as when a whole tree was built first. The
/// pass allocates one record per open array or object (at most the nesting
/// allowed) and the index's entries.
struct JSONScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private let maxNesting: Int
    /// Arrays with more entries than this get their count recorded.
    private let countsAbove: Int
    /// Recorded counts are capped here: no reader asks beyond it.
    private let countCap: Int
    /// The member names whose array or object values get their extent recorded.
    private let extentKeys: [[UInt8]]
    private(set) var recorded: JSONDocumentIndex

    /// One open array or object.
    private struct Open {
        var start: Int
        var isObject: Bool
        /// Entries of an array so far.
        var count = 0
        /// The index of this container's extent record, or -1.
        var extent = -1
    }

    private var open: [Open] = []
    /// Whether the value about to be read is that of a member in ``extentKeys``.
    private var extentPending = false

    init(
        bytes: UnsafeBufferPointer<UInt8>, maxNesting: Int, countsAbove: Int, countCap: Int, extentKeys: [String]
    ) {
        self.bytes = bytes
        self.maxNesting = maxNesting
        self.countsAbove = countsAbove
        self.countCap = countCap
        self.extentKeys = extentKeys.map { Array($0.utf8) }
        recorded = JSONDocumentIndex(documentLength: bytes.count, countsAbove: countsAbove, countCap: countCap)
    }

    /// Checks the whole document.
    ///
    /// - Returns: What the reading pass needs ahead of time.
    /// - Throws: `json.syntax` or `json.depth` for the first problem in
    ///   document order.
    mutating func scan() throws(IMCodecError) -> JSONDocumentIndex {
        skipWhitespace()
        try scanValue()
        skipWhitespace()
        guard index == bytes.count else { throw syntax("unexpected text after the JSON value") }
        recorded.sortCounts()
        return recorded
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

    /// Checks one value and everything nested in it, with a heap stack of
    /// open containers rather than the call stack.
    private mutating func scanValue() throws(IMCodecError) {
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw syntax("the text ends where a value was expected") }
            let recordExtent = extentPending
            extentPending = false
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = bytes[index] == UInt8(ascii: "{")
                try enter(depth: open.count + 1)
                var container = Open(start: index, isObject: isObject)
                if recordExtent { container.extent = recorded.beginExtent(at: index) }
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: isObject ? "}" : "]") {
                    index += 1
                    close(container)
                } else {
                    if isObject { try scanMemberKey() }
                    open.append(container)
                    continue
                }
            case UInt8(ascii: "\""): try scanString()
            case UInt8(ascii: "t"): try expectLiteral("true")
            case UInt8(ascii: "f"): try expectLiteral("false")
            case UInt8(ascii: "n"): try expectLiteral("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try scanNumber()
            default: throw syntax("unexpected character")
            }
            // A value is complete: count it in the innermost container, and
            // close every container that ends after it.
            while var container = open.popLast() {
                skipWhitespace()
                if container.isObject {
                    guard index < bytes.count else { throw syntax("the text ends inside an object") }
                    if bytes[index] == UInt8(ascii: ",") {
                        index += 1
                        try scanMemberKey()
                        open.append(container)
                        break
                    }
                    guard bytes[index] == UInt8(ascii: "}") else { throw syntax("expected ',' or '}'") }
                } else {
                    container.count += 1
                    guard index < bytes.count else { throw syntax("the text ends inside an array") }
                    if bytes[index] == UInt8(ascii: ",") {
                        index += 1
                        open.append(container)
                        break
                    }
                    guard bytes[index] == UInt8(ascii: "]") else { throw syntax("expected ',' or ']'") }
                }
                index += 1
                close(container)
            }
            if open.isEmpty { return }
        }
    }

    /// Records what the index keeps of a container that has just ended.
    private mutating func close(_ container: Open) {
        if container.extent >= 0 { recorded.endExtent(container.extent, at: index) }
        if !container.isObject && container.count > countsAbove {
            recorded.recordCount(min(container.count, countCap), ofArrayAt: container.start)
        }
    }

    /// Checks `"key" :` and the whitespace around it.
    private mutating func scanMemberKey() throws(IMCodecError) {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            throw syntax("an object member must start with a string key")
        }
        let start = index
        let escaped = try scanString()
        if !extentKeys.isEmpty { extentPending = isExtentKey(start: start, escaped: escaped) }
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw syntax("expected ':'") }
        index += 1
    }

    /// Whether the key whose opening quote is at `start`, just scanned, is
    /// one of ``extentKeys``.
    private func isExtentKey(start: Int, escaped: Bool) -> Bool {
        if escaped {
            var reader = JSONReader(bytes: bytes, index: recorded, position: start)
            let key = Array(reader.readString().utf8)
            return extentKeys.contains(key)
        }
        let key = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<(index - 1)])
        return extentKeys.contains { $0.count == key.count && $0.elementsEqual(key) }
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

    private mutating func scanNumber() throws(IMCodecError) {
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw syntax("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw syntax("invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw syntax("invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// Checks a string from its opening quote to past its closing one: its
    /// escapes, that it has no raw control character, and that its text is
    /// UTF-8, which is judged once the string has ended (so a syntax error
    /// later inside the string comes first, as when the text was assembled
    /// before it was checked).
    ///
    /// - Returns: Whether the string has escapes.
    @discardableResult
    private mutating func scanString() throws(IMCodecError) -> Bool {
        index += 1
        var escaped = false
        var valid = true
        var runStart = index
        while true {
            guard index < bytes.count else { throw syntax("the text ends inside a string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                valid = valid && isUTF8(runStart, index)
                index += 1
                guard valid else { throw syntax("a string is not valid UTF-8") }
                return escaped
            }
            if byte < 0x20 { throw syntax("a control character inside a string must be escaped") }
            if byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            escaped = true
            valid = valid && isUTF8(runStart, index)
            index += 1
            guard index < bytes.count else { throw syntax("the text ends inside an escape") }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                break
            case UInt8(ascii: "u"):
                let scalar = try scanHex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    else { throw syntax("a high surrogate escape without its low surrogate") }
                    index += 2
                    let low = try scanHex4()
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw syntax("a high surrogate escape without its low surrogate")
                    }
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw syntax("a low surrogate escape without its high surrogate")
                }
            default:
                throw syntax("invalid escape")
            }
            runStart = index
        }
    }

    /// Whether the bytes from `start` to `end` are UTF-8. A run between
    /// escapes must be whole: an escape adds only whole sequences, and never
    /// a continuation byte, so the string is UTF-8 exactly when each of its
    /// runs is.
    private func isUTF8(_ start: Int, _ end: Int) -> Bool {
        guard end > start, let base = bytes.baseAddress else { return true }
        return imcodec_utf8_check(base + start, end - start) != IMCODEC_UTF8_INVALID
    }

    private mutating func scanHex4() throws(IMCodecError) -> UInt32 {
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
