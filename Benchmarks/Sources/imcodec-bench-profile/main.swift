import BenchmarkCorpus
import CBenchmarkPeers
import Foundation
import IMCodec
import IMCodecOracle
import IMCodecTraffic
import IMCodecValidation

// Runs one benchmark body in a loop, for profilers (valgrind --tool=callgrind,
// perf record), which need a plain process rather than the benchmark harness.
//
//     imcodec-bench-profile MEASURE [ROUNDS]
//
// MEASURE: payload-encode, payload-decode, merger300-encode, merger300-decode,
// frame-default-encode, frame-default-decode, frame-none-encode,
// frame-none-decode, frame-zstd-encode, frame-zstd-decode, validate,
// validate-current (the `current` profile, which measures each message's
// body), merger300-validate, envelope-payload,
// envelope-payload-walk (no string),
// envelope-frame-none, envelope-frame-default, envelope-frame-zstd,
// c-payload-encode, c-payload-decode; `layout` prints the
// model's inline sizes, `dump` writes the corpus's payloads to files, and
// `decode-split` times decoding the traffic and releasing the values apart,
// for this library, swift-protobuf and protobuf-c (medians over ROUNDS); and
// `decode-ratio` times decoding (and releasing) the traffic and ten decodes
// of the 300-message merger, this library and protobuf-c in alternating
// order, and prints the medians of the ratios (a quick check of the
// payload-decode and merger-decode rows); `envelope-ratio` times the
// envelope peek of the traffic with every string, the destination only and
// no string against its full decode, in turn, and prints the medians.

let arguments = Array(CommandLine.arguments.dropFirst())
guard let measure = arguments.first else {
    FileHandle.standardError.write("usage: imcodec-bench-profile MEASURE [ROUNDS]\n".data(using: .utf8)!)
    exit(2)
}
let rounds = arguments.count > 1 ? Int(arguments[1]) ?? 100 : 100
let work = Workload()
var sink = 0

@MainActor func run(_ body: () throws -> Int) rethrows {
    for _ in 0..<rounds { sink &+= try body() }
}

/// Sums `body` over the traffic's values, each borrowed in place (a
/// `for`-in or `reduce` over the array would copy every value first).
@MainActor func sumOverMessages(_ body: (borrowing Message) -> Int) -> Int {
    work.messages.values.withUnsafeBufferPointer { values in
        var sum = 0
        for index in values.indices { sum &+= body(values[index]) }
        return sum
    }
}

/// Nanoseconds `body` takes, by the monotonic clock.
func nanoseconds(_ body: () throws -> Void) rethrows -> Double {
    var start = timespec()
    var end = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    try body()
    clock_gettime(CLOCK_MONOTONIC, &end)
    return Double(end.tv_sec - start.tv_sec) * 1e9 + Double(end.tv_nsec - start.tv_nsec)
}

/// Nanoseconds `body` takes; what it returns goes to `sink`, so that the
/// work is not optimised away.
@MainActor func nanosecondsIntoSink(_ body: () throws -> Int) rethrows -> Double {
    try nanoseconds { () throws -> Void in sink &+= try body() }
}

/// Prints each series' median by name, in name order, as `format` writes it.
func printMedians(_ series: [String: [Double]], format: String, scale: Double = 1, unit: String = "") {
    for name in series.keys.sorted() {
        let sorted = series[name]!.sorted()
        print("\(name): \(String(format: format, sorted[sorted.count / 2] / scale))\(unit)")
    }
}

