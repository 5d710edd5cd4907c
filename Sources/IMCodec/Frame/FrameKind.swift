/// What a frame's payload holds: the kind bits (0–1) of the flags byte.
public enum FrameKind: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// One `imcodec.v1.Message`.
    case message = 1
    /// One `imcodec.v1.MessageBatch`: a history page or an offline sync.
    case batch = 2
    /// One `imcodec.v1.Event`.
    case event = 3

    /// `message`, `batch` or `event`.
    public var description: String {
        switch self {
        case .message: "message"
        case .batch: "batch"
        case .event: "event"
        }
    }

    /// The kind named `name` (its ``description``), as vector files, the
    /// command line and the testee protocol name kinds.
    ///
    /// - Parameter name: `message`, `batch` or `event`.
    package init?(name: String) {
        guard let kind = Self.allCases.first(where: { $0.description == name }) else { return nil }
        self = kind
    }
}
