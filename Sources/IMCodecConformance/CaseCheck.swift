import Foundation
import IMCodecOracle

/// One request a case sends to a testee, with what its answer must be.
///
/// A case becomes one or more checks: a valid payload case given as JSON is
/// read from JSON (`json_to_payload`), decoded from its payload
/// (`decode_payload`) and printed as JSON (`payload_to_json`). The case passes
/// only when every check ran and passed; a check the testee skips fails it
/// unless the operation is declared unsupported (``FailureList/skips``), and
/// then the case counts as skipped.
public struct CaseCheck: Sendable {
    /// What the answer must be.
    public enum Expectation: Sendable {
        /// `payload` with exactly these bytes.
        case payload([UInt8])
        /// `json` equivalent to this value (``VectorJSON/isEquivalent(to:)``).
        case json(VectorJSON)
        /// `failure` with this code and path.
        case failure(VectorCase.ExpectedError)
        /// `frame` with these header fields and payload.
        case frame(VectorCase.ExpectedFrame)
        /// `frame_bytes` that decode to this frame.
        case encodedFrame(VectorCase.ExpectedFrame, payloadLength: Int)
        /// `stream` with these frames, this failure and this tail.
        case stream(frames: [VectorCase.ExpectedFrame], error: VectorCase.ExpectedError?, incompleteTail: Bool)
        /// `findings` holding exactly these, in any order.
        case findings([VectorCase.ExpectedFinding])
        /// `rest` text equal, byte for byte, to this value's canonical text
        /// (``VectorJSON/canonicalRESTText``).
        case rest(VectorJSON)
    }

    /// The operation's name in the testee protocol, for messages.
    public var operation: String
    public var request: TesteeRequest
    public var expectation: Expectation

    /// A check of one request.
    ///
    /// - Parameters:
    ///   - operation: The operation's name in the testee protocol.
    ///   - request: The request sent.
    ///   - expectation: What the answer must be.
    public init(operation: String, request: TesteeRequest, expectation: Expectation) {
        self.operation = operation
        self.request = request
        self.expectation = expectation
    }

    /// The checks of one case.
    ///
    /// - Parameter vector: The case.
    /// - Returns: Its checks, in the order they are sent.
    public static func checks(for vector: VectorCase) -> [CaseCheck] {
        var base = TesteeRequest()
        base.caseID = vector.id
        if !vector.limits.isEmpty { base.limits = limits(vector.limits) }
        let kind = Imcodec_Testee_V1_PayloadKind(rawValue: vector.kind?.number ?? 0) ?? .unspecified
        let input = vector.input
        let expected = vector.expected
        var checks: [CaseCheck] = []

        func add(_ operation: String, _ expectation: Expectation, _ build: (inout TesteeRequest) -> Void) {
            var request = base
            build(&request)
            checks.append(CaseCheck(operation: operation, request: request, expectation: expectation))
        }

        switch vector.operation {
        case .payload:
            let jsonText = input.jsonText ?? input.json?.text
            let payloadInput = input.payload ?? expected.payload
            if let error = expected.error {
                if let payload = input.payload {
                    add("decode_payload", .failure(error)) { $0.decodePayload = decodePayload(kind, payload) }
                } else if let jsonText {
                    add("json_to_payload", .failure(error)) { $0.jsonToPayload = jsonToPayload(kind, jsonText) }
                }
                break
            }
            guard let canonical = expected.payload, let payloadInput else { break }
            if let jsonText {
                add("json_to_payload", .payload(canonical)) { $0.jsonToPayload = jsonToPayload(kind, jsonText) }
            }
            add("decode_payload", .payload(canonical)) { $0.decodePayload = decodePayload(kind, payloadInput) }
            if let json = expected.json {
                add("payload_to_json", .json(json)) {
                    var operation = Imcodec_Testee_V1_PayloadToJsonRequest()
                    operation.kind = kind
                    operation.payload = Data(payloadInput)
                    $0.payloadToJson = operation
                }
            }
        case .decodeFrame:
            let expectation: Expectation
            if let error = expected.error {
                expectation = .failure(error)
            } else if let frame = expected.frame {
                expectation = .frame(frame)
            } else {
                break
            }
            add("decode_frame", expectation) {
                var operation = Imcodec_Testee_V1_DecodeFrameRequest()
                operation.frame = Data(input.frame ?? [])
                $0.decodeFrame = operation
            }
        case .encodeFrame:
            guard let policy = input.policy, let payload = input.payload else { break }
            let expectation: Expectation
            if let error = expected.error {
                expectation = .failure(error)
            } else if let frame = expected.frame {
                expectation = .encodedFrame(frame, payloadLength: payload.count)
            } else {
                break
            }
            add("encode_frame", expectation) {
                var operation = Imcodec_Testee_V1_EncodeFrameRequest()
                operation.kind = kind
                operation.payload = Data(payload)
                operation.compression = UInt32(clamping: policy.compression)
                operation.threshold = UInt32(clamping: policy.threshold)
                operation.level = UInt32(clamping: policy.level)
                operation.dictionaryID = UInt32(clamping: policy.dictionaryID)
                $0.encodeFrame = operation
            }
        case .decodeStream:
            let expectation = Expectation.stream(
                frames: expected.frames ?? [], error: expected.error, incompleteTail: expected.incompleteTail ?? false)
            add("decode_stream", expectation) {
                var operation = Imcodec_Testee_V1_DecodeStreamRequest()
                operation.chunks = (input.chunks ?? []).map { Data($0) }
                $0.decodeStream = operation
            }
        case .validate:
            let expectation: Expectation =
                expected.error.map { .failure($0) } ?? .findings(expected.findings ?? [])
            add("validate", expectation) {
                var operation = Imcodec_Testee_V1_ValidateRequest()
                operation.kind = kind
                operation.payload = Data(input.payload ?? [])
                operation.profile = input.profile ?? ""
                $0.validate = operation
            }
        case .restImport:
            let restText = input.restText ?? input.rest?.text ?? ""
            if let error = expected.error {
                add("rest_to_payload", .failure(error)) { $0.restToPayload = restToPayload(kind, restText) }
                break
            }
            guard let canonical = expected.payload, let rest = expected.rest else { break }
            add("rest_to_payload", .payload(canonical)) { $0.restToPayload = restToPayload(kind, restText) }
            add("payload_to_rest", .rest(rest)) { $0.payloadToRest = payloadToRest(kind, canonical) }
        case .restExport:
            // A case may give its input as proto3 JSON only; swift-protobuf
            // turns it into the payload, so the library under test is not
            // trusted to prepare its own input.
            guard let payload = input.payload ?? input.json.flatMap({ oraclePayload(vector.kind, $0.text) }) else {
                break
            }
            let expectation: Expectation =
                expected.error.map { .failure($0) } ?? expected.rest.map { .rest($0) }
                ?? .failure(VectorCase.ExpectedError(code: "", path: ""))
            add("payload_to_rest", expectation) { $0.payloadToRest = payloadToRest(kind, payload) }
        case .restValidate:
            add("validate_rest", .findings(expected.findings ?? [])) {
                var operation = Imcodec_Testee_V1_ValidateRestRequest()
                operation.rest = input.restText ?? input.rest?.text ?? ""
                operation.profile = input.profile ?? ""
                $0.validateRest = operation
            }
        }
        return checks
    }

