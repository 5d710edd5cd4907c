/// A run as JSON, for tools: the summary, the warnings and every case.
///
/// ```json
/// {"format": "imcodec-conformance-report", "version": 1, "testee": "...",
///  "implementation": "java", "success": true, "seconds": 1.2,
///  "summary": {"total": {...counts...}, "areas": {"elems": {...counts...}}},
///  "problems": [], "warnings": [], "declaredSkips": {"validate": "reason"},
///  "requiredAreas": ["frames"],
///  "cases": [{"id": "...", "file": "elems/text.json", "area": "elems",
///             "operation": "payload", "status": "passed", "messages": [], "failure": null,
///             "checks": {"passed": 3, "failed": 0, "skipped": 0}, "seconds": 0.001}]}
/// ```
///
/// Counts are `cases`, `passed`, `failed`, `skipped`, `knownFailures` and
/// `unexpectedPasses`; a status is one of `passed`, `failed`, `skipped`,
/// `known-failure`, `unexpected-pass`; `failure` is the failure code of the
/// first failed check (``CheckFailure``). `problems` fail the run.
/// `implementation` names the implementation (``RunReport/implementation``),
/// the column ``ReportMatrix`` shows the run under; ``ReportedRun`` reads the
/// document back.
public enum JSONReport {
    /// The report document, pretty-printed.
    public static func json(_ report: RunReport) -> String {
        func counts(_ counts: Summary.Counts) -> VectorJSON {
            .object([
                ("cases", number(counts.total)), ("passed", number(counts.passed)), ("failed", number(counts.failed)),
                ("skipped", number(counts.skipped)), ("knownFailures", number(counts.knownFailures)),
                ("unexpectedPasses", number(counts.unexpectedPasses)),
            ])
        }
        let summary = report.summary
        let cases: [VectorJSON] = report.results.map { result in
            .object([
                ("id", .string(result.id)), ("file", .string(result.file)), ("area", .string(result.area)),
                ("operation", .string(result.operation.rawValue)), ("status", .string(result.status.rawValue)),
                ("messages", .array(result.messages.map { .string($0) })),
                ("failure", result.failure.map { .string($0) } ?? .null),
                (
                    "checks",
                    .object([
                        ("passed", number(result.passedChecks)), ("failed", number(result.failedChecks)),
                        ("skipped", number(result.skippedChecks)),
                    ])
                ),
                ("seconds", .number(JUnitReport.seconds(result.seconds))),
            ])
        }
        let document = VectorJSON.object([
            ("format", .string("imcodec-conformance-report")), ("version", number(1)),
            ("testee", .string(report.testee)), ("implementation", .string(report.implementation)),
            ("success", .bool(report.isSuccess)),
            ("seconds", .number(JUnitReport.seconds(report.seconds))),
            (
                "summary",
                .object([
                    ("total", counts(summary.total)),
                    ("areas", .object(summary.areas.map { ($0.area, counts($0.counts)) })),
                ])
            ),
            ("problems", .array(report.problems.map { .string($0) })),
            ("warnings", .array(report.warnings.map { .string($0) })),
            (
                "declaredSkips",
                .object(report.declaredSkips.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
            ),
            ("requiredAreas", .array(report.requiredAreas.map { .string($0) })),
            ("cases", .array(cases)),
        ])
        return document.prettyText + "\n"
    }

    private static func number(_ value: Int) -> VectorJSON { .number(String(value)) }
}

extension VectorJSON {
    /// JSON text with two-space indentation; arrays and objects of scalars
    /// or nothing stay on one line.
    public var prettyText: String {
        var out = ""
        writePretty(to: &out, indent: 0)
        return out
    }

    private var isFlat: Bool {
        switch self {
        case .array(let values): values.allSatisfy(\.isScalar)
        case .object(let members): members.isEmpty
        default: true
        }
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }

    private func writePretty(to out: inout String, indent: Int) {
        if isFlat {
            out += text
            return
        }
        let inner = String(repeating: "  ", count: indent + 1)
        let outer = String(repeating: "  ", count: indent)
        switch self {
        case .array(let values):
            out += "[\n"
            for (index, value) in values.enumerated() {
                out += inner
                value.writePretty(to: &out, indent: indent + 1)
                out += index + 1 < values.count ? ",\n" : "\n"
            }
            out += outer + "]"
        case .object(let members):
            out += "{\n"
            for (index, member) in members.enumerated() {
                out += inner + VectorJSON.string(member.key).text + ": "
                member.value.writePretty(to: &out, indent: indent + 1)
                out += index + 1 < members.count ? ",\n" : "\n"
            }
            out += outer + "}"
        default:
            out += text
        }
    }
}
