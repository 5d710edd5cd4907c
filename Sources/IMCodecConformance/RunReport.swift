/// Everything a conformance run found.
public struct RunReport: Sendable {
    /// The testee's name.
    public var testee: String
    /// One result per case run, in vector order.
    public var results: [CaseResult]
    /// Problems that are not case results and fail the run: a testee that
    /// did not exit cleanly, a failure-list entry that names no case, a
    /// declared skip the testee never used, a filter that selects nothing,
    /// a required area that is not fully covered.
    public var problems: [String]
    /// Notes that do not fail the run, such as failure-list entries the
    /// filter left out.
    public var warnings: [String]
    /// The operations the testee declared unsupported, with the reasons.
    public var declaredSkips: [String: String]
    /// The areas the run had to cover fully.
    public var requiredAreas: [String]
    /// Wall time of the run, in seconds.
    public var seconds: Double

    public init(
        testee: String, results: [CaseResult], problems: [String] = [], warnings: [String],
        declaredSkips: [String: String] = [:], requiredAreas: [String] = [], seconds: Double
    ) {
        self.testee = testee
        self.results = results
        self.problems = problems
        self.warnings = warnings
        self.declaredSkips = declaredSkips
        self.requiredAreas = requiredAreas
        self.seconds = seconds
    }

    /// Whether everything was as expected: no failure outside the failure
    /// list, no listed case that passed or failed another way, and no
    /// ``problems``. Skipped cases do not count against a run: every skip
    /// is declared, or it is a failure.
    public var isSuccess: Bool { problems.isEmpty && !results.contains { $0.status.isUnexpected } }

    /// The results with a status that makes the run fail.
    public var unexpected: [CaseResult] { results.filter { $0.status.isUnexpected } }

    /// The summary of all results and of each area.
    public var summary: Summary { Summary(results) }
}
