import IMCodec
import IMCodecValidation

extension FuzzChecks {
    /// What the first byte of a FuzzValidate input selects: the kind
    /// (bits 0–1: 1 message, 2 batch, 3 event; 0 is a message too) and the
    /// form of the rest (bit 2: proto3 JSON, else binary protobuf).
    static func validationInput(_ input: [UInt8]) -> (kind: FrameKind, json: Bool, body: ArraySlice<UInt8>)? {
        guard let selector = input.first else { return nil }
        let kind: FrameKind
        switch selector & 0b11 {
        case 2: kind = .batch
        case 3: kind = .event
        default: kind = .message
        }
        return (kind, selector & 0b100 != 0, input.dropFirst())
    }

    /// Decodes `body` as a payload of `kind`, from binary protobuf or proto3 JSON.
    static func decodePayload(_ body: ArraySlice<UInt8>, kind: FrameKind, json: Bool) throws(IMCodecError)
        -> FramePayload
    {
        let bytes = Array(body)
        switch (kind, json) {
        case (.batch, false): return .batch(try MessageBatch(serializedBytes: bytes))
        case (.batch, true): return .batch(try MessageBatch(jsonUTF8: bytes))
        case (.event, false): return .event(try Event(serializedBytes: bytes))
        case (.event, true): return .event(try Event(jsonUTF8: bytes))
        case (_, false): return .message(try Message(serializedBytes: bytes))
        case (_, true): return .message(try Message(jsonUTF8: bytes))
        }
    }

    /// Validation of messages, batches and events, decoded from binary
    /// protobuf or proto3 JSON, against the C reference's validator.
    ///
    /// A payload our decoder accepts is validated in every profile; the
    /// findings must be the same, in order, as the C validator's on the
    /// payload's canonical bytes (where protobuf-c can hold the value), a
    /// second validation must give the same findings, and a binary input
    /// the C reference accepts must be one our decoder accepts.
    public static func validation(_ input: [UInt8]) -> String? {
        guard let (kind, json, body) = validationInput(input) else { return nil }
        let payload: FramePayload
        do throws(IMCodecError) {
            payload = try decodePayload(body, kind: kind, json: json)
        } catch {
            if !json, case .bytes = ReferenceC.decodePayload(Array(body), kind: kind.rawValue) {
                return "rejected with \(error.code) a \(kind) payload the C reference accepts"
            }
            return nil
        }
        for limits in [ValidationLimits.sdkGuide, .current] {
            let findings = Validator.validate(payload, limits: limits)
            if findings != Validator.validate(payload, limits: limits) {
                return "validating the same \(kind) twice gives different findings"
            }
            if findings.contains(where: { $0.severity != $0.code.severity }) {
                return "a finding's severity is not its code's"
            }
        }
        return validatorDifference(payload, payload.serializedBytes())
    }
}
