import Foundation
import IMCodecConformance
import IMCodecTestSupport
import IMCodecTestee
import Testing

/// The runner refuses the ways a testee could look conformant without being
/// so: answers that echo the input, JSON with a member twice, a REST export
/// that is the right value but not the canonical text, a listed case that is
/// now skipped, and a filter that selects nothing.
@Suite struct ConformanceStrictnessTests {
    static func files(_ area: String? = nil) throws -> [VectorFile] {
        let files = try VectorLoader.loadDirectory(repositoryRoot + "/Vectors")
        return area.map { area in files.filter { $0.area == area } } ?? files
    }

    /// A testee that answers some operations itself and passes the rest to
    /// the library.
    final class Wrapper: Testee {
        let name = "wrapper"
        let library = InProcessTestee()
        let answer: (TesteeRequest) -> TesteeResponse?

        init(_ answer: @escaping (TesteeRequest) -> TesteeResponse?) { self.answer = answer }

        func respond(to request: TesteeRequest, deadline: ContinuousClock.Instant?) -> TesteeOutcome {
            .response(answer(request) ?? library.handle(request))
        }

        func finish() -> String? { nil }
    }

    static func skipped(_ reason: String) -> TesteeResponse {
        var response = TesteeResponse()
        response.result = .skipped(reason)
        return response
    }

    /// Answers `decode_payload` with its input and skips the JSON
    /// operations: what a testee that does nothing would do.
    static func echo() -> Wrapper {
        Wrapper { request in
            switch request.operation {
            case .decodePayload(let operation):
                var response = TesteeResponse()
                response.result = .payload(operation.payload)
                return response
            case .jsonToPayload, .payloadToJson:
                return skipped("no JSON")
            default:
                return skipped("echo only")
            }
        }
    }

