/// Counts of case results, in total and per area.
public struct Summary: Sendable, Equatable {
    /// The counts of one group of results.
    public struct Counts: Sendable, Equatable {
        public var passed = 0
        public var failed = 0
        public var skipped = 0
        public var knownFailures = 0
        public var unexpectedPasses = 0

        public init() {}

        public var total: Int { passed + failed + skipped + knownFailures + unexpectedPasses }

        mutating func add(_ status: CaseResult.Status) {
            switch status {
            case .passed: passed += 1
            case .failed: failed += 1
            case .skipped: skipped += 1
            case .knownFailure: knownFailures += 1
            case .unexpectedPass: unexpectedPasses += 1
            }
        }
    }

    public var total = Counts()
    /// Counts per area, in the order areas first appear.
    public var areas: [(area: String, counts: Counts)] = []

    /// Counts the results, in total and per area.
    ///
    /// - Parameter results: The results of a run.
    public init(_ results: [CaseResult]) {
        self.init(statuses: results.lazy.map { ($0.area, $0.status) })
    }

    /// Counts statuses, in total and per area (in the order areas first appear).
    init(statuses: some Sequence<(area: String, status: CaseResult.Status)>) {
        var index: [String: Int] = [:]
        for (area, status) in statuses {
            total.add(status)
            if let position = index[area] {
                areas[position].counts.add(status)
            } else {
                index[area] = areas.count
                var counts = Counts()
                counts.add(status)
                areas.append((area, counts))
            }
        }
    }

    public static func == (lhs: Summary, rhs: Summary) -> Bool {
        lhs.total == rhs.total && lhs.areas.count == rhs.areas.count
            && zip(lhs.areas, rhs.areas).allSatisfy { $0.area == $1.area && $0.counts == $1.counts }
    }

    /// A table of the areas and the closing line, for a terminal.
    ///
    /// The closing line is `conformance: P passed, F failed, S skipped`,
    /// where F counts every unexpected result (failures outside the failure
    /// list and listed cases that passed); known failures are on the line
    /// above it.
    public func text() -> String {
        let header = ["area", "cases", "passed", "failed", "skipped", "known", "unexp.pass"]
        var rows = areas.map { row in
            [row.area] + Self.columns(row.counts)
        }
        rows.append(["total"] + Self.columns(total))
        var lines = alignedLines([header] + rows)
        if total.knownFailures > 0 {
            lines.append("known failures: \(total.knownFailures) (listed in the failure list)")
        }
        let failed = total.failed + total.unexpectedPasses
        lines.append("conformance: \(total.passed) passed, \(failed) failed, \(total.skipped) skipped")
        return lines.joined(separator: "\n")
    }

    private static func columns(_ counts: Counts) -> [String] {
        [counts.total, counts.passed, counts.failed, counts.skipped, counts.knownFailures, counts.unexpectedPasses]
            .map(String.init)
    }
}

/// Rows of cells as lines of a table for a terminal: the first column
/// left-aligned, the others right-aligned, two spaces between columns.
func alignedLines(_ rows: [[String]]) -> [String] {
    let columns = rows.map(\.count).max() ?? 0
    let widths = (0..<columns).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
    return rows.map { cells in
        cells.enumerated().map { column, cell in
            column == 0
                ? cell.padding(to: widths[column])
                : String(repeating: " ", count: widths[column] - cell.count) + cell
        }.joined(separator: "  ")
    }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
