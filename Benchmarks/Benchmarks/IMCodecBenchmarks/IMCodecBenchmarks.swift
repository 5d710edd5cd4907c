import Benchmark
import BenchmarkCorpus
import IMCodec
import IMCodecOracle
import SwiftProtobuf

// Every benchmark is named "<measure>/<implementation>"; one iteration runs
// the measure over the whole of its input (1,000 messages, 50 history pages,
// one 300-message merger or one 100 MB stream), so the time per value is the
// iteration time divided by the count. scripts/bench.sh turns the results
// into ratios of this library's time to each peer's, taken in the same run.

/// Timing only: the allocation counter stays off, so it costs nothing here.
let timing = Benchmark.Configuration(
    metrics: [.wallClock, .throughput], warmupIterations: 5, scalingFactor: .one,
    maxDuration: .seconds(2), maxIterations: 2_000)

/// Allocation counts, measured apart from the timings.
let allocations = Benchmark.Configuration(
    metrics: [.throughput, .mallocCountTotal], warmupIterations: 1, scalingFactor: .one,
    maxDuration: .seconds(1), maxIterations: 20)

/// The 100 MB stream, a tenth of it per iteration, so every part is read
/// more than once.
let streaming = Benchmark.Configuration(
    metrics: [.wallClock, .throughput], warmupIterations: 2, scalingFactor: .one,
    maxDuration: .seconds(30), maxIterations: 20)

/// The stream is read in this many segments, one per iteration.
let streamSegments = 10

/// Size of the chunks a stream arrives in, as from a socket read.
let chunkSize = 64 * 1_024

/// Runs `body`, which does not throw on the benchmarks' own valid inputs.
@inline(__always)
func must<Result>(_ body: () throws -> Result) -> Result {
    do {
        return try body()
    } catch {
        preconditionFailure("benchmark input failed: \(error)")
    }
}

func require(_ condition: Bool, _ what: @autoclosure () -> String) {
    if !condition { preconditionFailure("benchmark input failed: \(what())") }
}

let benchmarks: @Sendable () -> Void = {
    let work = Workload()
    require(work.messages.checkAgreement() == nil, "the three implementations disagree on the corpus")

    payloadBenchmarks("payload", work.messages)
    payloadBenchmarks("merger300", work.merger)
    allocationBenchmarks(work.messages)

    for policy in FramePolicy.allCases {
        frameBenchmarks("frame-\(policy.rawValue)", work.messages, policy)
        frameBenchmarks("batch-\(policy.rawValue)", work.batches, policy)
    }
    naiveBenchmarks("frame-naive", work.messages)
    naiveBenchmarks("batch-naive", work.batches)
    streamBenchmarks(work)
}

/// Payload encode and decode: this library, swift-protobuf, protobuf-c.
func payloadBenchmarks<Value: FrameContent, Oracle: SwiftProtobuf.Message>(
    _ name: String, _ values: PreparedValues<Value, Oracle>
) {
    Benchmark("\(name)-encode/imcodec", configuration: timing) { _ in
        for value in values.values { blackHole(value.serializedBytes()) }
    }
    Benchmark("\(name)-encode/swift-protobuf", configuration: timing) { _ in
        for value in values.oracle { blackHole(must { try value.serializedBytes() as [UInt8] }) }
    }
    Benchmark("\(name)-encode/protobuf-c", configuration: timing) { _ in
        for value in values.protobufC { blackHole(Peer.protobufCEncode(value)) }
    }
    Benchmark("\(name)-decode/imcodec", configuration: timing) { _ in
        for payload in values.payloads { blackHole(must { try Value(serializedBytes: payload) }) }
    }
    Benchmark("\(name)-decode/swift-protobuf", configuration: timing) { _ in
        for payload in values.payloads { blackHole(must { try Oracle(serializedBytes: payload) }) }
    }
    Benchmark("\(name)-decode/protobuf-c", configuration: timing) { _ in
        for payload in values.payloads { blackHole(Peer.protobufCDecode(payload, kind: values.kind)) }
    }
}

/// Allocations while decoding the traffic.
func allocationBenchmarks(_ values: PreparedValues<IMCodec.Message, Imcodec_V1_Message>) {
    Benchmark("alloc-decode/imcodec", configuration: allocations) { _ in
        for payload in values.payloads { blackHole(must { try IMCodec.Message(serializedBytes: payload) }) }
    }
    Benchmark("alloc-decode/swift-protobuf", configuration: allocations) { _ in
        for payload in values.payloads { blackHole(must { try Imcodec_V1_Message(serializedBytes: payload) }) }
    }
    Benchmark("alloc-decode/protobuf-c", configuration: allocations) { _ in
        for payload in values.payloads { blackHole(Peer.protobufCDecode(payload, kind: values.kind)) }
    }
}

