/// One conformance run as the reports show it: the document ``JSONReport``
/// writes, read back, or a ``RunReport`` taken as it is.
///
/// ``HTMLReport`` draws one run, and ``ReportMatrix`` sets several side by
/// side; both read only this, so a report made from JSON files written by
/// separate runs (other machines, other testees) shows what a report made
/// in the run itself shows.
public struct ReportedRun: Sendable, Equatable {
    /// One case's result, as the report records it.
    public struct Case: Sendable, Equatable {
        /// The case id.
        public var id: String
        /// The vector file, relative to the vectors directory.
        public var file: String
        /// The vector area.
        public var area: String
        /// The case's operation (``VectorCase/Operation``), as written in the vectors.
        public var operation: String
        /// What happened, after the failure list was applied.
        public var status: CaseResult.Status
        /// What went wrong, the skip reasons, or the failure list's reason.
        public var messages: [String]
        /// The failure code (``CheckFailure``) of the first failed check, if any.
        public var failure: String?
        /// How many checks passed.
        public var passedChecks: Int
        /// How many checks failed.
        public var failedChecks: Int
        /// How many checks were skipped as declared.
        public var skippedChecks: Int
        /// Wall time of the case, in seconds.
        public var seconds: Double

        /// Creates a case result.
        ///
        /// - Parameters:
        ///   - id: The case id.
        ///   - file: The vector file.
        ///   - area: The vector area.
        ///   - operation: The case's operation.
        ///   - status: What happened.
        ///   - messages: What went wrong, or why it was skipped.
        ///   - failure: The failure code of the first failed check.
        ///   - passedChecks: Checks passed.
        ///   - failedChecks: Checks failed.
        ///   - skippedChecks: Checks skipped as declared.
        ///   - seconds: Wall time.
        public init(
            id: String, file: String, area: String, operation: String, status: CaseResult.Status,
            messages: [String] = [], failure: String? = nil, passedChecks: Int = 0, failedChecks: Int = 0,
            skippedChecks: Int = 0, seconds: Double = 0
        ) {
            self.id = id
            self.file = file
            self.area = area
            self.operation = operation
            self.status = status
            self.messages = messages
            self.failure = failure
            self.passedChecks = passedChecks
            self.failedChecks = failedChecks
            self.skippedChecks = skippedChecks
            self.seconds = seconds
        }
    }

    /// The implementation's name (``RunReport/implementation``).
    public var implementation: String
    /// The testee's name, such as its command line.
    public var testee: String
    /// Whether the run was as expected (``RunReport/isSuccess``).
    public var isSuccess: Bool
    /// Wall time of the run, in seconds.
    public var seconds: Double
    /// Problems of the run that failed it.
    public var problems: [String]
    /// Notes that did not fail it.
    public var warnings: [String]
    /// The operations the testee declared unsupported, with the reasons.
    public var declaredSkips: [String: String]
    /// The areas the run had to cover fully.
    public var requiredAreas: [String]
    /// Every case run, in vector order.
    public var cases: [Case]

    /// Creates a run from its parts.
    ///
    /// - Parameters:
    ///   - implementation: The implementation's name.
    ///   - testee: The testee's name.
    ///   - isSuccess: Whether the run was as expected.
    ///   - seconds: Wall time.
    ///   - problems: Problems that failed the run.
    ///   - warnings: Notes.
    ///   - declaredSkips: Declared unsupported operations and their reasons.
    ///   - requiredAreas: Areas that had to be fully covered.
    ///   - cases: The case results.
    public init(
        implementation: String, testee: String, isSuccess: Bool, seconds: Double = 0, problems: [String] = [],
        warnings: [String] = [], declaredSkips: [String: String] = [:], requiredAreas: [String] = [],
        cases: [Case]
    ) {
        self.implementation = implementation
        self.testee = testee
        self.isSuccess = isSuccess
        self.seconds = seconds
        self.problems = problems
        self.warnings = warnings
        self.declaredSkips = declaredSkips
        self.requiredAreas = requiredAreas
        self.cases = cases
    }

