import Foundation
import IMCodec
import IMCodecTestSupport
import Testing

/// A stream of hand-built frames, some of them damaged, with where each one
/// starts: the expectations come from the frame format document's layout,
/// not from the reader under test.
struct DamagedStream {
    /// The frames, in order.
    var frames: [[UInt8]] = []
    /// The payload of each sound frame, `nil` for a damaged one.
    var payloads: [[UInt8]?] = []

    var bytes: [UInt8] { frames.flatMap { $0 } }

    /// Where frame `index` starts in the stream.
    func offset(of index: Int) -> Int { frames[..<index].reduce(0) { $0 + $1.count } }

    /// A stored message frame whose payload is `Message(sender: name)`.
    mutating func sound(_ name: UInt8) {
        let payload: [UInt8] = [0x12, 0x01, name]
        frames.append(handFrame(flags: 0x01, fields: varintBytes(3), payload: payload))
        payloads.append(payload)
    }

    /// A stored message frame whose checksum does not match its payload.
    mutating func badChecksum() {
        let payload: [UInt8] = [0x12, 0x01, 0x7A]
        frames.append(handFrame(flags: 0x01, fields: varintBytes(3), payload: payload, checksum: 0x1234_5678))
        payloads.append(nil)
    }

    /// A deflate frame whose body is not deflate: a block of the reserved
    /// type 3.
    mutating func badDeflate() {
        let payload: [UInt8] = [0x12, 0x01, 0x79]
        let body: [UInt8] = [0xFF, 0xFF, 0xFF]
        frames.append(handFrame(flags: 0x05, fields: varintBytes(3) + varintBytes(3), payload: payload, body: body))
        payloads.append(nil)
    }

    /// A sound stored frame whose payload does not decode: field 2 claims 5
    /// bytes and has 1.
    mutating func badPayload() {
        let payload: [UInt8] = [0x12, 0x05, 0x78]
        frames.append(handFrame(flags: 0x01, fields: varintBytes(3), payload: payload))
        payloads.append(payload)
    }

    /// A frame of version 2, which no reader of version 1 reads past.
    mutating func badHeader() {
        frames.append(handFrame(version: 2, flags: 0x01, fields: varintBytes(3), payload: [0x12, 0x01, 0x77]))
        payloads.append(nil)
    }
}

/// The frames and reports of a reader that skips damaged frames.
final class SkipLog: @unchecked Sendable {
    private var storage: [IMCodecError] = []
    private let lock = NSLock()
    var errors: [IMCodecError] { lock.withLock { storage } }
    func append(_ error: IMCodecError) { lock.withLock { storage.append(error) } }
}

/// Feeds `stream` to `reader` in chunks of `size` bytes, reading frames as
/// they complete, and finishes.
func readFrames(_ stream: [UInt8], chunk size: Int, reader: FrameReader) throws(IMCodecError) -> [[UInt8]] {
    var payloads: [[UInt8]] = []
    for start in stride(from: 0, to: stream.count, by: size) {
        reader.append(stream[start..<min(start + size, stream.count)])
        while let frame = try reader.next() { payloads.append(Array(frame.payload)) }
    }
    try reader.finish()
    return payloads
}

@Suite struct StreamErrorLocationTests {
    static let chunkSizes = [1, 2, 5, 1_000]

    func damaged() -> DamagedStream {
        var stream = DamagedStream()
        stream.sound(0x61)
        stream.badChecksum()
        stream.sound(0x62)
        stream.badDeflate()
        stream.sound(0x63)
        return stream
    }

    @Test(arguments: chunkSizes)
    func errorsOfAStreamNameTheFrameAndWhereItStarts(chunk: Int) throws {
        let stream = damaged()
        let reader = FrameReader()
        let error = #expect(throws: IMCodecError.self) { try readFrames(stream.bytes, chunk: chunk, reader: reader) }
        #expect(error?.code == .frameChecksum)
        #expect(error?.frameIndex == 1)
        #expect(error?.frameOffset == stream.offset(of: 1))
        #expect(error?.description.hasSuffix("[frame 1 at byte \(stream.offset(of: 1))]") == true)
        // The error is final, and says the same thing every time.
        #expect(throws: IMCodecError.self) { try reader.finish() }
        #expect((try? reader.next()) == nil)
        do throws(IMCodecError) {
            _ = try reader.next()
        } catch {
            #expect(error.frameIndex == 1 && error.frameOffset == stream.offset(of: 1))
        }
    }

