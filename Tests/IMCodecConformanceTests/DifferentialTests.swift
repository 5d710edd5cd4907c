import IMCodec
import IMCodecTestSupport
import IMCodecTestee
import Testing

@testable import IMCodecConformance

/// `imcodec differential`'s engine: planted faults in an otherwise exact
/// copy of the library are found, grouped and shrunk within the time the
/// issue allows; answers are compared as the testee protocol says; the
/// minimal cases load as vectors and pass against the library.
@Suite struct DifferentialTests {
    /// The library with one planted fault, applied to its answers.
    final class FaultyTestee: Testee {
        let name = "faulty"
        let library = InProcessTestee()
        let fault: (TesteeRequest, inout TesteeResponse) -> Void

        init(fault: @escaping (TesteeRequest, inout TesteeResponse) -> Void) { self.fault = fault }

        func respond(to request: TesteeRequest, deadline: ContinuousClock.Instant?) -> TesteeOutcome {
            var response = library.handle(request)
            fault(request, &response)
            return .response(response)
        }

        func finish() -> String? { nil }
    }

    /// One byte of one kind of answer: the last byte of a re-encoded
    /// payload that holds a location elem (field 7 of an Elem, itself field
    /// 18 of a Message), flipped.
    static func flipsLocationByte(_ request: TesteeRequest, _ response: inout TesteeResponse) {
        guard case .decodePayload = request.operation, case .payload(var bytes) = response.result,
            Self.holdsLocation(bytes)
        else { return }
        bytes[bytes.count - 1] ^= 0x01
        response.result = .payload(bytes)
    }

    static func holdsLocation(_ bytes: [UInt8]) -> Bool {
        func search(_ fields: [WireField], inElem: Bool) -> Bool {
            fields.contains { field in
                if inElem && field.number == 7 && field.wireType == 2 { return true }
                return field.children.map { search($0, inElem: field.number == 18) } ?? false
            }
        }
        return WireTree.parse(bytes).map { search($0, inElem: false) } ?? false
    }

    /// One error code: `payload.truncated` answered as `payload.malformed`.
    static func renamesTruncation(_ request: TesteeRequest, _ response: inout TesteeResponse) {
        guard case .failure(var failure) = response.result, failure.code == "payload.truncated" else { return }
        failure.code = "payload.malformed"
        response.result = .failure(failure)
    }

    /// A runtime's recursion limit, as protobuf-java's and upb's stop at 100
    /// nested messages: a payload more than 33 merger layers deep (3
    /// messages a layer) is refused with a runtime error.
    static func refusesDeepMergers(_ request: TesteeRequest, _ response: inout TesteeResponse) {
        guard case .payload = response.result, isDeeperThan33Layers(request) else { return }
        response.result = .runtimeError("Protocol message had too many levels of nesting")
    }

    static func isDeeperThan33Layers(_ request: TesteeRequest) -> Bool {
        isNestedDeeper(request, than: 33)
    }

    /// Whether the request's payload or document nests more than `depth`
    /// merger layers.
    static func isNestedDeeper(_ request: TesteeRequest, than depth: UInt32) -> Bool {
        var shallow = request
        var limits = TesteeLimits()
        limits.maxDepth = depth
        shallow.limits = limits
        guard case .failure(let failure) = InProcessTestee().handle(shallow).result else { return false }
        return failure.code == "limit.depth" || failure.code == "json.depth"
    }

    static func vectors() throws -> [VectorFile] {
        try VectorLoader.loadDirectory(repositoryRoot + "/Vectors")
    }

    static func run(_ fault: @escaping (TesteeRequest, inout TesteeResponse) -> Void, operations: Set<String>)
        throws -> DifferentialResult
    {
        var options = DifferentialRun.Options()
        options.seed = 43
        options.duration = .seconds(50)
        options.maxRequests = 3_000
        options.operations = operations
        options.shrinkBudget = .seconds(5)
        let run = DifferentialRun(
            reference: InProcessTestee(),
            implementations: [.init(name: "faulty", testee: FaultyTestee(fault: fault))], vectors: try vectors(),
            options: options)
        return run.run()
    }

