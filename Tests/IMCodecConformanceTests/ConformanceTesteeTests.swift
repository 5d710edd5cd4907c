import Foundation
import IMCodecConformance
import IMCodecTestSupport
import Testing

/// The runner against testee processes: fakes that answer one case wrongly,
/// crash on it or hang on it are each reported, the run fails, and the
/// testee is restarted for the remaining cases.
@Suite struct ConformanceTesteeTests {
    /// A testee in Python: it skips every request except the one for case
    /// `target`, where it misbehaves as `mode` says. Mode `dirty` answers
    /// everything with `skipped` and exits 4 when its input ends.
    static let fakeTestee = """
        import os, sys, time

        mode, target = sys.argv[1], sys.argv[2]

        def read_exact(n):
            data = b""
            while len(data) < n:
                chunk = os.read(0, n - len(data))
                if not chunk:
                    return None
                data += chunk
            return data

        def varint(data, i):
            value, shift = 0, 0
            while True:
                byte = data[i]
                value |= (byte & 0x7F) << shift
                i += 1
                if byte < 0x80:
                    return value, i
                shift += 7

        def case_id(request):
            i = 0
            while i < len(request):
                key, i = varint(request, i)
                if key & 7 == 2:
                    length, i = varint(request, i)
                    if key >> 3 == 1:
                        return request[i:i + length].decode()
                    i += length
                elif key & 7 == 0:
                    _, i = varint(request, i)
                else:
                    return ""
            return ""

        def answer(response):
            os.write(1, len(response).to_bytes(4, "little") + response)

        while True:
            prefix = read_exact(4)
            if prefix is None:
                sys.exit(4 if mode == "dirty" else 0)
            request = read_exact(int.from_bytes(prefix, "little"))
            if case_id(request) == target:
                if mode == "wrong":
                    answer(b"\\x0a\\x01\\xff")  # payload ff
                    continue
                if mode == "crash":
                    os._exit(3)
                if mode == "hang":
                    time.sleep(3600)
                if mode == "garbage":
                    answer(b"\\xff\\xff\\xff")
                    continue
            reason = b"fake testee"
            answer(b"\\x42" + bytes([len(reason)]) + reason)
        """

    static func fakeCommand(_ mode: String, target: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("imcodec-fake-testee")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = directory.appendingPathComponent("fake_testee.py")
        try Self.fakeTestee.write(to: script, atomically: true, encoding: .utf8)
        return "python3 '\(script.path)' \(mode) \(target)"
    }

    static func textCases() throws -> [VectorFile] {
        try VectorLoader.loadDirectory(repositoryRoot + "/Vectors").filter { $0.path == "elems/text.json" }
    }

    static let target = "elem.text.all-fields"

    /// A failure list declaring every operation unsupported, as the fake
    /// testee skips every request.
    static func skipEverything(_ extra: String = "") throws -> FailureList {
        try FailureList(parsing: FailureList.operations.map { "skip \($0)  # the fake testee\n" }.joined() + extra)
    }

    static func run(_ mode: String, timeout: Duration = .seconds(10)) throws -> (RunReport, ProcessTestee) {
        let testee = ProcessTestee(command: try fakeCommand(mode, target: target))
        var options = Runner.Options()
        options.failureList = try skipEverything()
        options.timeout = timeout
        let report = Runner(options: options).run(try textCases(), against: testee)
        return (report, testee)
    }

    @Test func reportsATesteeThatAnswersOneCaseWrongly() throws {
        let (report, testee) = try Self.run("wrong")
        #expect(!report.isSuccess)
        #expect(report.unexpected.map(\.id) == [Self.target])
        let messages = report.unexpected.first?.messages.joined() ?? ""
        #expect(messages.contains("payload differs"))
        #expect(report.summary.total.skipped == report.results.count - 1)
        #expect(testee.starts == 1)
    }

    @Test func reportsATesteeThatCrashesAndRestartsIt() throws {
        let (report, testee) = try Self.run("crash")
        #expect(!report.isSuccess)
        #expect(report.unexpected.map(\.id) == [Self.target])
        let messages = report.unexpected.first?.messages.joined() ?? ""
        #expect(messages.contains("exited with status 3"), "\(messages)")
        // The cases after the crash ran against a fresh testee.
        #expect(testee.starts == 2)
        #expect(report.summary.total.skipped == report.results.count - 1)
    }

    @Test func reportsATesteeThatHangsKillsItAndGoesOn() throws {
        let clock = ContinuousClock()
        let start = clock.now
        let (report, testee) = try Self.run("hang", timeout: .seconds(1))
        #expect(clock.now - start < .seconds(8))
        #expect(!report.isSuccess)
        #expect(report.unexpected.map(\.id) == [Self.target])
        let messages = report.unexpected.first?.messages.joined() ?? ""
        #expect(messages.contains("no answer within the timeout"), "\(messages)")
        #expect(testee.starts == 2)
        #expect(report.summary.total.skipped == report.results.count - 1)
    }

