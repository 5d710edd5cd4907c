import Foundation
import IMCodecTestSupport
import Testing

@testable import IMCodec

/// An asynchronous source of chunks that ends with an error.
struct FailingChunks: AsyncSequence {
    struct SourceError: Error {}
    let chunks: [[UInt8]]

    struct AsyncIterator: AsyncIteratorProtocol {
        var chunks: [[UInt8]]
        mutating func next() async throws -> [UInt8]? {
            guard !chunks.isEmpty else { throw SourceError() }
            return chunks.removeFirst()
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(chunks: chunks) }
}

/// Splits `bytes` into chunks of `size` bytes, the last one shorter.
func chunked(_ bytes: [UInt8], by size: Int) -> [[UInt8]] {
    stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min($0 + size, bytes.count)]) }
}

/// The chunks as an AsyncStream that then ends.
func asyncChunks(_ chunks: [[UInt8]]) -> AsyncStream<[UInt8]> {
    AsyncStream { continuation in
        for chunk in chunks { continuation.yield(chunk) }
        continuation.finish()
    }
}

/// A source that says which of its reading methods the frame sequence
/// called, and then hands out its chunks.
struct RecordingChunks: AsyncSequence, Sendable {
    /// The names of the methods called, in order.
    final class Calls: @unchecked Sendable {
        private var names: [String] = []
        private let lock = NSLock()
        var all: [String] { lock.withLock { names } }
        func record(_ name: String) { lock.withLock { names.append(name) } }
    }

    let chunks: [[UInt8]]
    let calls = Calls()

    struct AsyncIterator: AsyncIteratorProtocol {
        var chunks: [[UInt8]]
        let calls: Calls

        mutating func next() async throws -> [UInt8]? {
            calls.record("next()")
            return chunks.isEmpty ? nil : chunks.removeFirst()
        }

        mutating func next(isolation actor: isolated (any Actor)?) async throws -> [UInt8]? {
            calls.record("next(isolation:)")
            return chunks.isEmpty ? nil : chunks.removeFirst()
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(chunks: chunks, calls: calls) }
}

/// A source of one byte a chunk that, each time it is asked for the next,
/// checks that the reader holds every byte it has been given so far, copied
/// once: so the work of reading a frame is linear in its length.
struct ByteAtATimeChunks: AsyncSequence, Sendable {
    /// What the source saw of the reader, set before the first chunk.
    final class Watch: @unchecked Sendable {
        // @unchecked: one task iterates the sequence and reads the watch
        // after it.
        var reader: FrameReader?
        /// Whether every byte given was held once, when the next was asked.
        var heldOnce = true
        /// The most bytes held, and copied, at once.
        var largestHeld = 0
        var largestCopied = 0
    }

    let bytes: [UInt8]
    let watch = Watch()

    struct AsyncIterator: AsyncIteratorProtocol {
        let bytes: [UInt8]
        let watch: Watch
        var given = 0

        mutating func next() async throws -> [UInt8]? {
            if let reader = watch.reader, given < bytes.count {
                if reader.bufferedByteCount != given || reader.copiedByteCount != given { watch.heldOnce = false }
                watch.largestHeld = Swift.max(watch.largestHeld, reader.bufferedByteCount)
                watch.largestCopied = Swift.max(watch.largestCopied, reader.copiedByteCount)
            }
            guard given < bytes.count else { return nil }
            given += 1
            return [bytes[given - 1]]
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(bytes: bytes, watch: watch) }
}

@Suite struct AsyncFrameStreamTests {
    /// A 1 MiB frame fed one byte a chunk comes out whole, once, and the
    /// reader holds each byte once on the way: frames and payloads, on both
    /// reading methods.
    @Test(arguments: AsyncPath.allCases)
    func aLargeFrameFedOneByteAtATimeIsHeldOnceAndReadWhole(path: AsyncPath) async throws {
        let text = String(repeating: "hello, group ", count: (1 << 20) / 13 + 1)
        let message = Message(from: "alice", toGroup: "g1", elems: [.text(text)])
        let frame = try FrameEncoder(policy: .disabled).encode(message)
        #expect(frame.count > 1 << 20)

        let source = ByteAtATimeChunks(bytes: frame)
        var frames = source.frames().makeAsyncIterator()
        source.watch.reader = frames.reader
        let read = try #require(try await frames.next(via: path))
        #expect(Array(read.bytes) == frame)
        #expect(try await frames.next(via: path) == nil)
        #expect(source.watch.heldOnce)
        #expect(source.watch.largestHeld == frame.count - 1)
        #expect(source.watch.largestCopied == frame.count - 1)

        let payloadSource = ByteAtATimeChunks(bytes: frame)
        var payloads = payloadSource.framePayloads().makeAsyncIterator()
        payloadSource.watch.reader = payloads.reader
        #expect(try await payloads.next(via: path) == .message(message))
        #expect(try await payloads.next(via: path) == nil)
        #expect(payloadSource.watch.heldOnce)
        #expect(payloadSource.watch.largestCopied == frame.count - 1)
    }

