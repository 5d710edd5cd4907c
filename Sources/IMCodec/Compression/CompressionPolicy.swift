/// When and how a ``FrameEncoder`` compresses a payload.
///
/// A payload is deflated only when it is at least ``threshold`` bytes long,
/// and the deflated body is kept only when it is smaller than the payload and
/// a reader with the encoder's ``FrameEncoder/limits`` accepts the compressed
/// frame (its size, inflated size and ratio); otherwise the payload is
/// stored. So a frame is never larger than its payload plus the header, as
/// the frame format requires, however well its payload compresses.
///
/// The defaults come from measurements of zlib on single IM messages on the
/// project's kind of machine (`reference/measurements.md`):
///
/// - ``threshold`` 256 bytes: messages under 256 bytes only shrink to about
///   0.99 of their size while deflating one costs 17–19 µs against well under
///   1 µs for storing it; skipping them kept the corpus ratio (0.685 instead of
///   0.69) for 22% less time.
/// - ``level`` 6: on one message the time is the same at every level (building
///   the Huffman trees dominates), so the level only buys ratio on the larger
///   payloads, batches above all; 6 is zlib's own default balance of ratio and
///   speed on those.
/// - ``dictionary`` none: a preset dictionary improves the ratio a lot (from
///   0.69 to 0.45 on the measured corpus; 0.77 to 0.59 at this threshold on
///   the held-out corpus of `docs/DICTIONARY.md`), but priming the stream
///   costs about 1.45 µs per KiB of dictionary on every compressed frame, so
///   it is opt-in. With a dictionary, payloads under 256 bytes shrink too:
///   lower the threshold with it.
public struct CompressionPolicy: Hashable, Sendable {
    /// Payloads shorter than this many bytes are stored without trying to
    /// compress them. Default 256.
    public var threshold: Int = 256
    /// The zlib compression level, 1 (fastest) to 9 (smallest); 0 stores
    /// deflate blocks uncompressed and so never gives a smaller body.
    /// Default 6.
    public var level: Int = 6
    /// The preset dictionary to prime the compressor with, named in the
    /// header of every compressed frame. Default none.
    public var dictionary: PresetDictionary? = nil

    /// Creates the default policy: threshold 256 bytes, level 6, no dictionary.
    public init() {}

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - threshold: Payloads shorter than this are stored uncompressed.
    ///   - level: The zlib level, 0...9.
    ///   - dictionary: The preset dictionary to use, or `nil`.
    public init(threshold: Int = 256, level: Int = 6, dictionary: PresetDictionary? = nil) {
        precondition((0...9).contains(level), "zlib levels are 0...9")
        self.threshold = threshold
        self.level = level
        self.dictionary = dictionary
    }

    /// The default policy: threshold 256 bytes, level 6, no dictionary.
    public static let `default` = CompressionPolicy()

    /// A policy that never compresses: every frame stores its payload.
    public static let disabled = CompressionPolicy(threshold: .max)

    /// Whether a payload of `length` bytes is worth an attempt to deflate.
    ///
    /// Deflate needs at least 2 bytes even for an empty payload, so payloads of
    /// 2 bytes or fewer can never shrink.
    @inlinable
    func attemptsCompression(ofLength length: Int) -> Bool {
        length >= threshold && length > 2
    }
}
