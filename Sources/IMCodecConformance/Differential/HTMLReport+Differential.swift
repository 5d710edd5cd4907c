import Foundation

extension HTMLReport {
    /// The conformance matrix with a differential section after it: for
    /// each differential run, the checks per pair, the disagreements by
    /// signature and each signature's minimal case.
    ///
    /// - Parameters:
    ///   - matrix: The conformance runs side by side; nil for a page with
    ///     the differential section alone.
    ///   - differential: The differential runs.
    ///   - casesFile: Where the minimal cases were written as a vector
    ///     file, linked from the section; nil for no link.
    /// - Returns: A self-contained page.
    public static func matrix(
        _ matrix: ReportMatrix?, differential: [DifferentialResult], casesFile: String? = nil
    ) -> String {
        Self.matrix(matrix, differentialRuns: differential.map { ReportedDifferentialRun($0, casesFile: casesFile) })
    }

    /// The conformance matrix with a differential section after it, from
    /// runs as their reports show them (`imcodec report` reads them from
    /// the JSON of `imcodec differential --json`).
    ///
    /// - Parameters:
    ///   - matrix: The conformance runs side by side; nil for a page with
    ///     the differential section alone.
    ///   - differentialRuns: The differential runs, each linking its
    ///     minimal cases' vector file when it names one.
    /// - Returns: A self-contained page.
    public static func matrix(_ matrix: ReportMatrix?, differentialRuns: [ReportedDifferentialRun]) -> String {
        let section = differentialSection(differentialRuns)
        guard let matrix else {
            return page(title: "imcodec differential", body: section, script: "")
        }
        let base = Self.matrix(matrix)
        guard let end = base.range(of: "</body>", options: .backwards) else { return base + section }
        return base.replacingCharacters(in: end.lowerBound..<end.lowerBound, with: section)
    }

    static func differentialSection(_ runs: [ReportedDifferentialRun]) -> String {
        var body = "<section id=\"differential\"><h2>Differential runs</h2>\n"
        body += "<p>Generated and mutated requests sent to the reference and to each implementation, their answers "
        body += "compared (<code>imcodec differential</code>, docs/spec/testee-protocol.md).</p>\n"
        for (runIndex, run) in runs.enumerated() {
            body += "<h3>Reference \(escape(run.reference)), seed \(run.seed): \(run.requests) requests in "
            body += "\(DifferentialResult.format(run.seconds)) s</h3>\n"
            body += "<table class=\"differential-pairs\"><thead><tr><th>pair</th><th>checks</th>"
            body += "<th>disagreements</th><th>checks/s</th><th>not sent (declared skips)</th></tr></thead><tbody>\n"
            for pair in run.pairs {
                body +=
                    "<tr data-pair=\"\(escape(pair.name))\"><td>\(escape(run.reference)) × \(escape(pair.name))</td>"
                body += "<td class=\"checks\">\(pair.checks)</td><td class=\"disagreements\">\(pair.disagreements)</td>"
                body += "<td>\(Int(pair.checksPerSecond.rounded()))</td><td>\(pair.skipped)</td></tr>\n"
            }
            body += "</tbody></table>\n"
            if run.groups.isEmpty {
                body += "<p>No disagreement.</p>\n"
                continue
            }
            body += "<table class=\"differential-signatures\"><thead><tr><th>implementation</th><th>signature</th>"
            body += "<th>count</th><th>failure list</th><th>minimal case</th></tr></thead><tbody>\n"
            for (index, group) in run.groups.enumerated() {
                let anchor = "differential-\(runIndex + 1)-\(index + 1)"
                body += "<tr data-listed=\"\(group.isListed)\"><td>\(escape(group.implementation))</td>"
                body += "<td><code>\(escape(group.signature))</code></td><td>\(group.count)</td>"
                body += "<td>\(group.listedReason.map(escape) ?? "<b>not listed</b>")</td>"
                body += "<td><a href=\"#\(anchor)\">differential.\(index + 1)</a></td></tr>\n"
            }
            body += "</tbody></table>\n"
            if let casesFile = run.casesFile {
                body += "<p>The minimal cases as a vector file: <a href=\"\(escape(casesFile))\">"
                body += "\(escape(casesFile))</a>.</p>\n"
            }
            for (index, group) in run.groups.enumerated() {
                let anchor = "differential-\(runIndex + 1)-\(index + 1)"
                body += "<details id=\"\(anchor)\"><summary>differential.\(index + 1): \(escape(group.implementation)) "
                body += "<code>\(escape(group.signature))</code></summary>\n<pre>"
                body += escape(group.minimal) + "\n\n"
                body += escape("\(run.reference): \(group.reference)") + "\n"
                body += escape("\(group.implementation): \(group.other)") + "</pre>"
                if group.referenceIsOddOneOut {
                    body +=
                        "<p>Every other implementation asked agrees with \(escape(group.implementation)): decide.</p>"
                }
                body += "</details>\n"
            }
        }
        return body + "</section>\n"
    }
}
