import IMCodec

extension RESTCodec {
    /// Reads a message from a REST document held as a `String`: a bare
    /// `MsgBody` array or a message object.
    ///
    /// - Parameters:
    ///   - text: The document.
    ///   - limits: Bounds on elements, arrays, batch size and relay nesting.
    /// - Returns: The message and the envelope keys skipped.
    /// - Throws: What the UTF-8 form throws: `json.*`, `rest.*` or `limit.*`
    ///   with its JSON path.
    public static func importMessage(
        _ text: String, limits: DecodingLimits = .default
    ) throws(IMCodecError) -> RESTImport<Message> {
        try importMessage(text.utf8, limits: limits)
    }

    /// Reads any REST document held as a `String`: a message list as a
    /// batch, anything else as a message.
    ///
    /// - Parameters:
    ///   - text: The document.
    ///   - limits: Bounds on elements, arrays, batch size and relay nesting.
    /// - Returns: The payload and the envelope keys skipped.
    /// - Throws: What the UTF-8 form throws: `json.*`, `rest.*` or `limit.*`
    ///   with its JSON path.
    public static func importPayload(
        _ text: String, limits: DecodingLimits = .default
    ) throws(IMCodecError) -> RESTImport<FramePayload> {
        try importPayload(text.utf8, limits: limits)
    }
}
