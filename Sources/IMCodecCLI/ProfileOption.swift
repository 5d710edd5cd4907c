import ArgumentParser
import IMCodec
import IMCodecValidation

/// A validation limit profile, as `--profile` names it: one of
/// ``ValidationLimits/profileNames`` or an earlier name of one, read through
/// the table generated from `Schemas/` that every implementation reads
/// (Sources/IMCodec/IMCodec.docc/Migration.md).
struct ProfileOption: ExpressibleByArgument {
    /// The profile's own name, also when an earlier one was given.
    let name: String
    /// The profile's limits.
    let limits: ValidationLimits

    /// The default profile, `sdk-guide`.
    static let sdkGuide = ProfileOption(name: "sdk-guide", limits: .sdkGuide)

    private init(name: String, limits: ValidationLimits) {
        self.name = name
        self.limits = limits
    }

    /// Reads a profile's name.
    ///
    /// - Parameter argument: A name of ``ValidationLimits/profileNames``, or
    ///   an earlier name of one.
    init?(argument: String) {
        guard let profile = ValidationLimits.profilesByName[argument] else { return nil }
        self.init(name: profile.name, limits: profile.limits)
    }

    /// The names `--help` lists.
    static var allValueStrings: [String] { ValidationLimits.profileNames }

    /// The names shell completion offers.
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }

    /// The name `--help` shows as the default.
    var defaultValueDescription: String { name }
}