    /// Whether no smaller candidate of `request` still disagrees the same way.
    static func isOneMinimal(
        _ request: TesteeRequest, _ signature: DifferentialSignature,
        _ fault: @escaping (TesteeRequest, inout TesteeResponse) -> Void
    ) -> Bool {
        let library = InProcessTestee()
        let faulty = FaultyTestee(fault: fault)
        let size = DifferentialShrinker.size(request)
        for candidate in DifferentialShrinker.candidates(request) where DifferentialShrinker.size(candidate) < size {
            let reference = DifferentialAnswer(library.handle(candidate))
            let other = DifferentialAnswer(faulty.respond(to: candidate, deadline: nil))
            if !reference.agrees(with: other) && reference.token == signature.reference
                && other.token == signature.other
            {
                return false
            }
        }
        return true
    }

    @Test func findsAndShrinksAPlantedByteFaultWithin60Seconds() throws {
        let start = ContinuousClock.now
        let result = try Self.run(Self.flipsLocationByte, operations: ["decode_payload"])
        let elapsed = ContinuousClock.now - start
        #expect(elapsed < .seconds(60))
        let group = try #require(result.groups.first)
        #expect(result.groups.count == 1)
        #expect(group.signature.description == "decode_payload payload payload")
        #expect(!group.isListed)
        #expect(result.unlisted.count == 1)
        #expect(group.shrinkSeconds < 6)
        guard case .decodePayload(let minimal) = group.minimal.operation,
            case .decodePayload(let original) = group.original.operation
        else {
            Issue.record("the minimal request is not a decode_payload request")
            return
        }
        #expect(minimal.payload.count < original.payload.count)
        #expect(Self.holdsLocation(minimal.payload))
        // Minimal: a message with one elem holding a location, nothing else.
        #expect(minimal.payload.count <= 24, "minimal payload \(Hex.encode(minimal.payload))")
        #expect(Self.isOneMinimal(group.minimal, group.signature, Self.flipsLocationByte))
    }

    @Test func findsAndShrinksAPlantedErrorCodeFaultWithin60Seconds() throws {
        let start = ContinuousClock.now
        let result = try Self.run(Self.renamesTruncation, operations: ["decode_payload", "decode_frame"])
        #expect(ContinuousClock.now - start < .seconds(60))
        let signatures = Set(result.groups.map(\.signature.description))
        #expect(signatures.contains("decode_payload failure:payload.truncated failure:payload.malformed"))
        for group in result.groups {
            #expect(group.signature.other.hasSuffix("payload.malformed"))
            #expect(Self.isOneMinimal(group.minimal, group.signature, Self.renamesTruncation))
            #expect(DifferentialShrinker.size(group.minimal) <= DifferentialShrinker.size(group.original))
        }
        let payloadGroup = try #require(result.groups.first { $0.signature.operation == "decode_payload" })
        guard case .decodePayload(let minimal) = payloadGroup.minimal.operation else {
            Issue.record("not a decode_payload request")
            return
        }
        // A truncated payload needs at most a tag and a length past the end.
        #expect(minimal.payload.count <= 3, "minimal payload \(Hex.encode(minimal.payload))")
    }

    @Test func findsARuntimeRecursionLimitOnItsOwnAndShrinksIt() throws {
        let start = ContinuousClock.now
        let result = try Self.run(Self.refusesDeepMergers, operations: ["decode_payload", "json_to_payload"])
        #expect(ContinuousClock.now - start < .seconds(60))
        let group = try #require(result.groups.first { $0.signature.operation == "decode_payload" })
        #expect(group.signature.description == "decode_payload payload runtime-error")
        #expect(Self.isDeeperThan33Layers(group.minimal))
        #expect(DifferentialShrinker.size(group.minimal) < DifferentialShrinker.size(group.original))
        #expect(Self.isOneMinimal(group.minimal, group.signature, Self.refusesDeepMergers))
    }

    /// 100 merger layers around a message.
    static func mergerChain() -> Message {
        var message = Message(msgID: "m")
        for _ in 0..<100 { message = Message(elems: [Elem(kind: .merger(MergerElem(messages: [message])))]) }
        return message
    }

