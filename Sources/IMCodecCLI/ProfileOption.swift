import ArgumentParser
import IMCodec
import IMCodecValidation

/// The validation limit profiles, as `--profile` spells them.
enum ProfileOption: String, ExpressibleByArgument, CaseIterable {
    case seed, current

    /// The profile's limits.
    var limits: ValidationLimits {
        switch self {
        case .seed: .seed
        case .current: .current
        }
    }
}
