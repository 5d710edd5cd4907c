import CZlib
import IMCodecTraffic
import Testing

@testable import IMCodec

/// The frame checksum folds long inputs by carry-less multiplication; it must
/// give exactly zlib's `crc32` for every length, alignment and split.
struct ChecksumTests {
    /// Bytes that repeat no short pattern.
    static let bytes: [UInt8] = {
        var generator = SeededGenerator(seed: 0xC4C3_2000)
        return (0..<4_200).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }()

    static func zlib(_ bytes: UnsafeRawBufferPointer, _ crc: UInt32 = 0) -> UInt32 {
        UInt32(
            truncatingIfNeeded: crc32_z(UInt(crc), bytes.baseAddress?.assumingMemoryBound(to: Bytef.self), bytes.count))
    }

    @Test func matchesZlibForEveryLengthAndAlignment() {
        Self.bytes.withUnsafeBytes { all in
            for length in 0..<1_100 {
                for offset in 0..<4 {
                    let piece = UnsafeRawBufferPointer(rebasing: all[offset..<(offset + length)])
                    var crc = CRC32()
                    crc.update(piece)
                    #expect(crc.value == Self.zlib(piece), "length \(length), offset \(offset)")
                }
            }
        }
    }

    @Test func matchesZlibWhenFedInPieces() {
        Self.bytes.withUnsafeBytes { all in
            for split in [0, 1, 3, 15, 16, 63, 64, 65, 200, 4_000] {
                let first = UnsafeRawBufferPointer(rebasing: all[0..<split])
                let second = UnsafeRawBufferPointer(rebasing: all[split...])
                #expect(CRC32.checksum(first, second) == Self.zlib(all), "split at \(split)")
                #expect(
                    Self.zlib(second, CRC32.checksum(first, UnsafeRawBufferPointer(start: nil, count: 0)))
                        == Self.zlib(all), "split at \(split)")
            }
        }
    }
}
