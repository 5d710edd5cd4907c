import IMCodec
import IMCodecOracle
import IMCodecValidation
import SwiftProtobuf

/// The properties every decoder must keep on any input, shared by the
/// libFuzzer targets (FuzzTesting/) and by `swift test`, which replays the
/// inputs the fuzzers once failed on (FuzzTesting/FailCases/).
///
/// Each check returns nil when the property holds, or a description of the
/// finding. Rejecting an input is never a finding; crashing, hanging,
/// accepting what the reference rejects, or decoding to another value is.
public enum FuzzChecks {
    /// swift-protobuf options: a depth above anything the default merger
    /// budget admits (each layer is three protobuf levels, plus the profiles
    /// inside elems), yet low enough that its recursion fits the stack.
    static let oracleOptions: BinaryDecodingOptions = {
        var options = BinaryDecodingOptions()
        options.messageDepthLimit = 400
        return options
    }()

    /// The longest input whose re-encoding is compared with swift-protobuf's
    /// bytes. swift-protobuf's encoder recomputes the size of every nested
    /// message at each level above it, so its cost is depth × size: a
    /// 955-byte payload of 100 nested merger layers (some 300 protobuf
    /// levels, as deep as the default budget admits) took 52 ms to re-encode
    /// there under ASan, against under 2 ms for our decoder and encoder, and
    /// larger deep inputs would make the harness, not the codec, break the
    /// 100 ms bound. Past this length our re-encoding is read back by
    /// swift-protobuf and compared as a value (linear, see
    /// ``sameValue(_:_:)``); canonical bytes are still compared with the C
    /// reference.
    static let oracleBytesLimit = 256

    /// Whether two of swift-protobuf's messages hold the same value.
    ///
    /// `==` compares doubles as numbers, so a message holding a NaN (a
    /// location's latitude read from `7FF8000000000000`) is unequal to
    /// itself. Where `==` says no, the text format decides: it is linear like
    /// `==`, keeps unknown fields, and prints a NaN as `nan` on both sides.
    static func sameValue(_ a: Imcodec_V1_Message, _ b: Imcodec_V1_Message) -> Bool {
        a == b || a.textFormatString() == b.textFormatString()
    }

    /// What swift-protobuf says of an input; `nil` when it stopped at its
    /// depth limit and so has no verdict on the input's structure.
    static func oracleVerdict(_ input: [UInt8]) -> Imcodec_V1_Message?? {
        do {
            return .some(try Imcodec_V1_Message(serializedBytes: input, options: oracleOptions))
        } catch BinaryDecodingError.messageDepthLimit {
            return nil
        } catch {
            return .some(nil)
        }
    }