    static func limits(_ values: [String: Int]) -> Imcodec_Testee_V1_Limits {
        var limits = Imcodec_Testee_V1_Limits()
        for (name, value) in values {
            // Unknown names are refused when the vector file is loaded.
            _ = limits.set(named: name, to: UInt32(clamping: value))
        }
        return limits
    }

    static func decodePayload(_ kind: Imcodec_Testee_V1_PayloadKind, _ payload: [UInt8])
        -> Imcodec_Testee_V1_DecodePayloadRequest
    {
        var operation = Imcodec_Testee_V1_DecodePayloadRequest()
        operation.kind = kind
        operation.payload = Data(payload)
        return operation
    }

    /// The payload of a proto3 JSON value, written by swift-protobuf.
    static func oraclePayload(_ kind: VectorCase.Kind?, _ json: String) -> [UInt8]? {
        switch kind {
        case .message: (try? Imcodec_V1_Message(jsonString: json)).flatMap { try? $0.serializedBytes() }
        case .batch: (try? Imcodec_V1_MessageBatch(jsonString: json)).flatMap { try? $0.serializedBytes() }
        case .event, nil: nil
        }
    }

    static func restToPayload(_ kind: Imcodec_Testee_V1_PayloadKind, _ rest: String)
        -> Imcodec_Testee_V1_RestToPayloadRequest
    {
        var operation = Imcodec_Testee_V1_RestToPayloadRequest()
        operation.kind = kind
        operation.rest = rest
        return operation
    }

    static func payloadToRest(_ kind: Imcodec_Testee_V1_PayloadKind, _ payload: [UInt8])
        -> Imcodec_Testee_V1_PayloadToRestRequest
    {
        var operation = Imcodec_Testee_V1_PayloadToRestRequest()
        operation.kind = kind
        operation.payload = Data(payload)
        return operation
    }

    static func jsonToPayload(_ kind: Imcodec_Testee_V1_PayloadKind, _ json: String)
        -> Imcodec_Testee_V1_JsonToPayloadRequest
    {
        var operation = Imcodec_Testee_V1_JsonToPayloadRequest()
        operation.kind = kind
        operation.json = json
        return operation
    }
}
