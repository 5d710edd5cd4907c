extension CompressionPolicy {
    /// Deflate with the shipped dictionary 2 (``PresetDictionary/imMessages2``),
    /// trying every payload (threshold 0): the deflate policy with the
    /// smallest frames across both traffic models `docs/DICTIONARY.md`
    /// measures (0.472 of the payload bytes on average, against 0.73 to
    /// 0.77 for the ``default`` policy), for readers that have deflate but
    /// not zstd. With zstd readers, ``zstd(level:dictionary:threshold:)``
    /// is smaller still.
    ///
    /// A reader needs the same dictionary: every imcodec reader has the
    /// shipped ones.
    public static let deflateWithDictionary = CompressionPolicy(threshold: 0, level: 6, dictionary: .imMessages2)
}
