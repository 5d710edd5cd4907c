import CIMCodecUTF8

/// Reads protobuf wire encodings from borrowed bytes, advancing a cursor.
///
/// The reader never copies its input: nested messages are read through a
/// reader over a sub-range of the same memory. Every length from the wire is
/// checked against the bytes that remain before it is used. The memory must
/// stay valid while the reader is in use.
@usableFromInline package struct WireReader {
    @usableFromInline var position: UnsafeRawPointer
    @usableFromInline let end: UnsafeRawPointer

    /// Creates a reader over `buffer`.
    @inlinable package init(_ buffer: UnsafeRawBufferPointer) {
        // An empty buffer may have no base address; nothing is read then.
        let base = buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 0x10)!
        position = base
        end = base + buffer.count
    }

    @inlinable init(position: UnsafeRawPointer, end: UnsafeRawPointer) {
        self.position = position
        self.end = end
    }

    /// Whether unread bytes remain.
    @inlinable package var hasMore: Bool { position < end }

    /// The number of unread bytes.
    @inlinable package var remaining: Int { end - position }

    /// The address of the next unread byte, to mark the start of a field.
    @inlinable package var mark: UnsafeRawPointer { position }

    @inlinable @inline(__always)
    static func truncated() -> IMCodecError {
        IMCodecError(.payloadTruncated, reason: "the payload ends inside a field")
    }

    /// Reads a varint of up to 10 bytes; bits past 64 are ignored.
    ///
    /// - Throws: `payload.truncated`, `payload.varint`.
    @inlinable @inline(__always)
    package mutating func readVarint() throws(IMCodecError) -> UInt64 {
        guard position < end else { throw Self.truncated() }
        let first = position.load(as: UInt8.self)
        position += 1
        if first < 0x80 { return UInt64(first) }
        // Two bytes (lengths and sizes from 128 to 16,383) without the call.
        if position < end {
            let second = position.load(as: UInt8.self)
            if second < 0x80 {
                position += 1
                return UInt64(first & 0x7F) | UInt64(second) &<< 7
            }
        }
        return try readVarintTail(UInt64(first & 0x7F))
    }

    @inlinable
    mutating func readVarintTail(_ low: UInt64) throws(IMCodecError) -> UInt64 {
        // A varint has at most 9 bytes after its first: when that many
        // remain it cannot run past the end, so no byte needs a bounds check.
        if end - position >= 9 {
            var value = low
            var shift: UInt64 = 7
            var cursor = position
            repeat {
                let byte = cursor.load(as: UInt8.self)
                cursor += 1
                value |= UInt64(byte & 0x7F) &<< shift
                if byte < 0x80 {
                    position = cursor
                    return value
                }
                shift &+= 7
            } while shift <= 63
            throw IMCodecError(.payloadVarint, reason: "a varint is longer than 10 bytes")
        }
        var value = low
        var shift: UInt64 = 7
        while true {
            // A tenth byte that continues makes the varint invalid whatever
            // follows, so this is checked before the end of the input.
            guard shift <= 63 else {
                throw IMCodecError(.payloadVarint, reason: "a varint is longer than 10 bytes")
            }
            guard position < end else { throw Self.truncated() }
            let byte = position.load(as: UInt8.self)
            position += 1
            value |= UInt64(byte & 0x7F) &<< shift
            if byte < 0x80 { return value }
            shift &+= 7
        }
    }

    /// Reads a field tag, checking its field number and wire type.
    ///
    /// Returns the tag as `fieldNumber << 3 | wireType`, so generated code can
    /// switch on the expected tag and treat any other wire type as unknown.
    ///
    /// - Throws: `payload.truncated`, `payload.tag`.
    @inlinable @inline(__always)
    package mutating func readTag() throws(IMCodecError) -> UInt32 {
        guard position < end else { throw Self.truncated() }
        let first = position.load(as: UInt8.self)
        if first < 0x80 {
            position += 1
            guard first >= 8, first & 7 < 6 else { throw Self.badTag() }
            return UInt32(first)
        }
        // Two bytes (fields 16 to 2047: a message's elems) without the
        // loop of the general case.
        if end - position >= 2 {
            let second = (position + 1).load(as: UInt8.self)
            if second < 0x80 {
                position += 2
                let value = UInt32(first & 0x7F) | UInt32(second) &<< 7
                guard value >= 8, value & 7 < 6 else { throw Self.badTag() }
                return value
            }
        }
        return try readTagTail()
    }

    @inlinable
    mutating func readTagTail() throws(IMCodecError) -> UInt32 {
        var value: UInt32 = 0
        var shift: UInt32 = 0
        for index in 0..<5 {
            guard position < end else { throw Self.truncated() }
            let byte = position.load(as: UInt8.self)
            position += 1
            if index == 4 && byte > 15 { throw Self.badTag() }
            value |= UInt32(byte & 0x7F) &<< shift
            if byte < 0x80 { break }
            shift &+= 7
        }
        guard value >> 3 != 0, value & 7 < 6 else { throw Self.badTag() }
        return value
    }

    @inlinable
    static func badTag() -> IMCodecError {
        IMCodecError(.payloadTag, reason: "a tag has field number 0, a number of 2^29 or more, or wire type 6 or 7")
    }

    /// Reads 8 bytes little-endian.
    ///
    /// - Throws: `payload.truncated`.
    @inlinable @inline(__always)
    package mutating func readFixed64() throws(IMCodecError) -> UInt64 {
        guard end - position >= 8 else { throw Self.truncated() }
        let value = UInt64(littleEndian: position.loadUnaligned(as: UInt64.self))
        position += 8
        return value
    }

    /// Reads a length prefix and returns the body it covers, advancing past it.
    ///
    /// - Throws: `payload.truncated`, `payload.varint`, `payload.length`.
    @inlinable @inline(__always)
    package mutating func readLengthDelimited() throws(IMCodecError) -> UnsafeRawBufferPointer {
        let length = try readVarint()
        guard length < 0x7FFF_FFFF else {
            throw IMCodecError(.payloadLength, reason: "a length of 2 GiB or more")
        }
        guard Int(truncatingIfNeeded: length) <= end - position else { throw Self.truncated() }
        let body = UnsafeRawBufferPointer(start: position, count: Int(truncatingIfNeeded: length))
        position += Int(truncatingIfNeeded: length)
        return body
    }

    /// Reads a nested message body as a reader of its own.
    ///
    /// - Throws: `payload.truncated`, `payload.varint`, `payload.length`.
    @inlinable @inline(__always)
    package mutating func readNested() throws(IMCodecError) -> WireReader {
        let body = try readLengthDelimited()
        let start = body.baseAddress ?? position
        return WireReader(position: start, end: start + body.count)
    }

    /// Reads a length-delimited UTF-8 string.
    ///
    /// - Throws: `payload.truncated`, `payload.length`, `payload.utf8`.
    @inlinable @inline(__always)
    package mutating func readString() throws(IMCodecError) -> String {
        // The cursor moves here, inlined into the caller, so that it can stay
        // in a register there; making the string is a call of its own.
        let body = try readLengthDelimited()
        guard !body.isEmpty else { return "" }
        return try Self.string(from: body.assumingMemoryBound(to: UInt8.self))
    }

    /// Makes a string of UTF-8 bytes, checking them.
    ///
    /// - Throws: `payload.utf8`.
    @inlinable @inline(never)
    static func string(from units: UnsafeBufferPointer<UInt8>) throws(IMCodecError) -> String {
        // The bytes are checked once, sixteen at a time in C (the standard
        // library's validator takes about ten instructions a byte on Chinese
        // text), and copied once: the string is made from the checked span
        // without being validated again.
        let check = imcodec_utf8_check(units.baseAddress, units.count)
        guard check != IMCODEC_UTF8_INVALID else {
            throw IMCodecError(.payloadUTF8, reason: "a string field is not valid UTF-8")
        }
        if check == IMCODEC_UTF8_ASCII && units.count <= 15 {
            // Short ASCII (ids, names) fits a small string, which this
            // initialiser fills with one copy and takes as it is, while
            // `String(copying:)` assembles it a byte at a time.
            return String(unsafeUninitializedCapacity: units.count) { buffer in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(units))
                return units.count
            }
        }
        // `UTF8Span` and `String(copying:)` are in the 26 releases only; older
        // ones, and tests that force it, take the portable path (PortablePaths).
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *), !PortablePaths.isForced {
            return String(copying: unsafe UTF8Span(unchecked: units.span, isKnownASCII: check == IMCODEC_UTF8_ASCII))
        }
        return PortablePaths.string(checkedUTF8: units)
    }

    /// Reads a length-delimited byte string.
    ///
    /// - Throws: `payload.truncated`, `payload.length`.
    @inlinable
    package mutating func readBytes() throws(IMCodecError) -> [UInt8] {
        let body = try readLengthDelimited()
        guard !body.isEmpty else { return [] }
        // Copied by the array's initialiser from a buffer, which the
        // standard library runs specialised: `[UInt8](unsafeUninitializedCapacity:)`,
        // inlined here, looks up the array storage's metadata in the
        // runtime's locked cache on every call (about 370 instructions).
        return [UInt8](body)
    }

    /// The number of entries of a repeated field, counted when its first
    /// entry has just been read, so that the array can be given its final
    /// capacity in one allocation.
    ///
    /// A field written last (most often a message's elems) is answered at
    /// once, as nothing follows it. A length-delimited field counts the run
    /// of entries right after this position: an encoder writes fields in
    /// number order, so the entries of a repeated field follow one another
    /// and counting stops at the first other field instead of stepping over
    /// the rest of the message (a merger's 300 messages after its first
    /// abstract). Entries written apart, which only a non-canonical encoder
    /// produces, are then counted short and the array grows as it is
    /// appended to. Other fields are counted over the rest of this reader
    /// with ``countFields(withTag:from:limit:)``.
    ///
    /// - Parameters:
    ///   - tag: The field's whole tag (`number << 3 | wire type`).
    ///   - limit: The largest count of interest, at least 1.
    /// - Returns: 1 plus the fields with `tag` counted after this position,
    ///   at most `limit`.
    @inlinable @inline(__always)
    package func entryCount(withTag tag: UInt32, limit: Int) -> Int {
        guard position < end, limit > 1 else { return 1 }
        if tag & 7 == 2 { return 1 &+ countRun(withTag: tag, limit: limit &- 1) }
        return 1 &+ countFields(withTag: tag, from: position, limit: limit &- 1)
    }

    /// Counts the length-delimited fields with `tag` that follow this
    /// position one after another, stopping at the first other field, at
    /// anything malformed or at `limit`.
    @usableFromInline
    func countRun(withTag tag: UInt32, limit: Int) -> Int {
        var position = self.position
        var count = 0
        while count < limit && position < end {
            let first = position.load(as: UInt8.self)
            if first < 0x80 {
                guard UInt32(first) == tag else { break }
                position += 1
            } else {
                guard let (value, afterTag) = Self.peekVarint(position, end), value == UInt64(tag) else { break }
                position = afterTag
            }
            guard position < end else { break }
            let lengthByte = position.load(as: UInt8.self)
            if lengthByte < 0x80 {
                guard Int(lengthByte) < end - position else { break }
                position += 1 &+ Int(lengthByte)
            } else {
                guard let (length, after) = Self.peekVarint(position, end), length <= UInt64(end - after) else { break }
                position = after + Int(truncatingIfNeeded: length)
            }
            count &+= 1
        }
        return count
    }

    /// Counts the fields with `tag` from `start` to the end of this reader,
    /// stopping at `limit`, so a repeated field can be given its final
    /// capacity before its first entry is decoded.
    ///
    /// Only this message's own fields are visited; nested messages and
    /// strings are stepped over by their lengths. The count is a hint: it
    /// stops early, without an error, at anything malformed or at a group,
    /// and decoding then reports the problem where it meets it.
    ///
    /// - Parameters:
    ///   - tag: The whole tag (`number << 3 | wire type`) to count.
    ///   - start: Where to start: the ``mark`` taken before a tag of this
    ///     reader, or the current position.
    ///   - limit: The largest count of interest.
    /// - Returns: The number of fields with `tag`, at most `limit`.
    @inlinable
    package func countFields(withTag tag: UInt32, from start: UnsafeRawPointer, limit: Int) -> Int {
        var position = start
        var count = 0
        while position < end && count < limit {
            let fieldTag: UInt64
            let first = position.load(as: UInt8.self)
            if first < 0x80 {
                fieldTag = UInt64(first)
                position += 1
            } else {
                guard let (value, afterTag) = Self.peekVarint(position, end), value <= UInt64(UInt32.max) else { break }
                fieldTag = value
                position = afterTag
            }
            if fieldTag == UInt64(tag) { count &+= 1 }
            switch fieldTag & 7 {
            case 0:
                guard let (_, after) = Self.peekVarint(position, end) else { return count }
                position = after
            case 1:
                guard end - position >= 8 else { return count }
                position += 8
            case 2:
                if position < end, position.load(as: UInt8.self) < 0x80 {
                    let length = Int(position.load(as: UInt8.self))
                    guard length < end - position else { return count }
                    position += 1 &+ length
                } else {
                    guard let (length, after) = Self.peekVarint(position, end),
                        length <= UInt64(end - after)
                    else { return count }
                    position = after + Int(truncatingIfNeeded: length)
                }
            case 5:
                guard end - position >= 4 else { return count }
                position += 4
            default:
                return count
            }
        }
        return count
    }

    /// Reads a varint at `position` without consuming it.
    ///
    /// - Returns: The value and the address after it, or `nil` when the bytes
    ///   end inside it or it is longer than 10 bytes.
    @inlinable
    static func peekVarint(_ position: UnsafeRawPointer, _ end: UnsafeRawPointer) -> (UInt64, UnsafeRawPointer)? {
        var cursor = position
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while cursor < end && shift <= 63 {
            let byte = cursor.load(as: UInt8.self)
            cursor += 1
            value |= UInt64(byte & 0x7F) &<< shift
            if byte < 0x80 { return (value, cursor) }
            shift &+= 7
        }
        return nil
    }

    /// Skips the value of the field whose tag was just read and appends the
    /// whole field, from `start`, to `unknown`.
    ///
    /// Groups (wire type 3) are skipped to their matching end tag without
    /// recursion; each open group counts one layer against the depth budget.
    ///
    /// - Parameters:
    ///   - tag: The tag returned by ``readTag()``.
    ///   - start: The ``mark`` taken before the tag was read.
    ///   - unknown: Where the raw field is kept.
    ///   - context: The decoding context, for the depth budget.
    /// - Throws: `payload.truncated`, `payload.varint`, `payload.length`,
    ///   `payload.tag`, `payload.group`, `limit.depth`.
    @inlinable
    package mutating func skipUnknown(
        tag: UInt32, from start: UnsafeRawPointer, into unknown: inout UnknownFields,
        context: DecodeContext
    ) throws(IMCodecError) {
        try skipValue(tag: tag, context: context)
        unknown.bytes.append(contentsOf: UnsafeRawBufferPointer(start: start, count: position - start))
    }

    @usableFromInline
    mutating func skipValue(tag: UInt32, context: DecodeContext) throws(IMCodecError) {
        switch tag & 7 {
        case 0: _ = try readVarint()
        case 1: _ = try readFixed64()
        case 2: _ = try readLengthDelimited()
        case 5:
            guard end - position >= 4 else { throw Self.truncated() }
            position += 4
        case 3: try skipGroup(fieldNumber: tag >> 3, context: context)
        default:
            throw IMCodecError(.payloadGroup, reason: "an end-group tag closes no open group")
        }
    }

    @usableFromInline
    mutating func skipGroup(fieldNumber: UInt32, context: DecodeContext) throws(IMCodecError) {
        // The open groups' field numbers; the innermost is last.
        var open: [UInt32] = [fieldNumber]
        func checkDepth(_ count: Int) throws(IMCodecError) {
            let layer = context.depth + count
            if layer > context.limits.maxDepth {
                throw IMCodecError(
                    .limitDepth, reason: "groups nest deeper than the depth budget",
                    limit: context.limits.maxDepth, observed: layer)
            }
        }
        try checkDepth(open.count)
        while let innermost = open.last {
            let tag = try readTag()
            switch tag & 7 {
            case 3:
                open.append(tag >> 3)
                try checkDepth(open.count)
            case 4:
                guard tag >> 3 == innermost else {
                    throw IMCodecError(.payloadGroup, reason: "an end-group tag does not match the open group")
                }
                open.removeLast()
            default:
                try skipValue(tag: tag, context: context)
            }
        }
    }
}
