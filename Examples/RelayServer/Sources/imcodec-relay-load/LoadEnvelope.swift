/// What the load clients check of every message they receive, read from
/// its payload without decoding the message: the number in its sender
/// (`user-N`), its sequence number and how many elems it has.
///
/// A scan of the top-level protobuf fields of `imcodec.v1.Message`
/// (Schemas/imcodec/v1/model.proto: `sender` = 2, `seq` = 7, `elems` = 18),
/// so that the clients of a run spend their time on the relay, not on
/// decoding; the frame's checksum has been checked by the reader.
struct LoadEnvelope {
    var sender: Int?
    var seq: UInt64 = 0
    var elems = 0

    /// Scans a message payload; `nil` when it is not a well-formed message.
    init?(_ payload: ArraySlice<UInt8>) {
        var index = payload.startIndex
        func varint() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while index < payload.endIndex, shift < 64 {
                let byte = payload[index]
                index += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
            return nil
        }
        while index < payload.endIndex {
            guard let tag = varint() else { return nil }
            let field = tag >> 3
            switch tag & 7 {
            case 0:
                guard let value = varint() else { return nil }
                if field == 7 { seq = value }
            case 1:
                index += 8
            case 5:
                index += 4
            case 2:
                guard let length = varint(), let count = Int(exactly: length),
                    count <= payload.endIndex - index
                else { return nil }
                if field == 2 { sender = Self.user(payload[index..<(index + count)]) }
                if field == 18 { elems += 1 }
                index += count
            default:
                return nil
            }
        }
        guard index == payload.endIndex else { return nil }
    }

    /// N of `user-N`, or `nil` for any other sender.
    private static func user(_ bytes: ArraySlice<UInt8>) -> Int? {
        let prefix = Array("user-".utf8)
        guard bytes.count > prefix.count, bytes.prefix(prefix.count).elementsEqual(prefix) else { return nil }
        var number = 0
        for byte in bytes.dropFirst(prefix.count) {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), number < 1 << 40 else { return nil }
            number = number * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return number
    }
}
