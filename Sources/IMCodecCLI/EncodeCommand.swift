import ArgumentParser
import IMCodec
import IMCodecREST
import IMCodecValidation

/// `imcodec encode`: JSON in, frames out.
struct EncodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Encode proto3 JSON as a frame.",
        discussion: """
            Reads one JSON document (a Message, MessageBatch or Event in its proto3 \
            JSON form, as --kind says) and writes its frame. With --lines every \
            non-empty line is a document, and the frames are written back to back \
            as a stream, all or nothing: the first line that fails stops the \
            command (exit 1, the error naming the line) and no frame is written.

            Compression (none, \(HelpText.compressions)): by default ('--compression \
            auto') a payload of at least --threshold bytes \
            (\(CompressionPolicy.default.threshold)) is deflated at --level \
            (\(CompressionPolicy.default.level)) with \(HelpText.defaultDictionary) and kept \
            compressed only when that makes it smaller: a payload shorter than \
            \(CompressionPolicy.default.threshold) bytes, such as most chat messages, is stored \
            uncompressed. '--compression zstd' takes the library's zstd policy: \
            threshold \(CompressionPolicy.zstd().threshold), level \(CompressionPolicy.zstd().level), \
            \(HelpText.zstdDictionary). '--compression none' stores every payload. \
            --dictionary (\(HelpText.dictionaryIDs), or none) primes the compressor \
            with a shipped IM dictionary; readers need no option for it.

            Each document is validated against the documented limits first \
            (--profile \(HelpText.profiles); docs/spec/validation.md): an error \
            finding stops the command with 'validation.failed' and the finding's \
            code and path; --no-validate encodes without checking.

            --from restapi reads Tencent Cloud IM REST JSON instead (Sources/IMCodecREST/IMCodecREST.docc/REST.md): a \
            MsgBody array or a message object (a send request, a callback) becomes a \
            message frame, a message list (MsgList or RspMsgList) a batch frame; \
            --kind is not used. Envelope keys that are not part of the message \
            (CallbackCommand, MsgTime, ...) are named on standard error. Validation \
            then also measures the REST rules on the REST form.

            Nothing is written that a reader with the default decoding limits \
            would refuse: a frame whose body would pass --max-frame-bytes, or a \
            value past --max-depth, --max-elems, --max-repeated or \
            --max-batch-messages, stops the command with that limit's code \
            (docs/spec/error-and-finding-codes.md), and a compressed body a reader would refuse is \
            stored instead. Pass the limits of the readers the frames are for when \
            they differ from the defaults.

            A JSON document (a line, with --lines) past --max-document-bytes \
            (\(HelpText.bytes(DecodingLimits.default.maxDocumentBytes))) is refused with 'limit.document-size' as soon as that much \
            has been read; with --lines the input is read a line at a time.

            Frames are binary: they are not written to a terminal unless asked for \
            with '--output -'.

            Examples:
              imcodec encode message.json > message.frame
              echo '{"sender":"a","receiver":"b","elems":[{"text":{"text":"hi"}}]}' | imcodec encode | imcodec decode
              echo '{"msgId":"draft"}' | imcodec encode --no-validate > draft.frame
              imcodec encode --kind event --output recall.frame recall.json
              imcodec encode --lines --dictionary 1 --threshold 0 -o all.frames all.jsonl
              imcodec encode --from restapi --profile current callback.json > message.frame
            """
    )

    @OptionGroup var inputOptions: InputOptions
    @OptionGroup var outputOptions: OutputOptions
    @OptionGroup var compressionOptions: CompressionOptions
    @OptionGroup(title: "Reader limits") var limitOptions: LimitOptions

    @Option(help: "What the JSON holds.")
    var kind: KindOption = .message

    @Option(help: "The input's JSON: json (proto3 JSON, the default) or restapi (Tencent REST MsgBody JSON).")
    var from: DocumentFormatOption = .json

    @Flag(
        help:
            "Read one JSON document per line and write a stream of frames; a line that fails stops the command before any frame is written."
    )
    var lines = false

    @Option(help: "The limits to validate against: \(HelpText.profiles).")
    var profile: ProfileOption = .sdkGuide

    @Flag(help: "Encode without validating against the documented limits.")
    var noValidate = false

    func validate() throws {
        if outputOptions.isImplicitTerminal {
            throw ValidationError(
                "refusing to write binary frames to a terminal: redirect standard output, or pass --output FILE ('-' forces standard output)"
            )
        }
    }

    func run() throws {
        let limits = limitOptions.limits
        let encoder = FrameEncoder(policy: compressionOptions.policy, limits: limits)
        var frames: [UInt8] = []
        if lines {
            // A line at a time, so a large file of documents is never held whole.
            try inputOptions.forEachLine(atMost: limits.maxDocumentBytes) { line, number in
                guard !line.allSatisfy(Self.isJSONWhitespace) else { return }
                try encode(
                    line, limits: limits, with: encoder, appendingTo: &frames,
                    context: inputOptions.context("line \(number)"))
            }
        } else {
            let input = try inputOptions.readAll(atMost: limits.maxDocumentBytes)
            guard !input.isEmpty else { throw emptyInput(inputOptions.input).reported() }
            try encode(input, limits: limits, with: encoder, appendingTo: &frames, context: inputOptions.context(nil))
        }
        try outputOptions.open().write(bytes: frames)
    }

    /// Reads, validates and frames one document.
    ///
    /// The document is an array, not a slice: the parser then reads it
    /// without a copy.
    private func encode(
        _ document: [UInt8], limits: DecodingLimits, with encoder: FrameEncoder,
        appendingTo frames: inout [UInt8], context: String?
    ) throws {
        do throws(IMCodecError) {
            let payload: FramePayload
            switch from {
            case .json where kind == .batch:
                try encodeBatch(document, limits: limits, with: encoder, appendingTo: &frames)
                return
            case .json:
                payload = try FramePayload(kind: kind.frameKind, jsonUTF8: document, limits: limits)
                if !noValidate { try Validator.check(payload, limits: profile.limits) }
            case .restapi:
                // The REST rules are checked before the import, so that the
                // value the validator reads is released before the import
                // reads its own; an import error is still reported first.
                // A refused document is read for its import errors and
                // skipped keys alone, without keeping its messages.
                let refusal =
                    noValidate
                    ? nil
                    : RESTValidator.validate(document, limits: profile.limits).first(where: { $0.severity == .error })
                // A message list's messages are encoded into the batch's
                // payload as they are read (see `encodeBatch`).
                var batchPayload: [UInt8] = []
                let imported = try RESTCodec.importPayload(document, limits: limits, keepsMessages: refusal == nil) {
                    message, _ in
                    guard refusal == nil else { return }
                    Self.appendBatchEntry(message, to: &batchPayload)
                }
                if !imported.skippedKeys.isEmpty {
                    note(
                        "not part of the message, not encoded: \(imported.skippedKeys.map(\.description).joined(separator: ", "))",
                        context: context)
                }
                if let refusal { throw IMCodecError(validationFailure: refusal) }
                guard let message = imported.value else {
                    _ = try encoder.encodeFrame(payload: batchPayload, kind: .batch, appendingTo: &frames)
                    return
                }
                payload = .message(message)
            }
            try encoder.encode(payload, appendingTo: &frames)
        } catch {
            throw report(error, context: context)
        }
    }

    /// Reads, validates and frames a batch one message at a time: each is
    /// validated and encoded into the batch's payload as soon as it is read,
    /// so that the batch is never held whole beside its document.
    ///
    /// What is refused, and in which order, is what reading the whole batch
    /// and then validating and framing it refuses: an error in the JSON
    /// anywhere, then the first error finding in message order, then what
    /// the frame's reader would refuse. The messages come from JSON read
    /// with `limits`, which refuses every depth and count a reader with
    /// `limits` refuses (as REST import does), so their payload is framed as
    /// it is (`FrameEncoder.encodeFrame(payload:kind:appendingTo:)`).
    private func encodeBatch(
        _ document: [UInt8], limits: DecodingLimits, with encoder: FrameEncoder, appendingTo frames: inout [UInt8]
    ) throws(IMCodecError) {
        var payload: [UInt8] = []
        var failure: IMCodecError?
        try MessageBatch.readMessages(jsonUTF8: document, limits: limits) { message, index in
            guard failure == nil else { return }
            if !noValidate,
                var finding = Validator.validate(message, limits: profile.limits).first(where: {
                    $0.severity == .error
                })
            {
                finding.path.prepend(FieldPath([.field("messages"), .index(index)]))
                failure = IMCodecError(validationFailure: finding)
                return
            }
            Self.appendBatchEntry(message, to: &payload)
        }
        if let failure { throw failure }
        _ = try encoder.encodeFrame(payload: payload, kind: .batch, appendingTo: &frames)
    }

    /// Appends `message` to the payload of a batch as its next `messages`
    /// entry: the canonical encoding of a batch is its messages' entries in
    /// order.
    private static func appendBatchEntry(_ message: borrowing Message, to payload: inout [UInt8]) {
        payload.append(contentsOf: MessageBatch._messagesKey)
        payload.appendVarint(UInt64(message.serializedSize))
        message.serialize(appendingTo: &payload)
    }

    private static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