/// Whole frames under one policy: this library, swift-protobuf's payload
/// codec inside this library's frames, and the C reference.
func frameBenchmarks<Value: FrameContent, Oracle: SwiftProtobuf.Message>(
    _ name: String, _ values: PreparedValues<Value, Oracle>, _ policy: FramePolicy
) {
    let frames = values.frames(policy)
    let reference = ReferenceCodec()
    let referenceFrames = values.referenceFrames(policy, codec: reference)
    let decoder = FrameDecoder()
    for (index, frame) in frames.enumerated() {
        require((try? decoder.decode(Value.self, from: frame)) == values.values[index], "\(name) frame \(index)")
        require(reference.decodeFrame(frame), "\(name) frame \(index) by the C reference")
        require(reference.decodeFrame(referenceFrames[index]), "\(name) C frame \(index)")
        require(
            (try? decoder.decode(Value.self, from: referenceFrames[index])) == values.values[index],
            "\(name) C frame \(index) here")
    }

    Benchmark("\(name)-encode/imcodec", configuration: timing) { _ in
        let encoder = FrameEncoder(policy: policy.policy)
        for value in values.values { blackHole(encoder.encode(value)) }
    }
    Benchmark("\(name)-encode/swift-protobuf", configuration: timing) { _ in
        let encoder = FrameEncoder(policy: policy.policy)
        for value in values.oracle {
            blackHole(encoder.encodeFrame(payload: must { try value.serializedBytes() }, kind: Value.frameKind))
        }
    }
    Benchmark("\(name)-encode/c-reference", configuration: timing) { _ in
        for value in values.protobufC {
            blackHole(reference.encodeFrame(kind: values.kind, message: value, policy: policy))
        }
    }
    Benchmark("\(name)-decode/imcodec", configuration: timing) { _ in
        let decoder = FrameDecoder()
        for frame in frames { blackHole(must { try decoder.decode(Value.self, from: frame) }) }
    }
    Benchmark("\(name)-decode/swift-protobuf", configuration: timing) { _ in
        let decoder = FrameDecoder()
        for frame in frames {
            blackHole(must { try Peer.oracleDecode(decoder.decodeFrame(frame).payload, as: Oracle.self) })
        }
    }
    Benchmark("\(name)-decode/c-reference", configuration: timing) { _ in
        for frame in referenceFrames { blackHole(reference.decodeFrame(frame)) }
    }
    Benchmark("\(name)-decode/c-reference-api", configuration: timing) { _ in
        for frame in referenceFrames { blackHole(reference.decodeFramePublic(frame)) }
    }
}

/// zlib the naive way around this library's payload codec.
func naiveBenchmarks<Value: FrameContent, Oracle: SwiftProtobuf.Message>(
    _ name: String, _ values: PreparedValues<Value, Oracle>
) {
    let frames = values.naiveFrames()
    for (index, frame) in frames.enumerated() {
        require((try? Peer.naiveDecode(frame, as: Value.self)) == values.values[index], "\(name) frame \(index)")
    }
    Benchmark("\(name)-encode/naive-zlib", configuration: timing) { _ in
        for value in values.values { blackHole(Peer.naiveEncode(value)) }
    }
    Benchmark("\(name)-decode/naive-zlib", configuration: timing) { _ in
        for frame in frames { blackHole(must { try Peer.naiveDecode(frame, as: Value.self) }) }
    }
}

/// A 100 MB stream of frames arriving in 64 KiB chunks. One reader reads the
/// whole stream, a tenth of it per iteration, starting again at the top after
/// the last tenth (the stream ends at a frame boundary), so a frame cut by a
/// segment's end is completed by the next iteration, as on a connection.
func streamBenchmarks(_ work: Workload) {
    var stream: [UInt8] = []
    func prepare() {
        guard stream.isEmpty else { return }
        stream = work.stream(bytes: 100_000_000)
        require(Peer.referenceReadStream(stream, chunk: chunkSize) > 0, "the C reference reads the stream")
    }
    func segment(_ index: Int) -> Range<Int> {
        let size = (stream.count + streamSegments - 1) / streamSegments
        let start = (index % streamSegments) * size
        return start..<min(start + size, stream.count)
    }

    var reader = FrameReader()
    var readerSegment = 0
    Benchmark("stream100mb-read/imcodec", configuration: streaming) { benchmark in
        let range = segment(readerSegment)
        readerSegment += 1
        var offset = range.lowerBound
        benchmark.startMeasurement()
        while offset < range.upperBound {
            let end = min(offset + chunkSize, range.upperBound)
            reader.append(stream[offset..<end])
            while let payload = must({ try reader.nextPayload() }) { blackHole(payload) }
            offset = end
        }
        benchmark.stopMeasurement()
    } setup: {
        prepare()
        reader = FrameReader()
        readerSegment = 0
    }

    var referenceReader = ReferenceStreamReader()
    var referenceSegment = 0
    Benchmark("stream100mb-read/c-reference", configuration: streaming) { benchmark in
        let range = segment(referenceSegment)
        referenceSegment += 1
        stream.withUnsafeBytes { raw in
            let bytes = UnsafeRawBufferPointer(rebasing: raw[range])
            benchmark.startMeasurement()
            let frames = referenceReader.read(bytes, chunk: chunkSize)
            benchmark.stopMeasurement()
            require(frames >= 0, "the C reference reads its segment")
        }
    } setup: {
        prepare()
        referenceReader = ReferenceStreamReader()
        referenceSegment = 0
    }
}
