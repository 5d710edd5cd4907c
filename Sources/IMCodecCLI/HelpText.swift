import IMCodec
import IMCodecValidation

/// The names and values the help texts state, made from the library's own
/// lists and defaults, so that no help names a compression, dictionary,
/// profile or limit the code does not have, or leaves one out (the
/// help-text test of `CLITests` reads every help the tool prints).
enum HelpText {
    /// The compressions a frame can carry besides none, from
    /// ``FrameCompression``: `deflate or zstd`.
    static let compressions = list(FrameCompression.allCases.filter { $0 != .none }.map(\.description))

    /// The ids of the shipped dictionaries, from
    /// ``PresetDictionary/known``: `1, 2, 3 or 4`.
    static let dictionaryIDs = list(PresetDictionary.known.map { String($0.id) })

    /// The validation profiles, the default first, from
    /// ``ValidationLimits/profileNames``: `sdk-guide (the default) or current`.
    static let profiles = list(
        ValidationLimits.profileNames.map { $0 == ProfileOption.sdkGuide.name ? "\($0) (the default)" : $0 })

    /// The dictionary of the library's zstd policy, as `dictionary 4`, or
    /// `no dictionary`.
    static let zstdDictionary = dictionary(CompressionPolicy.zstd().dictionary)

    /// The dictionary of the library's default policy.
    static let defaultDictionary = dictionary(CompressionPolicy.default.dictionary)

    /// A number of bytes as the help states it: in MiB or KiB when it is a
    /// whole number of them, otherwise in bytes.
    static func bytes(_ count: Int) -> String {
        if count >= 1 << 20 && count % (1 << 20) == 0 { return "\(count >> 20) MiB" }
        if count >= 1 << 10 && count % (1 << 10) == 0 { return "\(count >> 10) KiB" }
        return "\(count) bytes"
    }

    /// A number of bytes, or `no limit`.
    static func bytes(_ count: Int?) -> String {
        count.map { bytes($0) } ?? "no limit"
    }

    /// A set of numbers in increasing order, `1, 2 and 3`, or `any`.
    static func sorted(_ values: Set<Int32>?) -> String {
        guard let values else { return "any" }
        let items = values.sorted().map(String.init)
        guard let last = items.last else { return "none" }
        return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " and " + last
    }

    private static func dictionary(_ dictionary: PresetDictionary?) -> String {
        dictionary.map { "dictionary \($0.id)" } ?? "no dictionary"
    }

    /// `a`, `a or b`, `a, b or c`.
    private static func list(_ items: [String]) -> String {
        guard let last = items.last else { return "" }
        let rest = items.dropLast()
        return rest.isEmpty ? last : rest.joined(separator: ", ") + " or " + last
    }
}
