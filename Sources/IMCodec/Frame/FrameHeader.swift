/// The fields of a frame header (`docs/spec/frame-format.md`).
///
/// A header is a version byte, a flags byte, an optional dictionary id, the
/// body length, for compressed frames the payload length, and a CRC-32. Its
/// varints are always minimal, so the encoded size follows from the fields.
public struct FrameHeader: Hashable, Sendable {
    /// The only format version: the value of the first byte of every frame.
    public static let version: UInt8 = 1
    /// The longest a header can be: version, flags, three 5-byte varints and
    /// the 4-byte checksum.
    public static let maxEncodedLength = 21
    /// The fewest bytes a frame can have: version, flags, a 1-byte body length
    /// and the checksum.
    public static let minEncodedLength = 7

    /// What the payload holds.
    public var kind: FrameKind
    /// How the body stores the payload.
    public var compression: FrameCompression
    /// The preset dictionary the body was compressed with, or `nil`. Only
    /// compressed frames name one.
    public var dictionaryID: UInt32?
    /// The number of body bytes after the header.
    public var bodyLength: Int
    /// The payload's size: the declared inflated size of a compressed body,
    /// else the body length.
    public var payloadLength: Int
    /// The CRC-32 over the header bytes before the checksum and the payload.
    public var checksum: UInt32

    /// Creates a header from its fields; lengths must fit a header varint.
    init(
        kind: FrameKind,
        compression: FrameCompression,
        dictionaryID: UInt32?,
        bodyLength: Int,
        payloadLength: Int,
        checksum: UInt32
    ) {
        precondition(
            UInt32(exactly: bodyLength) != nil && UInt32(exactly: payloadLength) != nil,
            "frame lengths are varints of at most 2^32 - 1")
        precondition(dictionaryID == nil || compression != .none, "only compressed frames name a dictionary")
        self.kind = kind
        self.compression = compression
        self.dictionaryID = dictionaryID
        self.bodyLength = bodyLength
        self.payloadLength = payloadLength
        self.checksum = checksum
    }

    /// The flags byte: kind in bits 0–1, compression in bits 2–3, bit 4 when a
    /// dictionary id follows.
    public var flags: UInt8 {
        kind.rawValue | compression.rawValue << 2 | (dictionaryID == nil ? 0 : 0x10)
    }

    /// The size of the encoded header, checksum included.
    public var encodedLength: Int {
        var length = 2 + Self.varintLength(UInt32(truncatingIfNeeded: bodyLength)) + 4
        if let dictionaryID { length += Self.varintLength(dictionaryID) }
        if compression != .none { length += Self.varintLength(UInt32(truncatingIfNeeded: payloadLength)) }
        return length
    }

    /// The size of the whole frame: header and body.
    public var frameLength: Int { encodedLength + bodyLength }

    /// Reads the header at the start of `bytes` without consuming anything.
    ///
    /// These are checks 1 and 2 of the frame format: the version, the flags
    /// and the header varints. Nothing is allocated, and the body is not
    /// looked at.
    ///
    /// - Parameter bytes: The start of a frame; may be incomplete.
    /// - Returns: The header, or `nil` when `bytes` end before the header does.
    /// - Throws: `frame.version`, `frame.kind`, `frame.compression`,
    ///   `frame.reserved-bits`, `frame.varint`, `frame.dictionary`.
    public static func peek(_ bytes: UnsafeRawBufferPointer) throws(IMCodecError) -> FrameHeader? {
        if let header = peekStored(bytes) { return header }
        guard bytes.count >= 2 else { return nil }
        guard bytes[0] == version else {
            throw IMCodecError(.frameVersion, reason: "unsupported frame version \(bytes[0])")
        }
        let flags = bytes[1]
        guard let kind = FrameKind(rawValue: flags & 0x03) else {
            throw IMCodecError(.frameKind, reason: "frame kind 0 is not defined")
        }
        guard let compression = FrameCompression(rawValue: flags >> 2 & 0x03) else {
            throw IMCodecError(.frameCompression, reason: "compression \(flags >> 2 & 0x03) is not defined")
        }
        guard flags & 0xE0 == 0 else {
            throw IMCodecError(
                .frameReservedBits, reason: "reserved flag bits set in flags byte 0x\(String(flags, radix: 16))")
        }

        var index = 2
        var dictionaryID: UInt32?
        if flags & 0x10 != 0 {
            // The id is read first, as every header varint is (check 2), and
            // then checked against the compression and the known ids.
            guard let id = try readVarint(bytes, at: &index, field: "dictionary id") else { return nil }
            guard compression != .none else {
                throw IMCodecError(.frameDictionary, reason: "dictionary bit set on an uncompressed frame")
            }
            guard id >= 1, PresetDictionary(id: id) != nil else {
                throw IMCodecError(.frameDictionary, reason: "unknown dictionary id \(id)")
            }
            dictionaryID = id
        }
        guard let bodyLength = try readVarint(bytes, at: &index, field: "body length") else { return nil }
        var payloadLength = bodyLength
        if compression != .none {
            guard let declared = try readVarint(bytes, at: &index, field: "payload length") else { return nil }
            payloadLength = declared
        }
        guard bytes.count - index >= 4 else { return nil }
        let checksum =
            UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8
            | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24
        return FrameHeader(
            kind: kind,
            compression: compression,
            dictionaryID: dictionaryID,
            bodyLength: Int(bodyLength),
            payloadLength: Int(payloadLength),
            checksum: checksum)
    }

