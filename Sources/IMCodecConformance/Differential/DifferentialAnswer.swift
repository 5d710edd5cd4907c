import IMCodec
import IMCodecTestee

/// One implementation's answer to a differential request, reduced to what
/// the testee protocol says is compared: bytes as bytes, JSON as values
/// (``VectorJSON/isEquivalent(to:)``), a failure by code and path, findings
/// as a set, a frame the testee built by what it decodes to, never reasons
/// or messages.
public struct DifferentialAnswer: Sendable, Equatable, CustomStringConvertible {
    /// The answer's shape and, for a failure, its code: the part of a
    /// ``DifferentialSignature``, such as `payload`, `json` or
    /// `failure:payload.truncated`.
    public let token: String
    /// Everything compared, written out; equal answers have equal texts,
    /// except JSON, which is compared as values.
    public let detail: String
    /// The JSON value of a `json` answer, compared as a value.
    let json: VectorJSON?
    /// What a `frame-bytes` answer decodes to.
    let builtFrame: TesteeDecodedFrame?

    /// Whether the implementation does not implement the operation.
    public var isSkipped: Bool { token == "skipped" }

    /// The token and the detail, for people.
    public var description: String { detail.isEmpty ? token : "\(token) \(detail)" }

    init(token: String, detail: String, json: VectorJSON? = nil, builtFrame: TesteeDecodedFrame? = nil) {
        self.token = token
        self.detail = detail
        self.json = json
        self.builtFrame = builtFrame
    }

    /// Reduces what became of a request.
    ///
    /// - Parameter outcome: The testee's answer, or why there is none.
    public init(_ outcome: TesteeOutcome) {
        switch outcome {
        case .response(let response): self.init(response)
        case .timedOut(let seconds): self.init(token: "no-answer", detail: "timed out after \(seconds) s")
        case .crashed(let reason): self.init(token: "no-answer", detail: reason)
        }
    }

    /// Reduces a response.
    ///
    /// - Parameter response: The testee's response.
    public init(_ response: TesteeResponse) {
        switch response.result {
        case .payload(let bytes):
            self.init(token: "payload", detail: Hex.encode(bytes))
        case .frame(let frame):
            self.init(token: "frame", detail: Self.describe(frame))
        case .frameBytes(let bytes):
            // Any valid deflate or zstd stream will do: compare what it holds.
            do {
                let frame = try FrameDecoder(limits: Self.generousLimits).decodeFrame(bytes)
                var decoded = TesteeDecodedFrame()
                decoded.kind = TesteePayloadKind(rawValue: Int32(frame.header.kind.rawValue))
                decoded.compression = UInt32(frame.header.compression.rawValue)
                decoded.dictionaryID = frame.header.dictionaryID ?? 0
                decoded.payload = Array(frame.payload)
                self.init(token: "frame-bytes", detail: Self.describe(decoded), builtFrame: decoded)
            } catch {
                self.init(token: "frame-bytes", detail: "undecodable: \(error.code.rawValue)")
            }
        case .stream(let stream):
            var detail = stream.frames.map(Self.describe).joined(separator: " | ")
            detail += " tail=\(stream.incompleteTail)"
            var token = "stream"
            if let failure = stream.failure {
                token += ":" + failure.code
                detail += " failure=\(failure.code)@\(failure.path)"
            }
            self.init(token: token, detail: detail)
        case .findings(let findings):
            let sorted = findings.findings.map {
                "\($0.code)@\($0.path)[\($0.severity)] \($0.limit)/\($0.actual)"
            }.sorted()
            self.init(token: "findings", detail: sorted.joined(separator: ", "))
        case .json(let text):
            if let value = try? VectorJSON(parsing: text), value.firstDuplicateKey() == nil {
                self.init(token: "json", detail: text, json: value)
            } else {
                self.init(token: "json", detail: "not JSON: \(text)")
            }
        case .rest(let text):
            self.init(token: "rest", detail: text)
        case .failure(let failure):
            self.init(token: "failure:" + failure.code, detail: "at '\(failure.path)'")
        case .skipped:
            self.init(token: "skipped", detail: "")
        case .runtimeError:
            self.init(token: "runtime-error", detail: "")
        case nil:
            self.init(token: "no-answer", detail: "a response without a result")
        }
    }