    /// The run of a report.
    ///
    /// - Parameter report: A finished run.
    public init(_ report: RunReport) {
        self.init(
            implementation: report.implementation, testee: report.testee, isSuccess: report.isSuccess,
            seconds: report.seconds, problems: report.problems, warnings: report.warnings,
            declaredSkips: report.declaredSkips, requiredAreas: report.requiredAreas,
            cases: report.results.map {
                Case(
                    id: $0.id, file: $0.file, area: $0.area, operation: $0.operation.rawValue, status: $0.status,
                    messages: $0.messages, failure: $0.failure, passedChecks: $0.passedChecks,
                    failedChecks: $0.failedChecks, skippedChecks: $0.skippedChecks, seconds: $0.seconds)
            })
    }

    /// The counts of the cases, in total and per area.
    public var summary: Summary { Summary(statuses: cases.lazy.map { ($0.area, $0.status) }) }

    /// How many cases each declared operation skipped: cases with a check of
    /// that operation skipped as declared.
    public var skipCounts: [String: Int] {
        var counts: [String: Int] = [:]
        for operation in declaredSkips.keys {
            counts[operation] = cases.reduce(0) {
                $0 + ($1.messages.contains { $0.hasPrefix(operation + " skipped") } ? 1 : 0)
            }
        }
        return counts
    }
}

/// A document that is not a conformance report this version reads.
public struct ReportReadError: Error, CustomStringConvertible, Equatable {
    /// What is wrong, naming the member.
    public var description: String

    /// Creates an error.
    ///
    /// - Parameter description: What is wrong.
    public init(_ description: String) {
        self.description = description
    }
}

extension ReportedRun {
    /// Reads a JSON report written by ``JSONReport`` (format
    /// `imcodec-conformance-report`, version 1).
    ///
    /// A report without `implementation` (written before reports named
    /// their implementation) takes ``RunReport/implementationName(forTestee:)``
    /// of its testee.
    ///
    /// - Parameter text: The document.
    /// - Throws: ``ReportReadError`` for text that is not JSON, another
    ///   format or version, a member missing or of the wrong type, a status
    ///   that is not one of ``CaseResult/Status``, and a summary that
    ///   disagrees with the cases it counts.
    public init(json text: String) throws(ReportReadError) {
        let document: VectorJSON
        do {
            document = try VectorJSON(parsing: text)
        } catch {
            throw ReportReadError("not JSON: \(error)")
        }
        guard document["format"]?.stringValue == "imcodec-conformance-report" else {
            throw ReportReadError("not an imcodec conformance report (its format is not imcodec-conformance-report)")
        }
        guard document["version"]?.intValue == 1 else {
            throw ReportReadError("a report of a version this imcodec does not read (it reads version 1)")
        }
        let reader = MemberReader(path: "")
        let testee = try reader.string(document, "testee")
        var cases: [Case] = []
        for (index, entry) in try reader.array(document, "cases").enumerated() {
            let member = MemberReader(path: "cases[\(index)].")
            let statusText = try member.string(entry, "status")
            guard let status = CaseResult.Status(rawValue: statusText) else {
                throw ReportReadError("cases[\(index)].status: '\(statusText)' is not a case status")
            }
            let checks = entry["checks"] ?? .null
            let checksReader = MemberReader(path: "cases[\(index)].checks.")
            let failure: String?
            switch entry["failure"] {
            case .string(let code): failure = code
            case .null, nil: failure = nil
            default: throw ReportReadError("cases[\(index)].failure: not a string or null")
            }
            cases.append(
                Case(
                    id: try member.string(entry, "id"), file: try member.string(entry, "file"),
                    area: try member.string(entry, "area"), operation: try member.string(entry, "operation"),
                    status: status, messages: try member.strings(entry, "messages"), failure: failure,
                    passedChecks: try checksReader.int(checks, "passed"),
                    failedChecks: try checksReader.int(checks, "failed"),
                    skippedChecks: try checksReader.int(checks, "skipped"),
                    seconds: try member.double(entry, "seconds")))
        }
        var declaredSkips: [String: String] = [:]
        guard case .object(let skips) = document["declaredSkips"] ?? .object([]) else {
            throw ReportReadError("declaredSkips: not an object")
        }
        for (operation, reason) in skips {
            guard let reason = reason.stringValue else {
                throw ReportReadError("declaredSkips.\(operation): not a string")
            }
            declaredSkips[operation] = reason
        }
        let implementation: String
        if document["implementation"] == nil {
            implementation = RunReport.implementationName(forTestee: testee)
        } else {
            implementation = try reader.string(document, "implementation")
        }
        guard let success = document["success"]?.boolValue else {
            throw ReportReadError("success: missing or not a boolean")
        }
        self.init(
            implementation: implementation, testee: testee, isSuccess: success,
            seconds: try reader.double(document, "seconds"), problems: try reader.strings(document, "problems"),
            warnings: try reader.strings(document, "warnings"), declaredSkips: declaredSkips,
            requiredAreas: try reader.strings(document, "requiredAreas"), cases: cases)
        try checkSummary(document["summary"])
    }

