import ArgumentParser
import Foundation
import IMCodec

/// `imcodec-devtools train-dictionary`: makes `Schemas/dictionaries/<id>.bin`.
struct TrainDictionaryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train-dictionary",
        abstract: "Train a preset deflate dictionary on a synthetic IM corpus.",
        discussion: """
            Generates --samples payloads of realistic IM traffic from --seed, trains a \
            dictionary of --size bytes on them (COVER: frequent segments by estimated \
            savings, most valuable last; docs/DICTIONARY.md) and writes it to --output. \
            The same options always give the same bytes.

            --evaluate frames a held-out corpus (seed + 1) with and without the \
            dictionary and prints the ratios; --sweep does so for several sizes.

            Example:
              imcodec-devtools train-dictionary --output Schemas/dictionaries/1.bin --evaluate
            """
    )

    @Option(help: "The corpus seed.")
    var seed: UInt64 = 488_403_200

    @Option(help: "How many training payloads to generate.")
    var samples = 20_000

    @Option(help: "The dictionary size in bytes.")
    var size = 8_192

    @Option(help: "The segment length of the trainer.")
    var segment = 64

    @Option(help: "The d-mer length of the trainer, 4 to 8.")
    var dmer = 6

    @Option(help: "Where to write the dictionary.")
    var output: String?

    @Flag(help: "Print the ratios on a held-out corpus with and without the dictionary.")
    var evaluate = false

    @Flag(help: "Print the ratios of dictionaries of 1, 2, 4, 8, 16 and 32 KiB.")
    var sweep = false

    func validate() throws {
        guard (4...8).contains(dmer) else { throw ValidationError("--dmer must be 4 to 8") }
        guard segment > dmer else { throw ValidationError("--segment must be longer than --dmer") }
        guard (1...32_000).contains(size) else { throw ValidationError("--size must be 1 to 32000") }
    }

    func run() throws {
        var corpus = TrainingCorpus(seed: seed)
        let training = corpus.payloads(count: samples).map { $0.serializedBytes() }
        let trainer = DictionaryTrainer(dmerLength: dmer, segmentLength: segment)
        let dictionary = trainer.train(samples: training, size: size)
        if let output {
            try Data(dictionary).write(to: URL(fileURLWithPath: output))
            print(
                "wrote \(dictionary.count) bytes to \(output) from \(training.count) payloads "
                    + "(\(training.map(\.count).reduce(0, +)) bytes)")
        }
        guard evaluate || sweep else { return }

        var heldOut = TrainingCorpus(seed: seed &+ 1)
        let payloads = heldOut.payloads(count: 5_000).map { ($0.serializedBytes(), $0.kind) }
        let mean = payloads.map(\.0.count).reduce(0, +) / payloads.count
        print("held-out corpus: \(payloads.count) payloads, mean \(mean) bytes")
        report("no compression", DictionaryEvaluation(payloads: payloads, policy: .disabled))
        for threshold in [256, 0] {
            report(
                "threshold \(threshold), no dictionary",
                DictionaryEvaluation(payloads: payloads, policy: CompressionPolicy(threshold: threshold)))
            if evaluate {
                report(
                    "threshold \(threshold), this dictionary (\(dictionary.count) B)",
                    evaluation(payloads, threshold: threshold, dictionary: dictionary))
            }
            if sweep {
                for kib in [1, 2, 4, 8, 16, 32] where kib * 1_024 != dictionary.count {
                    let other = trainer.train(samples: training, size: min(kib * 1_024, 32_000))
                    report(
                        "threshold \(threshold), \(other.count) B dictionary",
                        evaluation(payloads, threshold: threshold, dictionary: other))
                }
            }
        }
    }

    /// Frames the payloads with a candidate dictionary.
    private func evaluation(_ payloads: [([UInt8], FrameKind)], threshold: Int, dictionary: [UInt8])
        -> DictionaryEvaluation
    {
        let candidate = PresetDictionary(id: .max, bytes: dictionary)
        return DictionaryEvaluation(
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
