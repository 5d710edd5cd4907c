import ArgumentParser
import IMCodec
import IMCodecValidation

/// The validation limit profiles, as `--profile` spells them.
enum ProfileOption: String, ExpressibleByArgument, CaseIterable {
    case sdkGuide = "sdk-guide"
    case current

    /// Reads a profile's name; `seed`, the earlier name of `sdk-guide`, is
    /// accepted too (Sources/IMCodec/IMCodec.docc/Migration.md).
    ///
    /// - Parameter argument: `sdk-guide`, `seed` or `current`.
    init?(argument: String) {
        self.init(rawValue: argument == "seed" ? Self.sdkGuide.rawValue : argument)
    }

    /// The profile's limits.
    var limits: ValidationLimits {
        switch self {
        case .sdkGuide: .sdkGuide
        case .current: .current
        }
    }
}
