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

    public init(_ results: [CaseResult]) {
        var index: [String: Int] = [:]
        for result in results {
            total.add(result.status)
            if let position = index[result.area] {
                areas[position].counts.add(result.status)
            } else {
                index[result.area] = areas.count
                var counts = Counts()
                counts.add(result.status)
                areas.append((result.area, counts))
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
        let widths = header.indices.map { column in
            max(header[column].count, rows.map { $0[column].count }.max() ?? 0)
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                column == 0
                    ? cell.padding(to: widths[column])
                    : String(repeating: " ", count: widths[column] - cell.count) + cell
            }.joined(separator: "  ")
        }
        var lines = [line(header)]
        lines += rows.dropLast().map(line)
        lines.append(line(rows[rows.count - 1]))
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

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
