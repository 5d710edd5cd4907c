import IMCodec
import IMCodecTestee

extension DifferentialResult {
    /// The run as text: checks per implementation, then each signature with
    /// its count, whether a failure list names it, and its minimal request.
    public func text() -> String {
        ReportedDifferentialRun(self).text()
    }

    static func format(_ value: Double) -> String {
        String(Double(Int((value * 10).rounded())) / 10)
    }

    static func shorten(_ text: String, limit: Int = 200) -> String {
        text.count <= limit ? text : String(text.prefix(limit)) + "… (\(text.count) characters)"
    }

    /// A request's operation and inputs, briefly.
    static func describe(_ request: TesteeRequest) -> String {
        var text: String
        switch request.operation {
        case .decodePayload(let o): text = "decode_payload kind \(o.kind.rawValue) payload \(Hex.encode(o.payload))"
        case .decodeFrame(let o): text = "decode_frame frame \(Hex.encode(o.frame))"
        case .encodeFrame(let o):
            text = "encode_frame kind \(o.kind.rawValue) compression \(o.compression) threshold \(o.threshold)"
            text += " level \(o.level) dictionary \(o.dictionaryID) payload \(Hex.encode(o.payload))"
        case .decodeStream(let o): text = "decode_stream chunks \(o.chunks.map { Hex.encode($0) })"
        case .validate(let o): text = "validate \(o.profile) kind \(o.kind.rawValue) payload \(Hex.encode(o.payload))"
        case .jsonToPayload(let o): text = "json_to_payload kind \(o.kind.rawValue) json \(o.json)"
        case .payloadToJson(let o): text = "payload_to_json kind \(o.kind.rawValue) payload \(Hex.encode(o.payload))"
        case .restToPayload(let o): text = "rest_to_payload kind \(o.kind.rawValue) rest \(o.rest)"
        case .payloadToRest(let o): text = "payload_to_rest kind \(o.kind.rawValue) payload \(Hex.encode(o.payload))"
        case .validateRest(let o): text = "validate_rest \(o.profile) rest \(o.rest)"
        case nil: text = "no operation"
        }
        if let limits = request.limits { text += " limits \(Self.limitMembers(limits))" }
        return shorten(text, limit: 600)
    }

    static func limitMembers(_ limits: TesteeLimits) -> [(String, Int)] {
        [
            ("maxFrameBytes", limits.maxFrameBytes), ("maxInflatedBytes", limits.maxInflatedBytes),
            ("maxInflateRatio", limits.maxInflateRatio), ("maxDepth", limits.maxDepth),
            ("maxElems", limits.maxElems), ("maxRepeated", limits.maxRepeated),
            ("maxBatchMessages", limits.maxBatchMessages), ("maxDocumentBytes", limits.maxDocumentBytes),
            ("maxProblems", limits.maxProblems),
        ].filter { $0.1 != 0 }.map { ($0.0, Int($0.1)) }
    }

    // MARK: Vector cases

    /// Every group's minimal request as a vector file (`Vectors/README.md`),
    /// area `differential`, each case's expected result the reference's
    /// answer; a case whose reference is the odd one out carries the flag
    /// `Decide`. Ready to copy into `Vectors/` once reviewed, or to name in
    /// a failure list.
    ///
    /// - Parameter library: The library, asked for the parts of an expected
    ///   result the compared answer does not hold (the JSON of a payload).
    /// - Returns: The file's text.
    public func vectorFile(library: InProcessTestee = InProcessTestee()) -> String {
        var cases: [VectorJSON] = []
        for (index, group) in groups.enumerated() {
            if let vector = Self.vectorCase(group, id: "differential.\(index + 1)", library: library) {
                cases.append(vector)
            }
        }
        let file = VectorJSON.object([
            ("format", .string(VectorFile.format)), ("version", .number(String(VectorFile.version))),
            ("area", .string("differential")),
            ("title", .string("Disagreements found by imcodec differential (seed \(seed))")),
            (
                "description",
                .string(
                    "Each case is the minimal request on which an implementation answered otherwise than \(reference).")
            ),
            (
                "derivation",
                .string(
                    "Generated and shrunk by imcodec differential; the expected results are \(reference)'s answers, to be reviewed before the case joins Vectors/."
                )
            ),
            (
                "flags",
                .object([
                    (
                        "Differential",
                        .string(
                            "Found by imcodec differential; the comment names the implementation and the signature.")
                    ),
                    (
                        "Decide",
                        .string(
                            "Every other implementation asked answers otherwise than the reference: decide which answer is right before trusting the expectation."
                        )
                    ),
                ])
            ),
            ("cases", .array(cases)),
        ])
        return file.text + "\n"
    }

