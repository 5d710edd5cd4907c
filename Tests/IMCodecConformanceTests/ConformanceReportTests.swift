import Foundation
import IMCodecConformance
import IMCodecTestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reports, failure lists and the command line of `imcodec conformance`.
@Suite struct ConformanceReportTests {
    static func files() throws -> [VectorFile] {
        try VectorLoader.loadDirectory(repositoryRoot + "/Vectors")
    }

    /// Counts the elements of a JUnit document.
    final class JUnitCounter: NSObject, XMLParserDelegate {
        var testcases = 0
        var failures = 0
        var skipped = 0
        var names: Set<String> = []
        var suitesTests = 0

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName: String?, attributes: [String: String] = [:]
        ) {
            switch elementName {
            case "testcase":
                testcases += 1
                names.insert(attributes["name"] ?? "")
            case "failure": failures += 1
            case "skipped": skipped += 1
            case "testsuite": suitesTests += Int(attributes["tests"] ?? "") ?? 0
            default: break
            }
        }
    }

    static func parseJUnit(_ xml: String) -> JUnitCounter? {
        let parser = XMLParser(data: Data(xml.utf8))
        let counter = JUnitCounter()
        parser.delegate = counter
        return parser.parse() ? counter : nil
    }

    @Test func junitReportParsesAndCountsEveryCase() throws {
        let files = try Self.files()
        var options = Runner.Options()
        // One listed case that passes (an unexpected pass, a <failure>) and
        // nothing else amiss.
        options.failureList = try FailureList(
            parsing: "elem.text.all-fields  wrong-answer  # listed to test the report\n")
        let report = Runner(options: options).run(files, against: InProcessTestee())
        let xml = JUnitReport.xml(report)
        let counter = try #require(Self.parseJUnit(xml), "the JUnit report is not well-formed XML")
        let total = files.reduce(0) { $0 + $1.cases.count }
        #expect(counter.testcases == total)
        #expect(counter.suitesTests == total)
        #expect(counter.names.count == total)
        #expect(counter.failures == 1)
        #expect(counter.skipped == 0)
        #expect(!report.isSuccess)
        #expect(report.unexpected.map(\.status) == [.unexpectedPass])
    }

    @Test func junitReportMarksSkipsKnownFailuresAndEscapes() throws {
        let results = [
            CaseResult(
                id: "a<&>\"", file: "x/y.json", area: "x", operation: .payload, status: .failed,
                messages: ["differs:\n  expected \u{1}"], passedChecks: 0, failedChecks: 1, skippedChecks: 0,
                seconds: 0.25),
            CaseResult(
                id: "b", file: "x/y.json", area: "x", operation: .payload, status: .skipped,
                messages: ["not supported"], passedChecks: 0, failedChecks: 0, skippedChecks: 1, seconds: 0),
            CaseResult(
                id: "c", file: "z.json", area: "z", operation: .decodeFrame, status: .knownFailure,
                messages: ["known failure: why"], passedChecks: 0, failedChecks: 1, skippedChecks: 0, seconds: 0),
            CaseResult(
                id: "d", file: "z.json", area: "z", operation: .decodeFrame, status: .passed, messages: [],
                passedChecks: 1, failedChecks: 0, skippedChecks: 0, seconds: 0),
        ]
        let report = RunReport(testee: "t", results: results, warnings: [], seconds: 1)
        let counter = try #require(Self.parseJUnit(JUnitReport.xml(report)))
        #expect(counter.testcases == 4)
        #expect(counter.failures == 1)
        #expect(counter.skipped == 2)
        #expect(counter.names.contains("a<&>\""))
    }

    @Test func jsonReportListsEveryCaseWithItsStatus() throws {
        let files = try Self.files().filter { $0.area == "events" }
        let report = Runner().run(files, against: InProcessTestee())
        let document = try VectorJSON(parsing: JSONReport.json(report))
        #expect(document["success"] == .bool(true))
        let cases = try #require(document["cases"]?.arrayValue)
        #expect(cases.count == files.reduce(0) { $0 + $1.cases.count })
        #expect(cases.allSatisfy { $0["status"] == .string("passed") })
        #expect(document["summary"]?["total"]?["passed"]?.intValue == cases.count)
    }

    @Test func summaryEndsWithThePlainClosingLine() throws {
        let files = try Self.files().filter { $0.area == "batches" }
        let report = Runner().run(files, against: InProcessTestee())
        let last = report.textLines().last ?? ""
        #expect(last == "conformance: \(report.results.count) passed, 0 failed, 0 skipped")
    }

    @Test func failureListNeedsReasonsAndFailureCodesAndRejectsDuplicates() throws {
        let list = try FailureList(
            parsing: """
                # known differences of an implementation
                skip validate   # no validator yet
                elem.text.nul   runtime-error  # cuts strings at NUL

                elem.location.negative-zero wrong-answer # drops -0.0
                payload.wire-type.seq-as-fixed64  error:payload.wire-type  # rejects it
                """)
        #expect(
            list.entries == [
                "elem.text.nul": .init(failure: "runtime-error", reason: "cuts strings at NUL"),
                "elem.location.negative-zero": .init(failure: "wrong-answer", reason: "drops -0.0"),
                "payload.wire-type.seq-as-fixed64": .init(failure: "error:payload.wire-type", reason: "rejects it"),
            ])
        #expect(list.skips == ["validate": "no validator yet"])
        #expect(try FailureList(parsing: list.text) == list)
        for bad in [
            "elem.text.nul\n",  // no reason
            "elem.text.nul  # no failure code\n",  // the old format: the failure is not pinned
            "a runtime-error # x\na wrong-answer # y\n",  // listed twice
            "a b c # x\n",
            "a runtime-error #   \n",  // empty reason
            "a undeclared-skip # a skip is never a known failure\n",
            "a no-answer # nor is a crash\n",
            "a error: # no code\n",
            "skip decode_everything # not an operation\n",
            "skip validate # x\nskip validate # y\n",
        ] {
            #expect(throws: FailureList.FormatError.self, "\(bad)") { try FailureList(parsing: bad) }
        }
    }

    @Test func failureListNamingAnUnknownCaseFailsTheRun() throws {
        let files = try Self.files().filter { $0.area == "batches" }
        var options = Runner.Options()
        options.failureList = try FailureList(parsing: "no.such.case  runtime-error  # stale\n")
        let report = Runner(options: options).run(files, against: InProcessTestee())
        #expect(!report.isSuccess)
        #expect(report.problems.contains { $0.contains("no.such.case") && $0.contains("not a case") })
        #expect(report.textLines().contains { $0.hasPrefix("ERROR ") && $0.contains("no.such.case") })
        // A case that exists but was filtered out is only noted.
        options.failureList = try FailureList(parsing: "elem.text.nul  runtime-error  # filtered out\n")
        options.filters = ["batch."]
        let filtered = Runner(options: options).run(try Self.files(), against: InProcessTestee())
        #expect(filtered.isSuccess)
        #expect(filtered.warnings.contains { $0.contains("elem.text.nul") })
    }

    // MARK: The command line

    struct Run {
        var status: Int32
        var output: String
        var error: String
    }

    static func imcodec(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try builtExecutable("imcodec"))
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: repositoryRoot)
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
            error: String(decoding: err, as: UTF8.self))
    }

    @Test func commandPassesEveryVectorInProcessFromTheRepositoryRoot() throws {
        let run = try Self.imcodec(["conformance"])
        #expect(run.status == 0, "\(run.output.suffix(2000))\(run.error)")
        #expect(run.output.contains(" 0 failed, 0 skipped"))
    }

    @Test func commandPassesEveryVectorThroughItsOwnTesteeAndWritesReports() throws {
        let binary = try builtExecutable("imcodec")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("imcodec-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let junit = scratch.appendingPathComponent("conformance.xml").path
        let json = scratch.appendingPathComponent("conformance.json").path
        let run = try Self.imcodec(["conformance", "--testee", "'\(binary)' testee", "--junit", junit, "--json", json])
        #expect(run.status == 0, "\(run.output.suffix(2000))\(run.error)")
        let counter = try #require(Self.parseJUnit(try String(contentsOfFile: junit, encoding: .utf8)))
        #expect(counter.testcases == (try Self.files()).reduce(0) { $0 + $1.cases.count })
        #expect(counter.failures == 0)
        let report = try VectorJSON(parsing: String(contentsOfFile: json, encoding: .utf8))
        #expect(report["success"] == .bool(true))
    }

    @Test func commandExitsNonZeroWhenATesteeAnswersWrongly() throws {
        let command = try ConformanceTesteeTests.fakeCommand("wrong", target: ConformanceTesteeTests.target)
        let run = try Self.imcodec(["conformance", "--testee", command, "--filter", "elem.text."])
        #expect(run.status == 1)
        #expect(run.output.contains("FAIL \(ConformanceTesteeTests.target)"))
    }

    @Test func commandExitsNonZeroWithoutVectors() throws {
        let run = try Self.imcodec(["conformance", "--vectors", "/nonexistent/vectors"])
        #expect(run.status == 1)
        #expect(run.error.contains("cannot load the vectors"))
    }
}
