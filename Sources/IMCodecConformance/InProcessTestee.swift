import Foundation
import IMCodec
import IMCodecREST
import IMCodecTestee
import IMCodecValidation

/// The imcodec Swift library as a testee: answers testee-protocol requests by
/// calling the library in this process.
///
/// The same handler serves `imcodec testee` over standard input and output
/// (``TesteeServer``), so an in-process run and a run through the protocol
/// exercise the same code. It never traps on a request: whatever the bytes,
/// the answer is a result, a `failure` with the library's error code, or a
/// `runtime_error` for a request that makes no sense (an unknown kind, a zlib
/// level above 9).
public final class InProcessTestee: Testee {
    public let name = "in-process (imcodec Swift library)"

    /// Creates the testee.
    public init() {}

    public func respond(to request: TesteeRequest, deadline: ContinuousClock.Instant?) -> TesteeOutcome {
        .response(handle(request))
    }

    public func finish() -> String? { nil }

    /// Answers one request.
    ///
    /// - Parameter request: The request.
    /// - Returns: Its response; never throws or traps.
    public func handle(_ request: TesteeRequest) -> TesteeResponse {
        var response = TesteeResponse()
        do {
            let limits = try Self.limits(request)
            switch request.operation {
            case .decodePayload(let operation):
                let kind = try Self.frameKind(operation.kind)
                let value = try decodePayload(kind, operation.payload, limits)
                response.result = .payload(value.serializedBytes())
            case .decodeFrame(let operation):
                response.result = .frame(try decodeFrame(operation.frame, limits))
            case .encodeFrame(let operation):
                response.result = .frameBytes(try encodeFrame(operation, limits))
            case .decodeStream(let operation):
                response.result = .stream(decodeStream(operation.chunks, limits))
            case .validate(let operation):
                response = try validate(operation, limits)
            case .jsonToPayload(let operation):
                let kind = try Self.frameKind(operation.kind)
                let value = try FramePayload(kind: kind, jsonString: operation.json, limits: limits)
                response.result = .payload(value.serializedBytes())
            case .payloadToJson(let operation):
                let kind = try Self.frameKind(operation.kind)
                response.result = .json(try decodePayload(kind, operation.payload, limits).jsonString())
            case .restToPayload(let operation):
                response.result = .payload(try restToPayload(operation, limits).serializedBytes())
            case .payloadToRest(let operation):
                let kind = try Self.frameKind(operation.kind)
                response.result = .rest(try RESTCodec.export(decodePayload(kind, operation.payload, limits)))
            case .validateRest(let operation):
                response = try validateREST(operation, limits)
            case nil:
                response.result = .runtimeError("the request names no operation")
            }
        } catch let error as IMCodecError {
            response.result = .failure(Self.failure(error))
        } catch let error as BadRequest {
            response.result = .runtimeError(error.reason)
        } catch {
            response.result = .runtimeError("\(error)")
        }
        return response
    }

    /// A request the testee cannot carry out as asked.
    struct BadRequest: Error {
        var reason: String
    }

    static func failure(_ error: IMCodecError) -> TesteeFailure {
        var failure = TesteeFailure()
        failure.code = error.code.rawValue
        failure.path = error.path.description
        failure.reason = error.reason
        return failure
    }

    /// The frame kind of a request's payload kind: the testee protocol
    /// numbers the kinds as frames do.
    static func frameKind(_ kind: TesteePayloadKind) throws -> FrameKind {
        guard let number = UInt8(exactly: kind.rawValue), let frameKind = FrameKind(rawValue: number) else {
            throw BadRequest(reason: "payload kind \(kind.rawValue) is not message, batch or event")
        }
        return frameKind
    }

    /// The testee protocol's payload kind of a frame kind: the same number.
    static func payloadKind(_ kind: FrameKind) -> TesteePayloadKind {
        TesteePayloadKind(rawValue: Int32(kind.rawValue))
    }

    /// The request's limits; 0 (or no limits at all) means the default.
    static func limits(_ request: TesteeRequest) throws -> DecodingLimits {
        request.limits?.applied(to: DecodingLimits()) ?? DecodingLimits()
    }

    func decodePayload(_ kind: FrameKind, _ bytes: [UInt8], _ limits: DecodingLimits) throws(IMCodecError)
        -> FramePayload
    {
        try bytes.withUnsafeBytes { raw in
            Result { () throws(IMCodecError) in try FramePayload(kind: kind, serializedBytes: raw, limits: limits) }
        }.get()
    }

    func decodedFrame(_ frame: Frame, _ limits: DecodingLimits) throws(IMCodecError) -> TesteeDecodedFrame {
        let value = try FramePayload(decoding: frame, limits: limits)
        var decoded = TesteeDecodedFrame()
        decoded.kind = Self.payloadKind(frame.header.kind)
        decoded.compression = UInt32(frame.header.compression.rawValue)
        decoded.dictionaryID = frame.header.dictionaryID ?? 0
        decoded.payload = value.serializedBytes()
        return decoded
    }

    func decodeFrame(_ bytes: [UInt8], _ limits: DecodingLimits) throws(IMCodecError) -> TesteeDecodedFrame {
        let frame = try FrameDecoder(limits: limits).decodeFrame(bytes)
        return try decodedFrame(frame, limits)
    }

    func encodeFrame(_ operation: TesteeEncodeFrameRequest, _ limits: DecodingLimits) throws -> [UInt8] {
        let kind = try Self.frameKind(operation.kind)
        let algorithm: CompressionPolicy.Algorithm = operation.compression == 2 ? .zstd : .deflate
        // The level is the compressor's: with compression 0 it is not looked at.
        guard operation.compression == 0 || operation.level <= algorithm.levels.upperBound else {
            throw BadRequest(reason: "level \(operation.level) is not 0...9 (0...19 for zstd)")
        }
        var dictionary: PresetDictionary?
        if operation.dictionaryID != 0 {
            guard let known = PresetDictionary(id: operation.dictionaryID) else {
                throw IMCodecError(.frameDictionary, reason: "no dictionary has id \(operation.dictionaryID)")
            }
            dictionary = known
        }
        let policy: CompressionPolicy
        switch operation.compression {
        case 0:
            policy = .disabled
        case 1, 2:
            guard algorithm.frameCompression.isAvailable else {
                throw IMCodecError(.frameZstdUnavailable, reason: "zstd asked for, and this build has no zstd")
            }
            // Level 0 asks for the implementation's default.
            policy = CompressionPolicy(
                algorithm: algorithm, level: operation.level == 0 ? nil : Int(operation.level),
                threshold: Int(operation.threshold), dictionary: dictionary)
        default:
            throw BadRequest(reason: "compression \(operation.compression) is not 0, 1 or 2")
        }
        // Refused as a reader with these limits would refuse the frame: its
        // sizes first, then its payload. What is framed is the decoded
        // value's canonical encoding.
        let encoder = FrameEncoder(policy: policy, limits: limits)
        let payload = operation.payload
        _ = try encoder.encodeFrame(payload: payload, kind: kind)
        return try encoder.encode(decodePayload(kind, payload, limits))
    }

    func decodeStream(_ chunks: [[UInt8]], _ limits: DecodingLimits) -> TesteeStreamResult {
        var result = TesteeStreamResult()
        let reader = FrameReader(limits: limits)
        do throws(IMCodecError) {
            for chunk in chunks {
                reader.append(chunk)
                while let frame = try reader.next() {
                    result.frames.append(try decodedFrame(frame, limits))
                }
            }
            result.incompleteTail = !reader.isAtFrameBoundary
        } catch {
            result.failure = Self.failure(error)
        }
        return result
    }
}
