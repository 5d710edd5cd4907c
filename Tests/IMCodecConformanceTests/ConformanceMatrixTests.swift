import Foundation
import IMCodecConformance
import IMCodecTestSupport
import Testing

/// Runs read back from JSON reports, the matrix of several runs, the HTML
/// pages, and `imcodec report`.
@Suite struct ConformanceMatrixTests {
    typealias Case = ReportedRun.Case

    /// Two hand-made runs: `a` fails `x.2` and skips `y.1`; `b` passes `x.2`,
    /// never ran `y.1`, and ran `z.1`, which `a` did not.
    static let a = ReportedRun(
        implementation: "a", testee: "testees/a/testee", isSuccess: false,
        declaredSkips: ["validate": "not written"],
        cases: [
            Case(id: "x.1", file: "x/f.json", area: "x", operation: "payload", status: .passed, passedChecks: 2),
            Case(
                id: "x.2", file: "x/f.json", area: "x", operation: "payload", status: .failed,
                messages: ["decode_payload: <script>alert(1)</script> & more"], failure: "wrong-answer",
                failedChecks: 1),
            Case(
                id: "y.1", file: "y.json", area: "y", operation: "validate", status: .skipped,
                messages: ["validate skipped (declared: not written)"], skippedChecks: 1),
        ])
    static let b = ReportedRun(
        implementation: "b", testee: "b-testee", isSuccess: true,
        cases: [
            Case(id: "x.1", file: "x/f.json", area: "x", operation: "payload", status: .passed, passedChecks: 2),
            Case(id: "x.2", file: "x/f.json", area: "x", operation: "payload", status: .passed, passedChecks: 1),
            Case(id: "z.1", file: "z.json", area: "z", operation: "decode-frame", status: .knownFailure),
        ])

    @Test func aRunReadsBackFromItsJSONReport() throws {
        let files = try ConformanceReportTests.files().filter { $0.area == "batches" || $0.area == "json" }
        var options = Runner.Options()
        options.failureList = try FailureList(
            parsing: "skip payload_to_json  # listed to test the report\nbatch.empty  wrong-answer  # listed\n")
        var report = Runner(options: options).run(files, against: InProcessTestee())
        report.implementation = "swift"
        var direct = ReportedRun(report)
        var read = try ReportedRun(json: JSONReport.json(report))
        // The JSON report rounds times to milliseconds.
        direct.seconds = 0
        read.seconds = 0
        for index in direct.cases.indices {
            direct.cases[index].seconds = 0
            read.cases[index].seconds = 0
        }
        #expect(read == direct)
        #expect(read.implementation == "swift")
        #expect(read.cases.first { $0.id == "batch.empty" }?.status == .unexpectedPass)
        // The in-process testee answers every operation, so the declaration is a problem of the run.
        #expect(read.problems.count == 1 && read.problems == report.problems)
        #expect(Self.a.skipCounts == ["validate": 1])
    }

    @Test func theImplementationIsTheTesteeFolderUnlessNamed() {
        #expect(RunReport.implementationName(forTestee: "testees/java/testee") == "java")
        #expect(RunReport.implementationName(forTestee: "/src/imcodec/testees/python/testee --flag") == "python")
        #expect(RunReport.implementationName(forTestee: ".build/debug/imcodec testee") == ".build/debug/imcodec testee")
        #expect(RunReport.implementationName(forTestee: "testees/java/other") == "testees/java/other")
        #expect(RunReport(testee: "testees/c/testee", results: [], warnings: [], seconds: 0).implementation == "c")
    }

    static func report(_ members: String, cases: String = "[]", summary: String? = nil) -> String {
        let counts = #"{"cases": 0, "passed": 0, "failed": 0, "skipped": 0, "knownFailures": 0, "unexpectedPasses": 0}"#
        return """
            {"format": "imcodec-conformance-report", "version": 1, "testee": "testees/java/testee", \(members)
             "success": true, "seconds": 1.5, "summary": \(summary ?? #"{"total": \#(counts), "areas": {}}"#),
             "problems": [], "warnings": [], "declaredSkips": {}, "requiredAreas": [], "cases": \(cases)}
            """
    }