    /// One group's minimal request as a vector case; nil for an operation
    /// whose reference answer is not a result (a runtime error).
    static func vectorCase(_ group: Group, id: String, library: InProcessTestee) -> VectorJSON? {
        let request = group.minimal
        var members: [(key: String, value: VectorJSON)] = [("id", .string(id))]
        var comment = "\(group.implementation): differential \(group.signature) (\(group.other.description))"
        comment = shorten(comment, limit: 300)
        members.append(("comment", .string(comment)))
        members.append(
            (
                "flags",
                .array(
                    group.referenceIsOddOneOut
                        ? [.string("Differential"), .string("Decide")] : [.string("Differential")])
            ))
        let answer = library.handle(request)
        var input: [(key: String, value: VectorJSON)] = []
        var expected: [(key: String, value: VectorJSON)] = []
        var operation = ""
        var kind: Int32?
        var valid = true
        func failure(_ f: TesteeFailure) {
            valid = false
            expected.append(("error", .object([("code", .string(f.code)), ("path", .string(f.path))])))
        }
        func payloadAndJSON(_ bytes: [UInt8], _ kindNumber: Int32) {
            expected.append(("payloadHex", .string(Hex.encode(bytes))))
            var toJSON = TesteeRequest()
            var operation = TesteePayloadToJsonRequest()
            operation.kind = TesteePayloadKind(rawValue: kindNumber)
            operation.payload = bytes
            toJSON.operation = .payloadToJson(operation)
            if case .json(let text) = library.handle(toJSON).result, let json = try? VectorJSON(parsing: text) {
                expected.append(("json", json))
            }
        }
        func frame(_ f: TesteeDecodedFrame) -> VectorJSON {
            .object([
                ("kind", .string(VectorCase.Kind(number: Int(f.kind.rawValue))?.rawValue ?? "message")),
                ("compression", .number(String(f.compression))), ("dictionaryId", .number(String(f.dictionaryID))),
                ("payloadHex", .string(Hex.encode(f.payload))),
            ])
        }
        func payloadCase(_ kindNumber: Int32, _ bytes: [UInt8]) -> Bool {
            operation = "payload"
            kind = kindNumber
            input.append(("payloadHex", .string(Hex.encode(bytes))))
            var decode = TesteeRequest()
            var d = TesteeDecodePayloadRequest()
            d.kind = TesteePayloadKind(rawValue: kindNumber)
            d.payload = bytes
            decode.limits = request.limits
            decode.operation = .decodePayload(d)
            switch library.handle(decode).result {
            case .payload(let canonical): payloadAndJSON(canonical, kindNumber)
            case .failure(let f): failure(f)
            default: return false
            }
            return true
        }
        switch request.operation {
        case .decodePayload(let o):
            guard payloadCase(o.kind.rawValue, o.payload) else { return nil }
        case .payloadToJson(let o):
            guard payloadCase(o.kind.rawValue, o.payload) else { return nil }
        case .jsonToPayload(let o):
            operation = "payload"
            kind = o.kind.rawValue
            input.append(("jsonText", .string(o.json)))
            switch answer.result {
            case .payload(let bytes): payloadAndJSON(bytes, o.kind.rawValue)
            case .failure(let f): failure(f)
            default: return nil
            }
        case .decodeFrame(let o):
            operation = "decode-frame"
            input.append(("frameHex", .string(Hex.encode(o.frame))))
            switch answer.result {
            case .frame(let f): expected.append(("frame", frame(f)))
            case .failure(let f): failure(f)
            default: return nil
            }
        case .encodeFrame(let o):
            operation = "encode-frame"
            kind = o.kind.rawValue
            input.append(("payloadHex", .string(Hex.encode(o.payload))))
            input.append(
                (
                    "policy",
                    .object([
                        ("compression", .number(String(o.compression))), ("threshold", .number(String(o.threshold))),
                        ("level", .number(String(o.level))), ("dictionaryId", .number(String(o.dictionaryID))),
                    ])
                ))
            switch answer.result {
            case .frameBytes(let bytes):
                guard let decoded = try? FrameDecoder(limits: DifferentialAnswer.generousLimits).decodeFrame(bytes)
                else { return nil }
                var f = TesteeDecodedFrame()
                f.kind = o.kind
                f.compression = UInt32(decoded.header.compression.rawValue)
                f.dictionaryID = decoded.header.dictionaryID ?? 0
                f.payload = Array(decoded.payload)
                expected.append(("frame", frame(f)))
            case .failure(let f): failure(f)
            default: return nil
            }
        case .decodeStream(let o):
            operation = "decode-stream"
            input.append(("chunksHex", .array(o.chunks.map { .string(Hex.encode($0)) })))
            guard case .stream(let s) = answer.result else { return nil }
            expected.append(("frames", .array(s.frames.map(frame))))
            expected.append(("incompleteTail", .bool(s.incompleteTail)))
            if let f = s.failure { failure(f) }
        case .validate(let o):
            operation = "validate"
            kind = o.kind.rawValue
            input.append(("payloadHex", .string(Hex.encode(o.payload))))
            input.append(("profile", .string(o.profile)))
            guard case .findings(let findings) = answer.result else { return nil }
            expected.append(("findings", .array(findings.findings.map(Self.finding))))
        case .restToPayload(let o):
            operation = "rest-import"
            kind = o.kind.rawValue
            input.append(("restText", .string(o.rest)))
            switch answer.result {
            case .payload(let bytes):
                expected.append(("payloadHex", .string(Hex.encode(bytes))))
                var export = TesteePayloadToRestRequest()
                export.kind = o.kind
                export.payload = bytes
                var exportRequest = TesteeRequest()
                exportRequest.operation = .payloadToRest(export)
                guard case .rest(let text) = library.handle(exportRequest).result,
                    let rest = try? VectorJSON(parsing: text)
                else { return nil }
                expected.append(("rest", rest))
            case .failure(let f): failure(f)
            default: return nil
            }
        case .payloadToRest(let o):
            operation = "rest-export"
            kind = o.kind.rawValue
            input.append(("payloadHex", .string(Hex.encode(o.payload))))
            switch answer.result {
            case .rest(let text):
                guard let rest = try? VectorJSON(parsing: text) else { return nil }
                expected.append(("rest", rest))
            case .failure(let f): failure(f)
            default: return nil
            }
        case .validateRest(let o):
            operation = "rest-validate"
            input.append(("restText", .string(o.rest)))
            input.append(("profile", .string(o.profile)))
            guard case .findings(let findings) = answer.result else { return nil }
            expected.append(("findings", .array(findings.findings.map(Self.finding))))
        case nil:
            return nil
        }
        if operation == "validate" || operation == "rest-validate" {
            valid = !expected.contains { $0.key == "findings" && $0.value.arrayValue?.isEmpty == false }
        }
        members.append(("operation", .string(operation)))
        members.append(("result", .string(valid ? "valid" : "invalid")))
        if let kind, let name = VectorCase.Kind(number: Int(kind)) { members.append(("kind", .string(name.rawValue))) }
        if let limits = request.limits {
            members.append(("limits", .object(limitMembers(limits).map { ($0.0, VectorJSON.number(String($0.1))) })))
        }
        members.append(("input", .object(input)))
        members.append(("expected", .object(expected)))
        return .object(members)
    }

    static func finding(_ finding: TesteeFinding) -> VectorJSON {
        .object([
            ("code", .string(finding.code)), ("path", .string(finding.path)), ("severity", .string(finding.severity)),
            ("limit", .number(String(finding.limit))), ("actual", .number(String(finding.actual))),
        ])
    }
}
