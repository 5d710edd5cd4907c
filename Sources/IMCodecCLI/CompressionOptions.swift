import ArgumentParser
import IMCodec

/// The compression options of `encode`: they build a ``CompressionPolicy``.
struct CompressionOptions: ParsableArguments {
    /// Whether to compress at all.
    enum Mode: String, ExpressibleByArgument, CaseIterable {
        /// Never compress: every frame stores its payload.
        case none
        /// Compress payloads of at least the threshold when that makes them smaller.
        case auto
    }

    @Option(
        help: ArgumentHelp(
            "'auto' deflates payloads of at least --threshold bytes when that makes them smaller; 'none' stores every payload."
        ))
    var compression: Mode = .auto

    @Option(
        help: ArgumentHelp(
            "Payloads shorter than this many bytes are stored. 0 tries every payload.", valueName: "bytes"))
    var threshold: Int = CompressionPolicy.default.threshold

    @Option(help: ArgumentHelp("The zlib level, 1 (fastest) to 9 (smallest).", valueName: "1-9"))
    var level: Int = CompressionPolicy.default.level

    @Option(
        help: ArgumentHelp(
            "Prime deflate with this shipped preset dictionary (1 or 2: IM messages). Default: none.", valueName: "id"))
    var dictionary: UInt32?

    func validate() throws {
        guard threshold >= 0 else { throw ValidationError("--threshold must be 0 or more") }
        guard (1...9).contains(level) else { throw ValidationError("--level must be 1 to 9") }
        if let dictionary, PresetDictionary(id: dictionary) == nil {
            let known = PresetDictionary.known.map { String($0.id) }.joined(separator: ", ")
            throw ValidationError("--dictionary \(dictionary) is not a shipped dictionary (known: \(known))")
        }
    }

    /// The policy these options describe.
    var policy: CompressionPolicy {
        switch compression {
        case .none:
            .disabled
        case .auto:
            CompressionPolicy(
                threshold: threshold, level: level, dictionary: dictionary.flatMap { PresetDictionary(id: $0) })
        }
    }
}
