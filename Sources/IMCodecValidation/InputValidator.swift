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
        var report = ValidationReport(name: name)
        var body = input[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        switch format {
        case .restAPI:
            report.findings = RESTValidator.validate(body, limits: limits, decodingLimits: decodingLimits).map {
                ValidationReport.LocatedFinding(finding: $0)
            }
        case .jsonOrFrames(let kind):
            if let first = body.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || isJSONSpace(first) {
                validateJSON(Array(body), kind: kind, limits: limits, decodingLimits: decodingLimits, into: &report)
            } else {
                validateFrames(input, limits: limits, decodingLimits: decodingLimits, into: &report)
            }
        }
        return report
    }

    /// A JSON value of `kind`, or an array of them.
    private static func validateJSON(
        _ bytes: [UInt8], kind: FrameKind, limits: ValidationLimits, decodingLimits: DecodingLimits,
        into report: inout ValidationReport
    ) {
        do throws(IMCodecError) {
            let maxBytes = decodingLimits.maxDocumentBytes
            guard bytes.count <= maxBytes else {
                throw IMCodecError(
                    .limitDocumentSize, reason: "a JSON document of \(bytes.count) bytes is too large", limit: maxBytes,
                    observed: bytes.count)
            }
            let document = try JSONValue(parsing: bytes)
            guard case .array(let entries) = document else {
                let payload = try FramePayload(kind: kind, jsonString: document.serialized(), limits: decodingLimits)
                report.findings += Validator.validate(payload, limits: limits).map {
                    ValidationReport.LocatedFinding(finding: $0)
                }
                return
            }
            for (index, entry) in entries.enumerated() {
                do throws(IMCodecError) {
                    let payload = try FramePayload(kind: kind, jsonString: entry.serialized(), limits: decodingLimits)
                    for var finding in Validator.validate(payload, limits: limits) {
                        finding.path.prepend(.index(index))
                        report.findings.append(ValidationReport.LocatedFinding(finding: finding))
                    }
                } catch {
                    var located = error
                    located.path.prepend(.index(index))
                    throw located
                }
            }
        } catch {
            report.failure = error
        }
    }

    /// One frame or a stream of frames.
    private static func validateFrames(
        _ bytes: [UInt8], limits: ValidationLimits, decodingLimits: DecodingLimits,
        into report: inout ValidationReport
    ) {
        let reader = FrameReader(limits: decodingLimits)
        reader.append(bytes)
        var index = 0
        do throws(IMCodecError) {
            while let frame = try reader.next() {
                let payload = try FramePayload(decoding: frame, limits: reader.limits)
                report.findings += Validator.validate(payload, limits: limits).map {
                    ValidationReport.LocatedFinding(finding: $0, frame: index)
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
