import ArgumentParser
import Foundation
import IMCodecTraffic

/// `imcodec-devtools write-corpus`: the benchmarks' traffic as a file, for
/// measurements outside Swift (`scripts/bench/measure_libdeflate.c`).
struct WriteCorpusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write-corpus",
        abstract: "Write the benchmarks' traffic corpus as length-prefixed payloads.",
        discussion: """
            Writes the --count messages of the traffic model from --seed (by default the \
            benchmarks' own corpus) to --output, each as a 4-byte little-endian length \
            followed by its canonical payload.
            """
    )

    @Option(help: "The corpus seed (default: the benchmarks').")
    var seed: UInt64 = Corpus.defaultSeed

    @Option(help: "How many messages.")
    var count = 1_000

    @Option(help: "Where to write them.")
    var output: String

    func run() throws {
        var bytes: [UInt8] = []
        let payloads = Corpus(seed: seed, count: count).payloads
        for payload in payloads {
            let length = UInt32(payload.count)
            bytes += [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: length >> UInt32($0)) }
            bytes += payload
        }
        try Data(bytes).write(to: URL(fileURLWithPath: output))
        print("wrote \(payloads.count) payloads (\(bytes.count - 4 * payloads.count) bytes) to \(output)")
    }
}
