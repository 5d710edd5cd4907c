extension IMCodecError.Code {
    // MARK: Frame codes (docs/spec/frame-format.md)

    /// The input ends inside a frame's header or body.
    public static let frameTruncated = Self("frame.truncated")
    /// The version byte is not `0x01`.
    public static let frameVersion = Self("frame.version")
    /// The kind bits of the flags byte are 0.
    public static let frameKind = Self("frame.kind")
    /// The compression bits of the flags byte are 3.
    public static let frameCompression = Self("frame.compression")
    /// One of the reserved flag bits 5–7 is set.
    public static let frameReservedBits = Self("frame.reserved-bits")
    /// The dictionary bit is set on an uncompressed frame, or the dictionary
    /// id is 0 or names no known dictionary.
    public static let frameDictionary = Self("frame.dictionary")
    /// A header varint is longer than 5 bytes, above 2^32 − 1, or not
    /// minimally encoded.
    public static let frameVarint = Self("frame.varint")
    /// A compressed body is not a valid raw deflate stream, ends early, or
    /// ends before the body does.
    public static let frameDeflate = Self("frame.deflate")
    /// A zstd body is not one valid magicless zstd frame (with the named
    /// dictionary), ends before its last block, or ends before the body does.
    public static let frameZstd = Self("frame.zstd")
    /// A zstd body's frame header declares a window larger than 8 MiB
    /// (window log 23), the most a reader accepts.
    public static let frameZstdWindow = Self("frame.zstd-window")
    /// A zstd frame reached a reader built without zstd (the `Zstd` package
    /// trait off), or a writer in such a build was asked for zstd.
    public static let frameZstdUnavailable = Self("frame.zstd-unavailable")
    /// A compressed body inflates to more or fewer bytes than the header's
    /// payload length.
    public static let framePayloadLength = Self("frame.payload-length")
    /// The CRC-32 over the header and the payload does not match the stored
    /// checksum.
    public static let frameChecksum = Self("frame.checksum")
    /// A single-frame decoder was given bytes after the end of the frame.
    public static let frameTrailingBytes = Self("frame.trailing-bytes")
    /// A typed decode expected one kind of frame and found another.
    public static let frameUnexpectedKind = Self("frame.unexpected-kind")
}
