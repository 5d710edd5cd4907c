/// Conformance reports as HTML pages people look at: one run
/// (``run(_:)``, what `imcodec conformance --html` writes) or several side by
/// side (``matrix(_:)``, what `imcodec report --html` writes).
///
/// Each page is one self-contained file: its styles and its script are
/// inline, and it loads nothing (no fonts, images, scripts or styles from
/// elsewhere), so it can be kept as a CI artifact and opened anywhere. The
/// numbers are in the page's text, each count in an element with a
/// `data-count` attribute (`passed`, `failed`, `skipped`, `knownFailures`,
/// `unexpectedPasses`, `cases`) inside an element that names its area
/// (`data-area`) and, in the matrix, its implementation
/// (`data-implementation`); the totals are in the table's `tfoot`.
public enum HTMLReport {
    /// The page of one run: a summary per area, what the testee declared,
    /// the problems of the run, and every case with its status, checks and
    /// what happened, with filters by status (failures first when there are
    /// any), area and case id.
    ///
    /// - Parameter run: The run.
    /// - Returns: The HTML document.
    public static func run(_ run: ReportedRun) -> String {
        let summary = run.summary
        let unexpected = summary.total.failed + summary.total.unexpectedPasses
        var body = "<header><h1>imcodec conformance: <span id=\"implementation\">\(escape(run.implementation))"
        body += "</span></h1>\n"
        body += verdict(run, id: "verdict")
        body += "<p class=\"meta\">testee <code>\(escape(run.testee))</code> · \(run.cases.count) cases · "
        body += "\(String(format1: run.seconds)) s</p></header>\n"

        body += "<section><h2>Summary</h2>\n<table id=\"summary\">\n<thead><tr><th>area</th>"
        body += countColumns.map { "<th>\($0.title)</th>" }.joined() + "</tr></thead>\n<tbody>\n"
        for (area, counts) in summary.areas {
            body += "<tr data-area=\"\(escape(area))\"><th><a href=\"#cases\" data-show-area=\"\(escape(area))\">"
            body += "\(escape(area))</a></th>\(countCells(counts))</tr>\n"
        }
        body += "</tbody>\n<tfoot><tr><th>total</th>\(countCells(summary.total))</tr></tfoot>\n</table></section>\n"

        body += runNotes(run)

        let initial = unexpected > 0 ? "failures" : "all"
        body += "<section id=\"cases\"><h2>Cases</h2>\n<div class=\"filters\">\n"
        body += "<label>status <select id=\"status-filter\">"
        for (value, title) in statusFilters {
            body += "<option value=\"\(value)\"\(value == initial ? " selected" : "")>\(title)</option>"
        }
        body += "</select></label>\n" + areaSelect(id: "area-filter", areas: summary.areas.map(\.area))
        body += "<label>case id contains <input id=\"text-filter\" type=\"search\"></label>\n"
        body += "<span class=\"shown\"><span id=\"shown\">\(run.cases.count)</span> of \(run.cases.count) cases "
        body += "shown</span></div>\n"
        body += "<table id=\"case-table\" class=\"cases\">\n<thead><tr><th>case</th><th>area</th><th>operation</th>"
        body += "<th>status</th><th title=\"checks passed / failed / skipped as declared\">checks</th>"
        body += "<th>failure</th><th>what happened</th></tr></thead>\n<tbody>\n"
        for result in run.cases {
            body += "<tr data-status=\"\(result.status.rawValue)\" data-area=\"\(escape(result.area))\" "
            body += "data-id=\"\(escape(result.id))\"><td>\(escape(result.id))<div class=\"file\">"
            body += "\(escape(result.file))</div></td><td>\(escape(result.area))</td>"
            body += "<td>\(escape(result.operation))</td>"
            body += "<td class=\"status \(result.status.rawValue)\">\(statusTitle(result.status))</td>"
            body += "<td class=\"checks\">\(result.passedChecks) / \(result.failedChecks) / \(result.skippedChecks)"
            body += "</td><td><code>\(escape(result.failure ?? ""))</code></td>"
            body += "<td>\(messages(result.messages))</td></tr>\n"
        }
        body += "</tbody></table></section>\n"
        return page(title: "imcodec conformance: \(run.implementation)", body: body, script: runScript)
    }

