import Foundation
import IMCodec
import IMCodecTestee

/// The verdict on one answer.
public enum CheckOutcome: Sendable, Equatable {
    case passed
    /// The testee does not implement the operation; the reason is its own.
    case skipped(String)
    /// The answer differs from the expectation; the reason says how and
    /// `failure` is the stable code of ``CheckFailure``.
    case failed(String, failure: String)
}

extension CaseCheck {
    /// Compares a testee's answer with the expectation.
    ///
    /// - Parameter response: The answer.
    /// - Returns: The verdict, with what differed when it failed.
    public func verify(_ response: TesteeResponse) -> CheckOutcome {
        switch response.result {
        case .skipped(let reason):
            return .skipped(reason.isEmpty ? "\(operation) not supported" : reason)
        case .runtimeError(let reason):
            return .failed("runtime error: \(reason)", failure: CheckFailure.runtimeError)
        case nil:
            return .failed("the response holds no result", failure: CheckFailure.wrongAnswer)
        default:
            break
        }
        switch expectation {
        case .payload(let expected):
            guard case .payload(let actual) = response.result else { return unexpected(response, "a payload") }
            if actual == expected { return .passed }
            return .failed(
                "payload differs:\n  expected \(Hex.abbreviated(expected, limit: 160))\n  actual   "
                    + Hex.abbreviated(actual, limit: 160) + firstDifference(expected, actual),
                failure: CheckFailure.wrongAnswer)
        case .rest(let expected):
            guard case .rest(let text) = response.result else { return unexpected(response, "a REST document") }
            return compareCanonical(rest: text, expected)
        case .json(let expected):
            guard case .json(let text) = response.result else { return unexpected(response, "JSON") }
            return compare(text: text, expected, what: "JSON")
        case .failure(let expected):
            guard case .failure(let failure) = response.result else {
                return unexpected(response, "failure \(expected)")
            }
            if failure.code == expected.code && failure.path == expected.path { return .passed }
            return .failed(
                "rejected with \(Self.describe(failure)), expected \(expected)",
                failure: CheckFailure.error(failure.code))
        case .frame(let expected):
            guard case .frame(let frame) = response.result else { return unexpected(response, "a decoded frame") }
            return compare(frame, expected, prefix: "")
        case .encodedFrame(let expected, let payloadLength):
            guard case .frameBytes(let bytes) = response.result else { return unexpected(response, "frame bytes") }
            return checkEncoded(bytes, expected, payloadLength: payloadLength)
        case .stream(let frames, let error, let incompleteTail):
            guard case .stream(let stream) = response.result else { return unexpected(response, "a stream result") }
            var problems: [String] = []
            if stream.frames.count != frames.count {
                problems.append("\(stream.frames.count) frames, expected \(frames.count)")
            }
            for (index, (actual, wanted)) in zip(stream.frames, frames).enumerated() {
                if case .failed(let reason, _) = compare(actual, wanted, prefix: "frame \(index): ") {
                    problems.append(reason)
                }
            }
            switch (stream.failure, error) {
            case (nil, nil): break
            case (let actual?, nil): problems.append("stream ended with \(Self.describe(actual)), expected no error")
            case (nil, let wanted?): problems.append("stream ended without an error, expected \(wanted)")
            case (let actual?, let wanted?):
                if actual.code != wanted.code || actual.path != wanted.path {
                    problems.append("stream ended with \(Self.describe(actual)), expected \(wanted)")
                }
            }
            if stream.incompleteTail != incompleteTail {
                problems.append("incomplete_tail \(stream.incompleteTail), expected \(incompleteTail)")
            }
            return problems.isEmpty
                ? .passed : .failed(problems.joined(separator: "; "), failure: CheckFailure.wrongAnswer)
        case .findings(let expected):
            guard case .findings(let findings) = response.result else { return unexpected(response, "findings") }
            return compare(findings.findings, expected)
        }
    }

    /// Compares JSON text with the expected value (``VectorJSON/isEquivalent(to:)``).
    ///
    /// An answer that does not parse, or that has an object with a member
    /// name twice, is a wrong answer whatever the values.
    private func compare(text: String, _ expected: VectorJSON, what: String) -> CheckOutcome {
        let actual: VectorJSON
        do {
            actual = try VectorJSON(parsing: text)
        } catch {
            return .failed(
                "the \(what) answer does not parse (\(error)): \(Self.shorten(text))", failure: CheckFailure.wrongAnswer
            )
        }
        if let duplicate = actual.firstDuplicateKey() {
            return .failed(
                "the \(what) answer has the member \(duplicate) twice in one object: \(Self.shorten(text))",
                failure: CheckFailure.wrongAnswer)
        }
        if actual.isEquivalent(to: expected) { return .passed }
        return .failed(
            "\(what) differs:\n  expected \(Self.shorten(expected.text))\n  actual   \(Self.shorten(text))",
            failure: CheckFailure.wrongAnswer)
    }

    /// Compares a REST export byte for byte with the canonical text of the
    /// expected document (``VectorJSON/canonicalRESTText``, Sources/IMCodecREST/IMCodecREST.docc/REST.md,
    /// "Export").
    private func compareCanonical(rest text: String, _ expected: VectorJSON) -> CheckOutcome {
        let canonical = expected.canonicalRESTText
        if text == canonical { return .passed }
        let wanted = Array(canonical.utf8)
        let actual = Array(text.utf8)
        var reason = "REST document is not the canonical text:\n  expected \(Self.shorten(canonical))\n  actual   "
        reason += Self.shorten(text) + firstDifference(wanted, actual)
        if let parsed = try? VectorJSON(parsing: text), parsed.firstDuplicateKey() == nil,
            parsed.isEquivalent(to: expected)
        {
            reason += "\n  (the same JSON value, written differently)"
        }
        return .failed(reason, failure: CheckFailure.wrongAnswer)
    }