    @Test(arguments: chunkSizes)
    func aSkippingReaderReadsPastDamagedBodiesAndReportsEach(chunk: Int) throws {
        let stream = damaged()
        let log = SkipLog()
        let reader = FrameReader(skippingDamagedFrames: log.append)
        let read = try readFrames(stream.bytes, chunk: chunk, reader: reader)
        #expect(read == stream.payloads.compactMap { $0 })
        #expect(log.errors.map(\.code) == [.frameChecksum, .frameDeflate])
        #expect(log.errors.map(\.frameIndex) == [1, 3])
        #expect(log.errors.map(\.frameOffset) == [stream.offset(of: 1), stream.offset(of: 3)])
        #expect(reader.frameCount == 3)
        #expect(reader.skippedFrameCount == 2)
        #expect(reader.offset == stream.bytes.count)
    }

    @Test(arguments: chunkSizes)
    func aSkippingReaderSkipsFramesWhosePayloadDoesNotDecode(chunk: Int) throws {
        var stream = DamagedStream()
        stream.sound(0x61)
        stream.badPayload()
        stream.sound(0x62)
        let log = SkipLog()
        let reader = FrameReader(skippingDamagedFrames: log.append)
        var senders: [String] = []
        let bytes = stream.bytes
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            reader.append(bytes[start..<min(start + chunk, bytes.count)])
            while let payload = try reader.nextPayload() { senders.append(payload.message?.sender ?? "?") }
        }
        try reader.finish()
        #expect(senders == ["a", "b"])
        #expect(log.errors.map(\.code) == [.payloadTruncated])
        #expect(log.errors.first?.path == [.field("sender")])
        #expect(log.errors.first?.frameIndex == 1)
        #expect(log.errors.first?.frameOffset == stream.offset(of: 1))
        #expect(reader.frameCount == 2 && reader.skippedFrameCount == 1)

        // Without skipping, the same payload error is final and says where.
        let strict = FrameReader()
        strict.append(bytes)
        #expect(try strict.nextPayload()?.message?.sender == "a")
        let error = #expect(throws: IMCodecError.self) { try strict.nextPayload() }
        #expect(error?.code == .payloadTruncated && error?.frameIndex == 1)
        #expect(error?.frameOffset == stream.offset(of: 1))
    }

    /// A header the reader cannot read says nothing about where the next
    /// frame starts: it ends the stream even for a reader that skips.
    @Test(arguments: chunkSizes)
    func aBrokenHeaderEndsTheStreamEvenWhenSkipping(chunk: Int) throws {
        var stream = DamagedStream()
        stream.sound(0x61)
        stream.badChecksum()
        stream.badHeader()
        stream.sound(0x62)
        let log = SkipLog()
        let reader = FrameReader(skippingDamagedFrames: log.append)
        let error = #expect(throws: IMCodecError.self) { try readFrames(stream.bytes, chunk: chunk, reader: reader) }
        #expect(error?.code == .frameVersion)
        #expect(error?.frameIndex == 2 && error?.frameOffset == stream.offset(of: 2))
        #expect(log.errors.map(\.frameIndex) == [1])
        #expect(reader.frameCount == 1)
    }

    /// A frame the limits refuse is not read past either: its declared
    /// length may be the damage.
    @Test func aFrameTheLimitsRefuseEndsTheStreamEvenWhenSkipping() throws {
        var stream = DamagedStream()
        stream.sound(0x61)
        stream.sound(0x62)
        var limits = DecodingLimits()
        limits.maxFrameBytes = 2
        let log = SkipLog()
        let reader = FrameReader(limits: limits, skippingDamagedFrames: log.append)
        let error = #expect(throws: IMCodecError.self) { try readFrames(stream.bytes, chunk: 1_000, reader: reader) }
        #expect(error?.code == .limitFrameSize && error?.frameIndex == 0 && error?.frameOffset == 0)
        #expect(log.errors.isEmpty)
    }

    @Test func aStreamThatEndsInsideAFrameSaysWhichFrame() throws {
        var stream = DamagedStream()
        stream.sound(0x61)
        stream.badChecksum()
        stream.sound(0x62)
        let log = SkipLog()
        let reader = FrameReader(skippingDamagedFrames: log.append)
        let error = #expect(throws: IMCodecError.self) {
            try readFrames(Array(stream.bytes.dropLast()), chunk: 3, reader: reader)
        }
        #expect(error?.code == .frameTruncated)
        #expect(error?.frameIndex == 2 && error?.frameOffset == stream.offset(of: 2))
    }
}
