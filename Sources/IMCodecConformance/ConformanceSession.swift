import Foundation

/// One conformance run as the `imcodec conformance` command performs it:
/// load the vectors and the failure list, pick the testee, run, write the
/// reports, and say whether everything was as expected.
public struct ConformanceSession: Sendable {
    /// The vectors directory. Relative paths are resolved against the
    /// current directory, so the default `Vectors` means: run from the
    /// repository root.
    public var vectorsDirectory = "Vectors"
    /// A shell command line that starts a testee; nil checks the library in
    /// this process.
    public var testeeCommand: String?
    /// A failure list file (``FailureList``).
    public var failureListPath: String?
    /// Where to write a JUnit XML report.
    public var junitPath: String?
    /// Where to write a JSON report.
    public var jsonPath: String?
    /// Where to write an HTML report (``HTMLReport/run(_:)``).
    public var htmlPath: String?
    /// The implementation's name in the reports; nil takes
    /// ``RunReport/implementationName(forTestee:)`` of the testee's name.
    public var implementation: String?
    /// The most time one case may take with a testee process.
    public var timeout: Duration = .seconds(10)
    /// Only cases whose id contains one of these run; empty runs all.
    public var filters: [String] = []
    /// Areas that must be fully covered (``Runner/Options/requiredAreas``).
    public var requiredAreas: [String] = []
    /// Whether to list every failing case and what differed. Default true.
    public var listsFailures = true

    public init() {}

    /// A problem that stops the run before any case runs.
    public struct SetupError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs the session.
    ///
    /// - Parameters:
    ///   - progress: Shows progress; by default a ``ProgressLine`` on
    ///     standard error.
    ///   - print: Receives the report text, line by line.
    /// - Returns: The report; ``RunReport/isSuccess`` decides the exit status.
    /// - Throws: ``SetupError`` when the vectors or the failure list cannot be
    ///   read or a report cannot be written.
    public func run(progress: ProgressLine = ProgressLine(), print: (String) -> Void) throws -> RunReport {
        let files: [VectorFile]
        do {
            files = try VectorLoader.loadDirectory(vectorsDirectory)
        } catch {
            throw SetupError(
                description: "cannot load the vectors from \(vectorsDirectory) (run from the repository root, "
                    + "or pass --vectors DIR): \(error)")
        }
        var options = Runner.Options()
        options.timeout = timeout
        options.filters = filters
        options.requiredAreas = requiredAreas
        if let failureListPath {
            do {
                options.failureList = try FailureList(parsing: String(contentsOfFile: failureListPath, encoding: .utf8))
            } catch {
                throw SetupError(description: "cannot read the failure list \(failureListPath): \(error)")
            }
        }
        let testee: Testee = testeeCommand.map { ProcessTestee(command: $0) } ?? InProcessTestee()
        let caseCount = files.reduce(0) { $0 + $1.cases.count }
        print("imcodec conformance: \(caseCount) cases in \(files.count) files from \(vectorsDirectory)")
        print("testee: \(testee.name)")
        if let implementation { print("implementation: \(implementation)") }
        for (operation, reason) in options.failureList.skips.sorted(by: { $0.key < $1.key }) {
            print("declared unsupported: \(operation) (\(reason))")
        }
        if !options.requiredAreas.isEmpty {
            print("required areas (no skipped case): \(options.requiredAreas.joined(separator: ", "))")
        }
        var report = Runner(options: options).run(files, against: testee) { done, total in
            progress.update(done, of: total)
        }
        if let implementation { report.implementation = implementation }
        progress.finish()
        for line in report.textLines(listingFailures: listsFailures) { print(line) }
        do {
            if let junitPath {
                try JUnitReport.xml(report).write(toFile: junitPath, atomically: true, encoding: .utf8)
            }
            if let jsonPath {
                try JSONReport.json(report).write(toFile: jsonPath, atomically: true, encoding: .utf8)
            }
            if let htmlPath {
                try HTMLReport.run(ReportedRun(report)).write(toFile: htmlPath, atomically: true, encoding: .utf8)
            }
        } catch {
            throw SetupError(description: "cannot write a report: \(error)")
        }
        return report
    }
}

extension RunReport {
    /// The terminal report: every unexpected result with what differed, the
    /// problems and warnings, what the testee declared, the per-area table
    /// and the closing line.
    public func textLines(listingFailures: Bool = true) -> [String] {
        var lines: [String] = []
        if listingFailures {
            for result in unexpected {
                let label = result.status == .failed ? "FAIL" : "UNEXPECTED PASS"
                lines.append("\(label) \(result.id) (\(result.file))")
                for message in result.messages {
                    lines += message.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
                }
            }
        }
        for problem in problems { lines.append("ERROR \(problem)") }
        for warning in warnings { lines.append("warning: \(warning)") }
        lines.append("")
        let skipCounts = ReportedRun(self).skipCounts
        for (operation, reason) in declaredSkips.sorted(by: { $0.key < $1.key }) {
            let count = skipCounts[operation] ?? 0
            lines.append("declared unsupported: \(operation), skipped in \(count) cases (\(reason))")
        }
        let known = results.filter { $0.status == .knownFailure }.count
        if known > 0 { lines.append("declared known failures: \(known) (listed with their failure codes)") }
        for area in requiredAreas {
            let counts = summary.areas.first { $0.area == area }?.counts ?? Summary.Counts()
            lines.append("required area \(area): \(counts.total) cases, \(counts.skipped) skipped")
        }
        lines.append("\(results.count) cases in \(String(format1: seconds)) s against \(testee)")
        let checks = results.reduce(into: (0, 0, 0)) {
            $0.0 += $1.passedChecks
            $0.1 += $1.failedChecks
            $0.2 += $1.skippedChecks
        }
        lines.append("checks: \(checks.0) passed, \(checks.1) failed, \(checks.2) skipped as declared")
        lines += summary.text().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if !problems.isEmpty {
            lines.append("conformance failed: \(problems.count) problems of the run (the ERROR lines above)")
        }
        return lines
    }
}
