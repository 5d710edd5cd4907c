import IMCodec
import IMCodecOracle

extension InProcessTestee {
    /// Decodes the payload and answers every finding of the validator under
    /// the named profile; a payload that does not decode is a `failure`.
    func validate(_ operation: Imcodec_Testee_V1_ValidateRequest, _ limits: DecodingLimits) throws -> TesteeResponse {
        let kind = try Self.frameKind(operation.kind)
        guard let profile = ValidationLimits.profile(named: operation.profile) else {
            throw BadRequest(
                reason: "unknown profile \"\(operation.profile)\"; known: "
                    + ValidationLimits.profileNames.joined(separator: ", "))
        }
        let value = try decodePayload(kind, [UInt8](operation.payload), limits)
        var findings = Imcodec_Testee_V1_Findings()
        for finding in Validator.validate(value, limits: profile) {
            var item = Imcodec_Testee_V1_Finding()
            item.code = finding.code.rawValue
            item.path = finding.path
            item.severity = finding.severity.rawValue
            item.limit = finding.limit ?? 0
            item.actual = finding.actual ?? 0
            findings.findings.append(item)
        }
        var response = TesteeResponse()
        response.findings = findings
        return response
    }
}