    /// Payload decoding against swift-protobuf and the C reference.
    ///
    /// Our decoder must accept exactly what swift-protobuf accepts (but for
    /// inputs past our decoding limits, which it does not have) and
    /// re-encode to the bytes it re-encodes to (past ``oracleBytesLimit``, to
    /// bytes it reads as the same value); an accepted value must
    /// re-encode to bytes that decode to the same value; the C reference must
    /// agree on acceptance, error code and path, and canonical bytes, except
    /// where it reports a value protobuf-c cannot represent, and its validator
    /// must report the findings of ``Validator`` in both profiles; and the
    /// envelope peek must agree with the decoder
    /// (``envelopeDifference(_:decoded:limits:)``).
    public static func payload(_ input: [UInt8]) -> String? {
        let verdict = oracleVerdict(input)
        let decoded: Result<IMCodec.Message, IMCodecError>
        do throws(IMCodecError) {
            decoded = .success(try IMCodec.Message(serializedBytes: input))
        } catch {
            decoded = .failure(error)
        }
        if let finding = input.withUnsafeBytes({ envelopeDifference($0, decoded: decoded) }) { return finding }
        let reference = ReferenceC.decodePayload(input)
        switch decoded {
        case .failure(let error):
            // swift-protobuf runs without our limits (depth, counts), so only
            // a structural rejection must match its verdict.
            if case .some(.some) = verdict, !error.code.rawValue.hasPrefix("limit.") {
                return "rejected with \(error.code) what swift-protobuf accepts"
            }
            if case .failure(let code, let path) = reference,
                code != error.code.rawValue || path != error.path.description
            {
                return "rejected with \(error.code) at \(error.path), the C reference with \(code) at \(path)"
            }
            if case .bytes = reference { return "rejected with \(error.code) what the C reference accepts" }
            return nil
        case .success(let value):
            let encoded = value.serializedBytes()
            guard let again = try? IMCodec.Message(serializedBytes: encoded), again.serializedBytes() == encoded
            else { return "the re-encoding does not decode to the same value" }
            switch verdict {
            case .some(.none): return "accepted what swift-protobuf rejects"
            case .some(.some(let oracle)):
                if input.count <= oracleBytesLimit {
                    guard let oracleBytes: [UInt8] = try? oracle.serializedBytes(), oracleBytes == encoded else {
                        return "re-encodes differently from swift-protobuf"
                    }
                } else {
                    guard let reread = try? Imcodec_V1_Message(serializedBytes: encoded, options: oracleOptions),
                        sameValue(reread, oracle)
                    else { return "re-encodes to bytes swift-protobuf reads as another value" }
                }
            case .none: break
            }
            switch reference {
            case .failure(let code, let path): return "the C reference rejects it with \(code) at \(path)"
            case .bytes(let bytes) where bytes != encoded: return "the C reference re-encodes it differently"
            case .bytes: return validatorDifference(.message(value), encoded)
            default: return nil
            }
        }
    }

    /// The Swift and C validators on one decoded value: the same findings, in
    /// the same order (docs/spec/validation.md, "Order"), in every profile.
    ///
    /// - Parameter swiftFindings: The Swift validator's findings by profile
    ///   name, when the caller has them already; a profile it leaves out is
    ///   validated here.
    static func validatorDifference(
        _ payload: FramePayload, _ bytes: [UInt8], swiftFindings: [String: [ValidationFinding]] = [:]
    ) -> String? {
        for profile in ValidationLimits.profileNames {
            guard let limits = ValidationLimits.profile(named: profile),
                let fromC = ReferenceC.validate(bytes, kind: payload.kind.rawValue, profile: profile)
            else { continue }
            let fromSwift = (swiftFindings[profile] ?? Validator.validate(payload, limits: limits)).map {
                "\($0.code) \($0.path) \($0.severity.rawValue) \($0.limit ?? 0) \($0.actual ?? 0)"
            }
            if fromSwift != fromC { return "the Swift and C validators disagree in the \(profile) profile" }
        }
        return nil
    }

    /// JSON decoding: an accepted document prints to JSON that reads back to
    /// the same value.
    public static func json(_ input: [UInt8]) -> String? {
        guard let value = try? IMCodec.Message(jsonUTF8: input) else { return nil }
        let printed = value.jsonString()
        guard let again = try? IMCodec.Message(jsonString: printed) else {
            return "printed JSON does not read back: \(printed)"
        }
        return again.serializedBytes() == value.serializedBytes() ? nil : "printed JSON reads to another value"
    }

