extension MessageBatch {
    /// Reads the proto3 JSON form of a batch as ``WireMessage/init(jsonUTF8:limits:)``
    /// does, with the same checks and errors, handing each message to `body`
    /// as soon as it is read instead of collecting them: a reader that
    /// validates or encodes the messages one by one holds one at a time.
    ///
    /// - Parameters:
    ///   - reader: A reader at the batch's object, in a document
    ///     ``JSONDocument`` has checked with `limits`.
    ///   - limits: Bounds on depth and repeated counts.
    ///   - body: Called with each message and its index, in order.
    /// - Throws: `json.*` and `limit.*` codes with the path.
    package static func readMessages(
        _ reader: inout JSONReader, limits: DecodingLimits, _ body: (Message, Int) -> Void
    ) throws(IMCodecError) {
        var context = JSONDecodeContext(limits: limits)
        try _json(&reader, &context, eachMessage: body)
    }

    /// Reads the proto3 JSON form of a batch from its text, handing each
    /// message to `body` as soon as it is read.
    ///
    /// - Parameters:
    ///   - jsonUTF8: The JSON text as UTF-8 bytes.
    ///   - limits: Bounds on the document's size, depth and repeated counts.
    ///   - body: Called with each message and its index, in order.
    /// - Throws: The codes of ``WireMessage/init(jsonUTF8:limits:)``.
    package static func readMessages(
        jsonUTF8: some Collection<UInt8>, limits: DecodingLimits, _ body: (Message, Int) -> Void
    ) throws(IMCodecError) {
        try JSONDocument.read(jsonUTF8, limits: limits, maxNesting: limits.jsonNesting) {
            (reader) throws(IMCodecError) in
            try readMessages(&reader, limits: limits, body)
        }
    }
}
