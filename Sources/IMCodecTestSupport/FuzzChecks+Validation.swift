import Foundation
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
    /// the C reference accepts must be one our decoder accepts. The input
    /// as `imcodec validate` reads a file (the JSON document, or the payload
    /// in a frame) must give the same findings through ``InputValidator``,
    /// and its report (in the first profile) must print as JSON that parses.
    /// A message with a merger must give the same findings with its
    /// forwarded messages handed over one at a time
    /// (``forwardedDifference(_:_:_:)``), and the same findings from the
    /// engine reading the rule table as from the compiled visits generated
    /// from it.
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
        let bytes = payload.serializedBytes()
        var findingsByProfile: [String: [ValidationFinding]] = [:]
        for name in ValidationLimits.profileNames {
            guard let limits = ValidationLimits.profile(named: name) else { continue }
            let findings = Validator.validate(payload, limits: limits)
            if findings != Validator.validate(payload, limits: limits) {
                return "validating the same \(kind) twice gives different findings"
            }
            if findings.contains(where: { $0.severity != $0.code.severity || $0.description.isEmpty }) {
                return "a finding's severity is not its code's, or it has no description"
            }
            // The JSON report is printed and parsed for the first profile
            // only: its writer does not depend on the profile, and printing
            // thousands of findings twice would make a large batch's check
            // measure the JSON writer rather than the validator.
            let printReport = findingsByProfile.isEmpty
            // The library's compiled visits against the engine reading the
            // same table entry by entry, in the first profile.
            if printReport, findings != Validator.validateReadingTable(payload, limits: limits) {
                return "the compiled visits and the engine reading the rule table give different findings"
            }
            if let difference = inputValidatorDifference(
                payload, json ? Array(body) : nil, name, limits, findings, printReport: printReport)
            {
                return difference
            }
            findingsByProfile[name] = findings
        }
        if case .message(let message) = payload, let name = ValidationLimits.profileNames.first,
            let limits = ValidationLimits.profile(named: name), let findings = findingsByProfile[name],
            let difference = forwardedDifference(message, limits, findings)
        {
            return difference
        }
        return validatorDifference(payload, bytes, swiftFindings: findingsByProfile)
    }

    /// The validator given a message whose mergers hold stand-ins, each
    /// forwarded message handed over when the walk asks for it (as the REST
    /// validator reads them from a document), against the same message
    /// validated whole: the findings must be the same, in the same order.
    ///
    /// Only for a message with a merger; in the first profile, to keep the
    /// check's time close to what it was without it.
    package static func forwardedDifference(
        _ message: Message, _ limits: ValidationLimits, _ findings: [ValidationFinding]
    ) -> String? {
        guard message.elems.contains(where: { if case .merger? = $0.kind { true } else { false } }) else {
            return nil
        }
        /// `message` with every merger's messages replaced by as many empty ones.
        func standIn(_ message: Message) -> Message {
            var copy = message
            for index in copy.elems.indices {
                if case .merger(var merger)? = copy.elems[index].kind {
                    merger.messages = Array(repeating: Message(), count: merger.messages.count)
                    copy.elems[index].kind = .merger(merger)
                }
            }
            return copy
        }
        var nodes = [0: message]
        var unknownPlace = false
        let streamed = Validator.validate(standIn(message), limits: limits) { parent, elem, index, node in
            guard let holder = nodes[parent], holder.elems.indices.contains(elem),
                case .merger(let merger)? = holder.elems[elem].kind, merger.messages.indices.contains(index)
            else {
                unknownPlace = true
                return Message()
            }
            let forwarded = merger.messages[index]
            nodes[node] = forwarded
            return standIn(forwarded)
        }
        if unknownPlace { return "the validator asks for a forwarded message its mergers do not hold" }
        if streamed != findings {
            return "validating with the forwarded messages handed over one at a time gives other findings"
        }
        return nil
    }

    /// How many time thresholds (100 ms by default) the check of a
    /// FuzzValidate input may take: one, or one per 500 findings or per
    /// 5,000 components of the findings' paths (in the profile with the
    /// most), whichever is more.
    ///
    /// The check validates, compares and prints every finding several
    /// times, so its work grows with the findings, not with the input: two
    /// bytes add a message to a batch and two findings to the report, and a
    /// merger nested a hundred deep gives each of its findings a path of
    /// hundreds of components.
    ///
    /// - Parameter input: A FuzzValidate input.
    /// - Returns: At least 1.
    public static func validationAllowance(_ input: [UInt8]) -> Int {
        guard let (kind, json, body) = validationInput(input),
            let payload = try? decodePayload(body, kind: kind, json: json)
        else { return 1 }
        var findings = 0
        var components = 0
        for name in ValidationLimits.profileNames {
            guard let limits = ValidationLimits.profile(named: name) else { continue }
            let found = Validator.validate(payload, limits: limits)
            findings = max(findings, found.count)
            components = max(components, found.reduce(0) { $0 + $1.path.components.count })
        }
        return max(1, (findings + 499) / 500, (components + 4999) / 5000)
    }

    /// ``InputValidator`` on the file `imcodec validate` would read for
    /// `payload`: its JSON document (`json`), or else the payload framed.
    static func inputValidatorDifference(
        _ payload: FramePayload, _ json: [UInt8]?, _ profile: String, _ limits: ValidationLimits,
        _ findings: [ValidationFinding], printReport: Bool
    ) -> String? {
        let file: [UInt8]
        if let json {
            // The CLI reads a file as JSON when it starts with `{`, `[` or
            // JSON whitespace; a bare `null` or a byte order mark is read
            // otherwise, as it documents.
            guard let first = json.first, Array("{ \t\r\n".utf8).contains(first) else { return nil }
            file = json
        } else {
            guard let frame = try? FrameEncoder().encode(payload) else {
                return "the default encoder refuses a payload the decoder accepted"
            }
            file = frame
        }
        let report = InputValidator.validate(file, format: .jsonOrFrames(kind: payload.kind), limits: limits)
        if let failure = report.failure { return "imcodec validate fails on it with \(failure.code)" }
        if report.findings.map(\.finding) != findings { return "imcodec validate reports other findings" }
        guard printReport else { return nil }
        let text = ValidationReport.json([report], profile: profile)
        guard (try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil else {
            return "the JSON report does not parse"
        }
        return nil
    }
}
