extension FrameHeader {
    /// Reads a header varint starting at `index` and advances `index` past it.
    ///
    /// Header varints are unsigned LEB128 of at most 5 bytes and at most
    /// 2^32 − 1, minimally encoded.
    ///
    /// - Parameters:
    ///   - bytes: The bytes holding the header.
    ///   - index: Where the varint starts; on return, where it ended.
    ///   - field: The field's name, for the error reason.
    /// - Returns: The value, or `nil` when `bytes` end inside the varint.
    /// - Throws: `frame.varint` for a varint longer than 5 bytes, above
    ///   2^32 − 1, or with a redundant trailing zero byte.
    static func readVarint(
        _ bytes: UnsafeRawBufferPointer,
        at index: inout Int,
        field: StaticString
    ) throws(IMCodecError) -> UInt32? {
        var value: UInt32 = 0
        for position in 0..<5 {
            guard index < bytes.count else { return nil }
            let byte = bytes[index]
            index += 1
            // The fifth byte carries bits 28–31: more is too long or too large.
            if position == 4 && byte > 0x0F {
                throw IMCodecError(.frameVarint, reason: "\(field) varint is longer than 5 bytes or above 2^32 - 1")
            }
            value |= UInt32(byte & 0x7F) << UInt32(7 * position)
            if byte & 0x80 == 0 {
                if position > 0 && byte == 0 {
                    throw IMCodecError(.frameVarint, reason: "\(field) varint is not minimally encoded")
                }
                return value
            }
        }
        preconditionFailure("a fifth varint byte either ends the varint or throws")
    }

    /// The number of bytes the minimal varint of `value` takes.
    static func varintLength(_ value: UInt32) -> Int {
        WireFormat.varintSize(UInt64(value))
    }
}
