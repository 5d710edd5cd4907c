import IMCodecTestSupport
import Testing

@testable import IMCodec

/// `FrameReader.nextUnchecked()`: the stream split as `next()` splits it,
/// the headers checked, the bodies left to `FrameDecoder.decodeFrame(_:)`.
@Suite struct UncheckedFrameTests {
    /// Reads `stream` appended in `chunks` with `nextUnchecked()`.
    func readUnchecked(_ stream: [UInt8], splitAt cuts: [Int], reader: FrameReader = FrameReader()) throws
        -> [UncheckedFrame]
    {
        var frames: [UncheckedFrame] = []
        var start = 0
        for cut in cuts + [stream.count] {
            reader.append(stream[start..<cut])
            start = cut
            while let frame = try reader.nextUnchecked() { frames.append(frame) }
        }
        try reader.finish()
        return frames
    }

    @Test func splitsTheStreamAsNextDoesWhateverTheSplitPoint() throws {
        let (stream, payloads) = try sampleStream()
        for cut in 0...stream.count {
            let frames = try readUnchecked(stream, splitAt: [cut])
            // Each holds exactly its frame, whose checks then pass.
            let checked = try frames.map { Array(try FrameDecoder().decodeFrame($0.bytes).payload) }
            #expect(checked == payloads, "split at \(cut)")
            #expect(frames.allSatisfy { $0.bytes.count == $0.header.frameLength })
            #expect(frames.reduce(0) { $0 + $1.bytes.count } == stream.count)
        }
    }

    @Test func countsTheFramesAndTheirOffsetsAsNextDoes() throws {
        let (stream, payloads) = try sampleStream()
        let reader = FrameReader()
        let frames = try readUnchecked(stream, splitAt: Array(1..<stream.count), reader: reader)
        #expect(frames.count == payloads.count)
        #expect(reader.frameCount == payloads.count)
        #expect(reader.offset == stream.count)
        #expect(frames.map(\.header.payloadLength) == payloads.map(\.count))
    }

    @Test func leavesADamagedBodyToTheCheckThatFollows() throws {
        let good = try FrameEncoder(policy: .disabled).encodeFrame(payload: [1, 2, 3], kind: .message)
        var bad = good
        bad[bad.count - 1] ^= 0xFF
        let reader = FrameReader()
        reader.append(bad + good)
        let first = try #require(try reader.nextUnchecked())
        #expect(first.bytes == bad[...])
        // The reader did not look at the body, and reads on.
        #expect(try reader.nextUnchecked()?.bytes == good[...])
        expectError(.frameChecksum) { () throws(IMCodecError) in
            _ = try FrameDecoder().decodeFrame(first.bytes)
        }
    }

    @Test func refusesAHeaderTheLimitsRefuseAndMakesItFinal() throws {
        var limits = DecodingLimits()
        limits.maxFrameBytes = 1_000
        let reader = FrameReader(limits: limits)
        let header = Array(handFrame(flags: 0x01, fields: varintBytes(1_001), payload: [])[0..<8])
        reader.append(header)
        expectError(.limitFrameSize) { () throws(IMCodecError) in _ = try reader.nextUnchecked() }
        reader.append(try FrameEncoder().encodeFrame(payload: [1], kind: .message))
        expectError(.limitFrameSize) { () throws(IMCodecError) in _ = try reader.nextUnchecked() }
        expectError(.limitFrameSize) { () throws(IMCodecError) in _ = try reader.next() }
    }

    @Test func mixesWithNextFrameByFrame() throws {
        let (stream, payloads) = try sampleStream()
        let reader = FrameReader()
        reader.append(stream)
        var read: [[UInt8]] = []
        for index in payloads.indices {
            if index.isMultiple(of: 2) {
                read.append(Array(try #require(try reader.next()).payload))
            } else {
                read.append(
                    Array(try FrameDecoder().decodeFrame(try #require(try reader.nextUnchecked()).bytes).payload))
            }
        }
        #expect(read == payloads)
        #expect(try reader.nextUnchecked() == nil)
        try reader.finish()
    }
}