    /// Frame decoding followed by validation: a decoded payload validates
    /// without crashing (in both profiles), re-frames to a frame that decodes
    /// to the same payload, the C reference agrees on acceptance, and the
    /// envelope peek agrees with the decoder (``frameEnvelopeDifference(_:decoded:)``).
    public static func frame(_ input: [UInt8]) -> String? {
        let decoder = FrameDecoder()
        let reference = ReferenceC.decodeFrame(input)
        let decoded: Result<FramePayload, IMCodecError>
        do throws(IMCodecError) {
            decoded = .success(try decoder.decode(input))
        } catch {
            decoded = .failure(error)
        }
        if let finding = frameEnvelopeDifference(input, decoded: decoded) { return finding }
        let payload: FramePayload
        do throws(IMCodecError) {
            payload = try decoded.get()
        } catch {
            switch reference {
            case .bytes: return "rejected with \(error.code) what the C reference accepts"
            case .failure(let code, let path) where code != error.code.rawValue || path != error.path.description:
                return "rejected with \(error.code) at \(error.path), the C reference with \(code) at \(path)"
            default: return nil
            }
        }
        switch reference {
        case .failure(let code, let path): return "the C reference rejects it with \(code) at \(path)"
        case .bytes(let bytes) where bytes != payload.serializedBytes():
            return "the C reference decodes another payload"
        default: break
        }
        _ = Validator.validate(payload, limits: .sdkGuide)
        _ = Validator.validate(payload, limits: .current)
        let bytes = payload.serializedBytes()
        // Writer within reader: what the decoder accepted, an encoder with
        // its limits frames, and the frame decodes to the same payload.
        let reframed: [UInt8]
        do {
            reframed = try FrameEncoder(limits: decoder.limits).encode(payload)
        } catch {
            return "an encoder with the decoder's limits refuses the decoded payload: \(error)"
        }
        guard let again = try? decoder.decode(reframed), again.serializedBytes() == bytes else {
            return "the re-framed payload decodes differently"
        }
        // The same with zstd and its dictionary, and through the C reference.
        // Level 1: digesting dictionary 4 takes about 40 µs there against
        // 500 µs at level 3, once per input.
        if FrameCompression.zstd.isAvailable {
            let zstdEncoder = FrameEncoder(policy: .zstd(level: 1), limits: decoder.limits)
            guard let zstdFrame = try? zstdEncoder.encode(payload) else {
                return "a zstd encoder with the decoder's limits refuses the decoded payload"
            }
            guard let again = try? decoder.decode(zstdFrame), again.serializedBytes() == bytes else {
                return "the payload re-framed with zstd decodes differently"
            }
            // As for the input frame: a value protobuf-c cannot hold is
            // `unsupported` there, not a disagreement.
            switch ReferenceC.decodeFrame(zstdFrame) {
            case .failure(let code, let path):
                return "the C reference rejects the zstd re-framed payload with \(code) at \(path)"
            case .bytes(let fromC) where fromC != bytes:
                return "the C reference decodes the zstd re-framed payload differently"
            default: break
            }
        }
        return nil
    }

    /// Streaming: the input, cut into chunks whose sizes the first bytes
    /// choose, yields exactly the frames (or the error) the same input yields
    /// when given to the reader whole.
    public static func stream(_ input: [UInt8]) -> String? {
        guard input.count >= 2 else { return nil }
        let sizes = [1 + Int(input[0] & 0x3F), 1 + Int(input[1])]
        let stream = Array(input.dropFirst(2))
        func read(chunked: Bool) -> ([[UInt8]], String?) {
            let reader = FrameReader()
            var payloads: [[UInt8]] = []
            var offset = 0
            var turn = 0
            repeat {
                let size = chunked ? sizes[turn % 2] : stream.count
                turn += 1
                let end = min(stream.count, offset + size)
                reader.append(stream[offset..<end])
                offset = end
                do throws(IMCodecError) {
                    while let payload = try reader.nextPayload() { payloads.append(payload.serializedBytes()) }
                } catch {
                    return (payloads, error.code.rawValue)
                }
            } while offset < stream.count
            return (payloads, nil)
        }
        let whole = read(chunked: false)
        let chunked = read(chunked: true)
        return whole.0 == chunked.0 && whole.1 == chunked.1
            ? nil
            : "chunked reading differs: \(chunked.0.count) frames \(chunked.1 ?? "ok") against \(whole.0.count) \(whole.1 ?? "ok")"
    }
}
