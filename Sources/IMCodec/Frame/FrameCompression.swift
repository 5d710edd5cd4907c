/// How a frame's body stores its payload: the compression bits (2–3) of the
/// flags byte.
public enum FrameCompression: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The body is the payload.
    case none = 0
    /// The body is a raw deflate stream (zlib `windowBits` −15) of the payload.
    case deflate = 1
    /// The body is one magicless zstd frame of the payload, without the
    /// content size, checksum and dictionary id fields (the frame header
    /// holds them). Readers built without the `Zstd` package trait answer
    /// these frames with `frame.zstd-unavailable`.
    case zstd = 2

    /// `none`, `deflate` or `zstd`.
    public var description: String {
        switch self {
        case .none: "none"
        case .deflate: "deflate"
        case .zstd: "zstd"
        }
    }

    /// Whether this build of the library reads and writes this compression:
    /// `false` only for ``zstd`` in a build without the `Zstd` trait.
    public var isAvailable: Bool {
        switch self {
        case .none, .deflate: true
        case .zstd:
            #if Zstd
                true
            #else
                false
            #endif
        }
    }
}
