extension DecodingLimits {
    /// The deepest nesting of arrays and objects a proto3 JSON document may
    /// reach: each merger layer nests about five containers, and eight
    /// leave room for the values inside a layer: `8 × maxDepth + 64`
    /// (`docs/spec/payloads.md`, "JSON input").
    package var jsonNesting: Int {
        let (layers, overflow) = maxDepth.multipliedReportingOverflow(by: 8)
        return overflow ? .max : layers.addingReportingOverflow(64).overflow ? .max : layers + 64
    }
}
