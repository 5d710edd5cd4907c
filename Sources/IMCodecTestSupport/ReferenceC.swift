import IMCodecReference

/// The C reference (`Sources/IMCodecReference`) called in process, with its
/// answers as Swift values, for differential tests and fuzz checks.
public enum ReferenceC {
    /// What the C reference answered.
    public enum Outcome: Equatable, Sendable {
        /// Success: the canonical payload, or the frame written.
        case bytes([UInt8])
        /// The input was rejected with this code and path.
        case failure(code: String, path: String)
        /// The input is valid but protobuf-c cannot represent its value.
        case unsupported
    }

    /// The C library's kind for a frame kind number (1 message, 2 batch, 3 event).
    public static func kind(_ number: UInt8) -> imcodec_ref_kind {
        imcodec_ref_kind(rawValue: UInt32(number))
    }

    static func outcome(
        _ status: imcodec_ref_status, _ out: UnsafeMutablePointer<UInt8>?, _ count: Int,
        _ error: inout imcodec_ref_error
    ) -> Outcome {
        switch status {
        case IMCODEC_REF_OK:
            return .bytes(out.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? [])
        case IMCODEC_REF_ERROR:
            return .failure(
                code: String(cString: imcodec_ref_error_code(&error)),
                path: String(cString: imcodec_ref_error_path(&error)))
        default:
            return .unsupported
        }
    }

    /// Decodes a payload and answers its canonical re-encoding.
    public static func decodePayload(_ bytes: [UInt8], kind: UInt8 = 1) -> Outcome {
        var out: UnsafeMutablePointer<UInt8>?
        var count = 0
        var error = imcodec_ref_error()
        let status = bytes.withUnsafeBufferPointer {
            imcodec_ref_decode_payload(Self.kind(kind), $0.baseAddress, $0.count, nil, &out, &count, &error)
        }
        defer { imcodec_ref_free(out) }
        return outcome(status, out, count, &error)
    }

    /// One finding of the C validator, as `code path severity limit actual`.
    public typealias Finding = String

    /// Decodes a payload and validates it with the C reference under a
    /// profile; `nil` when it does not decode or protobuf-c cannot
    /// represent it.
    ///
    /// - Parameters:
    ///   - bytes: The payload.
    ///   - kind: 1 message, 2 batch, 3 event.
    ///   - profile: `sdk-guide` or `current`.
    /// - Returns: Every finding, in order.
    public static func validate(_ bytes: [UInt8], kind: UInt8 = 1, profile: String) -> [Finding]? {
        guard let limits = imcodec_ref_validation_profile(profile) else { return nil }
        var findings = imcodec_ref_findings()
        var error = imcodec_ref_error()
        let status = bytes.withUnsafeBufferPointer {
            imcodec_ref_validate_payload(Self.kind(kind), $0.baseAddress, $0.count, nil, limits, &findings, &error)
        }
        defer { imcodec_ref_findings_free(&findings) }
        guard status == IMCODEC_REF_OK else { return nil }
        return (0..<findings.count).map { index in
            let item = findings.items[index]
            return "\(String(cString: item.code)) \(String(cString: item.path)) "
                + "\(item.warning != 0 ? "warning" : "error") \(item.limit) \(item.actual)"
        }
    }

    /// Decodes one frame and answers its canonical payload.
    public static func decodeFrame(_ bytes: [UInt8], codec: OpaquePointer? = nil) -> Outcome {
        var out: UnsafeMutablePointer<UInt8>?
        var count = 0
        var error = imcodec_ref_error()
        let status = bytes.withUnsafeBufferPointer {
            imcodec_ref_decode_frame(codec, $0.baseAddress, $0.count, nil, nil, nil, nil, &out, &count, &error)
        }
        defer { imcodec_ref_free(out) }
        return outcome(status, out, count, &error)
    }

    /// Frames a payload, deflating it from `threshold` bytes on.
    public static func encodeFrame(
        _ payload: [UInt8], kind: UInt8, threshold: UInt64 = 64, dictionary: UInt32 = 0, codec: OpaquePointer? = nil
    ) -> Outcome {
        var out: UnsafeMutablePointer<UInt8>?
        var count = 0
        var error = imcodec_ref_error()
        let status = payload.withUnsafeBufferPointer {
            imcodec_ref_encode_frame(
                codec, Self.kind(kind), $0.baseAddress, $0.count, IMCODEC_REF_COMPRESSION_DEFLATE, threshold, 6,
                dictionary, nil, &out, &count, &error)
        }
        defer { imcodec_ref_free(out) }
        return outcome(status, out, count, &error)
    }
}