    private func unexpected(_ response: TesteeResponse, _ wanted: String) -> CheckOutcome {
        let actual: String
        switch response.result {
        case .payload(let bytes): actual = "a payload \(Hex.abbreviated(bytes))"
        case .frame(let frame): actual = "a frame with payload \(Hex.abbreviated(frame.payload))"
        case .frameBytes(let bytes): actual = "frame bytes \(Hex.abbreviated(bytes))"
        case .stream(let stream): actual = "a stream result with \(stream.frames.count) frames"
        case .findings(let findings): actual = "\(findings.findings.count) findings"
        case .json(let text): actual = "JSON \(Self.shorten(text))"
        case .rest(let text): actual = "REST \(Self.shorten(text))"
        case .failure(let failure): actual = "failure \(Self.describe(failure))"
        case .skipped, .runtimeError, nil: actual = "nothing"
        }
        if case .failure(let failure) = response.result {
            return .failed("answered \(actual), expected \(wanted)", failure: CheckFailure.error(failure.code))
        }
        return .failed("answered \(actual), expected \(wanted)", failure: CheckFailure.wrongAnswer)
    }

    static func describe(_ failure: TesteeFailure) -> String {
        var text = failure.path.isEmpty ? failure.code : "\(failure.code) at \(failure.path)"
        if !failure.reason.isEmpty { text += " (\(failure.reason))" }
        return text
    }

    static func shorten(_ text: String, limit: Int = 400) -> String {
        text.count <= limit ? text : String(text.prefix(limit)) + "… (\(text.count) characters)"
    }

    private func firstDifference(_ expected: [UInt8], _ actual: [UInt8]) -> String {
        let common = min(expected.count, actual.count)
        let index = (0..<common).first { expected[$0] != actual[$0] } ?? common
        return "\n  first difference at byte \(index) (lengths \(expected.count) and \(actual.count))"
    }

    private func compare(_ frame: TesteeDecodedFrame, _ expected: VectorCase.ExpectedFrame, prefix: String)
        -> CheckOutcome
    {
        var problems: [String] = []
        if frame.kind.rawValue != expected.kind.number {
            problems.append("kind \(frame.kind.rawValue), expected \(expected.kind.number) (\(expected.kind))")
        }
        if Int(frame.compression) != expected.compression {
            problems.append("compression \(frame.compression), expected \(expected.compression)")
        }
        if Int(frame.dictionaryID) != expected.dictionaryID {
            problems.append("dictionary \(frame.dictionaryID), expected \(expected.dictionaryID)")
        }
        if frame.payload != expected.payload {
            problems.append(
                "payload \(Hex.abbreviated(frame.payload)), expected \(Hex.abbreviated(expected.payload))")
        }
        return problems.isEmpty
            ? .passed : .failed(prefix + problems.joined(separator: "; "), failure: CheckFailure.wrongAnswer)
    }

    /// Checks a frame the testee built: it must decode (with the library's
    /// frame decoder, which the frame vectors pin down) to the expected
    /// header and payload, and a stored frame must be exactly header plus
    /// payload.
    private func checkEncoded(_ bytes: [UInt8], _ expected: VectorCase.ExpectedFrame, payloadLength: Int)
        -> CheckOutcome
    {
        let frame: Frame
        do {
            frame = try FrameDecoder().decodeFrame(bytes)
        } catch {
            return .failed(
                "the frame built does not decode: \(error); bytes \(Hex.abbreviated(bytes))",
                failure: CheckFailure.wrongAnswer)
        }
        var decoded = TesteeDecodedFrame()
        decoded.kind = TesteePayloadKind(rawValue: Int32(frame.header.kind.rawValue))
        decoded.compression = UInt32(frame.header.compression.rawValue)
        decoded.dictionaryID = frame.header.dictionaryID ?? 0
        decoded.payload = Array(frame.payload)
        let outcome = compare(decoded, expected, prefix: "the frame built has ")
        if case .failed = outcome { return outcome }
        if bytes.count > frame.header.encodedLength + payloadLength {
            return .failed(
                "the frame built is \(bytes.count) bytes, more than its header and payload",
                failure: CheckFailure.wrongAnswer)
        }
        return .passed
    }

    private func compare(_ actual: [TesteeFinding], _ expected: [VectorCase.ExpectedFinding])
        -> CheckOutcome
    {
        var unmatched = actual
        var missing: [VectorCase.ExpectedFinding] = []
        for wanted in expected {
            if let index = unmatched.firstIndex(where: { Self.matches($0, wanted) }) {
                unmatched.remove(at: index)
            } else {
                missing.append(wanted)
            }
        }
        if missing.isEmpty && unmatched.isEmpty { return .passed }
        var problems: [String] = []
        if !missing.isEmpty { problems.append("missing " + missing.map(\.description).joined(separator: ", ")) }
        if !unmatched.isEmpty {
            problems.append(
                "unexpected "
                    + unmatched.map { finding in
                        var text = finding.path.isEmpty ? finding.code : "\(finding.code) at \(finding.path)"
                        text += " [\(finding.severity)] limit \(finding.limit) actual \(finding.actual)"
                        return text
                    }.joined(separator: ", "))
        }
        return .failed(problems.joined(separator: "; "), failure: CheckFailure.wrongAnswer)
    }

    private static func matches(_ finding: TesteeFinding, _ wanted: VectorCase.ExpectedFinding) -> Bool {
        finding.code == wanted.code && finding.path == wanted.path
            && (wanted.severity.map { $0 == finding.severity } ?? true)
            && (wanted.limit.map { $0 == finding.limit } ?? true)
            && (wanted.actual.map { $0 == finding.actual } ?? true)
    }
}
