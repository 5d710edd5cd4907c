import Foundation
import IMCodec
import IMCodecOracle
import IMCodecTestSupport
import SwiftProtobuf
import Testing

/// A deterministic, structure-aware mutation run over payloads: no input may
/// crash the decoder, every accepted input must re-encode to bytes that
/// decode to the same value, and the decoder must accept exactly what
/// swift-protobuf accepts, with the same re-encoding.
@Suite struct PayloadMutationTests {
    struct Mutator {
        var generator: ValueGenerator
        let seeds: [[UInt8]]

        mutating func mutate() -> [UInt8] {
            var bytes = seeds[generator.choice(seeds.count)]
            for _ in 0...generator.choice(3) {
                let position = bytes.isEmpty ? 0 : generator.choice(bytes.count)
                switch generator.choice(8) {
                case 0 where !bytes.isEmpty:
                    bytes[position] ^= 1 << UInt8(generator.choice(8))
                case 1 where !bytes.isEmpty:
                    bytes[position] = UInt8(truncatingIfNeeded: generator.next())
                case 2:
                    bytes.removeLast(bytes.count - position)
                case 3:
                    let insert = (0..<(1 + generator.choice(4))).map { _ in UInt8(truncatingIfNeeded: generator.next())
                    }
                    bytes.insert(contentsOf: insert, at: position)
                case 4 where !bytes.isEmpty:
                    let end = min(bytes.count, position + 1 + generator.choice(16))
                    bytes.removeSubrange(position..<end)
                case 5:
                    let other = seeds[generator.choice(seeds.count)]
                    guard !other.isEmpty else { break }
                    let start = generator.choice(other.count)
                    let end = min(other.count, start + 1 + generator.choice(64))
                    bytes.insert(contentsOf: other[start..<end], at: position)
                case 6 where !bytes.isEmpty:
                    // Lengths and counts are small varints: nudge one.
                    let delta = [-2, -1, 1, 2, 64, 127][generator.choice(6)]
                    bytes[position] = UInt8(truncatingIfNeeded: Int(bytes[position]) + delta)
                default:
                    guard !bytes.isEmpty else { break }
                    let end = min(bytes.count, position + 1 + generator.choice(32))
                    bytes.insert(contentsOf: bytes[position..<end], at: end)
                }
            }
            return bytes
        }
    }

    @Test func mutatedPayloadsNeverCrashAndAgreeWithTheOracle() throws {
        var seedGenerator = ValueGenerator(seed: 99, maxLayers: 1)
        let seeds = (0..<200).map { _ in Message.arbitrary(using: &seedGenerator).serializedBytes() }
        var mutator = Mutator(generator: ValueGenerator(seed: 0xF022), seeds: seeds)
        var accepted = 0
        var rejected = 0
        var disagreements: [String] = []
        for _ in 0..<100_000 {
            let input = mutator.mutate()
            let oracle = try? Imcodec_V1_Message(serializedBytes: input, options: oracleDecoding)
            let decoded: IMCodec.Message
            do throws(IMCodecError) {
                decoded = try Message(serializedBytes: input)
            } catch {
                rejected += 1
                if oracle != nil {
                    disagreements.append("rejected (\(error.code)) what swift-protobuf accepts: \(input)")
                }
                continue
            }
            accepted += 1
            let encoded = decoded.serializedBytes()
            if try Message(serializedBytes: encoded).serializedBytes() != encoded {
                disagreements.append("re-encoding is not stable for \(input)")
            }
            guard let oracle else {
                disagreements.append("accepted what swift-protobuf rejects: \(input)")
                continue
            }
            let oracleBytes: [UInt8] = try oracle.serializedBytes()
            if oracleBytes != encoded {
                disagreements.append("re-encodes differently from swift-protobuf: \(input)")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreements: \(disagreements.prefix(3))")
        print("payload mutations: \(accepted + rejected) inputs, \(accepted) accepted, \(rejected) rejected")
    }
}
