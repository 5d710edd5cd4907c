/// What the first pass over a JSON document (``JSONScanner``) recorded for
/// the second: the entry counts of the arrays too long for some count limit,
/// so that a reader can refuse such an array before reading its first entry,
/// and the extents of the containers under chosen member names, so that a
/// reader that must come back to one (REST's `MsgContent`, `MsgList`) can
/// step over it without reading it again.
///
/// Both lists are small: a counted array has more entries than the smallest
/// count limit (1,000 by default), and an extent is recorded only for the
/// names asked for. Offsets are held in 32 bits; in a document of 4 GiB or
/// more nothing is recorded, and readers count and step over containers by
/// reading them, which gives the same answers more slowly.
package struct JSONDocumentIndex: Sendable {
    /// Array start offsets and their entry counts (capped), in offset order.
    private var counts: [(start: UInt32, count: UInt32)] = []
    /// Container start offsets and the offsets past their ends, in offset order.
    private var extents: [(start: UInt32, end: UInt32)] = []
    /// Whether offsets fit the lists.
    private let enabled: Bool
    /// Arrays with more entries than this have their counts recorded.
    let countsAbove: Int
    /// Recorded counts go no higher.
    let countCap: Int

    /// An empty index for a document of `documentLength` bytes.
    init(documentLength: Int, countsAbove: Int, countCap: Int) {
        enabled = documentLength < Int(UInt32.max)
        self.countsAbove = countsAbove
        self.countCap = countCap
    }

    /// Whether the lists hold what the scanner saw.
    var isComplete: Bool { enabled }

    mutating func recordCount(_ count: Int, ofArrayAt start: Int) {
        guard enabled else { return }
        counts.append((UInt32(truncatingIfNeeded: start), UInt32(clamping: count)))
    }

    /// Arrays close innermost first: the counts are put in offset order once
    /// the document is scanned.
    mutating func sortCounts() {
        if !counts.indices.dropFirst().allSatisfy({ counts[$0 - 1].start < counts[$0].start }) {
            counts.sort { $0.start < $1.start }
        }
    }

    mutating func beginExtent(at start: Int) -> Int {
        guard enabled else { return -1 }
        extents.append((UInt32(truncatingIfNeeded: start), 0))
        return extents.count - 1
    }

    mutating func endExtent(_ slot: Int, at end: Int) {
        extents[slot].end = UInt32(truncatingIfNeeded: end)
    }

    /// The recorded entry count of the array at `start`, or `nil` when it
    /// was not recorded (it has no more entries than the threshold).
    func count(ofArrayAt start: Int) -> Int? {
        guard let position = Self.search(counts.count, { Int(counts[$0].start) }, start) else { return nil }
        return Int(counts[position].count)
    }

    /// The offset past the end of the container at `start`, when recorded.
    func end(ofContainerAt start: Int) -> Int? {
        guard let position = Self.search(extents.count, { Int(extents[$0].start) }, start) else { return nil }
        return Int(extents[position].end)
    }

    /// The first recorded container that starts at `offset` or after it:
    /// its start and the offset past its end.
    func firstExtent(from offset: Int) -> (start: Int, end: Int)? {
        var low = 0
        var high = extents.count
        while low < high {
            let middle = (low + high) / 2
            if Int(extents[middle].start) < offset { low = middle + 1 } else { high = middle }
        }
        guard low < extents.count else { return nil }
        return (Int(extents[low].start), Int(extents[low].end))
    }

    /// Binary search over `count` keys in ascending order.
    private static func search(_ count: Int, _ key: (Int) -> Int, _ target: Int) -> Int? {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            let value = key(middle)
            if value == target { return middle }
            if value < target { low = middle + 1 } else { high = middle }
        }
        return nil
    }
}

