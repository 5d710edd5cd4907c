import IMCodec

extension ValidationReport {
    /// The reports of several inputs as one pretty-printed JSON document,
    /// the output of `imcodec validate --format json`:
    ///
    /// ```json
    /// {"profile": "sdk-guide",
    ///  "files": [{"file": "a.json",
    ///             "findings": [{"code", "path", "severity", "limit", "actual", "reason", "frame"}],
    ///             "error": {"code", "path", "reason", "frame"}}],
    ///  "errors": 1, "warnings": 0}
    /// ```
    ///
    /// `limit` and `actual` are `null` when the finding has none; `frame`
    /// appears only for inputs of frames, `error` only for a report with a
    /// failure. `errors` and `warnings` count the findings of every report.
    ///
    /// - Parameters:
    ///   - reports: The reports, in the order the inputs were given.
    ///   - profile: The name of the profile the inputs were checked against
    ///     (one of ``ValidationLimits/profileNames``).
    /// - Returns: The JSON text, without a final newline.
    public static func json(_ reports: [ValidationReport], profile: String) -> String {
        var document = JSONDocumentWriter(profile: profile)
        for report in reports {
            document.beginFile(report.name)
            for located in report.findings { document.finding(located) }
            document.endFile(report)
        }
        document.finish()
        return String(decoding: document.take(), as: UTF8.self)
    }

    /// Writes the document of ``json(_:profile:)`` a piece at a time, so
    /// that findings can be written as they are found and never held:
    /// ``take()`` hands over what is written so far.
    package struct JSONDocumentWriter {
        private var writer = JSONWriter(pretty: true)
        private var errors = 0
        private var warnings = 0

        /// Starts the document.
        ///
        /// - Parameter profile: The name of the profile the inputs are checked against.
        package init(profile: String) {
            writer.beginObject()
            writer.key("profile")
            writer.string(profile)
            writer.key("files")
            writer.beginArray()
        }

        /// Starts the report of the input `name`.
        package mutating func beginFile(_ name: String) {
            writer.beginObject()
            writer.key("file")
            writer.string(name)
            writer.key("findings")
            writer.beginArray()
        }

        /// Writes one finding of the current input.
        package mutating func finding(_ located: LocatedFinding) {
            let finding = located.finding
            switch finding.severity {
            case .error: errors += 1
            case .warning: warnings += 1
            }
            writer.beginObject()
            writer.key("code")
            writer.string(finding.code.rawValue)
            writer.key("path")
            writer.string(finding.path.description)
            writer.key("severity")
            writer.string(finding.severity.rawValue)
            writer.key("limit")
            writer.literal(finding.limit.map { String($0) } ?? "null")
            writer.key("actual")
            writer.literal(finding.actual.map { String($0) } ?? "null")
            writer.key("reason")
            writer.string(finding.reason)
            if let frame = located.frame {
                writer.key("frame")
                writer.literal(String(frame))
            }
            writer.endObject()
        }

        /// Ends the current input's report, with its failure if it has one.
        package mutating func endFile(_ report: ValidationReport) {
            writer.endArray()
            if let failure = report.failure {
                writer.key("error")
                writer.beginObject()
                writer.key("code")
                writer.string(failure.code.rawValue)
                writer.key("path")
                writer.string(failure.path.description)
                writer.key("reason")
                writer.string(failure.reason)
                if let frame = report.failedFrame {
                    writer.key("frame")
                    writer.literal(String(frame))
                }
                writer.endObject()
            }
            writer.endObject()
        }

        /// Ends the document with the counts of errors and warnings.
        package mutating func finish() {
            writer.endArray()
            writer.key("errors")
            writer.literal(String(errors))
            writer.key("warnings")
            writer.literal(String(warnings))
            writer.endObject()
        }

        /// The text written since the last call, as UTF-8.
        package mutating func take() -> [UInt8] {
            writer.take()
        }
    }
}
