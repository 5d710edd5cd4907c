import Benchmark
import BenchmarkCorpus
import Foundation
import IMCodec
import IMCodecOracle
import IMCodecTraffic
import IMCodecValidation
import SwiftProtobuf

// Every timing benchmark is one measure (payload decode, frame encode with the
// default policy, ...) run by every implementation *interleaved*: one
// iteration runs each implementation once over the measure's whole input
// (the 1,000 messages, the 50 history pages, the 300-message merger or a
// tenth of the 100 MB stream), in an order that rotates from one iteration to
// the next, and records
//
//   - "<implementation> ns": that implementation's time per value, and
//   - "÷ <peer> ‱": imcodec's time ÷ the peer's time in that iteration, in
//     units of 1/10,000.
//
// The harness reports percentiles of each; scripts/bench/bench.sh prints the
// medians. Timing the implementations back to back inside one iteration is
// what makes the ratios trustworthy on a shared machine: sequential
// benchmarks of a few seconds each saw the speed of the whole machine move by
// 20–40% between them, and ratios of their medians moved with it, while
// ratios taken within one iteration stay within a few percent
// (docs/PERFORMANCE.md).

/// One implementation's pass over a measure's input.
struct Implementation {
    let name: String
    let run: () -> Void
}

/// The names of the implementations, in the column order of the table.
let implementationNames = [
    "imcodec", "swift-protobuf", "protobuf-c", "c-reference", "c-reference-api", "naive-zlib", "imcodec-payload",
    "c-reference-dictionary", "imcodec-framepayload", "imcodec-decode", "zstd-alone",
]

/// The metrics of an interleaved measure: the whole iteration's time and
/// throughput (the JMH export needs one), a time per implementation and a
/// ratio per peer.
func interleavedMetrics(_ implementations: [Implementation]) -> [BenchmarkMetric] {
    [.wallClock, .throughput]
        + implementations.map { .custom("\($0.name) ns", polarity: .prefersSmaller, useScalingFactor: true) }
        + implementations.dropFirst().map {
            .custom("÷ \($0.name) ‱", polarity: .prefersSmaller, useScalingFactor: true)
        }
}

/// Allocation counts, measured apart from the timings.
let allocations = Benchmark.Configuration(
    metrics: [.throughput, .mallocCountTotal], warmupIterations: 1, scalingFactor: .one,
    maxDuration: .seconds(1), maxIterations: 20)

/// The stream is read in this many segments, one per iteration.
let streamSegments = 10

/// Size of the chunks a stream arrives in, as from a socket read.
let chunkSize = 64 * 1_024

/// The monotonic clock in nanoseconds.
@inline(__always)
func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
}

/// Registers one interleaved measure.
///
/// - Parameters:
///   - name: The measure's name; the benchmark is named after it.
///   - units: How many values one pass processes (the time metrics are per value).
///   - seconds: How long the measure runs.
///   - implementations: imcodec first, then its peers.
func interleaved(_ name: String, units: Int, seconds: Int = 3, _ implementations: [Implementation]) {
    precondition(implementations.first?.name == "imcodec", "imcodec comes first")
    for implementation in implementations {
        precondition(implementationNames.contains(implementation.name), "unknown implementation \(implementation.name)")
    }
    let configuration = Benchmark.Configuration(
        metrics: interleavedMetrics(implementations), warmupIterations: 3, scalingFactor: .one,
        maxDuration: .seconds(seconds),
        maxIterations: 2_000)
    var rotation = 0
    Benchmark(name, configuration: configuration) { benchmark in
        var times = [UInt64](repeating: 0, count: implementations.count)
        for step in 0..<implementations.count {
            let index = (step + rotation) % implementations.count
            let start = now()
            implementations[index].run()
            times[index] = now() - start
        }
        rotation += 1
        for (index, implementation) in implementations.enumerated() {
            benchmark.measurement(.custom("\(implementation.name) ns"), Int(times[index]) / units)
        }
        for (index, peer) in implementations.enumerated().dropFirst() {
            let ratio = Double(times[0]) / Double(max(times[index], 1))
            benchmark.measurement(.custom("÷ \(peer.name) ‱"), Int((ratio * 10_000).rounded()))
        }
    }
}

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

/// Calls `body` with each of `values` in place. A `for value in values` loop
/// would copy each value first, retaining every string and array it holds:
/// the loop's cost, not the codec's, and much larger for this library's
/// inline structs than for swift-protobuf's boxed ones.
@inline(__always)
func forEach<Value>(_ values: [Value], _ body: (borrowing Value) -> Void) {
    values.withUnsafeBufferPointer { buffer in
        for index in buffer.indices { body(buffer[index]) }
    }
}

