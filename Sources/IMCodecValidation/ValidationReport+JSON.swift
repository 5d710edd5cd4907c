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
        func number<T: BinaryInteger>(_ value: T?) -> JSONValue { value.map { .number(String($0)) } ?? .null }
        let files: [JSONValue] = reports.map { report in
            let findings: [JSONValue] = report.findings.map { located in
                let finding = located.finding
                var members: [JSONValue.Member] = [
                    .init("code", .string(finding.code.rawValue)),
                    .init("path", .string(finding.path.description)),
                    .init("severity", .string(finding.severity.rawValue)),
                    .init("limit", number(finding.limit)),
                    .init("actual", number(finding.actual)),
                    .init("reason", .string(finding.reason)),
                ]
                if let frame = located.frame { members.append(.init("frame", number(frame))) }
                return .object(members)
            }
            var members: [JSONValue.Member] = [
                .init("file", .string(report.name)), .init("findings", .array(findings)),
            ]
            if let failure = report.failure {
                var error: [JSONValue.Member] = [
                    .init("code", .string(failure.code.rawValue)),
                    .init("path", .string(failure.path.description)),
                    .init("reason", .string(failure.reason)),
                ]
                if let frame = report.failedFrame { error.append(.init("frame", number(frame))) }
                members.append(.init("error", .object(error)))
            }
            return .object(members)
        }
        let document: JSONValue = .object([
            .init("profile", .string(profile)),
            .init("files", .array(files)),
            .init("errors", number(reports.reduce(0) { $0 + $1.errorCount })),
            .init("warnings", number(reports.reduce(0) { $0 + $1.warningCount })),
        ])
        return document.serialized(pretty: true)
    }
}
