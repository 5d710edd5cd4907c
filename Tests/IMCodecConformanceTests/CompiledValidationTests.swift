import IMCodec
import IMCodecConformance
import IMCodecTestSupport
import IMCodecValidation
import Testing

/// The validator executes the library's rule table by visits generated from
/// it (`ValidationRun+Compiled.swift`); the same engine reads any other table
/// entry by entry, finding each field by its name in the model's reflection.
/// Both must give the same findings, in the same order, for every value: a
/// compiled visit that read another field than its declaration names, or
/// reported at another path, would differ here.
@Suite struct CompiledValidationTests {
    /// Every payload of a `validate` vector, in every profile.
    @Test func theVectorsPayloadsGiveTheSameFindingsEitherWay() throws {
        let cases = try VectorLoader.loadDirectory(repositoryRoot + "/Vectors").flatMap(\.cases)
        var compared = 0
        var withFindings = 0
        for vector in cases where vector.operation == .validate {
            guard let kind = vector.kind, let bytes = vector.input.payload else { continue }
            let payload: FramePayload
            do throws(IMCodecError) {
                switch kind {
                case .message: payload = .message(try Message(serializedBytes: bytes))
                case .batch: payload = .batch(try MessageBatch(serializedBytes: bytes))
                case .event: payload = .event(try Event(serializedBytes: bytes))
                }
            } catch {
                continue
            }
            for name in ValidationLimits.profileNames {
                let limits = try #require(ValidationLimits.profile(named: name))
                let compiled = Validator.validate(payload, limits: limits)
                #expect(compiled == Validator.validateReadingTable(payload, limits: limits), "\(vector.id) \(name)")
                compared += 1
                if !compiled.isEmpty { withFindings += 1 }
            }
        }
        // The vectors hold hundreds of validate cases, most with findings.
        #expect(compared > 1_000)
        #expect(withFindings > 500)
    }

    /// Generated values: every field filled with values around its limits.
    @Test func generatedValuesGiveTheSameFindingsEitherWay() {
        var generator = ValueGenerator(seed: 0xC0DE)
        var withFindings = 0
        for _ in 0..<300 {
            let payloads: [FramePayload] = [
                .message(Message.arbitrary(using: &generator)), .batch(MessageBatch.arbitrary(using: &generator)),
                .event(Event.arbitrary(using: &generator)),
            ]
            for payload in payloads {
                for limits in [ValidationLimits.sdkGuide, .current] {
                    let compiled = Validator.validate(payload, limits: limits)
                    #expect(compiled == Validator.validateReadingTable(payload, limits: limits))
                    if !compiled.isEmpty { withFindings += 1 }
                }
            }
        }
        #expect(withFindings > 100)
    }
}