    /// Each reading method of the frame sequence reads its source with the
    /// method of the same release, so the portable path is a path of its own
    /// and not the newer one under another name.
    @Test(arguments: AsyncPath.allCases)
    func eachReadingMethodReadsTheSourceWithItsOwn(path: AsyncPath) async throws {
        let (stream, payloads) = try sampleStream()
        let source = RecordingChunks(chunks: chunked(stream, by: 50))
        let frames = try await source.frames().collect(via: path)
        #expect(frames.map { Array($0.payload) } == payloads)
        let expected = path == .portable ? "next()" : "next(isolation:)"
        #expect(Set(source.calls.all) == [expected])
        #expect(source.calls.all.count == chunked(stream, by: 50).count + 1)
    }

    @Test(arguments: AsyncPath.allCases)
    func bothPathsYieldEveryFrameAndPayloadWhateverTheChunkSize(path: AsyncPath) async throws {
        let (stream, payloads) = try sampleStream()
        for size in [1, 7, 64, stream.count] {
            let frames = try await asyncChunks(chunked(stream, by: size)).frames().collect(via: path)
            #expect(frames.map { Array($0.payload) } == payloads, "chunks of \(size)")
        }
        let messages = sampleMessages()
        var bytes: [UInt8] = []
        for message in messages { try FrameEncoder().encode(message, appendingTo: &bytes) }
        #expect(try await asyncChunks(chunked(bytes, by: 9)).framePayloads().collect(via: path) == messages)
    }

    @Test(arguments: AsyncPath.allCases)
    func bothPathsEndAtTheFirstErrorSayingWhichFrame(path: AsyncPath) async throws {
        var stream = DamagedStream()
        stream.sound(0x61)
        stream.badChecksum()
        stream.sound(0x62)
        var iterator = asyncChunks(chunked(stream.bytes, by: 4)).framePayloads().makeAsyncIterator()
        #expect(try await iterator.next(via: path)?.message?.sender == "a")
        await #expect {
            try await iterator.next(via: path)
        } throws: { error in
            let error = error as? IMCodecError
            return error?.code == .frameChecksum && error?.frameIndex == 1 && error?.frameOffset == stream.offset(of: 1)
        }
        #expect(try await iterator.next(via: path) == nil)
    }

    @Test(arguments: AsyncPath.allCases)
    func bothPathsSkipDamagedFramesWhenAskedAndReportEach(path: AsyncPath) async throws {
        var stream = DamagedStream()
        stream.sound(0x61)
        stream.badChecksum()
        stream.sound(0x62)
        stream.badPayload()
        stream.badDeflate()
        stream.sound(0x63)
        let log = SkipLog()
        let payloads = try await asyncChunks(chunked(stream.bytes, by: 3))
            .framePayloads(skippingDamagedFrames: log.append).collect(via: path)
        #expect(payloads.map { $0.message?.sender } == ["a", "b", "c"])
        #expect(log.errors.map(\.code) == [.frameChecksum, .payloadTruncated, .frameDeflate])
        #expect(log.errors.map(\.frameIndex) == [1, 3, 4])
        #expect(log.errors.map(\.frameOffset) == [1, 3, 4].map(stream.offset(of:)))

        // The frame sequence skips only what a frame reader rejects: the
        // frame whose payload does not decode is a sound frame.
        let frameLog = SkipLog()
        let frames = try await asyncChunks(chunked(stream.bytes, by: 3))
            .frames(skippingDamagedFrames: frameLog.append).collect(via: path)
        #expect(frames.count == 4)
        #expect(frameLog.errors.map(\.frameIndex) == [1, 4])
    }

    func sampleMessages() -> [FramePayload] {
        (0..<6).map { index in
            var message = Message()
            message.sender = "user-\(index)"
            message.receiver = "peer"
            message.seq = UInt64(index)
            message.elems = [.text(String(repeating: "text \(index) ", count: index * 60))]
            return .message(message)
        }
    }

    @Test func yieldsEveryFrameWhateverTheChunkSize() async throws {
        let (stream, payloads) = try sampleStream()
        for size in [1, 2, 3, 7, 64, 1_000, stream.count] {
            var read: [[UInt8]] = []
            for try await frame in asyncChunks(chunked(stream, by: size)).frames() { read.append(Array(frame.payload)) }
            #expect(read == payloads, "chunks of \(size)")
        }
    }

    @Test func decodesPayloadsFromSlices() async throws {
        let messages = sampleMessages()
        let encoder = FrameEncoder()
        var stream: [UInt8] = []
        for message in messages { try encoder.encode(message, appendingTo: &stream) }
        let slices = AsyncStream<ArraySlice<UInt8>> { continuation in
            for start in stride(from: 0, to: stream.count, by: 5) {
                continuation.yield(stream[start..<min(start + 5, stream.count)])
            }
            continuation.finish()
        }
        var read: [FramePayload] = []
        for try await payload in slices.framePayloads() { read.append(payload) }
        #expect(read == messages)
    }

