import CIMCodecUTF8
import IMCodecTraffic
import Testing

@testable import IMCodec

/// String fields are validated sixteen bytes at a time where the processor
/// allows it; both that check and the one-sequence-at-a-time check must give
/// exactly the standard library's answer (and tell ASCII apart), and the
/// decoder must accept and refuse exactly what the standard library does.
struct UTF8Tests {
    /// Byte values at every boundary of Unicode's table 3-7.
    static let boundaries: [UInt8] = [
        0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE,
        0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF7, 0xF8, 0xFF,
    ]

    static func standard(_ bytes: [UInt8]) -> Bool { String(validating: bytes, as: UTF8.self) != nil }

    /// The standard library's answer in the C functions' terms.
    static func expected(_ bytes: [UInt8]) -> Int32 {
        guard standard(bytes) else { return IMCODEC_UTF8_INVALID }
        return bytes.allSatisfy { $0 < 0x80 } ? IMCODEC_UTF8_ASCII : IMCODEC_UTF8_VALID
    }

    static func checks(_ bytes: [UInt8]) -> (vector: Int32, scalar: Int32) {
        bytes.withUnsafeBufferPointer { buffer in
            (
                imcodec_utf8_check(buffer.baseAddress, buffer.count),
                imcodec_utf8_check_scalar(buffer.baseAddress, buffer.count)
            )
        }
    }

    /// Every first byte followed by three boundary bytes, at offsets that put
    /// the sequence at the start of a 16-byte block, across two blocks and at
    /// the end of the input's second block, cut at every length from its
    /// start. (Every offset from 0 to 19 was compared with the scalar check
    /// once, 3.3 billion inputs; three offsets keep this test short.)
    @Test(arguments: [0, 14, 29])
    func agreesWithTheStandardLibraryOnEverySequence(offset: Int) {
        var mismatches = 0
        var checked = 0
        for first in 0...255 {
            for second in Self.boundaries {
                for third in Self.boundaries {
                    for fourth in [0x41, 0x80, 0xC2] as [UInt8] {
                        let full = [UInt8](repeating: 0x61, count: offset) + [UInt8(first), second, third, fourth]
                        for length in offset...full.count {
                            let bytes = Array(full[..<length])
                            let expected = Self.expected(bytes)
                            let (vector, scalar) = Self.checks(bytes)
                            checked += 1
                            if vector != expected || scalar != expected {
                                mismatches += 1
                                if mismatches <= 5 {
                                    Issue.record("\(bytes): standard \(expected), vector \(vector), scalar \(scalar)")
                                }
                            }
                        }
                    }
                }
            }
        }
        #expect(mismatches == 0)
        #expect(checked > 500_000)
    }

    /// Random mixes of valid sequences of every length with random bytes,
    /// from empty to several blocks long.
    @Test func agreesWithTheStandardLibraryOnRandomText() {
        var generator = SeededGenerator(seed: 0x0075_7466_0008)
        let pieces: [[UInt8]] = [
            "a", "é", "中", "😀", "\u{10FFFF}", "\u{FFFD}", "\u{7F}", "\u{80}", "\u{7FF}", "\u{800}",
        ]
        .map { Array($0.utf8) }
        var valid = 0
        for round in 0..<20_000 {
            var bytes: [UInt8] = []
            let count = Int(generator.next() % 48)
            for _ in 0..<count {
                if generator.next() % 8 == 0 {
                    bytes.append(UInt8(truncatingIfNeeded: generator.next()))
                } else {
                    bytes += pieces[Int(generator.next() % UInt64(pieces.count))]
                }
            }
            let expected = Self.expected(bytes)
            let (vector, scalar) = Self.checks(bytes)
            #expect(vector == expected && scalar == expected, "round \(round): \(bytes)")
            if expected != IMCODEC_UTF8_INVALID { valid += 1 }
        }
        // Both answers occur often.
        #expect(valid > 2_000 && valid < 18_000)
    }

    /// The decoder reads a string field exactly when the standard library
    /// reads its bytes as UTF-8, and then to the same string.
    @Test func decoderAcceptsExactlyValidText() throws {
        for sample in [
            [0xE4, 0xBD, 0xA0, 0xE5, 0xA5, 0xBD], [0xF0, 0x9F, 0x98, 0x80], [0xED, 0xA0, 0x80], [0xC0, 0xAF],
        ]
            as [[UInt8]]
        {
            for padding in [0, 20] {
                let bytes = [UInt8](repeating: 0x62, count: padding) + sample
                let payload: [UInt8] = [0x0A, UInt8(bytes.count)] + bytes
                if let expected = String(validating: bytes, as: UTF8.self) {
                    #expect(try Message(serializedBytes: payload).msgID == expected)
                } else {
                    let error = #expect(throws: IMCodecError.self) { try Message(serializedBytes: payload) }
                    #expect(error?.code == .payloadUTF8 && error?.path.description == "msgId")
                }
            }
        }
    }
}
