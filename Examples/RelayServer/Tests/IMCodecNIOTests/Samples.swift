import IMCodec

/// Hand-built values of every frame kind that the tests send: small and
/// large (the large ones compress under the default policy).
enum Samples {
    static func message(group: String = "g1", sender: String = "alice", seq: Int = 0, textBytes: Int = 24) -> Message {
        var message = Message()
        message.groupID = group
        message.sender = sender
        message.msgID = "\(sender)-\(seq)"
        message.seq = UInt64(seq)
        message.timestamp = 1_700_000_000
        message.elems = [.text(String(repeating: "hello, group ", count: textBytes / 13 + 1))]
        return message
    }

    static var payloads: [FramePayload] {
        var batch = MessageBatch()
        batch.messages = [message(seq: 1), message(sender: "bob", seq: 2)]
        return [
            .message(message(seq: 0)),
            .message(message(seq: 1, textBytes: 2_000)),
            .batch(batch),
            .message(message(seq: 3, textBytes: 0)),
        ]
    }

    /// The frames of `payloads`, back to back, as a client would send them.
    static func stream(_ payloads: [FramePayload] = payloads, policy: CompressionPolicy = .default) -> [UInt8] {
        let encoder = FrameEncoder(policy: policy)
        var bytes: [UInt8] = []
        for payload in payloads { bytes += frame(payload, with: encoder) }
        return bytes
    }

    /// The frame of a sample, which is within every default limit.
    static func frame(
        _ payload: FramePayload, with encoder: FrameEncoder = FrameEncoder(policy: .disabled)
    ) -> [UInt8] {
        do {
            return try encoder.encode(payload)
        } catch {
            preconditionFailure("a sample within the default limits is refused: \(error)")
        }
    }

    /// One uncompressed frame with its last payload byte changed, which its
    /// checksum must catch (docs/spec/frame-format.md).
    static func corruptFrame() -> [UInt8] {
        var bytes = frame(.message(message(sender: "mallory")))
        bytes[bytes.count - 1] ^= 0x01
        return bytes
    }

    /// The header of an uncompressed message frame that declares `bodyLength`
    /// body bytes (FrameFormat.md), with a checksum no body will match: a
    /// header that lies about what follows.
    static func header(declaringBody bodyLength: UInt32) -> [UInt8] {
        var varint: [UInt8] = []
        var value = bodyLength
        while value >= 0x80 {
            varint.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        varint.append(UInt8(value))
        return [0x01, 0x01] + varint + [0, 0, 0, 0]
    }
}
