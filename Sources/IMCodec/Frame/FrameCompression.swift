/// How a frame's body stores its payload: the compression bits (2–3) of the
/// flags byte.
public enum FrameCompression: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The body is the payload.
    case none = 0
    /// The body is a raw deflate stream (zlib `windowBits` −15) of the payload.
    case deflate = 1

    /// `none` or `deflate`.
    public var description: String {
        switch self {
        case .none: "none"
        case .deflate: "deflate"
        }
    }
}
