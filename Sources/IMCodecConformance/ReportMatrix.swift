/// Several conformance runs side by side, in the manner of the Autobahn test
/// suite's report index: implementations × vector areas with the counts of
/// each, and the cases on which the implementations differ.
///
/// ```swift
/// let runs = try paths.map { try ReportedRun(json: String(contentsOfFile: $0, encoding: .utf8)) }
/// let matrix = try ReportMatrix(runs)
/// print(matrix.text())
/// try HTMLReport.matrix(matrix).write(toFile: "matrix.html", atomically: true, encoding: .utf8)
/// ```
public struct ReportMatrix: Sendable {
    /// The runs, one column each, in the order given.
    public let runs: [ReportedRun]
    /// Every area any run has a case in, in the order areas first appear.
    public let areas: [String]
    /// The cases on which the runs differ, in the order they first appear.
    public let differences: [Difference]
    /// How many distinct cases the runs hold together.
    public let caseCount: Int

    private let summaries: [Summary]

    /// A case on which the runs differ: its status is not the same in every
    /// run, or some run did not run it.
    public struct Difference: Sendable, Equatable {
        /// The case id.
        public var id: String
        /// The case's area.
        public var area: String
        /// The case's vector file.
        public var file: String
        /// The case in each run, in the order of ``ReportMatrix/runs``; nil
        /// where that run did not run it.
        public var results: [ReportedRun.Case?]
    }

    /// Two runs name the same implementation, so their columns could not be told apart.
    public struct DuplicateImplementation: Error, CustomStringConvertible, Equatable {
        /// The name the runs share.
        public var implementation: String

        /// What is wrong and what to do about it.
        public var description: String {
            "two reports name the implementation '\(implementation)': give each run its own name "
                + "(imcodec conformance --name)"
        }
    }

    /// Sets runs side by side.
    ///
    /// - Parameter runs: The runs, one column each.
    /// - Throws: ``DuplicateImplementation`` when two runs name the same implementation.
    public init(_ runs: [ReportedRun]) throws(DuplicateImplementation) {
        var names: Set<String> = []
        for run in runs where !names.insert(run.implementation).inserted {
            throw DuplicateImplementation(implementation: run.implementation)
        }
        self.runs = runs
        summaries = runs.map(\.summary)
        var areas: [String] = []
        var seenAreas: Set<String> = []
        var order: [String] = []
        var byID: [String: (area: String, file: String, results: [ReportedRun.Case?])] = [:]
        for (column, run) in runs.enumerated() {
            for result in run.cases {
                if seenAreas.insert(result.area).inserted { areas.append(result.area) }
                if byID[result.id] == nil {
                    order.append(result.id)
                    byID[result.id] = (result.area, result.file, Array(repeating: nil, count: runs.count))
                }
                byID[result.id]?.results[column] = result
            }
        }
        self.areas = areas
        caseCount = order.count
        differences = order.compactMap { id in
            guard let entry = byID[id] else { return nil }
            let statuses = entry.results.map { $0?.status }
            guard statuses.contains(where: { $0 != statuses[0] }) else { return nil }
            return Difference(id: id, area: entry.area, file: entry.file, results: entry.results)
        }
    }

    /// The counts of one run in one area, or nil when it ran no case there.
    ///
    /// - Parameters:
    ///   - run: The run's index in ``runs``.
    ///   - area: The area.
    /// - Returns: The counts.
    public func counts(run: Int, area: String) -> Summary.Counts? {
        summaries[run].areas.first { $0.area == area }?.counts
    }

    /// The counts of one run over all its cases.
    ///
    /// - Parameter run: The run's index in ``runs``.
    /// - Returns: The counts.
    public func totals(run: Int) -> Summary.Counts { summaries[run].total }

    /// The matrix as a table for a terminal: one row per area and a total,
    /// one column per implementation, each cell `passed/failed/skipped/known`
    /// (failed counts unexpected passes too), then how many cases differ.
    public func text() -> String {
        func cell(_ counts: Summary.Counts?) -> String {
            guard let counts else { return "-" }
            return
                "\(counts.passed)/\(counts.failed + counts.unexpectedPasses)/\(counts.skipped)/\(counts.knownFailures)"
        }
        let header = ["area"] + runs.map(\.implementation)
        var rows = areas.map { area in [area] + runs.indices.map { cell(counts(run: $0, area: area)) } }
        rows.append(["total"] + runs.indices.map { cell(totals(run: $0)) })
        var lines = ["cells: passed/failed/skipped/known failures; - where no case of the area ran"]
        lines += alignedLines([header] + rows)
        lines.append("\(differences.count) of \(caseCount) cases differ between the implementations")
        return lines.joined(separator: "\n")
    }
}
