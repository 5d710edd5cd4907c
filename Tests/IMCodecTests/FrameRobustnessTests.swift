import Foundation
import IMCodecTestSupport
import XCTest

@testable import IMCodec

/// Valid frames of every kind and policy for the robustness tests.
enum FrameSamples {
    /// A frame with the payload it holds.
    struct Sample {
        var frame: [UInt8]
        var payload: [UInt8]
        var kind: FrameKind
    }

    /// The policies samples rotate through: stored, default, compress
    /// everything that shrinks, and the same with the dictionary.
    static let policies: [CompressionPolicy] = [
        .disabled, .default, CompressionPolicy(threshold: 0), CompressionPolicy(threshold: 0, dictionary: .imMessages),
    ]

    /// `count` frames of generated messages, batches and events of at most
    /// `maxPayload` bytes (seeded, so every run checks the same frames).
    static func make(count: Int, seed: UInt64, maxPayload: Int) -> [Sample] {
        var generator = ValueGenerator(seed: seed, maxLayers: 1)
        let encoders = policies.map { FrameEncoder(policy: $0) }
        var samples: [Sample] = []
        while samples.count < count {
            let index = samples.count
            let payload: FramePayload =
                switch index % 5 {
                case 0, 1, 2: .message(Message.arbitrary(using: &generator))
                case 3: .event(Event.arbitrary(using: &generator))
                default: .batch(MessageBatch.arbitrary(using: &generator))
                }
            let bytes = payload.serializedBytes()
            guard bytes.count <= maxPayload else { continue }
            do {
                let frame = try encoders[index % encoders.count].encode(payload)
                samples.append(Sample(frame: frame, payload: bytes, kind: payload.kind))
            } catch {
                // Generated values stay far inside the default limits.
                XCTFail("a generated value does not frame: \(error)")
                return samples
            }
        }
        return samples
    }

    /// The 1,000 frames of the prefix and bit-flip tests. Payloads are capped
    /// at 600 bytes (a mean near 200) so that flipping each of their bits
    /// takes seconds in a debug build; the properties tested do not depend on
    /// size, and frames up to 70 KB are covered elsewhere.
    static let thousand = make(count: 1_000, seed: 0x1A2B_3C4D, maxPayload: 600)
}

/// XCTest rather than Swift Testing: Swift Testing records a backtrace for
/// every thrown error, which makes the millions of expected throws here
/// several times slower.
final class FrameRobustnessTests: XCTestCase {
    func testSamplesCoverEveryKindAndCompression() throws {
        let headers = try FrameSamples.thousand.map { try XCTUnwrap(try FrameHeader.peek($0.frame)) }
        XCTAssertEqual(Set(headers.map(\.kind)), Set(FrameKind.allCases))
        XCTAssertTrue(headers.contains { $0.compression == .none })
        XCTAssertTrue(headers.contains { $0.compression == .deflate && $0.dictionaryID == nil })
        XCTAssertTrue(headers.contains { $0.dictionaryID == 1 })
        let mean = FrameSamples.thousand.map(\.frame.count).reduce(0, +) / 1_000
        print("sample frames: mean \(mean) bytes")
    }

    func testEverySampleDecodesToItsPayloadAndValue() throws {
        let decoder = FrameDecoder()
        for sample in FrameSamples.thousand {
            let frame = try decoder.decodeFrame(sample.frame)
            XCTAssertEqual(Array(frame.payload), sample.payload)
            XCTAssertEqual(frame.header.kind, sample.kind)
            let value = try decoder.decode(sample.frame)
            XCTAssertEqual(value.serializedBytes(), sample.payload)
        }
    }

    /// swift-asn1's drip-fed test: a decoder given any strict prefix of a
    /// valid frame must say the frame is truncated, never accept it or report
    /// a different problem.
    func testRejectsEveryStrictPrefixOfAThousandFramesAsTruncated() {
        let decoder = FrameDecoder()
        var prefixes = 0
        var wrong: [String] = []
        for (index, sample) in FrameSamples.thousand.enumerated() {
            for length in 0..<sample.frame.count {
                prefixes += 1
                do {
                    _ = try decoder.decodeFrame(sample.frame[0..<length])
                    wrong.append("frame \(index) prefix \(length): accepted")
                } catch  where error.code != .frameTruncated || !error.path.isEmpty {
                    wrong.append("frame \(index) prefix \(length): \(error)")
                } catch {}
            }
        }
        print("strict prefixes checked: \(prefixes) of 1,000 frames")
        XCTAssertEqual(wrong, [])
        XCTAssertGreaterThan(prefixes, 100_000)
    }

    /// Flips every bit of every frame, one at a time. Each flip must be an
    /// error, or decode to exactly the original header and payload: deflate
    /// ignores its padding bits (after the final block and after a stored
    /// block's header), so flipping one of them leaves a frame that still
    /// means the same message. No flip may yield a different message.
    func testDetectsEverySingleBitFlipInAThousandFrames() throws {
        // Two halves on two threads, each with its own decoder.
        let halves = [
            Array(FrameSamples.thousand.enumerated().prefix(500)),
            Array(FrameSamples.thousand.enumerated().dropFirst(500)),
        ]
        let results = LockedResults()
        DispatchQueue.concurrentPerform(iterations: halves.count) { half in
            results.add(Self.flipEveryBit(of: halves[half]))
        }
        let total = results.total
        let summary = total.codes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        print("bit flips: \(total.flips); errors: \(summary); same frame (deflate padding): \(total.sameMeaning)")
        XCTAssertEqual(total.wrong, [])
        XCTAssertGreaterThan(total.flips, 1_000_000)
    }

    struct FlipResult {
        var flips = 0
        var sameMeaning = 0
        var codes: [String: Int] = [:]
        var wrong: [String] = []
    }

    final class LockedResults: @unchecked Sendable {
        private let lock = NSLock()
        private var results: [FlipResult] = []

        func add(_ result: FlipResult) {
            lock.lock()
            results.append(result)
            lock.unlock()
        }

        var total: FlipResult {
            lock.lock()
            defer { lock.unlock() }
            return results.reduce(into: FlipResult()) { total, result in
                total.flips += result.flips
                total.sameMeaning += result.sameMeaning
                total.codes.merge(result.codes, uniquingKeysWith: +)
                total.wrong += result.wrong
            }
        }
    }

    static func flipEveryBit(of samples: [(offset: Int, element: FrameSamples.Sample)]) -> FlipResult {
        let decoder = FrameDecoder()
        var result = FlipResult()
        for (index, sample) in samples {
            guard let original = try? decoder.decodeFrame(sample.frame) else {
                result.wrong.append("frame \(index) does not decode")
                continue
            }
            var bytes = sample.frame
            for position in bytes.indices {
                for bit in 0..<8 {
                    bytes[position] ^= 1 << UInt8(bit)
                    result.flips += 1
                    do {
                        if try decoder.decodeFrame(bytes) == original {
                            result.sameMeaning += 1
                        } else {
                            result.wrong.append("frame \(index) byte \(position) bit \(bit): decoded to another frame")
                        }
                    } catch {
                        result.codes[error.code.rawValue, default: 0] += 1
                    }
                    bytes[position] ^= 1 << UInt8(bit)
                }
            }
        }
        return result
    }
}
