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
/// project's kind of machine (2 cores; docs/PERFORMANCE.md and
/// docs/DICTIONARY.md have the corpora):
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
///
/// ``algorithm`` chooses deflate (the default: every platform and browser
/// inflates it) or zstd (``zstd(level:dictionary:threshold:)``: with its
/// trained dictionary, frames about 6% smaller than deflate's with a
/// dictionary, written in a sixth of the time and read in three quarters of
/// it on the traffic model, but its readers need libzstd). Choose zstd when every
/// reader of the frames is built with it (servers, native clients with the
/// `Zstd` trait); keep deflate for frames a browser or a build without
/// libzstd must read.
public struct CompressionPolicy: Hashable, Sendable {
    /// The compression a policy writes frames with.
    public enum Algorithm: Hashable, Sendable {
        /// Raw deflate through zlib (compression 1); levels 0...9.
        case deflate
        /// Magicless zstd frames through libzstd (compression 2); levels
        /// 1...19. Needs the `Zstd` package trait.
        case zstd

        /// The compression value frames written this way carry.
        public var frameCompression: FrameCompression {
            switch self {
            case .deflate: .deflate
            case .zstd: .zstd
            }
        }

        /// The levels this algorithm takes.
        public var levels: ClosedRange<Int> {
            switch self {
            case .deflate: 0...9
            case .zstd: 1...19
            }
        }
    }

    /// The compression algorithm. Default deflate.
    public var algorithm: Algorithm = .deflate
    /// Payloads shorter than this many bytes are stored without trying to
    /// compress them. Default 256.
    public var threshold: Int = 256
    /// The compression level. For deflate, zlib's 1 (fastest) to 9
    /// (smallest); 0 stores deflate blocks uncompressed and so never gives a
    /// smaller body. For zstd, 1 to 19 (levels past 19 need windows larger
    /// than readers accept). Default 6.
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
        precondition(Algorithm.deflate.levels.contains(level), "zlib levels are 0...9")
        self.threshold = threshold
        self.level = level
        self.dictionary = dictionary
    }

    /// Creates a zstd policy.
    ///
    /// The defaults are those measured on the traffic model
    /// (`docs/PERFORMANCE.md`, `docs/DICTIONARY.md`): level 3 and a trained
    /// zstd dictionary make single messages about 0.41 of their size, with
    /// about 1.6 µs of zstd per message, and with a dictionary even short
    /// payloads shrink, so every payload is tried.
    ///
    /// - Parameters:
    ///   - level: The zstd level, 1...19.
    ///   - dictionary: The dictionary to compress with, or `nil`. Default
    ///     ``PresetDictionary/zstdMessages``.
    ///   - threshold: Payloads shorter than this are stored. Default 0.
    /// - Returns: The policy.
    public static func zstd(
        level: Int = 3, dictionary: PresetDictionary? = .zstdMessages, threshold: Int = 0
    ) -> CompressionPolicy {
        precondition(Algorithm.zstd.levels.contains(level), "zstd levels are 1...19")
        var policy = CompressionPolicy(threshold: threshold, level: 6, dictionary: dictionary)
        policy.algorithm = .zstd
        policy.level = level
        return policy
    }

    /// The default policy: threshold 256 bytes, level 6, no dictionary.
    public static let `default` = CompressionPolicy()

    /// A policy that never compresses: every frame stores its payload.
    public static let disabled = CompressionPolicy(threshold: .max)

    /// A policy for `algorithm` at `level`, or at the default level of the
    /// algorithm's public constructor when `level` is `nil` (deflate's of
    /// ``init(threshold:level:dictionary:)``, zstd's of
    /// ``zstd(level:dictionary:threshold:)``): what `imcodec encode
    /// --compression --level` and the testee protocol's `encode_frame` ask
    /// for, so that neither writes a default of its own.
    ///
    /// - Parameters:
    ///   - algorithm: The compression.
    ///   - level: A level of `algorithm.levels`, or `nil` for the default.
    ///   - threshold: Payloads shorter than this are stored uncompressed.
    ///   - dictionary: The preset dictionary to use, or `nil`.
    package init(algorithm: Algorithm, level: Int?, threshold: Int, dictionary: PresetDictionary?) {
        switch algorithm {
        case .deflate:
            self.init(threshold: threshold, level: level ?? Self.default.level, dictionary: dictionary)
        case .zstd:
            self = .zstd(level: level ?? Self.zstd().level, dictionary: dictionary, threshold: threshold)
        }
    }

    /// Whether a payload of `length` bytes is worth an attempt to deflate.
    ///
    /// Deflate needs at least 2 bytes even for an empty payload (zstd 5), so
    /// payloads of 2 bytes or fewer can never shrink.
    @inlinable
    func attemptsCompression(ofLength length: Int) -> Bool {
        length >= threshold && length > 2
    }
}
