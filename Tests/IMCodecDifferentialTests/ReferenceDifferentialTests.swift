import IMCodec
import IMCodecReference
import IMCodecTestSupport
import IMCodecValidation
import Testing

/// The Swift library against the C reference, in process, on the generated
/// population: payloads and frames written by one decode in the other to the
/// same canonical bytes, which is equality of the messages.
@Suite struct ReferenceDifferentialTests {
    @Test func swiftAndCAgreeOnPayloadsAndFramesOfTheGeneratedPopulation() throws {
        try swiftAndCAgree(onValues: 10_000)
    }

    /// The generated population against the C reference until `values`
    /// values protobuf-c can represent have been compared. (`PortablePathsTests`
    /// runs a part of it through the portable string path.)
    func swiftAndCAgree(onValues values: Int) throws {
        var generator = ValueGenerator(seed: 0xC0DE)
        let codec = imcodec_ref_codec_new()
        defer { imcodec_ref_codec_free(codec) }
        let plain = FrameEncoder(policy: .disabled)
        let withDictionary = FrameEncoder(policy: CompressionPolicy(threshold: 64, level: 6, dictionary: .imMessages))
        let decoder = FrameDecoder()
        var agreed = 0
        var unrepresentable = 0
        var differences: [String] = []
        // The population of OracleTests, until 10,000 values protobuf-c can
        // represent have been compared.
        for index in 0..<3 * values where agreed < values {
            let payload: FramePayload =
                switch index % 10 {
                case 0: .event(Event.arbitrary(using: &generator))
                case 1 where index % 50 == 1: .batch(MessageBatch.arbitrary(using: &generator))
                default: .message(Message.arbitrary(using: &generator))
                }
            let kind = payload.kind.rawValue
            let bytes = payload.serializedBytes()

            // Swift payload → C: the same canonical bytes back.
            switch ReferenceC.decodePayload(bytes, kind: kind) {
            case .unsupported:
                unrepresentable += 1
                continue
            case .failure(let code, _):
                differences.append("\(index): C rejects a Swift payload with \(code)")
                continue
            case .bytes(let canonical) where canonical != bytes:
                differences.append("\(index): C re-encodes a Swift payload differently")
            default: break
            }

            // Swift frames (stored and deflated with the dictionary) → C.
            for encoder in [plain, withDictionary] {
                if ReferenceC.decodeFrame(try encoder.encode(payload), codec: codec) != .bytes(bytes) {
                    differences.append("\(index): C decodes a Swift frame differently")
                }
            }

            // C frames → Swift: the same message.
            guard case .bytes(let frame) = ReferenceC.encodeFrame(bytes, kind: kind, dictionary: 1, codec: codec) else {
                differences.append("\(index): C cannot frame a valid payload")
                continue
            }
            do {
                let decoded = try decoder.decode(frame)
                if decoded.serializedBytes() != bytes || decoded.kind != payload.kind {
                    differences.append("\(index): Swift decodes a C frame to another value")
                }
            } catch {
                differences.append("\(index): Swift rejects a C frame with \(error.code)")
            }
            agreed += 1
        }
        #expect(differences.isEmpty, "\(differences.count) differences: \(differences.prefix(5))")
        #expect(agreed == values)
        print(
            "Swift/C differential: \(agreed) values agree as payloads and frames both ways; "
                + "\(unrepresentable) hold values protobuf-c cannot represent (NUL in a string, -0.0)")
    }

    @Test func swiftAndCValidatorsReportTheSameFindingsOnTheGeneratedPopulation() {
        compareValidators(seed: 0x5EED, values: 6_000, atLeast: 4_000) { index, generator in
            switch index % 10 {
            case 0: .event(Event.arbitrary(using: &generator))
            case 1 where index % 50 == 1: .batch(MessageBatch.arbitrary(using: &generator))
            default: .message(Message.arbitrary(using: &generator))
            }
        }
    }

    /// Events only, so that every kind, the relationship-chain and group
    /// kinds among them, is validated dozens of times in each profile.
    @Test func swiftAndCValidatorsReportTheSameFindingsOnGeneratedEvents() {
        compareValidators(seed: 0xE7E7, values: 2_000, atLeast: 2_000) { _, generator in
            .event(Event.arbitrary(using: &generator))
        }
    }

    /// Validates `values` generated payloads with both validators in both
    /// profiles and expects the same findings in the same order
    /// (docs/spec/validation.md, "Order").
    private func compareValidators(
        seed: UInt64, values: Int, atLeast minimum: Int,
        _ make: (Int, inout ValueGenerator) -> FramePayload
    ) {
        var generator = ValueGenerator(seed: seed)
        var compared = 0
        var findings = 0
        var differences: [String] = []
        for index in 0..<values where compared < minimum {
            let payload = make(index, &generator)
            let bytes = payload.serializedBytes()
            for profile in ValidationLimits.profileNames {
                guard let limits = ValidationLimits.profile(named: profile),
                    let fromC = ReferenceC.validate(bytes, kind: payload.kind.rawValue, profile: profile)
                else { continue }
                let fromSwift = Validator.validate(payload, limits: limits).map {
                    "\($0.code) \($0.path) \($0.severity.rawValue) \($0.limit ?? 0) \($0.actual ?? 0)"
                }
                if fromSwift != fromC {
                    let at =
                        zip(fromSwift, fromC).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                        ?? min(fromSwift.count, fromC.count)
                    differences.append(
                        "\(index) \(profile) at finding \(at): Swift \(fromSwift.dropFirst(at).prefix(2)), "
                            + "C \(fromC.dropFirst(at).prefix(2))")
                }
                findings += fromSwift.count
                compared += 1
            }
        }
        #expect(differences.isEmpty, "\(differences.count) differences: \(differences.prefix(3))")
        #expect(compared >= minimum)
        #expect(findings > 0)
        print("Swift/C validators: \(compared) values and profiles, \(findings) findings, all equal in order")
    }
}