    /// The page of several runs: the matrix of implementations × areas, each
    /// cell with its counts and coloured by the worst of them, a row of
    /// totals and a column of how many cases differ per area; then the cases
    /// on which the implementations differ, each with every implementation's
    /// status and what happened, filtered by area (a click on a cell or an
    /// area drills down to that area), by case id, and to the cases some
    /// implementation fails (failed, known failure or unexpected pass) rather
    /// than only skips.
    ///
    /// - Parameter matrix: The runs side by side.
    /// - Returns: The HTML document.
    public static func matrix(_ matrix: ReportMatrix) -> String {
        var differencesPerArea: [String: Int] = [:]
        for difference in matrix.differences { differencesPerArea[difference.area, default: 0] += 1 }
        var body = "<header><h1>imcodec conformance matrix</h1>\n<p class=\"meta\">\(matrix.runs.count) "
        body += "implementations · \(matrix.caseCount) cases · <span id=\"difference-count\">"
        body += "\(matrix.differences.count)</span> on which they differ</p></header>\n"

        body += "<section><table id=\"matrix\" class=\"matrix\">\n<thead><tr><th>area</th>"
        for run in matrix.runs {
            body += "<th data-implementation=\"\(escape(run.implementation))\" title=\"\(escape(run.testee))\">"
            body += "<div class=\"name\">\(escape(run.implementation))</div><div class=\"command\"><code>"
            body += "\(escape(run.testee))</code></div>\(verdict(run, id: nil))</th>"
        }
        body += "<th>cases that differ</th></tr></thead>\n<tbody>\n"
        for area in matrix.areas {
            body += "<tr data-area=\"\(escape(area))\"><th><a href=\"#differences\" data-drill=\"\(escape(area))\">"
            body += "\(escape(area))</a></th>"
            for (index, run) in matrix.runs.enumerated() {
                body += matrixCell(matrix.counts(run: index, area: area), run: run, area: area)
            }
            let differing = differencesPerArea[area, default: 0]
            body += "<td class=\"differ\"><a href=\"#differences\" data-drill=\"\(escape(area))\" "
            body += "data-differences=\"\(escape(area))\">\(differing)</a></td></tr>\n"
        }
        body += "</tbody>\n<tfoot><tr><th>total</th>"
        for (index, run) in matrix.runs.enumerated() {
            body += matrixCell(matrix.totals(run: index), run: run, area: nil)
        }
        body += "<td class=\"differ\"><a href=\"#differences\" data-drill=\"\">\(matrix.differences.count)</a></td>"
        body += "</tr></tfoot>\n</table>\n"
        body += "<p class=\"legend\">Each cell: cases passed of the cases run, then those that failed, were "
        body += "skipped as declared, are known failures or passed unexpectedly (counts of 0 are left out); – where "
        body += "the implementation ran no case of the area. Click a cell or an area for the cases of that area on "
        body += "which the implementations differ. "
        for status in CaseResult.Status.allCases {
            body += "<span class=\"status \(status.rawValue)\">\(statusTitle(status))</span> "
        }
        body += "</p></section>\n"

        body += "<section><h2>Implementations</h2>\n"
        for run in matrix.runs {
            body += "<details class=\"implementation\"><summary><b>\(escape(run.implementation))</b> "
            body += "<code>\(escape(run.testee))</code></summary>\n\(runNotes(run))</details>\n"
        }
        body += "</section>\n"

        body += "<section id=\"differences\"><h2>Cases on which they differ</h2>\n"
        if matrix.differences.isEmpty {
            body += "<p>The implementations agree on every case.</p>"
        }
        body += "<div class=\"filters\">\n" + areaSelect(id: "area-filter", areas: matrix.areas)
        body += "<label>case id contains <input id=\"text-filter\" type=\"search\"></label>\n"
        body += "<label><input id=\"failing-filter\" type=\"checkbox\"> only cases an implementation fails (known "
        body += "failures included), not those it only skips</label>\n"
        body += "<span class=\"shown\"><span id=\"shown\">\(matrix.differences.count)</span> of "
        body += "\(matrix.differences.count) cases shown</span></div>\n"
        body += "<table id=\"difference-table\" class=\"cases\">\n<thead><tr><th>case</th><th>area</th>"
        body += matrix.runs.map { "<th>\(escape($0.implementation))</th>" }.joined() + "</tr></thead>\n<tbody>\n"
        for difference in matrix.differences {
            let failing = difference.results.contains {
                $0.map { $0.status != .passed && $0.status != .skipped } ?? false
            }
            body += "<tr data-area=\"\(escape(difference.area))\" data-id=\"\(escape(difference.id))\" "
            body += "data-failing=\"\(failing)\"><td>\(escape(difference.id))<div class=\"file\">"
            body += "\(escape(difference.file))</div></td><td>\(escape(difference.area))</td>"
            for (index, result) in difference.results.enumerated() {
                let name = escape(matrix.runs[index].implementation)
                guard let result else {
                    body += "<td class=\"status missing\" data-implementation=\"\(name)\">not run</td>"
                    continue
                }
                body += "<td class=\"status \(result.status.rawValue)\" data-implementation=\"\(name)\" "
                body += "title=\"\(escape(result.failure ?? ""))\">\(statusTitle(result.status))"
                if !result.messages.isEmpty {
                    body += "<details><summary>why</summary>\(messages(result.messages))</details>"
                }
                body += "</td>"
            }
            body += "</tr>\n"
        }
        body += "</tbody></table></section>\n"
        return page(title: "imcodec conformance matrix", body: body, script: matrixScript)
    }

