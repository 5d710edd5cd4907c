extension DecodingLimits {
    /// The most entries any repeated field may hold under these limits: the
    /// largest of ``maxElems``, ``maxRepeated`` and ``maxBatchMessages``.
    ///
    /// A JSON reader counts the entries of an array at most this far, plus
    /// one, which no schema field accepts anyway, so the count limit of the
    /// field refuses such an array exactly as it would refuse it counted
    /// whole (`docs/spec/payloads.md`, "JSON input").
    public var largestCount: Int { Swift.max(maxElems, maxRepeated, maxBatchMessages) }
}