    @Test func reportsATesteeThatAnswersGarbage() throws {
        let (report, _) = try Self.run("garbage")
        #expect(!report.isSuccess)
        #expect(report.unexpected.map(\.id) == [Self.target])
    }

    @Test func givesUpOnATesteeThatCannotStart() throws {
        let testee = ProcessTestee(command: "exit 7")
        let report = Runner().run(try Self.textCases(), against: testee)
        #expect(report.summary.total.failed == report.results.count)
        #expect(testee.starts == testee.maxConsecutiveFailures)
        #expect(report.results.first?.messages.joined().contains("exited with status 7") == true)
    }

    @Test func aKnownFailureKeepsTheRunGreen() throws {
        let testee = ProcessTestee(command: try Self.fakeCommand("wrong", target: Self.target))
        var options = Runner.Options()
        options.failureList = try Self.skipEverything("\(Self.target)  wrong-answer  # a bogus payload on purpose\n")
        let report = Runner(options: options).run(try Self.textCases(), against: testee)
        #expect(report.isSuccess)
        #expect(report.summary.total.knownFailures == 1)
    }

    @Test func aKnownFailureThatFailsAnotherWayFailsTheRun() throws {
        let testee = ProcessTestee(command: try Self.fakeCommand("crash", target: Self.target))
        var options = Runner.Options()
        options.failureList = try Self.skipEverything("\(Self.target)  wrong-answer  # a bogus payload on purpose\n")
        let report = Runner(options: options).run(try Self.textCases(), against: testee)
        #expect(!report.isSuccess)
        #expect(report.unexpected.map(\.id) == [Self.target])
        #expect(report.unexpected.first?.failure == CheckFailure.noAnswer)
        #expect(report.unexpected.first?.messages.first?.contains("but it failed with no-answer") == true)
    }

    @Test func aTesteeThatSkipsEverythingUndeclaredFailsEveryCase() throws {
        let testee = ProcessTestee(command: try Self.fakeCommand("skip", target: "none"))
        let files = try Self.textCases()
        let report = Runner().run(files, against: testee)
        #expect(!report.isSuccess)
        #expect(report.summary.total.failed == report.results.count)
        #expect(report.results.allSatisfy { $0.failure == CheckFailure.undeclaredSkip })
        let message = report.results.first?.messages.first ?? ""
        #expect(message.contains("answered skipped (fake testee), but the failure list does not declare `skip "))
    }

    @Test func declaredSkipsAreReportedAndARequiredAreaRefusesThem() throws {
        var options = Runner.Options()
        options.failureList = try Self.skipEverything()
        let files = try Self.textCases()
        let report = Runner(options: options).run(
            files, against: ProcessTestee(command: try Self.fakeCommand("skip", target: "none")))
        #expect(report.isSuccess)
        #expect(report.summary.total.skipped == report.results.count)
        #expect(report.declaredSkips["decode_payload"] == "the fake testee")
        #expect(report.textLines().contains { $0.hasPrefix("declared unsupported: decode_payload, skipped in") })
        options.requiredAreas = ["elems"]
        let required = Runner(options: options).run(
            files, against: ProcessTestee(command: try Self.fakeCommand("skip", target: "none")))
        #expect(!required.isSuccess)
        #expect(required.problems.contains { $0.hasPrefix("--require elems:") && $0.contains("skipped") })
    }

    @Test func aTesteeThatExitsWithAnErrorFailsTheRun() throws {
        var options = Runner.Options()
        options.failureList = try Self.skipEverything()
        let report = Runner(options: options).run(
            try Self.textCases(), against: ProcessTestee(command: try Self.fakeCommand("dirty", target: "none")))
        #expect(report.unexpected.isEmpty)
        #expect(!report.isSuccess)
        #expect(report.problems.contains { $0.contains("exited with status 4") }, "\(report.problems)")
    }

    @Test func theLibraryAsATesteeProcessPassesEveryVector() throws {
        let binary = try builtExecutable("imcodec")
        let testee = ProcessTestee(command: "'\(binary)' testee")
        let files = try VectorLoader.loadDirectory(repositoryRoot + "/Vectors")
        let report = Runner().run(files, against: testee)
        let failures = report.unexpected.map { "\($0.id): \($0.messages.joined(separator: " | "))" }
        #expect(failures.isEmpty, "\(failures.prefix(20).joined(separator: "\n"))")
        #expect(report.summary.total.passed == files.reduce(0) { $0 + $1.cases.count })
        #expect(report.warnings.isEmpty && report.problems.isEmpty, "\(report.warnings) \(report.problems)")
        #expect(testee.starts == 1)
    }
}

/// The path of an executable product built beside the test bundle.
func builtExecutable(_ name: String) throws -> String {
    let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    let candidates = [bundle, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
    for directory in candidates {
        let path = directory.appendingPathComponent(name).path
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    struct Missing: Error, CustomStringConvertible {
        var description: String
    }
    throw Missing(description: "no built \(name) beside the test bundle (\(bundle.path)); run `swift build` first")
}