    @Test func aReportWithoutImplementationIsNamedByItsTestee() throws {
        #expect(try ReportedRun(json: Self.report("")).implementation == "java")
        #expect(try ReportedRun(json: Self.report(#""implementation": "jvm","#)).implementation == "jvm")
    }

    @Test(arguments: [
        ("[1, 2]", "not an imcodec conformance report"),
        (#"{"format": "imcodec-vectors", "version": 1}"#, "not an imcodec conformance report"),
        (#"{"format": "imcodec-conformance-report", "version": 2}"#, "a report of a version"),
        (report(#""implementation": 5,"#), "implementation: not a string"),
        (
            report(
                "",
                cases: #"[{"id": "a", "file": "f", "area": "x", "operation": "payload", "status": "great", "#
                    + #""messages": [], "failure": null, "checks": {"passed": 1, "failed": 0, "skipped": 0}, "#
                    + #""seconds": 0}]"#), "cases[0].status"
        ),
        (
            report(
                "",
                cases: #"[{"id": "a", "file": "f", "area": "x", "operation": "payload", "status": "passed", "#
                    + #""messages": [], "failure": null, "checks": {"passed": 1, "failed": 0, "skipped": 0}, "#
                    + #""seconds": 0}]"#), "summary.total disagrees"
        ),
    ])
    func readingRefusesWhatIsNotAReportOfThisVersion(text: String, problem: String) {
        #expect(throws: ReportReadError.self) { try ReportedRun(json: text) }
        do {
            _ = try ReportedRun(json: text)
        } catch {
            #expect(error.description.hasPrefix(problem), "\(error)")
        }
    }

    @Test func theMatrixCountsEachRunPerAreaAndListsTheCasesThatDiffer() throws {
        let matrix = try ReportMatrix([Self.a, Self.b])
        #expect(matrix.areas == ["x", "y", "z"])
        #expect(matrix.caseCount == 4)
        let ax = try #require(matrix.counts(run: 0, area: "x"))
        #expect((ax.total, ax.passed, ax.failed) == (2, 1, 1))
        #expect(matrix.counts(run: 0, area: "z") == nil)
        #expect(matrix.counts(run: 1, area: "y") == nil)
        #expect(matrix.counts(run: 1, area: "z")?.knownFailures == 1)
        #expect(matrix.totals(run: 0).skipped == 1)
        #expect(matrix.totals(run: 1).total == 3)
        #expect(matrix.differences.map(\.id) == ["x.2", "y.1", "z.1"])
        let y = try #require(matrix.differences.first { $0.id == "y.1" })
        #expect(y.results.map { $0?.status } == [.skipped, nil])
        #expect(
            matrix.text().split(separator: "\n").map(String.init) == [
                "cells: passed/failed/skipped/known failures; - where no case of the area ran",
                "area         a        b",
                "x      1/1/0/0  2/0/0/0",
                "y      0/0/1/0        -",
                "z            -  0/0/0/1",
                "total  1/1/1/0  2/0/0/1",
                "3 of 4 cases differ between the implementations",
            ])
    }

    @Test func runsThatAgreeHaveNoDifferencesAndTwoRunsMayNotShareAName() throws {
        #expect(try ReportMatrix([Self.b, ReportedRun(Self.b, implementation: "b2")]).differences.isEmpty)
        do {
            _ = try ReportMatrix([Self.a, Self.b, Self.a])
            Issue.record("two runs named a were accepted")
        } catch {
            #expect(error.implementation == "a")
        }
    }

    /// Whether a page loads anything from elsewhere.
    static func referencesElsewhere(_ page: String) -> [String] {
        ["src=", "<link", "url(", "@import", "http://", "https://", "<iframe"].filter { page.contains($0) }
    }

    @Test func theRunPageHasEveryCaseEscapedAndLoadsNothing() {
        let page = HTMLReport.run(Self.a)
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(Self.referencesElsewhere(page).isEmpty)
        #expect(page.components(separatedBy: "<tr data-status=").count - 1 == Self.a.cases.count)
        #expect(!page.contains("<script>alert(1)"))
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; more"))
        // A run with failures opens on them.
        #expect(page.contains(#"<option value="failures" selected>"#))
        #expect(HTMLReport.run(Self.b).contains(#"<option value="all" selected>"#))
        #expect(page.contains(#"<tfoot><tr><th>total</th><td data-count="cases">3</td><td data-count="passed">1</td>"#))
    }

    @Test func theMatrixPageHasAColumnPerRunAndARowPerDifference() throws {
        let page = HTMLReport.matrix(try ReportMatrix([Self.a, Self.b]))
        #expect(Self.referencesElsewhere(page).isEmpty)
        #expect(page.contains(#"<th data-implementation="a""#) && page.contains(#"<th data-implementation="b""#))
        #expect(page.components(separatedBy: "<tr data-area=").count - 1 == 3 + 3)
        #expect(page.contains(#"<span id="difference-count">3</span>"#))
        #expect(page.contains(#"<td class="status missing" data-implementation="b">not run</td>"#))
        #expect(!page.contains("<script>alert(1)"))
    }

    // MARK: The command line

    @Test func reportPrintsTheMatrixAndWritesThePage() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("imcodec-report-\(UUID())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let swift = scratch.appendingPathComponent("swift.json").path
        let html = scratch.appendingPathComponent("swift.html").path
        let run = try ConformanceReportTests.imcodec([
            "conformance", "--filter", "elem.text.", "--name", "swift", "--json", swift, "--html", html,
        ])
        #expect(run.status == 0, "\(run.error)")
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains(#"<span id="implementation">swift</span>"#))
        let written = try ReportedRun(json: String(contentsOfFile: swift, encoding: .utf8))
        #expect(written.implementation == "swift")
        // The same run under another name is a second column.
        let other = scratch.appendingPathComponent("other.json").path
        try JSONReport.json(
            RunReport(
                testee: "t", implementation: "other",
                results: [
                    CaseResult(
                        id: written.cases[0].id, file: written.cases[0].file, area: written.cases[0].area,
                        operation: .payload, status: .failed, messages: ["x"], passedChecks: 0, failedChecks: 1,
                        skippedChecks: 0, seconds: 0)
                ], warnings: [], seconds: 0)
        ).write(toFile: other, atomically: true, encoding: .utf8)
        let matrix = scratch.appendingPathComponent("matrix.html").path
        let report = try ConformanceReportTests.imcodec(["report", "--html", matrix, swift, other])
        #expect(report.status == 0, "\(report.error)")
        #expect(report.output.contains("\(written.cases.count) of \(written.cases.count) cases differ"))
        #expect(try String(contentsOfFile: matrix, encoding: .utf8).contains(#"data-implementation="other""#))
    }

    @Test func reportRefusesFilesThatAreNotReports() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("imcodec-report-\(UUID())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let vectors = repositoryRoot + "/Vectors/batches/batch.json"
        let notAReport = try ConformanceReportTests.imcodec(["report", vectors])
        #expect(notAReport.status == 1)
        #expect(notAReport.error.contains("is not a conformance report"))
        let missing = try ConformanceReportTests.imcodec(["report", scratch.appendingPathComponent("no.json").path])
        #expect(missing.status == 2)
        let report = scratch.appendingPathComponent("a.json").path
        try JSONReport.json(RunReport(testee: "t", results: [], warnings: [], seconds: 0))
            .write(toFile: report, atomically: true, encoding: .utf8)
        let twice = try ConformanceReportTests.imcodec(["report", report, report])
        #expect(twice.status == 1)
        #expect(twice.error.contains("name the implementation 't'"))
        #expect(try ConformanceReportTests.imcodec(["report"]).status == 64)
    }
}

extension ReportedRun {
    /// The same run under another name.
    init(_ run: ReportedRun, implementation: String) {
        self = run
        self.implementation = implementation
    }
}
