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
            "'auto' deflates payloads of at least --threshold bytes when that makes them smaller; 'zstd' does so with zstd; 'none' stores every payload."
        ))
    var compression: Mode = .auto

    // Unconditional: `--threshold -5` takes -5 as the value (and refuses
    // it as negative) rather than reading it as an option.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Payloads shorter than this many bytes are stored. 0 tries every payload.", valueName: "bytes"))
    var threshold: Int = CompressionPolicy.default.threshold

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The level: zlib's 1 (fastest) to 9 (smallest), default \(CompressionPolicy.default.level); zstd's 1 to 19, default \(CompressionPolicy.zstd().level).",
            valueName: "level"))
    var level: Int?

    @Option(
        help: ArgumentHelp(
            "Compress with this shipped dictionary (1 to 4: IM messages; 3 and 4 are zstd dictionaries). Default: none.",
            valueName: "id"))
    var dictionary: UInt32?

    func validate() throws {
        guard threshold >= 0 else { throw negativeOption("--threshold", threshold) }
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
        if let dictionary, PresetDictionary(id: dictionary) == nil {
            let known = PresetDictionary.known.map { String($0.id) }.joined(separator: ", ")
            throw ValidationError("--dictionary \(dictionary) is not a shipped dictionary (known: \(known))")
        }
    }

    /// The policy these options describe.
    var policy: CompressionPolicy {
        guard let algorithm = compression.algorithm else { return .disabled }
        return CompressionPolicy(
            algorithm: algorithm, level: level, threshold: threshold,
            dictionary: dictionary.flatMap { PresetDictionary(id: $0) })
    }
}