switch measure {
case "payload-encode":
    run { sumOverMessages { $0.serializedBytes().count } }
case "payload-decode":
    try run { try work.messages.payloads.reduce(0) { $0 &+ (try Message(serializedBytes: $1)).elems.count } }
case "merger300-encode":
    run { work.merger.values[0].serializedBytes().count }
case "validate":
    run { work.messages.values.reduce(0) { $0 &+ Validator.validate($1).count } }
case "validate-current":
    let limits = ValidationLimits.current
    run { work.messages.values.reduce(0) { $0 &+ Validator.validate($1, limits: limits).count } }
case "merger300-validate":
    run { Validator.validate(work.merger.values[0]).count }
case "merger300-decode":
    try run { try Message(serializedBytes: work.merger.payloads[0]).elems.count }
case "frame-default-encode", "frame-none-encode", "frame-zstd-encode":
    let encoder = FrameEncoder(policy: FramePolicy(rawValue: measure.split(separator: "-")[1].description)!.policy)
    run {
        sumOverMessages { message in
            // Not through a closure, which would copy the message; the traffic
            // stays inside the default limits, so no frame is refused.
            do { return try encoder.encode(message).count } catch { preconditionFailure("refused: \(error)") }
        }
    }
case "frame-default-decode", "frame-none-decode", "frame-zstd-decode":
    let frames = try work.messages.frames(FramePolicy(rawValue: measure.split(separator: "-")[1].description)!)
    let decoder = FrameDecoder()
    try run { try frames.reduce(0) { $0 &+ (try decoder.decode(Message.self, from: $1)).elems.count } }
case "envelope-payload":
    try run { try work.messages.payloads.reduce(0) { $0 &+ (try MessageEnvelope(serializedBytes: $1)).elemCount } }
case "envelope-payload-walk":
    try run {
        try work.messages.payloads.reduce(0) { $0 &+ (try MessageEnvelope(serializedBytes: $1, fields: [])).elemCount }
    }
case "envelope-frame-none", "envelope-frame-default", "envelope-frame-zstd":
    let frames = try work.messages.frames(FramePolicy(rawValue: measure.split(separator: "-")[2].description)!)
    let decoder = FrameDecoder()
    try run { try frames.reduce(0) { $0 &+ (try decoder.peekEnvelope($1)).header.payloadLength } }
case "c-payload-encode":
    run { work.messages.protobufC.reduce(0) { $0 &+ Peer.protobufCEncode($1) } }
case "layout":
    // The inline sizes of the model's values, which every move pays for.
    let sizes: [(String, Int)] = [
        ("Message", MemoryLayout<Message>.size), ("Elem", MemoryLayout<Elem>.size),
        ("Elem.Kind", MemoryLayout<Elem.Kind>.size), ("OfflinePushInfo", MemoryLayout<OfflinePushInfo>.size),
        ("TextElem", MemoryLayout<TextElem>.size), ("CustomElem", MemoryLayout<CustomElem>.size),
        ("ImageElem", MemoryLayout<ImageElem>.size), ("VideoElem", MemoryLayout<VideoElem>.size),
        ("MergerElem", MemoryLayout<MergerElem>.size), ("GroupTipsElem", MemoryLayout<GroupTipsElem>.size),
        ("Event", MemoryLayout<Event>.size),
    ]
    print(sizes.map { "\($0.0) \($0.1) B" }.joined(separator: ", "))
case "dump":
    // The payloads, each behind a 4-byte little-endian length, for offline analysis.
    for (name, payloads) in [("traffic", work.messages.payloads), ("batches", work.batches.payloads)] {
        var file: [UInt8] = []
        for payload in payloads {
            withUnsafeBytes(of: UInt32(payload.count).littleEndian) { file.append(contentsOf: $0) }
            file.append(contentsOf: payload)
        }
        _ = FileManager.default.createFile(atPath: "\(name).payloads", contents: Data(file))
    }
case "decode-split":
    // Where the decode benchmark's time goes between making the values and
    // releasing them: every payload is decoded into an array, then the
    // array is released, each step timed over the whole traffic.
    let payloads = work.messages.payloads
    var times: [String: [Double]] = [:]
    for _ in 0..<rounds {
        var ours: [Message] = []
        ours.reserveCapacity(payloads.count)
        times["imcodec decode", default: []].append(
            try nanoseconds { for payload in payloads { ours.append(try Message(serializedBytes: payload)) } })
        times["imcodec release", default: []].append(nanoseconds { ours = [] })
        var oracle: [Imcodec_V1_Message] = []
        oracle.reserveCapacity(payloads.count)
        times["swift-protobuf decode", default: []].append(
            try nanoseconds {
                for payload in payloads { oracle.append(try Imcodec_V1_Message(serializedBytes: payload)) }
            })
        times["swift-protobuf release", default: []].append(nanoseconds { oracle = [] })
        var unpacked: [UnsafeMutableRawPointer] = []
        unpacked.reserveCapacity(payloads.count)
        times["protobuf-c decode", default: []].append(
            nanoseconds {
                for payload in payloads {
                    if let value = payload.withUnsafeBufferPointer({ bench_pbc_unpack(1, $0.baseAddress, $0.count) }) {
                        unpacked.append(value)
                    }
                }
            })
        times["protobuf-c release", default: []].append(nanoseconds { for value in unpacked { bench_pbc_free(value) } })
        sink &+= ours.count &+ oracle.count &+ unpacked.count
    }
    printMedians(times, format: "%.0f", scale: Double(payloads.count), unit: " ns/msg")
case "envelope-ratio":
    // The envelope-payload benchmarks in miniature: each round times the
    // peek (every string, the destination only, no string) and the full
    // decode of the traffic, and keeps the ratios; prints the medians.
    let payloads = work.messages.payloads
    func decode() throws -> Int { try payloads.reduce(0) { $0 &+ (try Message(serializedBytes: $1)).elems.count } }
    func peek(_ fields: MessageEnvelope.Fields) throws -> Int {
        try payloads.reduce(0) { $0 &+ (try MessageEnvelope(serializedBytes: $1, fields: fields)).elemCount }
    }
    var ratios: [String: [Double]] = [:]
    for _ in 0..<rounds {
        let d = try nanosecondsIntoSink(decode)
        for (name, fields) in [("all", MessageEnvelope.Fields.all), ("destination", .destination), ("none", [])] {
            let p = try nanosecondsIntoSink({ try peek(fields) })
            ratios["peek \(name) ÷ decode", default: []].append(p / d)
            ratios["peek \(name), ns/msg", default: []].append(p / Double(payloads.count))
        }
        ratios["decode, ns/msg", default: []].append(d / Double(payloads.count))
    }
    printMedians(ratios, format: "%.3f")
case "decode-ratio":
    // The payload-decode and merger-decode benchmarks in miniature: each
    // round times this library and protobuf-c over the same input, in an
    // order that alternates, and keeps the ratio; prints the medians.
    let payloads = work.messages.payloads
    let merger = work.merger.payloads[0]
    func ours() throws -> Int { try payloads.reduce(0) { $0 &+ (try Message(serializedBytes: $1)).elems.count } }
    func theirs() -> Int { payloads.reduce(0) { $0 &+ (Peer.protobufCDecode($1, kind: 1) ? 1 : 0) } }
    func oursMerger() throws -> Int {
        try (0..<10).reduce(0) { sum, _ in sum &+ (try Message(serializedBytes: merger)).elems.count }
    }
    func theirsMerger() -> Int {
        (0..<10).reduce(0) { sum, _ in sum &+ (Peer.protobufCDecode(merger, kind: 1) ? 1 : 0) }
    }
    /// The times of `first` and `second`, run in that order on even rounds
    /// and the other way round on odd ones.
    func pair(_ round: Int, _ first: () throws -> Int, _ second: () -> Int) rethrows -> (Double, Double) {
        if round % 2 == 0 {
            let a = try nanosecondsIntoSink(first)
            return (a, nanosecondsIntoSink(second))
        }
        let b = nanosecondsIntoSink(second)
        return (try nanosecondsIntoSink(first), b)
    }
    var ratios: [String: [Double]] = [:]
    for round in 0..<rounds {
        let (a, b) = try pair(round, ours, theirs)
        ratios["traffic ÷ protobuf-c", default: []].append(a / b)
        ratios["traffic, ns/msg", default: []].append(a / Double(payloads.count))
        let (c, d) = try pair(round, oursMerger, theirsMerger)
        ratios["merger ÷ protobuf-c", default: []].append(c / d)
        ratios["merger, µs", default: []].append(c / 10_000)
    }
    printMedians(ratios, format: "%.3f")
case "c-payload-decode":
    run { work.messages.payloads.reduce(0) { $0 &+ (Peer.protobufCDecode($1, kind: 1) ? 1 : 0) } }
default:
    FileHandle.standardError.write("unknown measure \(measure)\n".data(using: .utf8)!)
    exit(2)
}
print(sink)