/// The JSON type of a value, known from its first byte.
package enum JSONKind: Sendable {
    case null, bool, number, string, array, object

    /// A short name of the type, for error reasons.
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

/// The second pass over a JSON document that ``JSONScanner`` has checked: a
/// cursor that reads values where they stand, so that a decoder builds its
/// model straight from the bytes with no tree in between.
///
/// The reader trusts the document's syntax (the scanner refused anything
/// else) and only moves forward, but for ``position``, which a caller may
/// set back to a value it has already stepped over. Strings and numbers are
/// made only when read. Objects are read member by member (``beginObject()``
/// then ``nextKey()`` until it returns `nil`), arrays entry by entry
/// (``beginArray()`` then ``nextEntry()``); a value not wanted is stepped
/// over with ``skipValue()``. The bytes must stay valid while it is used.
@usableFromInline package struct JSONReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    /// What the scanner recorded.
    package let document: JSONDocumentIndex
    /// The offset of the next byte to read.
    package var position: Int

    /// A reader of no document, to be replaced by one that has a document.
    package init() {
        self.init(
            bytes: UnsafeBufferPointer(start: nil, count: 0),
            index: JSONDocumentIndex(documentLength: 0, countsAbove: .max, countCap: .max))
    }

    init(bytes: UnsafeBufferPointer<UInt8>, index: JSONDocumentIndex, position: Int = 0) {
        self.bytes = bytes
        self.document = index
        self.position = position
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    /// The type of the next value; moves past whitespace before it.
    package mutating func kind() -> JSONKind {
        skipWhitespace()
        precondition(position < bytes.count, "a checked document has a value here")
        switch bytes[position] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        default: return .number
        }
    }

    /// The offset where the next value starts.
    package mutating func valueStart() -> Int {
        skipWhitespace()
        return position
    }

    /// Reads the next value when it is `null`.
    ///
    /// - Returns: Whether it was `null` (and has been read).
    package mutating func skipNull() -> Bool {
        guard kind() == .null else { return false }
        position += 4
        return true
    }

    /// Reads the next value, a scalar, as a ``JSONValue``. An array or an
    /// object is not read: it is answered as an empty one, whose type is all
    /// a scalar conversion looks at before it refuses it.
    package mutating func scalar() -> JSONValue {
        switch kind() {
        case .null:
            position += 4
            return .null
        case .bool:
            let value = bytes[position] == UInt8(ascii: "t")
            position += value ? 4 : 5
            return .bool(value)
        case .number: return .number(readNumberText())
        case .string: return .string(readString())
        case .array: return .array([])
        case .object: return .object([])
        }
    }

    /// Reads the next value, a number, as its literal text.
    package mutating func readNumberText() -> String {
        skipWhitespace()
        let start = position
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
                UInt8(ascii: "e"), UInt8(ascii: "E"):
                position += 1
            default:
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

    /// Reads the next value, a string, with its escapes resolved.
    package mutating func readString() -> String {
        skipWhitespace()
        precondition(bytes[position] == UInt8(ascii: "\""), "a string starts here")
        position += 1
        let start = position
        // A string without escapes (most keys and values) is made straight
        // from the document.
        while bytes[position] != UInt8(ascii: "\"") && bytes[position] != UInt8(ascii: "\\") { position += 1 }
        if bytes[position] == UInt8(ascii: "\"") {
            position += 1
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(position - 1)]), as: UTF8.self)
        }
        var utf8: [UInt8] = []
        utf8.append(contentsOf: bytes[start..<position])
        while true {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return String(decoding: utf8, as: UTF8.self)
            }
            guard byte == UInt8(ascii: "\\") else {
                utf8.append(byte)
                position += 1
                continue
            }
            let escape = bytes[position + 1]
            position += 2
            switch escape {
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = readHex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    position += 2
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (readHex4() - 0xDC00)
                }
                // The scanner refused lone surrogates: every scalar here is one.
                utf8.append(contentsOf: String(Unicode.Scalar(scalar) ?? "\u{FFFD}").utf8)
            default: utf8.append(escape)  // " \ /
            }
        }
    }

    private mutating func readHex4() -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8 =
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
                default: byte - UInt8(ascii: "A") + 10
                }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    /// Reads the `{` of the next value, an object; its members follow with
    /// ``nextKey()``.
    ///
    /// - Returns: The offset of the `{`.
    @discardableResult
    package mutating func beginObject() -> Int {
        skipWhitespace()
        precondition(bytes[position] == UInt8(ascii: "{"), "an object starts here")
        position += 1
        return position - 1
    }

    /// Reads the key of the next member of the object being read and the
    /// `:` after it, leaving the reader at the member's value; or reads the
    /// object's `}`.
    ///
    /// - Returns: The key, or `nil` at the end of the object.
    package mutating func nextKey() -> String? {
        skipWhitespace()
        if bytes[position] == UInt8(ascii: "}") {
            position += 1
            return nil
        }
        if bytes[position] == UInt8(ascii: ",") { position += 1 }
        let key = readString()
        skipWhitespace()
        position += 1  // the ':'
        return key
    }

    /// Reads the `[` of the next value, an array; its entries follow with
    /// ``nextEntry()``.
    ///
    /// - Returns: The array's entry count (at most the largest count limit
    ///   and one) when it has more entries than the smallest count limit,
    ///   else `nil`: an array answered `nil` is within every count limit.
    @discardableResult
    package mutating func beginArray() -> Int? {
        let count = longCount()
        precondition(bytes[position] == UInt8(ascii: "["), "an array starts here")
        position += 1
        return count
    }

    /// The entry count of the array at the reader's position, which is not
    /// read, when it has more entries than the smallest count limit (at most
    /// the largest count limit and one); else `nil`, for an array within
    /// every count limit.
    package mutating func longCount() -> Int? {
        let start = valueStart()
        guard document.isComplete else {
            let count = Swift.min(count(ofArrayAt: start), document.countCap)
            return count > document.countsAbove ? count : nil
        }
        return document.count(ofArrayAt: start)
    }

    /// Moves to the next entry of the array being read, or reads its `]`.
    ///
    /// - Returns: Whether an entry follows (the reader is at its value).
    package mutating func nextEntry() -> Bool {
        skipWhitespace()
        if bytes[position] == UInt8(ascii: "]") {
            position += 1
            return false
        }
        if bytes[position] == UInt8(ascii: ",") { position += 1 }
        return true
    }

    /// Steps over the next value, whatever it is: an array or object whose
    /// extent was recorded in one step, others by reading their bytes.
    package mutating func skipValue() {
        switch kind() {
        case .null, .bool:
            position += bytes[position] == UInt8(ascii: "f") ? 5 : 4
        case .number:
            _ = readNumberText()
        case .string:
            skipString()
        case .array, .object:
            if let end = document.end(ofContainerAt: position) {
                position = end
                return
            }
            skipContainer(nextExtent: nil)
        }
    }

    /// Steps over the next value as ``skipValue()`` does, and over every
    /// recorded container inside it in one step too: it reads only the
    /// bytes outside them, where ``skipValue()`` reads every byte of an
    /// array or object that is not itself recorded. Stepping over a REST
    /// message that forwards others costs its own bytes, not theirs.
    package mutating func skipValueOverExtents() {
        let kind = kind()
        guard kind == .array || kind == .object, document.end(ofContainerAt: position) == nil else {
            return skipValue()
        }
        skipContainer(nextExtent: document.firstExtent(from: position + 1))
    }

    /// Steps over the array or object at the reader's position by reading
    /// its bytes, and over each recorded container from `nextExtent` on in
    /// one step; `nil` reads every byte.
    private mutating func skipContainer(nextExtent: (start: Int, end: Int)?) {
        var next = nextExtent
        var depth = 0
        repeat {
            if let extent = next, extent.start == position {
                position = extent.end
                next = document.firstExtent(from: position)
                continue
            }
            switch bytes[position] {
            case UInt8(ascii: "\""):
                skipString()
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
            default:
                break
            }
            position += 1
        } while depth > 0
    }

    /// Steps over a string, from its opening quote to past its closing one.
    private mutating func skipString() {
        position += 1
        while true {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return
            }
            position += byte == UInt8(ascii: "\\") ? 2 : 1
        }
    }

    /// Checks that the value at the reader's position nests no deeper than
    /// `maxNesting`, as a document of its own would be checked; the reader
    /// does not move.
    ///
    /// - Throws: `json.depth`.
    package mutating func checkNesting(maxNesting: Int) throws(IMCodecError) {
        let start = valueStart()
        var end = self
        end.skipValue()
        var scanner = JSONScanner(
            bytes: UnsafeBufferPointer(rebasing: bytes[start..<end.position]), maxNesting: maxNesting,
            countsAbove: .max, countCap: .max, extentKeys: [])
        _ = try scanner.scan()
    }

    /// The number of entries of the array at `start`: the recorded count,
    /// or one counted by stepping over its entries (which costs a read of
    /// the array). The reader's own position does not move.
    ///
    /// - Parameter start: The offset of the array's `[`.
    /// - Returns: The number of entries; at most the recorded cap, past
    ///   which no reader looks.
    package func count(ofArrayAt start: Int) -> Int {
        if let recorded = document.count(ofArrayAt: start) { return recorded }
        var reader = self
        reader.position = start + 1
        var count = 0
        while reader.nextEntry() {
            count += 1
            reader.skipValue()
        }
        return count
    }
}