    @Test func throwsTruncatedWhenTheSourceEndsInsideAFrame() async throws {
        let (stream, payloads) = try sampleStream()
        var iterator = asyncChunks(chunked(Array(stream.dropLast()), by: 100)).frames().makeAsyncIterator()
        for payload in payloads.dropLast() {
            #expect(try await iterator.next().map { Array($0.payload) } == payload)
        }
        await #expect { try await iterator.next() } throws: { ($0 as? IMCodecError)?.code == .frameTruncated }
        #expect(try await iterator.next() == nil)
    }

    @Test func throwsTheFirstMalformedFrameThenEnds() async throws {
        let (stream, _) = try sampleStream()
        var broken = try FrameEncoder(policy: .disabled).encodeFrame(payload: [1, 2, 3, 4], kind: .message)
        broken[broken.count - 1] ^= 0xFF
        var iterator = asyncChunks(chunked(broken + stream, by: 9)).frames()
            .makeAsyncIterator()
        await #expect { try await iterator.next() } throws: { ($0 as? IMCodecError)?.code == .frameChecksum }
        #expect(try await iterator.next() == nil)
    }

    @Test func passesTheSourcesErrorOnAsStreamSource() async throws {
        let (stream, _) = try sampleStream()
        var iterator = FailingChunks(chunks: [Array(stream.prefix(3))]).frames().makeAsyncIterator()
        do {
            _ = try await iterator.next()
            Issue.record("the source's error was not thrown")
        } catch {
            // `error` is an IMCodecError: next() declares throws(IMCodecError).
            #expect(error.code == .streamSource)
            #expect(error.underlyingError is FailingChunks.SourceError)
            #expect(error.frameIndex == 0 && error.frameOffset == 0)
        }
        #expect(try await iterator.next() == nil)
    }

    /// The pattern the README shows: a `while let` loop over the iterator's
    /// `next()`, whose `catch` reads the frame of an IMCodecError with no cast.
    @Test(arguments: AsyncPath.allCases)
    func aLoopOverNextCatchesAnIMCodecErrorWithoutACast(path: AsyncPath) async throws {
        var stream = DamagedStream()
        stream.sound(0x61)
        stream.badChecksum()
        var senders: [String] = []
        var payloads = asyncChunks(chunked(stream.bytes, by: 4)).framePayloads().makeAsyncIterator()
        do {
            while let payload = try await payloads.next(via: path) { senders.append(payload.message?.sender ?? "") }
            Issue.record("the damaged frame was not thrown")
        } catch {
            #expect(error.code == .frameChecksum)
            #expect(error.frameIndex == 1)
            #expect(error.frameOffset == stream.offset(of: 1))
        }
        #expect(senders == ["a"])
    }

    @Test func endsWithCancellationWhileWaitingForBytes() async throws {
        let (stream, _) = try sampleStream()
        let (chunks, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        // Half a frame, then nothing: the reader waits for the rest.
        continuation.yield(Array(stream.prefix(5)))
        let reading = Task {
            var count = 0
            for try await _ in chunks.frames() { count += 1 }
            return count
        }
        try await Task.sleep(for: .milliseconds(50))
        reading.cancel()
        await #expect {
            try await reading.value
        } throws: { error in
            let error = error as? IMCodecError
            return error?.code == .streamCancelled && error?.underlyingError is CancellationError
        }
        continuation.finish()
    }

    @Test func writerFramesWhatItIsGivenUnderItsPolicy() async throws {
        let messages = sampleMessages()
        var sent: [[UInt8]] = []
        let writer = AsyncFrameWriter(policy: .default) { bytes in sent.append(bytes) }
        for message in messages.prefix(3) { try await writer.write(message) }
        try await writer.write(contentsOf: messages.dropFirst(3))
        #expect(sent.count == 4)
        #expect(writer.frameCount == messages.count)

        let reader = FrameReader()
        reader.append(sent.flatMap { $0 })
        var frames: [Frame] = []
        while let frame = try reader.next() { frames.append(frame) }
        try reader.finish()
        #expect(try frames.map { try FramePayload(decoding: $0) } == messages)
        // Only the empty message is under the policy's 256-byte threshold.
        #expect(frames.map(\.header.compression) == [.none, .deflate, .deflate, .deflate, .deflate, .deflate])

        // A frame read back is forwarded with its payload unchanged.
        var forwarded: [UInt8] = []
        let relay = AsyncFrameWriter(policy: .disabled) { bytes in forwarded += bytes }
        try await relay.write(frames[4])
        #expect(try FrameDecoder().decodeFrame(forwarded).payload == frames[4].payload)
    }
}
