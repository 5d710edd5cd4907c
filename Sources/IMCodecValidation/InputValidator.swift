import IMCodec
import IMCodecREST

/// Validates whole inputs, as `imcodec validate` reads its files: JSON of one
/// kind (one value or an array of them), frames (one frame or a stream of
/// frames, each naming its kind), or a Tencent REST document.
///
/// An input in ``Format/jsonOrFrames(kind:)`` is told apart by its first
/// byte after an optional UTF-8 byte order mark: `{`, `[` or JSON whitespace
/// start JSON, anything else frames (a frame starts with the version byte
/// 0x01). The values are checked with ``Validator``; a REST document with
/// ``RESTValidator``.
///
/// ```swift
/// let report = InputValidator.validate(
///     Array(text.utf8), named: "messages.json", format: .jsonOrFrames(kind: .message))
/// print(report.errorCount, report.warningCount)
/// print(ValidationReport.json([report], profile: "sdk-guide"))
/// ```
public enum InputValidator {
    /// What an input holds.
    public enum Format: Hashable, Sendable {
        /// Proto3 JSON of `kind`, one value or an array of them, or frames;
        /// the first byte tells them apart.
        case jsonOrFrames(kind: FrameKind)
        /// One Tencent REST document (Sources/IMCodecREST/IMCodecREST.docc/REST.md): a `MsgBody` array, a
        /// message object or a message list.
        case restAPI
    }

    /// Validates every value an input holds.
    ///
    /// The validator does not throw: what cannot be read is the report's
    /// ``ValidationReport/failure``, with the findings of what came before
    /// it.
    ///
    /// - A JSON array's entries are validated one by one, and each finding's
    ///   path starts with the entry's index (`[1].elems[0].text`); an entry
    ///   that does not decode ends the walk with its error, whose path starts
    ///   with the index as well. A JSON input larger than
    ///   `decodingLimits.maxDocumentBytes` fails with `limit.document-size`.
    /// - Frames are read with a `FrameReader` until the input ends; a frame
    ///   that does not decode ends the walk, and the report names its index.
    ///   Bytes after the last whole frame fail as `frame.truncated`.
    /// - A REST document's problems are findings (``RESTValidator``), never a
    ///   failure.
    ///
    /// An empty input is read as frames and holds none: no findings, no
    /// failure. The byte order mark is skipped before JSON and REST text
    /// only: frames are read from the first byte, so an input of frames that
    /// starts with one (or is only one) fails with `frame.version`.
    ///
    /// - Parameters:
    ///   - input: The input's bytes.
    ///   - name: The name of the input, for the report (a file name).
    ///   - format: What the input holds; JSON of messages, or frames, by
    ///     default.
    ///   - limits: The limits and rules to check against; the sdk-guide profile
    ///     by default.
    ///   - decodingLimits: Bounds while reading the JSON, the frames or the
    ///     REST document.
    /// - Returns: The report: the findings, in input order, and the failure.
    public static func validate(
        _ input: [UInt8],
        named name: String = "-",
        format: Format = .jsonOrFrames(kind: .message),
        limits: ValidationLimits = .sdkGuide,
        decodingLimits: DecodingLimits = .default
    ) -> ValidationReport {
        var findings: [ValidationReport.LocatedFinding] = []
        var report = validate(input, named: name, format: format, limits: limits, decodingLimits: decodingLimits) {
            findings.append($0)
        }
        report.findings = findings
        return report
    }

    /// Validates every value an input holds, handing each finding to `body`
    /// as soon as it is known instead of keeping it, so that memory does not
    /// grow with the findings: `imcodec validate` prints them as they come.
    ///
    /// The findings, their order and the failure are those of
    /// ``validate(_:named:format:limits:decodingLimits:)``. A JSON batch is
    /// read twice, one message at a time and never whole: once to find
    /// whether it decodes (a batch that does not reports its error alone),
    /// then to validate its messages.
    ///
    /// - Parameters:
    ///   - input: The input's bytes.
    ///   - name: The name of the input, for the report (a file name).
    ///   - format: What the input holds; JSON of messages, or frames, by
    ///     default.
    ///   - limits: The limits and rules to check against; the sdk-guide
    ///     profile by default.
    ///   - decodingLimits: Bounds while reading the JSON, the frames or the
    ///     REST document.
    ///   - body: Called with each finding, in input order.
    /// - Returns: The report without its findings: the name and the failure.
    public static func validate(
        _ input: [UInt8],
        named name: String = "-",
        format: Format = .jsonOrFrames(kind: .message),
        limits: ValidationLimits = .sdkGuide,
        decodingLimits: DecodingLimits = .default,
        onFinding body: (ValidationReport.LocatedFinding) -> Void
    ) -> ValidationReport {
        var report = ValidationReport(name: name)
        var text = input[...]
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
        switch format {
        case .restAPI:
            RESTValidator.validate(text, limits: limits, decodingLimits: decodingLimits) {
                body(ValidationReport.LocatedFinding(finding: $0))
            }
        case .jsonOrFrames(let kind):
            if let first = text.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || isJSONSpace(first) {
                report.failure = validateJSON(
                    text, kind: kind, limits: limits, decodingLimits: decodingLimits, onFinding: body)
            } else {
                validateFrames(input, limits: limits, decodingLimits: decodingLimits, into: &report, onFinding: body)
            }
        }
        return report
    }

