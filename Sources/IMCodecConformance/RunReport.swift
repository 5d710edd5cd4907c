/// Everything a conformance run found.
public struct RunReport: Sendable {
    /// The testee's name: ``Testee/name``, such as the command line.
    public var testee: String
    /// The implementation's name in reports, such as `java`: the column
    /// ``ReportMatrix`` shows the run under. By default
    /// ``implementationName(forTestee:)`` of the testee's name.
    public var implementation: String
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

    /// Creates a report.
    ///
    /// - Parameters:
    ///   - testee: The testee's name.
    ///   - implementation: The implementation's name in reports; nil takes
    ///     ``implementationName(forTestee:)`` of `testee`.
    ///   - results: One result per case run.
    ///   - problems: Problems of the run that fail it.
    ///   - warnings: Notes that do not fail it.
    ///   - declaredSkips: The declared unsupported operations and their reasons.
    ///   - requiredAreas: The areas the run had to cover fully.
    ///   - seconds: Wall time of the run.
    public init(
        testee: String, implementation: String? = nil, results: [CaseResult], problems: [String] = [],
        warnings: [String], declaredSkips: [String: String] = [:], requiredAreas: [String] = [], seconds: Double
    ) {
        self.testee = testee
        self.implementation = implementation ?? Self.implementationName(forTestee: testee)
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

extension RunReport {
    /// The name a run gets in reports when none is given: `LANGUAGE` for a
    /// testee started as `testees/LANGUAGE/testee` (the layout every testee
    /// folder follows), else the testee's name itself.
    ///
    /// - Parameter testee: ``Testee/name``: the command line of a process
    ///   testee, or the in-process testee's name.
    /// - Returns: The implementation's name.
    public static func implementationName(forTestee testee: String) -> String {
        let program = testee.split(separator: " ", omittingEmptySubsequences: true).first.map(String.init) ?? testee
        let components = program.split(separator: "/").map(String.init)
        if components.count >= 3, components[components.count - 1] == "testee",
            components[components.count - 3] == "testees"
        {
            return components[components.count - 2]
        }
        return testee
    }
}
