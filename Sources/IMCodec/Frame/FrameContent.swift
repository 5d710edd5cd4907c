/// A model type that a frame can hold on its own: `Message`, `MessageBatch`
/// or `Event`, each tied to its ``FrameKind``.
public protocol FrameContent: WireMessage {
    /// The kind a frame holding this type declares.
    static var frameKind: FrameKind { get }
}

extension Message: FrameContent {
    /// ``FrameKind/message``.
    public static var frameKind: FrameKind { .message }
}

extension MessageBatch: FrameContent {
    /// ``FrameKind/batch``.
    public static var frameKind: FrameKind { .batch }
}

extension Event: FrameContent {
    /// ``FrameKind/event``.
    public static var frameKind: FrameKind { .event }
}
