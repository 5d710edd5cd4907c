import ArgumentParser
import Foundation
import IMCodec
import IMCodecTraffic

#if Zstd
    import CZstd
#endif

/// The dictionary trainers `train-dictionary` offers.
enum DictionaryTrainerKind: String, ExpressibleByArgument, CaseIterable {
    /// The package's own COVER trainer (dictionaries 1 and 2).
    case cover
    /// zstd's ZDICT trainer (`ZDICT_trainFromBuffer`, fastCover with its
    /// default parameters): a zstd dictionary with entropy tables.
    case zdict
}

/// `imcodec-devtools train-dictionary`: makes `Schemas/dictionaries/<id>.bin`.
struct TrainDictionaryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train-dictionary",
        abstract: "Train a preset deflate dictionary on a synthetic IM corpus.",
        discussion: """
            Generates --samples payloads of the training model of IM traffic from \
            --seed and --traffic-samples messages of the benchmarks' traffic model from \
            --traffic-seed, trains a dictionary of --size bytes on them (COVER: frequent \
            segments by estimated savings, most valuable last; docs/DICTIONARY.md) and \
            writes it to --output. The same options always give the same bytes.

            --evaluate frames held-out payloads of each model (the next seeds) with and \
            without the dictionary and prints the ratios; --sweep does so for several \
            sizes.

            Examples:
              imcodec-devtools train-dictionary --output Schemas/dictionaries/1.bin --evaluate
              imcodec-devtools train-dictionary --traffic-samples 20000 --output 2.bin --evaluate
            """
    )

    @Option(help: "The corpus seed.")
    var seed: UInt64 = 488_403_200

    @Option(help: "How many training payloads to generate.")
    var samples = 20_000

    @Option(help: "The seed of the benchmarks' traffic model for training.")
    var trafficSeed: UInt64 = 0x1AC0_DEC0_2024_0D1C

    @Option(help: "How many messages of the benchmarks' traffic model to train on as well.")
    var trafficSamples = 0

    @Option(help: "The dictionary size in bytes.")
    var size = 8_192

    @Option(help: "The segment length of the trainer.")
    var segment = 64

    @Option(help: "The d-mer length of the trainer, 4 to 8.")
    var dmer = 6

    @Option(help: "The trainer: cover (the package's own) or zdict (zstd's, for zstd dictionaries).")
    var trainer: DictionaryTrainerKind = .cover

    @Option(help: "Where to write the dictionary.")
    var output: String?

    @Flag(help: "Print the ratios on a held-out corpus with and without the dictionary.")
    var evaluate = false

    @Flag(help: "Print the ratios of dictionaries of 1, 2, 4, 8, 16 and 32 KiB.")
    var sweep = false

    func validate() throws {
        guard (4...8).contains(dmer) else { throw ValidationError("--dmer must be 4 to 8") }
        guard segment > dmer else { throw ValidationError("--segment must be longer than --dmer") }
        guard (1...(trainer == .zdict ? 131_072 : 32_000)).contains(size) else {
            throw ValidationError("--size must be 1 to 32000 (131072 with --trainer zdict)")
        }
        guard trafficSeed &+ 1 != Corpus.defaultSeed, trafficSeed != Corpus.defaultSeed else {
            throw ValidationError("--traffic-seed must not give the benchmarks' own corpus")
        }
    }

    func run() throws {
        var corpus = TrainingCorpus(seed: seed)
        var training = corpus.payloads(count: samples).map { $0.serializedBytes() }
        if trafficSamples > 0 {
            training += Corpus(seed: trafficSeed, count: trafficSamples).payloads
        }
        let trainer = DictionaryTrainer(dmerLength: dmer, segmentLength: segment)
        let dictionary =
            try self.trainer == .zdict ? Self.zdict(training, size: size) : trainer.train(samples: training, size: size)
        if let output {
            try Data(dictionary).write(to: URL(fileURLWithPath: output))
            print(
                "wrote \(dictionary.count) bytes to \(output) from \(training.count) payloads "
                    + "(\(training.map(\.count).reduce(0, +)) bytes)")
        }
        guard evaluate || sweep else { return }

        var heldOut = TrainingCorpus(seed: seed &+ 1)
        try evaluate(
            heldOut.payloads(count: 5_000).map { ($0.serializedBytes(), $0.kind) }, training, trainer, dictionary,
            title: "held-out payloads of the training model (seed \(seed &+ 1))")
        let traffic = Corpus(seed: trafficSeed &+ 1, count: 5_000)
        try evaluate(
            traffic.payloads.map { ($0, FrameKind.message) }, training, trainer, dictionary,
            title: "held-out messages of the benchmarks' traffic model (seed \(trafficSeed &+ 1))")
    }

    /// Trains a zstd dictionary with ZDICT on `samples`.
    static func zdict(_ samples: [[UInt8]], size: Int) throws -> [UInt8] {
        #if Zstd
            let joined = samples.flatMap { $0 }
            let sizes = samples.map(\.count)
            var dictionary = [UInt8](repeating: 0, count: size)
            let written = dictionary.withUnsafeMutableBytes { output in
                joined.withUnsafeBytes { input in
                    ZDICT_trainFromBuffer(output.baseAddress, size, input.baseAddress, sizes, UInt32(sizes.count))
                }
            }
            guard ZDICT_isError(written) == 0 else {
                throw ValidationError("ZDICT_trainFromBuffer failed: \(String(cString: ZDICT_getErrorName(written)))")
            }
            return Array(dictionary[0..<written])
        #else
            throw ValidationError("--trainer zdict needs the Zstd trait")
        #endif
    }

    /// Prints the ratios of frames of `payloads` with and without dictionaries.
    private func evaluate(
        _ payloads: [([UInt8], FrameKind)], _ training: [[UInt8]], _ trainer: DictionaryTrainer,
        _ dictionary: [UInt8], title: String
    ) throws(IMCodecError) {
        let mean = payloads.map(\.0.count).reduce(0, +) / payloads.count
        print("\(title): \(payloads.count) payloads, mean \(mean) bytes")
        report("no compression", try DictionaryEvaluation(payloads: payloads, policy: .disabled))
        for threshold in [256, 0] {
            report(
                "threshold \(threshold), no dictionary",
                try DictionaryEvaluation(payloads: payloads, policy: CompressionPolicy(threshold: threshold)))
            if evaluate {
                for shipped in PresetDictionary.known {
                    report(
                        "threshold \(threshold), shipped dictionary \(shipped.id)",
                        try DictionaryEvaluation(
                            payloads: payloads, policy: CompressionPolicy(threshold: threshold, dictionary: shipped)))
                }
                report(
                    "threshold \(threshold), this dictionary (\(dictionary.count) B)",
                    try evaluation(payloads, threshold: threshold, dictionary: dictionary))
            }
            if evaluate && FrameCompression.zstd.isAvailable {
                report(
                    "zstd-3, threshold \(threshold), no dictionary",
                    try DictionaryEvaluation(payloads: payloads, policy: .zstd(dictionary: nil, threshold: threshold)))
                for shipped in PresetDictionary.known {
                    report(
                        "zstd-3, threshold \(threshold), shipped dictionary \(shipped.id)",
                        try DictionaryEvaluation(
                            payloads: payloads, policy: .zstd(dictionary: shipped, threshold: threshold)))
                }
                for level in [1, 3] {
                    let candidate = PresetDictionary(id: .max, bytes: dictionary)
                    report(
                        "zstd-\(level), threshold \(threshold), this dictionary",
                        try DictionaryEvaluation(
                            payloads: payloads,
                            policy: .zstd(level: level, dictionary: candidate, threshold: threshold)))
                }
            }
            if sweep {
                for kib in [1, 2, 4, 8, 16, 32] where kib * 1_024 != dictionary.count {
                    let other = trainer.train(samples: training, size: min(kib * 1_024, 32_000))
                    report(
                        "threshold \(threshold), \(other.count) B dictionary",
                        try evaluation(payloads, threshold: threshold, dictionary: other))
                }
            }
        }
    }

    /// Frames the payloads with a candidate dictionary.
    private func evaluation(_ payloads: [([UInt8], FrameKind)], threshold: Int, dictionary: [UInt8])
        throws(IMCodecError) -> DictionaryEvaluation
    {
        let candidate = PresetDictionary(id: .max, bytes: dictionary)
        return try DictionaryEvaluation(
            payloads: payloads, policy: CompressionPolicy(threshold: threshold, dictionary: candidate))
    }

    private func report(_ label: String, _ result: DictionaryEvaluation) {
        let ratio = (result.ratio * 1000).rounded() / 1000
        let time = (result.microsecondsPerFrame * 10).rounded() / 10
        print(
            "  \(label.padding(toLength: 44, withPad: " ", startingAt: 0)) ratio \(ratio), "
                + "\(result.compressedFrames) compressed, \(time) µs/frame")
    }
}