    /// Refuses a report whose summary does not count its own cases.
    private func checkSummary(_ written: VectorJSON?) throws(ReportReadError) {
        let summary = self.summary
        func matches(_ counts: Summary.Counts, _ json: VectorJSON?) -> Bool {
            json?["cases"]?.intValue == counts.total && json?["passed"]?.intValue == counts.passed
                && json?["failed"]?.intValue == counts.failed && json?["skipped"]?.intValue == counts.skipped
                && json?["knownFailures"]?.intValue == counts.knownFailures
                && json?["unexpectedPasses"]?.intValue == counts.unexpectedPasses
        }
        guard matches(summary.total, written?["total"]) else {
            throw ReportReadError("summary.total disagrees with the cases the report lists")
        }
        guard case .object(let areas) = written?["areas"] ?? .null, areas.count == summary.areas.count else {
            throw ReportReadError("summary.areas disagrees with the areas of the cases the report lists")
        }
        for (area, counts) in summary.areas where !matches(counts, written?["areas"]?[area]) {
            throw ReportReadError("summary.areas.\(area) disagrees with the cases the report lists")
        }
    }
}

/// Reads typed members of a JSON object, naming the member in errors.
struct MemberReader {
    var path: String

    func value(_ object: VectorJSON, _ key: String) throws(ReportReadError) -> VectorJSON {
        guard let value = object[key] else { throw ReportReadError("\(path)\(key): missing") }
        return value
    }

    func string(_ object: VectorJSON, _ key: String) throws(ReportReadError) -> String {
        guard let text = try value(object, key).stringValue else {
            throw ReportReadError("\(path)\(key): not a string")
        }
        return text
    }

    func strings(_ object: VectorJSON, _ key: String) throws(ReportReadError) -> [String] {
        guard let values = try value(object, key).arrayValue else {
            throw ReportReadError("\(path)\(key): not an array")
        }
        var texts: [String] = []
        for entry in values {
            guard let text = entry.stringValue else { throw ReportReadError("\(path)\(key): not strings") }
            texts.append(text)
        }
        return texts
    }

    func array(_ object: VectorJSON, _ key: String) throws(ReportReadError) -> [VectorJSON] {
        guard let values = try value(object, key).arrayValue else {
            throw ReportReadError("\(path)\(key): not an array")
        }
        return values
    }

    func int(_ object: VectorJSON, _ key: String) throws(ReportReadError) -> Int {
        guard let number = try value(object, key).intValue, number >= 0 else {
            throw ReportReadError("\(path)\(key): not a count")
        }
        return number
    }

    func double(_ object: VectorJSON, _ key: String) throws(ReportReadError) -> Double {
        guard case .number(let text) = try value(object, key), let number = Double(text), number >= 0 else {
            throw ReportReadError("\(path)\(key): not a number of seconds")
        }
        return number
    }

    func bool(_ object: VectorJSON, _ key: String) throws(ReportReadError) -> Bool {
        guard let flag = try value(object, key).boolValue else { throw ReportReadError("\(path)\(key): not a boolean") }
        return flag
    }

    func optionalString(_ object: VectorJSON, _ key: String) throws(ReportReadError) -> String? {
        switch try value(object, key) {
        case .string(let text): return text
        case .null: return nil
        default: throw ReportReadError("\(path)\(key): not a string or null")
        }
    }
}
