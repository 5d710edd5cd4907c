/// Everything a conformance run found.
public struct RunReport: Sendable {
    /// The testee's name.
    public var testee: String
    /// One result per case run, in vector order.
    public var results: [CaseResult]
    /// Problems that are not case results: a testee that did not exit
    /// cleanly, failure-list entries that name no case run.
    public var warnings: [String]
    /// Wall time of the run, in seconds.
    public var seconds: Double

    public init(testee: String, results: [CaseResult], warnings: [String], seconds: Double) {
        self.testee = testee
        self.results = results
        self.warnings = warnings
        self.seconds = seconds
    }

    /// Whether every case was as expected: no failure outside the failure
    /// list and no listed case that passed. Skipped cases do not count
    /// against a run.
    public var isSuccess: Bool { !results.contains { $0.status.isUnexpected } }

    /// The results with a status that makes the run fail.
    public var unexpected: [CaseResult] { results.filter { $0.status.isUnexpected } }

    /// The summary of all results and of each area.
    public var summary: Summary { Summary(results) }
}
