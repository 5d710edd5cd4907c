import ArgumentParser
import IMCodec

/// The `--kind` values: which model type the JSON input holds.
enum KindOption: String, ExpressibleByArgument, CaseIterable {
    case message
    case batch
    case event

    /// The frame kind of this model type.
    var frameKind: FrameKind {
        switch self {
        case .message: .message
        case .batch: .batch
        case .event: .event
        }
    }
}