    /// The most common header, read without the general path's checks: a
    /// stored frame (flags are the kind alone) whose body length takes one
    /// or two bytes. Every such header passes those checks; anything else
    /// gives `nil`, and the general path reads it.
    @inline(__always)
    static func peekStored(_ bytes: UnsafeRawBufferPointer) -> FrameHeader? {
        guard bytes.count >= 7, bytes[0] == version, let kind = FrameKind(rawValue: bytes[1]) else { return nil }
        let first = bytes[2]
        var bodyLength = Int(first)
        var index = 3
        if first >= 0x80 {
            // A minimal two-byte varint: its second byte is 1 to 127.
            guard bytes.count >= 8, bytes[3] != 0, bytes[3] < 0x80 else { return nil }
            bodyLength = Int(first & 0x7F) | Int(bytes[3]) << 7
            index = 4
        }
        let checksum = bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self)
        return FrameHeader(
            kind: kind, compression: .none, dictionaryID: nil, bodyLength: bodyLength, payloadLength: bodyLength,
            checksum: UInt32(littleEndian: checksum))
    }

    /// Reads the header at the start of `bytes` without consuming anything.
    ///
    /// - Parameter bytes: The start of a frame; may be incomplete.
    /// - Returns: The header, or `nil` when `bytes` end before the header does.
    /// - Throws: `frame.version`, `frame.kind`, `frame.compression`,
    ///   `frame.reserved-bits`, `frame.varint`, `frame.dictionary`.
    public static func peek(_ bytes: some Collection<UInt8>) throws(IMCodecError) -> FrameHeader? {
        let peeked = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(IMCodecError) in try peek(UnsafeRawBufferPointer(buffer)) }
        }
        return try
            (peeked
            ?? Array(bytes.prefix(maxEncodedLength)).withUnsafeBytes { raw in
                Result { () throws(IMCodecError) in try peek(raw) }
            }).get()
    }

    /// Check 3 of the frame format: the declared sizes against the limits,
    /// before anything is buffered or allocated for the body.
    ///
    /// - Parameter limits: The limits to apply.
    /// - Throws: `limit.frame-size`, `limit.inflated-size`, `limit.inflate-ratio`.
    public func checkLimits(_ limits: DecodingLimits) throws(IMCodecError) {
        guard bodyLength <= limits.maxFrameBytes else {
            throw IMCodecError(
                .limitFrameSize, reason: "frame body of \(bodyLength) bytes is too large",
                limit: limits.maxFrameBytes, observed: bodyLength)
        }
        guard compression != .none else { return }
        guard payloadLength <= limits.maxInflatedBytes else {
            throw IMCodecError(
                .limitInflatedSize, reason: "frame declares a payload of \(payloadLength) bytes",
                limit: limits.maxInflatedBytes, observed: payloadLength)
        }
        let (allowed, overflow) = bodyLength.multipliedReportingOverflow(by: max(limits.maxInflateRatio, 0))
        guard overflow || payloadLength <= allowed else {
            // The observed ratio, rounded up; an empty body counts as 1 byte.
            let ratio = (payloadLength + max(bodyLength, 1) - 1) / max(bodyLength, 1)
            throw IMCodecError(
                .limitInflateRatio,
                reason: "frame declares \(payloadLength) payload bytes from a body of \(bodyLength)",
                limit: limits.maxInflateRatio, observed: ratio)
        }
    }

    /// Writes the header bytes before the checksum at the start of `buffer`.
    ///
    /// - Parameter buffer: At least ``encodedLength`` − 4 bytes.
    /// - Returns: The number of bytes written: ``encodedLength`` − 4.
    @usableFromInline
    func writePrefix(to buffer: UnsafeMutableRawBufferPointer) -> Int {
        let prefixLength = encodedLength - 4
        precondition(buffer.count >= prefixLength, "no room for the header")
        var writer = WireWriter(UnsafeMutableRawBufferPointer(rebasing: buffer[0..<prefixLength]))
        writer.writeByte(Self.version)
        writer.writeByte(flags)
        if let dictionaryID { writer.writeVarint(UInt64(dictionaryID)) }
        writer.writeVarint(UInt64(UInt32(truncatingIfNeeded: bodyLength)))
        if compression != .none { writer.writeVarint(UInt64(UInt32(truncatingIfNeeded: payloadLength))) }
        assert(writer.isFull, "the header prefix is not encodedLength - 4 bytes")
        return prefixLength
    }

    /// Appends the header bytes before the checksum: version, flags and varints.
    func writePrefix(to buffer: inout [UInt8]) {
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: encodedLength - 4))
        _ = buffer.withUnsafeMutableBytes { bytes in
            writePrefix(to: UnsafeMutableRawBufferPointer(rebasing: bytes[start...]))
        }
    }
}