    /// A JSON value of `kind`, or an array of them, read where they stand
    /// in the document: no tree of the document is built, and the messages
    /// of a batch are validated one by one as they are read, so that memory
    /// holds the document and one message at a time.
    ///
    /// - Returns: The failure, if any.
    private static func validateJSON(
        _ bytes: ArraySlice<UInt8>, kind: FrameKind, limits: ValidationLimits, decodingLimits: DecodingLimits,
        onFinding body: (ValidationReport.LocatedFinding) -> Void
    ) -> IMCodecError? {
        do throws(IMCodecError) {
            // The document as a whole nests at most `JSONDocument.maxNesting`
            // deep; each value in it as deep as a decoder with
            // `decodingLimits` reads.
            try JSONDocument.read(bytes, limits: decodingLimits, maxNesting: JSONDocument.maxNesting) {
                (reader) throws(IMCodecError) in
                guard reader.kind() == .array else {
                    try validateValue(&reader, kind: kind, limits: limits, decodingLimits: decodingLimits) {
                        body(ValidationReport.LocatedFinding(finding: $0))
                    }
                    return
                }
                reader.beginArray()
                var index = 0
                while reader.nextEntry() {
                    do throws(IMCodecError) {
                        try validateValue(&reader, kind: kind, limits: limits, decodingLimits: decodingLimits) {
                            var finding = $0
                            finding.path.prepend(.index(index))
                            body(ValidationReport.LocatedFinding(finding: finding))
                        }
                    } catch {
                        var located = error
                        located.path.prepend(.index(index))
                        throw located
                    }
                    index += 1
                }
            }
            return nil
        } catch {
            return error
        }
    }

    /// Decodes and validates the value at the reader's position, handing
    /// each finding to `body`. A batch is decoded once, its messages
    /// dropped as they are read, before its messages are validated as they
    /// are read again: a batch that does not decode has no findings.
    ///
    /// - Throws: The decoder's error, `json.depth` first when the value nests
    ///   deeper than the decoder allows.
    private static func validateValue(
        _ reader: inout JSONReader, kind: FrameKind, limits: ValidationLimits, decodingLimits: DecodingLimits,
        onFinding body: (ValidationFinding) -> Void
    ) throws(IMCodecError) {
        try reader.checkNesting(maxNesting: decodingLimits.jsonNesting)
        switch kind {
        case .message:
            Validator.validate(try Message(_jsonReader: &reader, limits: decodingLimits), limits: limits).forEach(body)
        case .event:
            Validator.validate(try Event(_jsonReader: &reader, limits: decodingLimits), limits: limits).forEach(body)
        case .batch:
            var decoding = reader
            try MessageBatch.readMessages(&decoding, limits: decodingLimits) { _, _ in }
            try MessageBatch.readMessages(&reader, limits: decodingLimits) { message, index in
                Validator.validate(message, inBatchAt: index, limits: limits).forEach(body)
            }
        }
    }

    /// One frame or a stream of frames.
    private static func validateFrames(
        _ bytes: [UInt8], limits: ValidationLimits, decodingLimits: DecodingLimits,
        into report: inout ValidationReport, onFinding body: (ValidationReport.LocatedFinding) -> Void
    ) {
        let reader = FrameReader(limits: decodingLimits)
        reader.append(bytes)
        var index = 0
        do throws(IMCodecError) {
            while let frame = try reader.next() {
                let payload = try FramePayload(decoding: frame, limits: reader.limits)
                for finding in Validator.validate(payload, limits: limits) {
                    body(ValidationReport.LocatedFinding(finding: finding, frame: index))
                }
                index += 1
            }
            try reader.finish()
        } catch {
            report.failure = error
            report.failedFrame = index
        }
    }

    /// Space, tab, line feed or carriage return.
    private static func isJSONSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r")
    }
}
