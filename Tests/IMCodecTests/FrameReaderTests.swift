import Foundation
import IMCodecTestSupport
import IMCodecTraffic
import Testing
import XCTest

@testable import IMCodec

/// A few frames of every kind and compression, back to back.
func sampleStream() throws -> (stream: [UInt8], payloads: [[UInt8]]) {
    var stream: [UInt8] = []
    var payloads: [[UInt8]] = []
    let encoders = [
        FrameEncoder(policy: .disabled), FrameEncoder(),
        FrameEncoder(policy: .init(threshold: 0, dictionary: .imMessages)),
    ]
    for index in 0..<12 {
        let size = [0, 1, 5, 40, 300, 2_000][index % 6]
        let payload = (0..<size).map { UInt8(truncatingIfNeeded: ($0 % 13) &* 7 &+ index) }
        try encoders[index % 3].encodeFrame(payload: payload, kind: FrameKind.allCases[index % 3], appendingTo: &stream)
        payloads.append(payload)
    }
    return (stream, payloads)
}

@Suite struct FrameReaderTests {
    /// Reads `stream` appended in `chunks` and returns the payloads.
    func read(_ stream: [UInt8], splitAt cuts: [Int], reader: FrameReader = FrameReader()) throws -> [[UInt8]] {
        var payloads: [[UInt8]] = []
        var start = 0
        for cut in cuts + [stream.count] {
            reader.append(stream[start..<cut])
            start = cut
            while let frame = try reader.next() { payloads.append(Array(frame.payload)) }
        }
        try reader.finish()
        return payloads
    }

    @Test func yieldsEveryFrameOnceWhateverTheSplitPoint() throws {
        let (stream, payloads) = try sampleStream()
        for cut in 0...stream.count {
            #expect(try read(stream, splitAt: [cut]) == payloads, "split at \(cut)")
        }
    }

    @Test func yieldsEveryFrameOnceFedOneByteAtATime() throws {
        let (stream, payloads) = try sampleStream()
        #expect(try read(stream, splitAt: Array(1..<stream.count)) == payloads)
    }

    @Test func yieldsEveryFrameOnceFedInOneChunk() throws {
        let (stream, payloads) = try sampleStream()
        let reader = FrameReader()
        #expect(try read(stream, splitAt: [], reader: reader) == payloads)
        #expect(reader.frameCount == payloads.count)
        #expect(reader.offset == stream.count)
        // Nothing was copied: every frame was decoded where it arrived.
        #expect(reader.copiedByteCount == 0)
    }

    @Test func returnsNilUntilTheFrameIsComplete() throws {
        let frame = try FrameEncoder().encodeFrame(payload: [1, 2, 3], kind: .message)
        let reader = FrameReader()
        #expect(reader.isAtFrameBoundary)
        for byte in frame.dropLast() {
            reader.append([byte])
            #expect(try reader.next() == nil)
            #expect(!reader.isAtFrameBoundary)
        }
        reader.append([frame.last!])
        #expect(try reader.next()?.payload == [1, 2, 3])
        #expect(try reader.next() == nil)
        #expect(reader.isAtFrameBoundary)
        try reader.finish()
    }

