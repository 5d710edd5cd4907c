import ArgumentParser
import IMCodec

/// The decoding limits options of `encode`, `decode` and `inspect`: they
/// build a ``DecodingLimits``, each option left out keeping its default.
///
/// A reader refuses a frame past its limits; a writer refuses to write one
/// that readers with these limits would refuse, so `encode` takes the limits
/// of the readers its frames are for. Each takes the next argument as its
/// value even when it starts with `-`, so `--max-depth -1` is refused as
/// negative (`usage.negative`), not read as a missing value.
struct LimitOptions: ParsableArguments {
    /// The defaults the help text states.
    private static let defaults = DecodingLimits.default
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The largest frame body readers accept. Default \(Self.defaults.maxFrameBytes).", valueName: "bytes"))
    var maxFrameBytes: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The largest payload a frame may inflate to. Default \(Self.defaults.maxInflatedBytes).",
            valueName: "bytes"))
    var maxInflatedBytes: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The largest payload-to-body ratio of a compressed frame. Default \(Self.defaults.maxInflateRatio).",
            valueName: "n"))
    var maxInflateRatio: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("How many merger layers may nest. Default \(Self.defaults.maxDepth).", valueName: "n"))
    var maxDepth: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The most elems one message may hold. Default \(Self.defaults.maxElems).", valueName: "n"))
    var maxElems: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The most entries any other repeated field may hold. Default \(Self.defaults.maxRepeated).",
            valueName: "n"))
    var maxRepeated: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The most messages one batch may hold. Default \(Self.defaults.maxBatchMessages).", valueName: "n"))
    var maxBatchMessages: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The largest JSON document read. Default \(Self.defaults.maxDocumentBytes).", valueName: "bytes"))
    var maxDocumentBytes: Int?

    /// Each option with its name, for the checks.
    private var given: [(String, Int?)] {
        [
            ("--max-frame-bytes", maxFrameBytes), ("--max-inflated-bytes", maxInflatedBytes),
            ("--max-inflate-ratio", maxInflateRatio), ("--max-depth", maxDepth), ("--max-elems", maxElems),
            ("--max-repeated", maxRepeated), ("--max-batch-messages", maxBatchMessages),
            ("--max-document-bytes", maxDocumentBytes),
        ]
    }

    func validate() throws {
        for (name, value) in given {
            if let value, value < 0 { throw negativeOption(name, value) }
        }
    }

    /// The limits these options describe.
    var limits: DecodingLimits {
        var limits = DecodingLimits.default
        if let maxFrameBytes { limits.maxFrameBytes = maxFrameBytes }
        if let maxInflatedBytes { limits.maxInflatedBytes = maxInflatedBytes }
        if let maxInflateRatio { limits.maxInflateRatio = maxInflateRatio }
        if let maxDepth { limits.maxDepth = maxDepth }
        if let maxElems { limits.maxElems = maxElems }
        if let maxRepeated { limits.maxRepeated = maxRepeated }
        if let maxBatchMessages { limits.maxBatchMessages = maxBatchMessages }
        if let maxDocumentBytes { limits.maxDocumentBytes = maxDocumentBytes }
        return limits
    }
}