    // MARK: Parts

    private static let countColumns: [(key: String, title: String)] = [
        ("cases", "cases"), ("passed", "passed"), ("failed", "failed"), ("skipped", "skipped"),
        ("knownFailures", "known failures"), ("unexpectedPasses", "unexpected passes"),
    ]

    private static let statusFilters: [(value: String, title: String)] = [
        ("all", "all"), ("failures", "failures (failed, unexpected passes)"), ("known-failure", "known failures"),
        ("skipped", "skipped"), ("passed", "passed"),
    ]

    private static func value(_ counts: Summary.Counts, _ key: String) -> Int {
        switch key {
        case "cases": counts.total
        case "passed": counts.passed
        case "failed": counts.failed
        case "skipped": counts.skipped
        case "knownFailures": counts.knownFailures
        default: counts.unexpectedPasses
        }
    }

    private static func countCells(_ counts: Summary.Counts) -> String {
        countColumns.map { column in
            let number = value(counts, column.key)
            let marked = number > 0 && column.key != "cases" && column.key != "passed"
            return "<td data-count=\"\(column.key)\"\(marked ? " class=\"nonzero \(column.key)\"" : "")>\(number)</td>"
        }.joined()
    }

    /// The class of a cell: the worst of its counts.
    private static func cellClass(_ counts: Summary.Counts) -> String {
        if counts.failed + counts.unexpectedPasses > 0 { return "failed" }
        if counts.knownFailures > 0 { return "known-failure" }
        if counts.skipped > 0 { return counts.passed > 0 ? "partly-skipped" : "skipped" }
        return "passed"
    }

    private static func matrixCell(_ counts: Summary.Counts?, run: ReportedRun, area: String?) -> String {
        let implementation = escape(run.implementation)
        let areaAttribute = area.map { " data-area=\"\(escape($0))\"" } ?? ""
        guard let counts else {
            return "<td class=\"cell none\" data-implementation=\"\(implementation)\"\(areaAttribute)>–</td>"
        }
        var cell = "<td class=\"cell \(cellClass(counts))\" data-implementation=\"\(implementation)\"\(areaAttribute)>"
        cell += "<a href=\"#differences\" data-drill=\"\(escape(area ?? ""))\"><span class=\"big\">"
        cell += "<span data-count=\"passed\">\(counts.passed)</span> / <span data-count=\"cases\">\(counts.total)"
        cell += "</span></span><span class=\"small\">"
        // Zero counts stay in the page (every count has its element) but are not shown.
        let details = [
            ("failed", "failed", counts.failed), ("skipped", "skipped", counts.skipped),
            ("knownFailures", "known", counts.knownFailures),
            ("unexpectedPasses", "unexp. pass", counts.unexpectedPasses),
        ]
        if counts.total == counts.passed { cell += "<span class=\"detail\">all passed</span>" }
        for (key, title, number) in details.filter({ $0.2 != 0 }) + details.filter({ $0.2 == 0 }) {
            cell += "<span class=\"detail\(number == 0 ? " zero" : "")\">\(title) <span data-count=\"\(key)\">\(number)"
            cell += "</span></span>"
        }
        cell += "</span></a></td>"
        return cell
    }

    private static func verdict(_ run: ReportedRun, id: String?) -> String {
        let identifier = id.map { " id=\"\($0)\"" } ?? ""
        let summary = run.summary.total
        let unexpected = summary.failed + summary.unexpectedPasses
        if run.isSuccess {
            return "<p class=\"verdict pass\"\(identifier)>as expected</p>\n"
        }
        var parts: [String] = []
        if unexpected > 0 { parts.append("\(unexpected) unexpected results") }
        if !run.problems.isEmpty { parts.append("\(run.problems.count) problems of the run") }
        return "<p class=\"verdict fail\"\(identifier)>not as expected: \(parts.joined(separator: ", "))</p>\n"
    }

    /// Problems, warnings, declared skips and required areas of a run.
    private static func runNotes(_ run: ReportedRun) -> String {
        var out = ""
        if !run.problems.isEmpty {
            out += "<section class=\"problems\"><h3>Problems of the run</h3><ul>"
            out += run.problems.map { "<li>\(escape($0))</li>" }.joined() + "</ul></section>\n"
        }
        if !run.warnings.isEmpty {
            out += "<section><h3>Warnings</h3><ul>" + run.warnings.map { "<li>\(escape($0))</li>" }.joined()
            out += "</ul></section>\n"
        }
        let skipCounts = run.skipCounts
        out += "<section><h3>Declared unsupported operations</h3>"
        if run.declaredSkips.isEmpty {
            out += "<p>None: the testee answers every operation.</p>"
        } else {
            out += "<table class=\"declared\"><thead><tr><th>operation</th><th>cases skipped</th><th>reason</th>"
            out += "</tr></thead><tbody>"
            for (operation, reason) in run.declaredSkips.sorted(by: { $0.key < $1.key }) {
                out += "<tr><td><code>\(escape(operation))</code></td><td>\(skipCounts[operation] ?? 0)</td>"
                out += "<td>\(escape(reason))</td></tr>"
            }
            out += "</tbody></table>"
        }
        out += "</section>\n"
        if !run.requiredAreas.isEmpty {
            out += "<p>Required areas (no case skipped): "
            out += run.requiredAreas.map { "<code>\(escape($0))</code>" }.joined(separator: ", ") + "</p>\n"
        }
        return out
    }

    private static func areaSelect(id: String, areas: [String]) -> String {
        var out = "<label>area <select id=\"\(id)\"><option value=\"\">all areas</option>"
        for area in areas { out += "<option value=\"\(escape(area))\">\(escape(area))</option>" }
        return out + "</select></label>\n"
    }

    private static func messages(_ lines: [String]) -> String {
        lines.isEmpty ? "" : "<pre>\(escape(lines.joined(separator: "\n")))</pre>"
    }

    private static func statusTitle(_ status: CaseResult.Status) -> String {
        switch status {
        case .passed: "passed"
        case .failed: "failed"
        case .skipped: "skipped"
        case .knownFailure: "known failure"
        case .unexpectedPass: "unexpected pass"
        }
    }

    /// Text for an element or a quoted attribute.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    static func page(title: String, body: String, script: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title))</title>
        <style>
        \(style)
        </style>
        </head>
        <body>
        \(body)<script>
        \(script)
        </script>
        </body>
        </html>

        """
    }

    // MARK: Styles and scripts

    private static let style = """
        body { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 1.5em; color: #1b1b1b; }
        h1 { font-size: 1.5em; margin: 0 0 .3em; } h2 { font-size: 1.2em; margin-top: 1.5em; }
        h3 { font-size: 1em; }
        code, pre { font: 12px/1.35 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
        pre { white-space: pre-wrap; word-break: break-word; margin: 0; }
        table { border-collapse: collapse; } th, td { border: 1px solid #d0d0d0; padding: 4px 8px; }
        th { background: #f3f3f3; text-align: left; } td { vertical-align: top; }
        #summary td, .checks { text-align: right; } tfoot th, tfoot td { font-weight: bold; }
        .meta { color: #555; } .file { color: #777; font-size: 11px; }
        .verdict { display: inline-block; padding: 2px 8px; border-radius: 3px; margin: 2px 0; font-weight: 600; }
        .verdict.pass { background: #e3f4e4; color: #1e6b22; } .verdict.fail { background: #fde7e7; color: #a11; }
        .status.passed, .cell.passed { background: #e3f4e4; } .status.failed, .cell.failed { background: #fbd3d3; }
        .status.skipped, .cell.skipped { background: #eeeeee; } .cell.partly-skipped { background: #eef6ea; }
        .status.known-failure, .cell.known-failure { background: #ffe9cc; }
        .status.unexpected-pass { background: #ecdcf5; } .status.missing, .cell.none { background: #fafafa; color: #999; }
        .nonzero.failed, .nonzero.unexpectedPasses { color: #a11; font-weight: bold; }
        .matrix td.cell { text-align: center; min-width: 8em; } .matrix a { color: inherit; text-decoration: none; }
        .matrix .big { display: block; font-size: 1.15em; font-weight: 600; }
        .matrix .small { display: block; font-size: 11px; color: #444; }
        .matrix .detail:not(.zero) + .detail:not(.zero)::before { content: " · "; }
        .matrix .detail.zero { display: none; }
        .matrix .command { max-width: 14em; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .matrix .command code { font-size: 10px; color: #666; } .checks { white-space: nowrap; }
        .matrix td.cell:hover, .matrix th a:hover { outline: 2px solid #4a78c2; }
        .matrix th .name { font-weight: 700; } .matrix .verdict { font-size: 11px; } .differ { text-align: right; }
        .legend .status { padding: 1px 6px; border-radius: 3px; margin-right: 4px; }
        .filters { display: flex; flex-wrap: wrap; gap: 1em; align-items: center; margin: .5em 0; }
        .shown { color: #555; } table.cases { width: 100%; } table.cases td:first-child { word-break: break-all; }
        details.implementation { margin: .3em 0; } .problems { color: #a11; }
        """

    /// Shared by both pages: hides the rows of `table` that `keep` rejects and counts the others.
    private static let filterFunction = """
        function filterRows(table, keep) {
          var shown = 0;
          document.querySelectorAll('#' + table + ' tbody tr').forEach(function (row) {
            var visible = keep(row);
            row.hidden = !visible;
            if (visible) { shown += 1; }
          });
          document.getElementById('shown').textContent = String(shown);
        }
        function drill(area) {
          var select = document.getElementById('area-filter');
          select.value = area;
          select.dispatchEvent(new Event('change'));
        }
        """

    private static let runScript =
        filterFunction + """

            function apply() {
              var status = document.getElementById('status-filter').value;
              var area = document.getElementById('area-filter').value;
              var text = document.getElementById('text-filter').value.toLowerCase();
              filterRows('case-table', function (row) {
                var s = row.dataset.status;
                var statusOK = status === 'all' ||
                  (status === 'failures' ? (s === 'failed' || s === 'unexpected-pass') : s === status);
                return statusOK && (!area || row.dataset.area === area) &&
                  (!text || row.dataset.id.toLowerCase().indexOf(text) >= 0);
              });
            }
            ['status-filter', 'area-filter', 'text-filter'].forEach(function (id) {
              var element = document.getElementById(id);
              element.addEventListener('change', apply);
              element.addEventListener('input', apply);
            });
            document.querySelectorAll('[data-show-area]').forEach(function (link) {
              link.addEventListener('click', function () {
                document.getElementById('status-filter').value = 'all';
                drill(link.dataset.showArea);
              });
            });
            apply();
            """

    private static let matrixScript =
        filterFunction + """

            function apply() {
              var area = document.getElementById('area-filter').value;
              var text = document.getElementById('text-filter').value.toLowerCase();
              var failing = document.getElementById('failing-filter').checked;
              filterRows('difference-table', function (row) {
                return (!area || row.dataset.area === area) &&
                  (!text || row.dataset.id.toLowerCase().indexOf(text) >= 0) &&
                  (!failing || row.dataset.failing === 'true');
              });
            }
            ['area-filter', 'text-filter', 'failing-filter'].forEach(function (id) {
              var element = document.getElementById(id);
              element.addEventListener('change', apply);
              element.addEventListener('input', apply);
            });
            document.querySelectorAll('[data-drill]').forEach(function (link) {
              link.addEventListener('click', function () { drill(link.dataset.drill); });
            });
            apply();
            """
}
