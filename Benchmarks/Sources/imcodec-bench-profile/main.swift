import BenchmarkCorpus
import Foundation
import IMCodec
import IMCodecOracle
import IMCodecTraffic

// Runs one benchmark body in a loop, for profilers (valgrind --tool=callgrind,
// perf record), which need a plain process rather than the benchmark harness.
//
//     imcodec-bench-profile MEASURE [ROUNDS]
//
// MEASURE: payload-encode, payload-decode, merger300-encode, merger300-decode,
// frame-default-encode, frame-default-decode, frame-none-encode,
// frame-none-decode, c-payload-encode, c-payload-decode; `layout` prints the
// model's inline sizes and `dump` writes the corpus's payloads to files.

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

switch measure {
case "payload-encode":
    run { sumOverMessages { $0.serializedBytes().count } }
case "payload-decode":
    try run { try work.messages.payloads.reduce(0) { $0 &+ (try Message(serializedBytes: $1)).elems.count } }
case "merger300-encode":
    run { work.merger.values[0].serializedBytes().count }
case "merger300-decode":
    try run { try Message(serializedBytes: work.merger.payloads[0]).elems.count }
case "frame-default-encode", "frame-none-encode":
    let encoder = FrameEncoder(policy: measure == "frame-none-encode" ? .disabled : .default)
    run { sumOverMessages { encoder.encode($0).count } }
case "frame-default-decode", "frame-none-decode":
    let frames = work.messages.frames(measure == "frame-none-decode" ? .none : .default)
    let decoder = FrameDecoder()
    try run { try frames.reduce(0) { $0 &+ (try decoder.decode(Message.self, from: $1)).elems.count } }
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
case "c-payload-decode":
    run { work.messages.payloads.reduce(0) { $0 &+ (Peer.protobufCDecode($1, kind: 1) ? 1 : 0) } }
default:
    FileHandle.standardError.write("unknown measure \(measure)\n".data(using: .utf8)!)
    exit(2)
}
print(sink)
