import ArgumentParser
import IMCodec

/// The `--kind` values: which model type the JSON input holds.
enum KindOption: String, ExpressibleByArgument, CaseIterable {
    case message
    case batch
    case event

    /// The frame kind of this model type: the kind of the same name.
    var frameKind: FrameKind {
        guard let kind = FrameKind(name: rawValue) else {
            preconditionFailure("--kind \(rawValue) names no frame kind")
        }
        return kind
    }
}
