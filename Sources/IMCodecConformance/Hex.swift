/// Hexadecimal text for the byte strings of vector files and reports.
public enum Hex {
    /// The value of one hex digit (either case), or nil.
    static func digit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Decodes hex text (either case, no separators).
    ///
    /// - Parameter text: An even number of hex digits.
    /// - Returns: The bytes, or nil when the text is not hex.
    public static func decode(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = digit(utf8[index]), let low = digit(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    /// Lower-case hex text of `bytes`.
    public static func encode<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Hex of `bytes`, shortened in the middle when long, for messages.
    static func abbreviated<Bytes: Collection<UInt8>>(_ bytes: Bytes, limit: Int = 64) -> String {
        guard bytes.count > limit else { return encode(bytes) }
        let head = encode(bytes.prefix(limit / 2))
        let tail = encode(bytes.suffix(limit / 4))
        return "\(head)…\(tail) (\(bytes.count) bytes)"
    }
}
