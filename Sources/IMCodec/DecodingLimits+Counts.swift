extension DecodingLimits {
    /// The most entries any repeated field may hold under these limits: the
    /// largest of ``maxElems``, ``maxRepeated`` and ``maxBatchMessages``.
    ///
    /// JSON parsing keeps at most this many entries of an array, plus one (the
    /// rest are checked for syntax, then dropped), which no schema field
    /// accepts anyway, so the count limit of the field refuses such an array
    /// exactly as it would refuse it whole (`docs/spec/payloads.md`, "JSON input").
    public var largestCount: Int { Swift.max(maxElems, maxRepeated, maxBatchMessages) }
}
