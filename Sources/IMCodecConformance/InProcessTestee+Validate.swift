import IMCodec
import IMCodecREST
import IMCodecTestee
import IMCodecValidation

extension InProcessTestee {
    /// Decodes the payload and answers every finding of the validator under
    /// the named profile; a payload that does not decode is a `failure`.
    func validate(_ operation: TesteeValidateRequest, _ limits: DecodingLimits) throws -> TesteeResponse {
        let kind = try Self.frameKind(operation.kind)
        let profile = try Self.profile(operation.profile)
        let value = try decodePayload(kind, operation.payload, limits)
        return Self.response(Validator.validate(value, limits: profile))
    }

    /// Answers every finding of the REST validator under the named profile,
    /// import problems included.
    func validateREST(_ operation: TesteeValidateRestRequest, _ limits: DecodingLimits) throws
        -> TesteeResponse
    {
        let profile = try Self.profile(operation.profile)
        return Self.response(
            RESTValidator.validate(Array(operation.rest.utf8), limits: profile, decodingLimits: limits))
    }

    /// Reads a REST document of the requested kind.
    func restToPayload(_ operation: TesteeRestToPayloadRequest, _ limits: DecodingLimits) throws
        -> FramePayload
    {
        let text = Array(operation.rest.utf8)
        switch try Self.frameKind(operation.kind) {
        case .message: return .message(try RESTCodec.importMessage(text, limits: limits).value)
        case .batch: return .batch(try RESTCodec.importBatch(text, limits: limits).value)
        case .event: throw BadRequest(reason: "events have no REST form")
        }
    }

    static func profile(_ name: String) throws -> ValidationLimits {
        guard let profile = ValidationLimits.profile(named: name) else {
            throw BadRequest(
                reason: "unknown profile \"\(name)\"; known: " + ValidationLimits.profileNames.joined(separator: ", "))
        }
        return profile
    }

    static func response(_ validation: [ValidationFinding]) -> TesteeResponse {
        var findings = TesteeFindings()
        for finding in validation {
            var item = TesteeFinding()
            item.code = finding.code.rawValue
            item.path = finding.path.description
            item.severity = finding.severity.rawValue
            item.limit = finding.limit ?? 0
            item.actual = finding.actual ?? 0
            findings.findings.append(item)
        }
        var response = TesteeResponse()
        response.result = .findings(findings)
        return response
    }
}