let benchmarks: @Sendable () -> Void = {
    let work = Workload()
    require(work.messages.checkAgreement() == nil, "the three implementations disagree on the corpus")

    payloadBenchmarks("payload", work.messages)
    payloadBenchmarks("merger300", work.merger)
    allocationBenchmarks(work.messages)
    envelopeBenchmarks(work.messages)
    for policy in FramePolicy.allCases {
        frameBenchmarks("frame-\(policy.rawValue)", work.messages, policy)
        frameBenchmarks("batch-\(policy.rawValue)", work.batches, policy)
    }
    streamBenchmark(work)
    validationBenchmarks("validate", work.messages)
    validationBenchmarks("merger300-validate", work.merger)
}

/// Validation of decoded messages against the SDK guide's limits, with the
/// payloads' decoding run in the same iterations as a yardstick: the ratio
/// stays comparable between runs where the machine's speed moves.
func validationBenchmarks(
    _ name: String, _ values: PreparedValues<IMCodec.Message, Imcodec_V1_Message>
) {
    interleaved(
        name, units: values.count,
        [
            Implementation(name: "imcodec") { forEach(values.values) { blackHole(Validator.validate($0)) } },
            Implementation(name: "imcodec-decode") {
                for payload in values.payloads { blackHole(must { try IMCodec.Message(serializedBytes: payload) }) }
            },
        ])
}