    /// Whether two answers agree: the same token and the same compared
    /// content, JSON compared as values.
    ///
    /// - Parameter other: The other answer.
    /// - Returns: True when they agree.
    public func agrees(with other: DifferentialAnswer) -> Bool {
        guard token == other.token else { return false }
        if let json, let otherJSON = other.json { return json.isEquivalent(to: otherJSON) }
        return detail == other.detail
    }

    /// Whether two answers to `request` agree: as ``agrees(with:)``, with two
    /// allowances for an `encode_frame` request that let the payload be
    /// compressed (compression 1 or 2, the payload at least the threshold),
    /// since the size of a compressed body is each compressor's to say and
    /// two compressors say it differently (docs/spec/testee-protocol.md,
    /// "Differential runs"):
    /// - a stored frame and a compressed one of the same kind and payload
    ///   agree (which body is smaller);
    /// - `limit.frame-size` agrees with a compressed frame and with any
    ///   failure of the payload's own checks, which come after the frame's
    ///   size (whether the compressed frame fits `maxFrameBytes`).
    ///
    /// - Parameters:
    ///   - other: The other answer.
    ///   - request: The request both answered.
    /// - Returns: True when they agree.
    public func agrees(with other: DifferentialAnswer, on request: TesteeRequest) -> Bool {
        if agrees(with: other) { return true }
        guard case .encodeFrame(let operation) = request.operation, operation.compression != 0,
            operation.payload.count >= Int(operation.threshold)
        else { return false }
        if token == Self.frameSizeToken || other.token == Self.frameSizeToken {
            let answer = token == Self.frameSizeToken ? other : self
            if let frame = answer.builtFrame { return frame.compression != 0 }
            return answer.token.hasPrefix("failure:") && !Self.checksBeforeFrameSize.contains(answer.token)
        }
        guard let frame = builtFrame, let otherFrame = other.builtFrame,
            frame.kind == otherFrame.kind, frame.payload == otherFrame.payload
        else { return false }
        return frame.compression == 0 || otherFrame.compression == 0
    }

    /// The token of a frame past `maxFrameBytes`.
    static let frameSizeToken = "failure:" + IMCodecError.Code.limitFrameSize.rawValue

    /// The failures of the checks an `encode_frame` makes before the frame's
    /// size, which do not depend on a compressor (docs/spec/testee-protocol.md,
    /// "Encoding frames: the order of checks", checks 1 to 4).
    static let checksBeforeFrameSize: Set<String> = [
        "failure:" + IMCodecError.Code.frameDictionary.rawValue,
        "failure:" + IMCodecError.Code.frameZstdUnavailable.rawValue, frameSizeToken,
    ]

    /// Large enough that a frame the testee built is read whatever the
    /// request's limits: its limits were the testee's to apply.
    static let generousLimits: DecodingLimits = {
        var limits = DecodingLimits()
        limits.maxFrameBytes = Int(UInt32.max)
        limits.maxInflatedBytes = Int(UInt32.max)
        limits.maxInflateRatio = Int(UInt32.max)
        return limits
    }()

    static func describe(_ frame: TesteeDecodedFrame) -> String {
        "kind=\(frame.kind.rawValue) compression=\(frame.compression) dictionary=\(frame.dictionaryID) payload="
            + Hex.encode(frame.payload)
    }
}

/// What groups disagreements: the operation and the two answers' tokens,
/// the reference's first (`json_to_payload payload payload`: both answered a
/// payload, and the payloads differ).
public struct DifferentialSignature: Sendable, Hashable, CustomStringConvertible {
    /// The testee-protocol operation, such as `decode_payload`.
    public var operation: String
    /// The reference implementation's ``DifferentialAnswer/token``.
    public var reference: String
    /// The other implementation's ``DifferentialAnswer/token``.
    public var other: String

    /// Creates a signature.
    ///
    /// - Parameters:
    ///   - operation: The operation.
    ///   - reference: The reference's token.
    ///   - other: The other implementation's token.
    public init(operation: String, reference: String, other: String) {
        self.operation = operation
        self.reference = reference
        self.other = other
    }

    /// The three words, separated by spaces, as failure lists write them.
    public var description: String { "\(operation) \(reference) \(other)" }
}