    @Test func anEchoingTesteePassesNoCaseGivenAsJSON() throws {
        let files = try Self.files().filter { ["elems", "envelope", "events", "batches", "json"].contains($0.area) }
        var options = Runner.Options()
        options.failureList = try FailureList(
            parsing: FailureList.operations.filter { $0 != "decode_payload" }.map { "skip \($0)  # echo\n" }.joined())
        let report = Runner(options: options).run(files, against: Self.echo())
        let vectors = Dictionary(uniqueKeysWithValues: files.flatMap(\.cases).map { ($0.id, $0) })
        let passedFromJSON = report.results.filter { result in
            result.status == .passed && vectors[result.id]?.input.payload == nil
        }
        #expect(passedFromJSON.isEmpty, "\(passedFromJSON.prefix(5).map(\.id))")
        // It passes only cases with a canonical hex input and no JSON to
        // print; everything else is failed or declared skipped.
        let passed = report.results.filter { $0.status == .passed }
        #expect(
            passed.allSatisfy { result in
                let vector = vectors[result.id]
                return vector?.input.payload == vector?.expected.payload && vector?.expected.json == nil
            })
        #expect(!report.isSuccess, "non-canonical inputs are not echoed back canonically")
    }

    @Test func aTesteeSkippingOneCheckOfACaseDoesNotPassIt() throws {
        // The library, except that payload_to_json is skipped.
        let testee = Wrapper { request in
            if case .payloadToJson = request.operation { return Self.skipped("no JSON printer") }
            return nil
        }
        let files = try Self.files("elems").filter { $0.path == "elems/text.json" }
        let undeclared = Runner().run(files, against: testee)
        #expect(!undeclared.isSuccess)
        #expect(undeclared.unexpected.allSatisfy { $0.failure == CheckFailure.undeclaredSkip })
        var options = Runner.Options()
        options.failureList = try FailureList(parsing: "skip payload_to_json  # no JSON printer\n")
        let declared = Runner(options: options).run(files, against: testee)
        #expect(declared.isSuccess)
        let printed = declared.results.filter { $0.skippedChecks > 0 }
        #expect(!printed.isEmpty)
        #expect(printed.allSatisfy { $0.status == .skipped })
    }

    @Test func aDeclaredSkipTheTesteeNeverUsesFailsTheRun() throws {
        var options = Runner.Options()
        options.failureList = try FailureList(parsing: "skip validate  # said to be missing\n")
        let report = Runner(options: options).run(try Self.files("limits"), against: InProcessTestee())
        #expect(report.unexpected.isEmpty)
        #expect(!report.isSuccess)
        #expect(report.problems.contains { $0.contains("`skip validate`") })
    }

    @Test func aListedCaseThatIsNowSkippedFailsTheRun() throws {
        let files = try Self.files("elems").filter { $0.path == "elems/text.json" }
        let testee = Wrapper { request in
            if case .payloadToJson = request.operation { return Self.skipped("no JSON printer") }
            return nil
        }
        var options = Runner.Options()
        options.failureList = try FailureList(
            parsing: "skip payload_to_json  # no JSON printer\nelem.text.nul  runtime-error  # listed\n")
        let report = Runner(options: options).run(files, against: testee)
        #expect(!report.isSuccess)
        let listed = try #require(report.results.first { $0.id == "elem.text.nul" })
        #expect(listed.status == .failed)
        #expect(listed.messages.first?.contains("but skipped") == true)
    }

    @Test func aFilterThatSelectsNothingFailsTheRun() throws {
        var options = Runner.Options()
        options.filters = ["no-case-has-this-in-its-id"]
        let report = Runner(options: options).run(try Self.files("batches"), against: InProcessTestee())
        #expect(report.results.isEmpty)
        #expect(!report.isSuccess)
        #expect(report.problems == ["the filter 'no-case-has-this-in-its-id' selects no case"])
    }

    // MARK: JSON answers

    static func jsonCheck(expecting expected: String) throws -> CaseCheck {
        var request = TesteeRequest()
        request.operation = .payloadToJson(TesteePayloadToJsonRequest())
        return CaseCheck(
            operation: "payload_to_json", request: request, expectation: .json(try VectorJSON(parsing: expected)))
    }

    static func json(_ text: String) -> TesteeResponse {
        var response = TesteeResponse()
        response.result = .json(text)
        return response
    }

    @Test func aJSONAnswerWithADuplicateKeyIsWrong() throws {
        let check = try Self.jsonCheck(expecting: #"{"text":"hi","desc":"x"}"#)
        #expect(check.verify(Self.json(#"{"desc":"x","text":"hi"}"#)) == .passed)
        for answer in [
            #"{"text":"hi","text":"hi"}"#,  // same count, a member twice
            #"{"text":"hi","desc":"x","desc":"x"}"#,
            #"{"text":"hi","desc":"x","text":"hi"}"#,
            #"{"text":"hi"}"#,
            #"{"text":"hi","desc":"x","extra":1}"#,
        ] {
            guard case .failed(_, let failure) = check.verify(Self.json(answer)) else {
                Issue.record("\(answer) was accepted")
                continue
            }
            #expect(failure == CheckFailure.wrongAnswer)
        }
        let nested = try Self.jsonCheck(expecting: #"{"elems":[{"text":{"text":"a"}}]}"#)
        guard case .failed(let reason, _) = nested.verify(Self.json(#"{"elems":[{"text":{"text":"a","text":"a"}}]}"#))
        else {
            Issue.record("a nested duplicate was accepted")
            return
        }
        #expect(reason.contains("member text twice"))
    }

    @Test func jsonEquivalenceIsExactBothWays() throws {
        let a = try VectorJSON(parsing: #"{"a":1,"b":[1.0,"x"]}"#)
        #expect(a.isEquivalent(to: try VectorJSON(parsing: #"{"b":[1e0,"x"],"a":1}"#)))
        #expect(!a.isEquivalent(to: try VectorJSON(parsing: #"{"a":1,"a":1}"#)))
        #expect(!(try VectorJSON(parsing: #"{"a":1,"a":1}"#)).isEquivalent(to: a))
        #expect(!a.isEquivalent(to: try VectorJSON(parsing: #"{"a":1,"b":[1.0,"x"],"c":null}"#)))
    }

    // MARK: REST export

    @Test func aRESTExportThatIsNotTheCanonicalTextFails() throws {
        // The library's export indented and ending in a newline: the same
        // JSON value, not the canonical text.
        let spaced = Wrapper { request in
            guard case .payloadToRest = request.operation else { return nil }
            var response = InProcessTestee().handle(request)
            if case .rest(let text) = response.result, let value = try? VectorJSON(parsing: text) {
                response.result = .rest(value.prettyText + "\n")
            }
            return response
        }
        let files = try Self.files("rest")
        let report = Runner().run(files, against: spaced)
        let exports = report.results.filter { result in
            files.flatMap(\.cases).first { $0.id == result.id }.map {
                ($0.operation == .restExport || $0.operation == .restImport) && $0.expected.rest != nil
            } ?? false
        }
        #expect(!exports.isEmpty)
        #expect(exports.allSatisfy { $0.status == .failed && $0.failure == CheckFailure.wrongAnswer })
        #expect(exports.first?.messages.joined().contains("the same JSON value, written differently") == true)
        // The library's own text passes.
        #expect(Runner().run(files, against: InProcessTestee()).isSuccess)
    }

    @Test func canonicalRESTTextOfEveryExpectationIsTheGeneratorsText() throws {
        // Where a case gives the canonical text itself (flag Canonical), the
        // runner's rendering of the expected value must be that text.
        var compared = 0
        for vector in try Self.files("rest").flatMap(\.cases) where vector.flags.contains("Canonical") {
            guard let text = vector.input.restText, let rest = vector.expected.rest else { continue }
            #expect(rest.canonicalRESTText == text, "\(vector.id)")
            compared += 1
        }
        #expect(compared > 50)
    }

    @Test func javaScriptNumbersFromLiterals() throws {
        let cases: [(String, String)] = [
            ("30.0", "30"), ("1e-07", "1e-7"), ("-0.0", "-0"), ("29.340656774469956", "29.340656774469956"),
            ("1e+16", "10000000000000000"), ("1e+21", "1e+21"), ("123456789012345680000.0", "123456789012345680000"),
            ("0.000001", "0.000001"), ("1.5e-7", "1.5e-7"), ("-2.5", "-2.5"), ("42", "42"),
        ]
        for (literal, expected) in cases {
            #expect(VectorJSON.number(literal).canonicalRESTText == expected, "\(literal)")
        }
    }
}