/// A JSON document, checked and ready to be read in place.
package enum JSONDocument {
    /// The deepest nesting of arrays and objects a document read without
    /// decoding limits may reach, and the bound of a document whose values
    /// are each checked against a decoder's own nesting bound.
    package static let maxNesting = 1_000

    /// Checks `utf8` as a JSON document and calls `body` with a reader at
    /// its value.
    ///
    /// - Parameters:
    ///   - utf8: The document's UTF-8 bytes, read in place when they are
    ///     contiguous, else copied once.
    ///   - limits: When given, a document past
    ///     ``DecodingLimits/maxDocumentBytes`` is refused before it is
    ///     checked, and arrays with more entries than the smallest count
    ///     limit have their counts recorded (``JSONReader/beginArray()``).
    ///   - maxNesting: The deepest nesting of arrays and objects accepted.
    ///   - extentKeys: Member names whose array or object values the reader
    ///     can step over in one step (``JSONDocumentIndex``).
    ///   - body: Reads the value; the reader is valid during the call only.
    /// - Throws: `limit.document-size`, then `json.syntax` and `json.depth`
    ///   for the first problem in document order, then what `body` throws.
    package static func read<Result>(
        _ utf8: some Collection<UInt8>, limits: DecodingLimits?, maxNesting: Int, extentKeys: [String] = [],
        _ body: (inout JSONReader) throws(IMCodecError) -> Result
    ) throws(IMCodecError) -> Result {
        let count = utf8.count
        if let limits, count > limits.maxDocumentBytes {
            throw IMCodecError(
                .limitDocumentSize, reason: "a JSON document of \(count) bytes is too large",
                limit: limits.maxDocumentBytes, observed: count)
        }
        func read(_ bytes: UnsafeBufferPointer<UInt8>) throws(IMCodecError) -> Result {
            var countsAbove = Int.max
            var countCap = Int.max
            if let limits {
                countsAbove = min(limits.maxElems, limits.maxRepeated, limits.maxBatchMessages)
                let (cap, overflow) = limits.largestCount.addingReportingOverflow(1)
                countCap = overflow ? .max : cap
            }
            var scanner = JSONScanner(
                bytes: bytes, maxNesting: maxNesting, countsAbove: countsAbove, countCap: countCap,
                extentKeys: extentKeys)
            var reader = JSONReader(bytes: bytes, index: try scanner.scan())
            return try body(&reader)
        }
        let contiguous = utf8.withContiguousStorageIfAvailable { bytes in
            Swift.Result { () throws(IMCodecError) in try read(bytes) }
        }
        if let contiguous { return try contiguous.get() }
        return try Array(utf8).withUnsafeBufferPointer { bytes in
            Swift.Result { () throws(IMCodecError) in try read(bytes) }
        }.get()
    }
}
