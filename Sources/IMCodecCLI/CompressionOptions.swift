import ArgumentParser
import IMCodec

/// The compression options of `encode`: they build a ``CompressionPolicy``.
struct CompressionOptions: ParsableArguments {
    /// Whether to compress at all.
    enum Mode: String, ExpressibleByArgument, CaseIterable {
        /// Never compress: every frame stores its payload.
        case none
        /// Deflate payloads of at least the threshold when that makes them smaller.
        case auto
        /// zstd instead of deflate (needs a build with the `Zstd` trait).
        case zstd

        /// The algorithm this mode compresses with; `nil` for `none`.
        var algorithm: CompressionPolicy.Algorithm? {
            switch self {
            case .none: nil
            case .auto: .deflate
            case .zstd: .zstd
            }
        }
    }

    @Option(
        help: ArgumentHelp(
            "'auto' deflates payloads of at least --threshold bytes when that makes them smaller; 'zstd' compresses with zstd; 'none' stores every payload. Each takes the library's defaults for the options below that are not given."
        ))
    var compression: Mode = .auto

    // Unconditional: `--threshold -5` takes -5 as the value (and refuses
    // it as negative) rather than reading it as an option.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Payloads shorter than this many bytes are stored. 0 tries every payload. Default \(CompressionPolicy.default.threshold) with deflate, \(CompressionPolicy.zstd().threshold) with zstd.",
            valueName: "bytes"))
    var threshold: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The level: deflate's 1 (fastest) to 9 (smallest), default \(CompressionPolicy.default.level); zstd's 1 to \(CompressionPolicy.Algorithm.zstd.levels.upperBound), default \(CompressionPolicy.zstd().level).",
            valueName: "level"))
    var level: Int?

    @Option(
        help: ArgumentHelp(
            "Compress with this shipped dictionary (\(HelpText.dictionaryIDs)), or 'none'. Default \(HelpText.defaultDictionary) with deflate, \(HelpText.zstdDictionary) with zstd.",
            valueName: "id"))
    var dictionary: DictionaryOption?

    func validate() throws {
        if let threshold, threshold < 0 { throw negativeOption("--threshold", threshold) }
        if let level, let algorithm = compression.algorithm {
            // Level 0 stores deflate blocks and never makes a frame smaller.
            let levels = 1...algorithm.levels.upperBound
            guard levels.contains(level) else {
                throw ValidationError("--level must be \(levels.lowerBound) to \(levels.upperBound)")
            }
        }
        if compression == .zstd && !FrameCompression.zstd.isAvailable {
            throw ValidationError("--compression zstd: this build has no zstd (the Zstd trait is off)")
        }
    }

    /// The policy these options describe: the library's policy for the
    /// algorithm (``CompressionPolicy/default`` for deflate,
    /// ``CompressionPolicy/zstd(level:dictionary:threshold:)``'s defaults for
    /// zstd) with the options given put in its place.
    var policy: CompressionPolicy {
        guard let algorithm = compression.algorithm else { return .disabled }
        let defaults = algorithm == .zstd ? CompressionPolicy.zstd() : CompressionPolicy.default
        return CompressionPolicy(
            algorithm: algorithm, level: level, threshold: threshold ?? defaults.threshold,
            dictionary: dictionary.map(\.dictionary) ?? defaults.dictionary)
    }
}

/// `--dictionary`: a shipped dictionary's id, or `none`.
struct DictionaryOption: ExpressibleByArgument {
    /// The dictionary, or `nil` for `none`.
    let dictionary: PresetDictionary?

    /// Reads `none` or the id of a shipped dictionary.
    ///
    /// - Parameter argument: `none` or an id of ``PresetDictionary/known``.
    init?(argument: String) {
        if argument == "none" {
            dictionary = nil
        } else if let id = UInt32(argument), let known = PresetDictionary(id: id) {
            dictionary = known
        } else {
            return nil
        }
    }

    /// The values `--help` lists.
    static var allValueStrings: [String] { PresetDictionary.known.map { String($0.id) } + ["none"] }
}