    @Test func sharesTheStorageOfAChunkThatHoldsWholeFrames() throws {
        let frame = try FrameEncoder(policy: .disabled).encodeFrame(payload: [9, 8, 7], kind: .event)
        let chunk = frame + frame
        let reader = FrameReader()
        reader.append(chunk)
        let first = try #require(try reader.next())
        let second = try #require(try reader.next())
        chunk.withUnsafeBufferPointer { input in
            first.payload.withUnsafeBufferPointer { #expect($0.baseAddress == input.baseAddress! + 7) }
            second.payload.withUnsafeBufferPointer { #expect($0.baseAddress == input.baseAddress! + 17) }
        }
    }

    @Test func keepsOnlyTheIncompleteFrame() throws {
        let (stream, _) = try sampleStream()
        let reader = FrameReader()
        let cut = stream.count - 5
        reader.append(stream[0..<cut])
        while try reader.next() != nil {}
        // Only the last frame's first bytes are held.
        let lastFrameStart = reader.offset
        #expect(reader.bufferedByteCount == cut - lastFrameStart)
        #expect(reader.copiedByteCount == cut - lastFrameStart)
        reader.append(stream[cut...])
        #expect(try reader.next() != nil)
        #expect(reader.bufferedByteCount == 0)
    }

    @Test func reportsAStreamThatEndsInsideAFrameAsTruncated() throws {
        let (stream, _) = try sampleStream()
        let reader = FrameReader()
        reader.append(stream.dropLast())
        while try reader.next() != nil {}
        expectError(.frameTruncated) { () throws(IMCodecError) in try reader.finish() }
        // Final: the error stays.
        expectError(.frameTruncated) { () throws(IMCodecError) in _ = try reader.next() }
    }

    @Test func makesTheFirstErrorFinal() throws {
        let good = try FrameEncoder().encodeFrame(payload: [1], kind: .message)
        var bad = good
        bad[bad.count - 1] ^= 0xFF
        let reader = FrameReader()
        reader.append(good + bad + good)
        #expect(try reader.next() != nil)
        expectError(.frameChecksum) { () throws(IMCodecError) in _ = try reader.next() }
        reader.append(good)
        expectError(.frameChecksum) { () throws(IMCodecError) in _ = try reader.next() }
        expectError(.frameChecksum) { () throws(IMCodecError) in try reader.finish() }
        #expect(reader.bufferedByteCount == 0)
        #expect(reader.frameCount == 1)
    }

    @Test func rejectsAnOversizedFrameFromItsHeaderAlone() throws {
        var limits = DecodingLimits()
        limits.maxFrameBytes = 1_000
        let reader = FrameReader(limits: limits)
        let header = Array(handFrame(flags: 0x01, fields: varintBytes(1_001), payload: [])[0..<8])
        for byte in header.prefix(4) {
            reader.append([byte])
            #expect(try reader.next() == nil)
        }
        reader.append(Array(header.dropFirst(4)))
        expectError(.limitFrameSize) { () throws(IMCodecError) in _ = try reader.next() }
    }

    @Test func decodesTypedPayloadsAndMakesPayloadErrorsFinal() throws {
        let encoder = FrameEncoder()
        var message = Message()
        message.msgID = "m-1"
        var stream = try encoder.encode(message)
        // A message frame whose payload is a truncated protobuf field.
        stream += try encoder.encodeFrame(payload: [0x0A, 0x05, 0x61], kind: .message)
        stream += try encoder.encode(message)
        let reader = FrameReader()
        reader.append(stream)
        #expect(try reader.nextPayload() == .message(message))
        expectError(.payloadTruncated, path: "msgId") { () throws(IMCodecError) in _ = try reader.nextPayload() }
        expectError(.payloadTruncated, path: "msgId") { () throws(IMCodecError) in _ = try reader.nextPayload() }
    }
}

/// The 100 MB stream, in XCTest: Swift Testing runs suites in parallel,
/// which would make its time meaningless.
final class FrameReaderStreamTests: XCTestCase {
    /// Feeds ≥ 100 MiB of frames in random chunk sizes and checks that every
    /// frame comes out exactly once, in order, with its payload.
    ///
    /// Payloads are generated deterministically (SplitMix64, fixed seed) as
    /// a frame number followed by a slice of a text-like or a random pool, so
    /// the stream mixes stored and compressed frames of 10 bytes to 256 KB.
    /// The stream is made and read one block of about 1 MiB at a time, so the
    /// test never holds the whole stream either.
    func testYieldsEveryFrameOfAHundredMegabyteStreamInRandomChunksExactlyOnce() throws {
        var random = SeededGenerator(seed: 0x5EED_0100)
        let words = [
            "你好", "世界", "😀", "👍🏽", "hello", "message", "group", "图片", "http://", "https://cdn.example.com/",
            "uuid", "{\"k\":", "\"v\"}", " ", " ", "的", "了", "\n",
        ]
        var text: [UInt8] = []
        while text.count < 256 << 10 { text += Array(words.randomElement(using: &random)!.utf8) }
        let noise = (0..<(256 << 10)).map { _ in UInt8.random(in: 0...255, using: &random) }
        let encoders = [
            FrameEncoder(policy: .init(threshold: 256, level: 1)),
            FrameEncoder(policy: .init(threshold: 0, level: 1, dictionary: .imMessages)),
            FrameEncoder(policy: .disabled),
        ]

        let target = 100 << 20
        var streamBytes = 0
        var expected: [(length: Int, checksum: UInt32)] = []
        var nextExpected = 0
        var chunks = 0
        var smallestChunk = Int.max
        var largestBuffered = 0
        let reader = FrameReader()
        let start = Date()

        while streamBytes < target {
            // One block of frames.
            var block: [UInt8] = []
            while block.count < 1 << 20 {
                let index = expected.count
                let roll = Int.random(in: 0..<100, using: &random)
                let length =
                    roll < 70
                    ? Int.random(in: 2...600, using: &random)
                    : roll < 95
                        ? Int.random(in: 600...16_000, using: &random)
                        : Int.random(in: 16_000...250_000, using: &random)
                let pool = Bool.random(using: &random) ? text : noise
                let offset = Int.random(in: 0...(pool.count - length), using: &random)
                var payload = withUnsafeBytes(of: UInt64(index).littleEndian) { Array($0) }
                payload += pool[offset..<(offset + length)]
                try encoders[index % encoders.count].encodeFrame(
                    payload: payload, kind: FrameKind.allCases[index % 3], appendingTo: &block)
                expected.append((payload.count, referenceCRC32Fast(payload)))
            }
            streamBytes += block.count

            // Fed in random chunks: 30% of 1-16 bytes, 50% up to 4 KiB, 20% up to 64 KiB.
            var position = 0
            while position < block.count {
                let roll = Int.random(in: 0..<10, using: &random)
                let size =
                    roll < 3
                    ? Int.random(in: 1...16, using: &random)
                    : roll < 8
                        ? Int.random(in: 17...4_096, using: &random)
                        : Int.random(in: 4_097...(64 << 10), using: &random)
                let end = min(block.count, position + size)
                smallestChunk = min(smallestChunk, end - position)
                reader.append(block[position..<end])
                position = end
                chunks += 1
                while let frame = try reader.next() {
                    let number = frame.payload.prefix(8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                    XCTAssertEqual(number, UInt64(nextExpected), "frames out of order or repeated")
                    XCTAssertEqual(frame.payload.count, expected[nextExpected].length)
                    XCTAssertEqual(referenceCRC32Fast(Array(frame.payload)), expected[nextExpected].checksum)
                    nextExpected += 1
                }
                // Only the one incomplete frame is ever held.
                largestBuffered = max(largestBuffered, reader.bufferedByteCount)
            }
        }
        try reader.finish()
        let seconds = Date().timeIntervalSince(start)
        XCTAssertEqual(nextExpected, expected.count)
        XCTAssertGreaterThanOrEqual(reader.offset, 100 << 20)
        XCTAssertLessThanOrEqual(largestBuffered, FrameHeader.maxEncodedLength + 250_008)
        print(
            """
            100 MB stream: \(reader.offset) bytes, \(expected.count) frames, \(chunks) chunks \
            (smallest \(smallestChunk) bytes), \(reader.copiedByteCount) bytes copied into the partial-frame buffer, \
            largest buffer \(largestBuffered) bytes, \(String(format: "%.1f", seconds)) s
            """)
    }
}

/// zlib's CRC-32 through the library, for checking large payloads quickly;
/// the bitwise ``referenceCRC32(_:)`` checks this one in the format tests.
func referenceCRC32Fast(_ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBytes { CRC32.checksum($0) }
}
