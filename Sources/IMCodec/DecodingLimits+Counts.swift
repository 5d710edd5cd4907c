extension DecodingLimits {
    /// The most entries any repeated field may hold under these limits: the
    /// largest of ``maxElems``, ``maxRepeated`` and ``maxBatchMessages``.
    ///
    /// A JSON reader counts the entries of an array at most this far, plus
    /// one, which no schema field accepts anyway, so the count limit of the
    /// field refuses such an array exactly as it would refuse it counted
    /// whole (`docs/spec/payloads.md`, "JSON input").
    public var largestCount: Int { Swift.max(maxElems, maxRepeated, maxBatchMessages) }

    /// The deepest nesting of arrays and objects a proto3 JSON document may
    /// reach: each merger layer nests about five containers, and eight
    /// leave room for the values inside a layer.
    package var jsonNesting: Int {
        let (layers, overflow) = maxDepth.multipliedReportingOverflow(by: 8)
        return overflow ? .max : layers.addingReportingOverflow(64).overflow ? .max : layers + 64
    }
}