    /// Shrinks `request` against a runtime that refuses more than 33 merger
    /// layers; returns the minimal request and the tries it took to reach
    /// the edge (a disagreeing candidate of at most 34 layers).
    static func shrinkToTheEdge(_ request: TesteeRequest) -> (minimal: TesteeRequest, tries: Int?) {
        var tries = 0
        var triesToTheEdge: Int?
        var shrinker = DifferentialShrinker(deadline: .now + .seconds(60)) { candidate in
            tries += 1
            let disagrees = isDeeperThan33Layers(candidate)
            if disagrees, triesToTheEdge == nil, !isNestedDeeper(candidate, than: 34) { triesToTheEdge = tries }
            return disagrees
        }
        let minimal = shrinker.shrink(request)
        return (minimal, triesToTheEdge)
    }

    /// A chain of 100 merger layers refused by a runtime that stops at 33
    /// nested messages is cut to the first depth it refuses in a few dozen
    /// tries, each of which would cost a slow testee a round trip: layers go
    /// by halves, not one at a time.
    @Test func aDeepMergerChainLosesItsLayersInFewTries() throws {
        var operation = TesteeDecodePayloadRequest()
        operation.kind = TesteePayloadKind(rawValue: 1)
        operation.payload = Self.mergerChain().serializedBytes()
        var request = TesteeRequest()
        request.operation = .decodePayload(operation)
        let minimal = try Self.expectCutToTheEdgeByHalves(request)
        #expect(
            Self.isOneMinimal(
                minimal,
                DifferentialSignature(operation: "decode_payload", reference: "payload", other: "runtime-error"),
                Self.refusesDeepMergers))
    }

    /// The same chain as a JSON document loses its layers the same way.
    @Test func aDeepMergerChainInJSONLosesItsLayersInFewTries() throws {
        var operation = TesteeJsonToPayloadRequest()
        operation.kind = TesteePayloadKind(rawValue: 1)
        operation.json = Self.mergerChain().jsonString()
        var request = TesteeRequest()
        request.operation = .jsonToPayload(operation)
        try Self.expectCutToTheEdgeByHalves(request)
    }

    /// Shrinks a request holding the 100-layer chain and expects it cut to
    /// the first depth refused (past 33 layers, not past 34) within 30 tries:
    /// by halves, about 2 log2(100). Returns the minimal request.
    @discardableResult
    static func expectCutToTheEdgeByHalves(_ request: TesteeRequest) throws -> TesteeRequest {
        #expect(isDeeperThan33Layers(request))
        let (minimal, triesToTheEdge) = shrinkToTheEdge(request)
        #expect(isDeeperThan33Layers(minimal))
        #expect(!isNestedDeeper(minimal, than: 34))
        let edge = try #require(triesToTheEdge)
        #expect(edge <= 30, "\(edge) tries")
        return minimal
    }

    @Test func theLibraryAgainstItselfAgrees() throws {
        var options = DifferentialRun.Options()
        options.maxRequests = 1_500
        let run = DifferentialRun(
            reference: InProcessTestee(), implementations: [.init(name: "itself", testee: InProcessTestee())],
            vectors: try Self.vectors(), options: options)
        let result = run.run()
        #expect(result.groups.isEmpty)
        #expect(result.pairs[0].checks == 1_500)
        // Every operation of the protocol was generated.
        #expect(result.requests == 1_500)
    }

    @Test func aListedSignatureDoesNotFailTheRun() throws {
        var options = DifferentialRun.Options()
        options.maxRequests = 2_000
        options.operations = ["decode_payload"]
        options.shrinkBudget = .seconds(1)
        let list = try FailureList(
            parsing: "differential decode_payload payload payload  # the planted fault\n")
        let run = DifferentialRun(
            reference: InProcessTestee(),
            implementations: [
                .init(name: "faulty", testee: FaultyTestee(fault: Self.flipsLocationByte), failureList: list)
            ], vectors: try Self.vectors(), options: options)
        let result = run.run()
        #expect(result.groups.count == 1)
        #expect(result.groups.first?.listedReason == "the planted fault")
        #expect(result.unlisted.isEmpty)
    }

    @Test func equalSeedsGiveEqualRequests() throws {
        let seeds = try Self.vectors().flatMap(\.cases).flatMap { CaseCheck.checks(for: $0) }.map(\.request)
        let operations = Set(FailureList.operations)
        var first = DifferentialGenerator(seed: 7, seeds: seeds, operations: operations)
        var second = DifferentialGenerator(seed: 7, seeds: seeds, operations: operations)
        var third = DifferentialGenerator(seed: 8, seeds: seeds, operations: operations)
        let a = (0..<1_000).map { _ in first.next() }
        let b = (0..<1_000).map { _ in second.next() }
        let c = (0..<1_000).map { _ in third.next() }
        #expect(a == b)
        #expect(a != c)
        let names = Set(a.compactMap { $0.operation.map(DifferentialGenerator.name) })
        #expect(names == operations)
    }

    @Test func theMinimalCasesLoadAsVectorsAndPassAgainstTheLibrary() throws {
        let found = try Self.run(Self.renamesTruncation, operations: ["decode_payload", "decode_frame"])
        #expect(!found.groups.isEmpty)
        let file = try VectorLoader.load(Array(found.vectorFile().utf8), path: "differential.json")
        #expect(file.cases.count == found.groups.count)
        #expect(file.cases.allSatisfy { $0.flags.contains("Differential") })
        let report = Runner().run([file], against: InProcessTestee())
        #expect(report.isSuccess, "\(report.unexpected.map(\.id))")
        let faulty = Runner().run([file], against: FaultyTestee(fault: Self.renamesTruncation))
        #expect(faulty.unexpected.count == file.cases.count)
    }

    @Test func theHTMLSectionShowsPairsSignaturesAndMinimalCases() throws {
        var options = DifferentialRun.Options()
        options.maxRequests = 1_000
        options.operations = ["decode_payload"]
        options.shrinkBudget = .seconds(2)
        let run = DifferentialRun(
            reference: InProcessTestee(),
            implementations: [.init(name: "faulty", testee: FaultyTestee(fault: Self.flipsLocationByte))],
            vectors: try Self.vectors(), options: options)
        let result = run.run()
        let group = try #require(result.groups.first)
        let page = HTMLReport.matrix(nil, differential: [result], casesFile: "found.json")
        #expect(page.contains("<td class=\"checks\">\(result.pairs[0].checks)</td>"))
        #expect(page.contains("<td class=\"disagreements\">\(result.pairs[0].disagreements)</td>"))
        #expect(page.contains("<code>decode_payload payload payload</code>"))
        #expect(page.contains("<a href=\"#differential-1-1\">differential.1</a>"))
        #expect(page.contains("<details id=\"differential-1-1\">"))
        #expect(page.contains(Hex.encode(group.minimal.serializedBytes().isEmpty ? [] : Self.payload(group.minimal))))
        #expect(page.contains("<a href=\"found.json\">"))
    }

    @Test func theJSONReportReadsBackAsTheRunAndDrawsTheSamePage() throws {
        var options = DifferentialRun.Options()
        options.maxRequests = 1_000
        options.operations = ["decode_payload"]
        options.shrinkBudget = .seconds(2)
        let list = try FailureList(parsing: "differential decode_payload payload payload  # the planted fault\n")
        let run = DifferentialRun(
            reference: InProcessTestee(),
            implementations: [
                .init(name: "faulty", testee: FaultyTestee(fault: Self.flipsLocationByte), failureList: list)
            ], vectors: try Self.vectors(), options: options)
        let result = run.run()
        #expect(!result.groups.isEmpty)
        let reported = ReportedDifferentialRun(result, casesFile: "found.json")
        let document = reported.json()
        #expect(ReportedDifferentialRun.isDifferentialReport(document))
        let read = try ReportedDifferentialRun(json: document)
        #expect(read == reported)
        #expect(read.groups.first?.listedReason == "the planted fault")
        #expect(read.text() == result.text())
        #expect(
            HTMLReport.matrix(nil, differentialRuns: [read])
                == HTMLReport.matrix(nil, differential: [result], casesFile: "found.json"))
        // A document whose counts disagree with its groups, or of another
        // format, is refused.
        let disagreements = result.pairs[0].disagreements
        let tampered = document.replacingOccurrences(
            of: "\"disagreements\": \(disagreements)", with: "\"disagreements\": \(disagreements + 1)")
        #expect(tampered != document)
        #expect(throws: ReportReadError.self) { try ReportedDifferentialRun(json: tampered) }
        let conformance = JSONReport.json(Runner().run([], against: InProcessTestee()))
        #expect(!ReportedDifferentialRun.isDifferentialReport(conformance))
        #expect(throws: ReportReadError.self) { try ReportedDifferentialRun(json: conformance) }
    }

    static func payload(_ request: TesteeRequest) -> [UInt8] {
        if case .decodePayload(let operation) = request.operation { return operation.payload }
        return []
    }

    @Test func answersAreComparedAsTheProtocolSays() {
        func json(_ text: String) -> DifferentialAnswer {
            var response = TesteeResponse()
            response.result = .json(text)
            return DifferentialAnswer(response)
        }
        func failure(_ code: String, _ path: String, _ reason: String) -> DifferentialAnswer {
            var value = TesteeFailure()
            value.code = code
            value.path = path
            value.reason = reason
            var response = TesteeResponse()
            response.result = .failure(value)
            return DifferentialAnswer(response)
        }
        func findings(_ codes: [String]) -> DifferentialAnswer {
            var value = TesteeFindings()
            value.findings = codes.map { code in
                var finding = TesteeFinding()
                finding.code = code
                finding.severity = "error"
                return finding
            }
            var response = TesteeResponse()
            response.result = .findings(value)
            return DifferentialAnswer(response)
        }
        #expect(json(#"{"a":1,"b":[true]}"#).agrees(with: json(#"{ "b": [true], "a": 1.0 }"#)))
        #expect(!json(#"{"lat":-0.0}"#).agrees(with: json(#"{"lat":0}"#)))
        #expect(!json(#"{"a":1,"a":1}"#).agrees(with: json(#"{"a":1}"#)))
        #expect(failure("payload.utf8", "elems[0]", "one").agrees(with: failure("payload.utf8", "elems[0]", "two")))
        #expect(!failure("payload.utf8", "elems[0]", "").agrees(with: failure("payload.utf8", "elems[1]", "")))
        #expect(failure("x", "", "").token == "failure:x")
        #expect(findings(["a", "b"]).agrees(with: findings(["b", "a"])))
        #expect(!findings(["a"]).agrees(with: findings(["a", "a"])))
        #expect(DifferentialAnswer(.timedOut(seconds: 10)).token == "no-answer")
    }

    @Test func aStoredAndACompressedFrameOfOnePayloadAgreeWhereCompressingWasAllowed() throws {
        let message = try Message(
            jsonString: #"{"elems":[{"text":{"text":"\#(String(repeating: "hello ", count: 100))"}}]}"#)
        let payload = message.serializedBytes()
        func request(compression: UInt32, threshold: UInt32, payload: [UInt8] = payload) -> TesteeRequest {
            var operation = TesteeEncodeFrameRequest()
            operation.kind = TesteePayloadKind(rawValue: 1)
            operation.payload = payload
            operation.compression = compression
            operation.threshold = threshold
            var request = TesteeRequest()
            request.operation = .encodeFrame(operation)
            return request
        }
        let library = InProcessTestee()
        let compressed = DifferentialAnswer(library.handle(request(compression: 1, threshold: 0)))
        let stored = DifferentialAnswer(library.handle(request(compression: 0, threshold: 0)))
        #expect(compressed.detail.contains("compression=1"))
        #expect(stored.detail.contains("compression=0"))
        #expect(!compressed.agrees(with: stored))
        // The request let the payload be compressed: either choice is a compressor's.
        #expect(compressed.agrees(with: stored, on: request(compression: 1, threshold: 0)))
        #expect(stored.agrees(with: compressed, on: request(compression: 1, threshold: UInt32(payload.count))))
        // Not where it had to be stored: compression 0, or a payload under the threshold.
        #expect(!compressed.agrees(with: stored, on: request(compression: 0, threshold: 0)))
        #expect(!compressed.agrees(with: stored, on: request(compression: 1, threshold: UInt32(payload.count + 1))))
        // Nor frames of different payloads.
        var other = message
        other.msgID = "m1"
        let otherStored = DifferentialAnswer(
            library.handle(request(compression: 0, threshold: 0, payload: other.serializedBytes())))
        #expect(!compressed.agrees(with: otherStored, on: request(compression: 1, threshold: 0)))
    }

    @Test func aFrameTooLargeAgreesWithWhatAnotherCompressorsFrameLeadsToWhereCompressingWasAllowed() throws {
        let message = try Message(
            jsonString: #"{"elems":[{"text":{"text":"\#(String(repeating: "hello ", count: 100))"}}]}"#)
        let payload = message.serializedBytes()
        func request(compression: UInt32, threshold: UInt32) -> TesteeRequest {
            var operation = TesteeEncodeFrameRequest()
            operation.kind = TesteePayloadKind(rawValue: 1)
            operation.payload = payload
            operation.compression = compression
            operation.threshold = threshold
            var request = TesteeRequest()
            request.operation = .encodeFrame(operation)
            return request
        }
        func failure(_ code: String) -> DifferentialAnswer {
            var value = TesteeFailure()
            value.code = code
            var response = TesteeResponse()
            response.result = .failure(value)
            return DifferentialAnswer(response)
        }
        let library = InProcessTestee()
        let compressed = DifferentialAnswer(library.handle(request(compression: 1, threshold: 0)))
        let stored = DifferentialAnswer(library.handle(request(compression: 0, threshold: 0)))
        #expect(compressed.detail.contains("compression=1"))
        let tooLarge = failure("limit.frame-size")
        let allowed = request(compression: 1, threshold: 0)
        // Whether a compressed frame fits is the compressor's to say: the
        // other side wrote one, or went on to the payload's own checks.
        #expect(tooLarge.agrees(with: compressed, on: allowed))
        #expect(compressed.agrees(with: tooLarge, on: allowed))
        #expect(tooLarge.agrees(with: failure("limit.elems"), on: allowed))
        #expect(failure("payload.truncated").agrees(with: tooLarge, on: allowed))
        // Not a stored frame (its size is no compressor's), nor the checks made
        // before the frame's size, nor a runtime error.
        #expect(!tooLarge.agrees(with: stored, on: allowed))
        #expect(!tooLarge.agrees(with: failure("frame.dictionary"), on: allowed))
        #expect(!tooLarge.agrees(with: failure("frame.zstd-unavailable"), on: allowed))
        var runtimeError = TesteeResponse()
        runtimeError.result = .runtimeError("no")
        #expect(!tooLarge.agrees(with: DifferentialAnswer(runtimeError), on: allowed))
        // Not where the payload had to be stored.
        #expect(!tooLarge.agrees(with: compressed, on: request(compression: 0, threshold: 0)))
        #expect(!tooLarge.agrees(with: failure("limit.elems"), on: request(compression: 0, threshold: 0)))
        #expect(
            !tooLarge.agrees(
                with: failure("limit.elems"), on: request(compression: 1, threshold: UInt32(payload.count + 1))))
    }

    @Test func failureListsReadDifferentialEntries() throws {
        let list = try FailureList(
            parsing: """
                skip validate  # none
                differential json_to_payload payload payload  # JsonFormat drops -0.0
                """)
        #expect(list.differentials["json_to_payload payload payload"] == "JsonFormat drops -0.0")
        #expect(try FailureList(parsing: list.text) == list)
        for bad in [
            "differential json_to_payload payload  # too few\n", "differential no_such_op a b  # unknown\n",
            "differential decode_payload a b  #\n",
            "differential decode_payload a b  # one\ndifferential decode_payload a b  # twice\n",
        ] {
            #expect(throws: FailureList.FormatError.self, "\(bad)") { try FailureList(parsing: bad) }
        }
    }
}
