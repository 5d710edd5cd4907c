import Foundation
import IMCodecTestee

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
        let kind = TesteePayloadKind(rawValue: Int32(vector.kind?.number ?? 0))
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
                    add("decode_payload", .failure(error)) {
                        $0.operation = .decodePayload(decodePayload(kind, payload))
                    }
                } else if let jsonText {
                    add("json_to_payload", .failure(error)) {
                        $0.operation = .jsonToPayload(jsonToPayload(kind, jsonText))
                    }
                }
                break
            }
            guard let canonical = expected.payload, let payloadInput else { break }
            if let jsonText {
                add("json_to_payload", .payload(canonical)) {
                    $0.operation = .jsonToPayload(jsonToPayload(kind, jsonText))
                }
            }
            add("decode_payload", .payload(canonical)) {
                $0.operation = .decodePayload(decodePayload(kind, payloadInput))
            }
            if let json = expected.json {
                add("payload_to_json", .json(json)) {
                    var operation = TesteePayloadToJsonRequest()
                    operation.kind = kind
                    operation.payload = payloadInput
                    $0.operation = .payloadToJson(operation)
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
                var operation = TesteeDecodeFrameRequest()
                operation.frame = input.frame ?? []
                $0.operation = .decodeFrame(operation)
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
                var operation = TesteeEncodeFrameRequest()
                operation.kind = kind
                operation.payload = payload
                operation.compression = UInt32(clamping: policy.compression)
                operation.threshold = UInt32(clamping: policy.threshold)
                operation.level = UInt32(clamping: policy.level)
                operation.dictionaryID = UInt32(clamping: policy.dictionaryID)
                $0.operation = .encodeFrame(operation)
            }
        case .decodeStream:
            let expectation = Expectation.stream(
                frames: expected.frames ?? [], error: expected.error, incompleteTail: expected.incompleteTail ?? false)
            add("decode_stream", expectation) {
                var operation = TesteeDecodeStreamRequest()
                operation.chunks = input.chunks ?? []
                $0.operation = .decodeStream(operation)
            }
        case .validate:
            let expectation: Expectation =
                expected.error.map { .failure($0) } ?? .findings(expected.findings ?? [])
            add("validate", expectation) {
                var operation = TesteeValidateRequest()
                operation.kind = kind
                operation.payload = input.payload ?? []
                operation.profile = input.profile ?? ""
                $0.operation = .validate(operation)
            }
        case .restImport:
            let restText = input.restText ?? input.rest?.text ?? ""
            if let error = expected.error {
                add("rest_to_payload", .failure(error)) { $0.operation = .restToPayload(restToPayload(kind, restText)) }
                break
            }
            guard let canonical = expected.payload, let rest = expected.rest else { break }
            add("rest_to_payload", .payload(canonical)) { $0.operation = .restToPayload(restToPayload(kind, restText)) }
            add("payload_to_rest", .rest(rest)) { $0.operation = .payloadToRest(payloadToRest(kind, canonical)) }
        case .restExport:
            // The payload is the file's: the library under test does not
            // prepare its own input from the case's JSON.
            guard let payload = input.payload else { break }
            let expectation: Expectation =
                expected.error.map { .failure($0) } ?? expected.rest.map { .rest($0) }
                ?? .failure(VectorCase.ExpectedError(code: "", path: ""))
            add("payload_to_rest", expectation) { $0.operation = .payloadToRest(payloadToRest(kind, payload)) }
        case .restValidate:
            add("validate_rest", .findings(expected.findings ?? [])) {
                var operation = TesteeValidateRestRequest()
                operation.rest = input.restText ?? input.rest?.text ?? ""
                operation.profile = input.profile ?? ""
                $0.operation = .validateRest(operation)
            }
        }
        return checks
    }

    static func limits(_ values: [String: Int]) -> TesteeLimits {
        var limits = TesteeLimits()
        for (name, value) in values {
            // Unknown names are refused when the vector file is loaded.
            _ = limits.set(named: name, to: UInt32(clamping: value))
        }
        return limits
    }

    static func decodePayload(_ kind: TesteePayloadKind, _ payload: [UInt8])
        -> TesteeDecodePayloadRequest
    {
        var operation = TesteeDecodePayloadRequest()
        operation.kind = kind
        operation.payload = payload
        return operation
    }

    static func restToPayload(_ kind: TesteePayloadKind, _ rest: String)
        -> TesteeRestToPayloadRequest
    {
        var operation = TesteeRestToPayloadRequest()
        operation.kind = kind
        operation.rest = rest
        return operation
    }

    static func payloadToRest(_ kind: TesteePayloadKind, _ payload: [UInt8])
        -> TesteePayloadToRestRequest
    {
        var operation = TesteePayloadToRestRequest()
        operation.kind = kind
        operation.payload = payload
        return operation
    }

    static func jsonToPayload(_ kind: TesteePayloadKind, _ json: String)
        -> TesteeJsonToPayloadRequest
    {
        var operation = TesteeJsonToPayloadRequest()
        operation.kind = kind
        operation.json = json
        return operation
    }
}