/// Payload encode and decode: this library, swift-protobuf, protobuf-c.
func payloadBenchmarks<Value: FrameContent, Oracle: SwiftProtobuf.Message>(
    _ name: String, _ values: PreparedValues<Value, Oracle>
) {
    interleaved(
        "\(name)-encode", units: values.count,
        [
            Implementation(name: "imcodec") { forEach(values.values) { blackHole($0.serializedBytes()) } },
            Implementation(name: "swift-protobuf") {
                forEach(values.oracle) { value in blackHole(must { try value.serializedBytes() as [UInt8] }) }
            },
            Implementation(name: "protobuf-c") {
                for value in values.protobufC { blackHole(Peer.protobufCEncode(value)) }
            },
        ])
    interleaved(
        "\(name)-decode", units: values.count,
        [
            Implementation(name: "imcodec") {
                for payload in values.payloads { blackHole(must { try Value(serializedBytes: payload) }) }
            },
            Implementation(name: "swift-protobuf") {
                for payload in values.payloads { blackHole(must { try Oracle(serializedBytes: payload) }) }
            },
            Implementation(name: "protobuf-c") {
                for payload in values.payloads { blackHole(Peer.protobufCDecode(payload, kind: values.kind)) }
            },
        ])
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

/// The envelope peek (`MessageEnvelope`, `FrameDecoder.peekEnvelope`)
/// against decoding the whole message, from payloads and from frames under
/// the policies a relay meets, and the allocations of a peek.
func envelopeBenchmarks(_ values: PreparedValues<IMCodec.Message, Imcodec_V1_Message>) {
    interleaved(
        "envelope-payload", units: values.count,
        [
            Implementation(name: "imcodec") {
                for payload in values.payloads { blackHole(must { try MessageEnvelope(serializedBytes: payload) }) }
            },
            Implementation(name: "imcodec-decode") {
                for payload in values.payloads { blackHole(must { try IMCodec.Message(serializedBytes: payload) }) }
            },
        ])
    for policy in [FramePolicy.none, .default, .zstd] {
        let frames = must { try values.frames(policy) }
        let decoder = FrameDecoder()
        for (index, frame) in frames.enumerated() {
            require(
                (try? decoder.peekEnvelope(frame).message) == MessageEnvelope(values.values[index]),
                "the envelope of \(policy) frame \(index)")
        }
        interleaved(
            "envelope-frame-\(policy.rawValue)", units: values.count,
            [
                Implementation(name: "imcodec") {
                    for frame in frames { blackHole(must { try decoder.peekEnvelope(frame) }) }
                },
                Implementation(name: "imcodec-decode") {
                    for frame in frames { blackHole(must { try decoder.decode(IMCodec.Message.self, from: frame) }) }
                },
            ])
    }
    // What a relay asks for to route a message: where it goes, no other string.
    let stored = must { try values.frames(.none) }
    let decoder = FrameDecoder()
    interleaved(
        "envelope-payload-destination", units: values.count,
        [
            Implementation(name: "imcodec") {
                for payload in values.payloads {
                    blackHole(must { try MessageEnvelope(serializedBytes: payload, fields: .destination) })
                }
            },
            Implementation(name: "imcodec-decode") {
                for payload in values.payloads { blackHole(must { try IMCodec.Message(serializedBytes: payload) }) }
            },
        ])
    // No string at all: the walk over every top-level field that any peek
    // makes (and, for a frame, its header and checksum), the floor under
    // the rows above.
    interleaved(
        "envelope-payload-walk", units: values.count,
        [
            Implementation(name: "imcodec") {
                for payload in values.payloads {
                    blackHole(must { try MessageEnvelope(serializedBytes: payload, fields: []) })
                }
            },
            Implementation(name: "imcodec-decode") {
                for payload in values.payloads { blackHole(must { try IMCodec.Message(serializedBytes: payload) }) }
            },
        ])
    interleaved(
        "envelope-frame-none-walk", units: values.count,
        [
            Implementation(name: "imcodec") {
                for frame in stored { blackHole(must { try decoder.peekEnvelope(frame, fields: []) }) }
            },
            Implementation(name: "imcodec-decode") {
                for frame in stored { blackHole(must { try decoder.decode(IMCodec.Message.self, from: frame) }) }
            },
        ])
    interleaved(
        "envelope-frame-none-destination", units: values.count,
        [
            Implementation(name: "imcodec") {
                for frame in stored { blackHole(must { try decoder.peekEnvelope(frame, fields: .destination) }) }
            },
            Implementation(name: "imcodec-decode") {
                for frame in stored { blackHole(must { try decoder.decode(IMCodec.Message.self, from: frame) }) }
            },
        ])
    Benchmark("alloc-envelope/imcodec", configuration: allocations) { _ in
        for payload in values.payloads { blackHole(must { try MessageEnvelope(serializedBytes: payload) }) }
    }
    Benchmark("alloc-envelope-frame/imcodec", configuration: allocations) { _ in
        for frame in stored { blackHole(must { try decoder.peekEnvelope(frame) }) }
    }
}

/// The value as the `FramePayload` that holds it.
func framePayload<Value: FrameContent>(_ value: Value) -> FramePayload {
    switch value {
    case let message as IMCodec.Message: .message(message)
    case let batch as MessageBatch: .batch(batch)
    case let event as Event: .event(event)
    default: preconditionFailure("\(Value.self) is not a payload type")
    }
}

/// Whole frames under one policy: this library; swift-protobuf's payload
/// codec inside this library's frames; the C reference's pipeline and its
/// public decode call; zlib the naive way around this library's payload
/// codec; and, without compression, this library's bare payload codec, which
/// shows what the frame adds.
func frameBenchmarks<Value: FrameContent, Oracle: SwiftProtobuf.Message>(
    _ name: String, _ values: PreparedValues<Value, Oracle>, _ policy: FramePolicy
) {
    let frames = must { try values.frames(policy) }
    let reference = ReferenceCodec()
    let referenceFrames = values.referenceFrames(policy, codec: reference)
    let naiveFrames = values.naiveFrames()
    let decoder = FrameDecoder()
    for (index, frame) in frames.enumerated() {
        require((try? decoder.decode(Value.self, from: frame)) == values.values[index], "\(name) frame \(index)")
        require(reference.decodeFrame(frame), "\(name) frame \(index) by the C reference")
        require(reference.decodeFrame(referenceFrames[index]), "\(name) C frame \(index)")
        require(
            (try? decoder.decode(Value.self, from: referenceFrames[index])) == values.values[index],
            "\(name) C frame \(index) here")
        require(
            (try? Peer.naiveDecode(naiveFrames[index], as: Value.self)) == values.values[index],
            "\(name) naive frame \(index)")
    }
    let encoder = FrameEncoder(policy: policy.policy)
    var encode = [
        Implementation(name: "imcodec") {
            forEach(values.values) { value in
                // Not through `must`, whose closure would copy the value.
                do { blackHole(try encoder.encode(value)) } catch { preconditionFailure("refused: \(error)") }
            }
        },
        Implementation(name: "swift-protobuf") {
            forEach(values.oracle) { value in
                blackHole(must { try encoder.encodeFrame(payload: try value.serializedBytes(), kind: Value.frameKind) })
            }
        },
        Implementation(name: "c-reference") {
            for value in values.protobufC {
                blackHole(reference.encodeFrame(kind: values.kind, message: value, policy: policy))
            }
        },
        Implementation(name: "naive-zlib") { forEach(values.values) { blackHole(Peer.naiveEncode($0)) } },
    ]
    var decode = [
        Implementation(name: "imcodec") {
            for frame in frames { blackHole(must { try decoder.decode(Value.self, from: frame) }) }
        },
        Implementation(name: "swift-protobuf") {
            for frame in frames {
                blackHole(must { try Peer.oracleDecode(decoder.decodeFrame(frame).payload, as: Oracle.self) })
            }
        },
        Implementation(name: "c-reference") {
            for frame in referenceFrames { blackHole(reference.decodeFrame(frame)) }
        },
        Implementation(name: "c-reference-api") {
            for frame in referenceFrames { blackHole(reference.decodeFramePublic(frame)) }
        },
        Implementation(name: "naive-zlib") {
            for frame in naiveFrames { blackHole(must { try Peer.naiveDecode(frame, as: Value.self) }) }
        },
    ]
    if policy == .zstd {
        // What a zstd frame is made of, timed in the same iterations: the
        // payload's encoding and libzstd alone on it (the frame encode
        // target is their sum and 0.3 µs), and libzstd alone decompressing
        // the frames' bodies.
        let zstd = ZstdAlone(level: 3, dictionary: .zstdMessages)
        let bodies: [(body: ArraySlice<UInt8>, payloadLength: Int)] = frames.compactMap { frame in
            guard let header = try? FrameHeader.peek(frame), header.compression == .zstd else { return nil }
            return (frame[header.encodedLength...], header.payloadLength)
        }
        for (body, length) in bodies {
            require(zstd.decompress(body, payloadLength: length) == length, "libzstd alone decompresses a body")
        }
        encode.append(
            Implementation(name: "imcodec-payload") { forEach(values.values) { blackHole($0.serializedBytes()) } })
        encode.append(
            Implementation(name: "zstd-alone") { for payload in values.payloads { blackHole(zstd.compress(payload)) } })
        decode.append(
            Implementation(name: "zstd-alone") {
                for (body, length) in bodies { blackHole(zstd.decompress(body, payloadLength: length)) }
            })
        // The C pipeline as it compressed best before zstd: deflate with
        // dictionary 2, from 0 bytes.
        let dictionaryFrames = values.referenceFrames(.dictionary, codec: reference)
        encode.append(
            Implementation(name: "c-reference-dictionary") {
                for value in values.protobufC {
                    blackHole(reference.encodeFrame(kind: values.kind, message: value, policy: .dictionary))
                }
            })
        decode.append(
            Implementation(name: "c-reference-dictionary") {
                for frame in dictionaryFrames { blackHole(reference.decodeFrame(frame)) }
            })
    }
    if policy == .none {
        encode.append(
            Implementation(name: "imcodec-payload") { forEach(values.values) { blackHole($0.serializedBytes()) } })
        // The same frames from `FramePayload` values, as a server's encoder
        // (IMCodecNIO, AsyncFrameWriter) is handed them.
        let payloads = values.values.map(framePayload)
        encode.append(
            Implementation(name: "imcodec-framepayload") {
                forEach(payloads) { payload in
                    do { blackHole(try encoder.encode(payload)) } catch { preconditionFailure("refused: \(error)") }
                }
            })
        decode.append(
            Implementation(name: "imcodec-payload") {
                for payload in values.payloads { blackHole(must { try Value(serializedBytes: payload) }) }
            })
    }
    interleaved("\(name)-encode", units: values.count, seconds: policy == .none ? 3 : 6, encode)
    interleaved("\(name)-decode", units: values.count, seconds: policy == .none ? 3 : 4, decode)
}

/// A 100 MB stream of frames arriving in 64 KiB chunks, read by this
/// library's streaming reader and the C reference's. Each reads the whole
/// stream, a tenth of it per iteration, starting again at the top after the
/// last tenth (the stream ends at a frame boundary), so a frame cut by a
/// segment's end is completed by the next iteration, as on a connection.
func streamBenchmark(_ work: Workload) {
    var stream: [UInt8] = []
    func prepare() {
        guard stream.isEmpty else { return }
        stream = must { try work.stream(bytes: 100_000_000) }
        require(Peer.referenceReadStream(stream, chunk: chunkSize) > 0, "the C reference reads the stream")
    }
    func segment(_ index: Int) -> Range<Int> {
        let size = (stream.count + streamSegments - 1) / streamSegments
        let start = (index % streamSegments) * size
        return start..<min(start + size, stream.count)
    }
    let reader = FrameReader()
    var readerSegment = 0
    let referenceReader = ReferenceStreamReader()
    var referenceSegment = 0
    interleaved(
        "stream100mb-read", units: 1, seconds: 10,
        [
            Implementation(name: "imcodec") {
                prepare()
                let range = segment(readerSegment)
                readerSegment += 1
                var offset = range.lowerBound
                while offset < range.upperBound {
                    let end = min(offset + chunkSize, range.upperBound)
                    reader.append(stream[offset..<end])
                    while let payload = must({ try reader.nextPayload() }) { blackHole(payload) }
                    offset = end
                }
            },
            Implementation(name: "c-reference") {
                prepare()
                let range = segment(referenceSegment)
                referenceSegment += 1
                stream.withUnsafeBytes { raw in
                    let frames = referenceReader.read(UnsafeRawBufferPointer(rebasing: raw[range]), chunk: chunkSize)
                    require(frames >= 0, "the C reference reads its segment")
                }
            },
        ])
}
