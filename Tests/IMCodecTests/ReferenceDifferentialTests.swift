import IMCodec
import IMCodecReference
import IMCodecTestSupport
import Testing

/// The Swift library against the C reference, in process, on the generated
/// population: payloads and frames written by one decode in the other to the
/// same canonical bytes, which is equality of the messages.
@Suite struct ReferenceDifferentialTests {
    enum Outcome: Equatable {
        case bytes([UInt8])
        case failure(String)
        case unsupported
    }

    func outcome(_ status: imcodec_ref_status, _ out: UnsafeMutablePointer<UInt8>?, _ count: Int,
                 _ error: inout imcodec_ref_error) -> Outcome {
        switch status {
        case IMCODEC_REF_OK: return .bytes(out.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? [])
        case IMCODEC_REF_UNSUPPORTED: return .unsupported
        default: return .failure(String(cString: imcodec_ref_error_code(&error)))
        }
    }

    func cDecodePayload(_ bytes: [UInt8], kind: imcodec_ref_kind) -> Outcome {
        var out: UnsafeMutablePointer<UInt8>?
        var count = 0
        var error = imcodec_ref_error()
        let status = bytes.withUnsafeBufferPointer {
            imcodec_ref_decode_payload(kind, $0.baseAddress, $0.count, nil, &out, &count, &error)
        }
        defer { imcodec_ref_free(out) }
        return outcome(status, out, count, &error)
    }

    func cDecodeFrame(_ bytes: [UInt8], codec: OpaquePointer?) -> Outcome {
        var out: UnsafeMutablePointer<UInt8>?
        var count = 0
        var error = imcodec_ref_error()
        let status = bytes.withUnsafeBufferPointer {
            imcodec_ref_decode_frame(codec, $0.baseAddress, $0.count, nil, nil, nil, nil, &out, &count, &error)
        }
        defer { imcodec_ref_free(out) }
        return outcome(status, out, count, &error)
    }

    func cEncodeFrame(_ payload: [UInt8], kind: imcodec_ref_kind, dictionary: UInt32, codec: OpaquePointer?)
        -> Outcome
    {
        var out: UnsafeMutablePointer<UInt8>?
        var count = 0
        var error = imcodec_ref_error()
        let status = payload.withUnsafeBufferPointer {
            imcodec_ref_encode_frame(
                codec, kind, $0.baseAddress, $0.count, IMCODEC_REF_COMPRESSION_DEFLATE, 64, 6, dictionary,
                &out, &count, &error)
        }
        defer { imcodec_ref_free(out) }
        return outcome(status, out, count, &error)
    }

    @Test func swiftAndCAgreeOnPayloadsAndFramesOfTheGeneratedPopulation() throws {
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
        for index in 0..<30_000 where agreed < 10_000 {
            let payload: FramePayload
            let kind: imcodec_ref_kind
            switch index % 10 {
            case 0:
                payload = .event(Event.arbitrary(using: &generator))
                kind = IMCODEC_REF_KIND_EVENT
            case 1 where index % 50 == 1:
                payload = .batch(MessageBatch.arbitrary(using: &generator))
                kind = IMCODEC_REF_KIND_BATCH
            default:
                payload = .message(Message.arbitrary(using: &generator))
                kind = IMCODEC_REF_KIND_MESSAGE
            }
            let bytes = payload.serializedBytes()

            // Swift payload → C: the same canonical bytes back.
            switch cDecodePayload(bytes, kind: kind) {
            case .unsupported:
                unrepresentable += 1
                continue
            case .failure(let code):
                differences.append("\(index): C rejects a Swift payload with \(code)")
                continue
            case .bytes(let canonical) where canonical != bytes:
                differences.append("\(index): C re-encodes a Swift payload differently")
            default: break
            }

            // Swift frames (stored and deflated with the dictionary) → C.
            for encoder in [plain, withDictionary] {
                if cDecodeFrame(encoder.encode(payload), codec: codec) != .bytes(bytes) {
                    differences.append("\(index): C decodes a Swift frame differently")
                }
            }

            // C frames → Swift: the same message.
            guard case .bytes(let frame) = cEncodeFrame(bytes, kind: kind, dictionary: 1, codec: codec) else {
                differences.append("\(index): C cannot frame a valid payload")
                continue
            }
            do {
                let decoded = try decoder.decode(frame)
                if decoded.serializedBytes() != bytes || decoded.kind.rawValue != UInt8(kind.rawValue) {
                    differences.append("\(index): Swift decodes a C frame to another value")
                }
            } catch {
                differences.append("\(index): Swift rejects a C frame with \(error.code)")
            }
            agreed += 1
        }
        #expect(differences.isEmpty, "\(differences.count) differences: \(differences.prefix(5))")
        #expect(agreed == 10_000)
        print("Swift/C differential: \(agreed) values agree as payloads and frames both ways; "
              + "\(unrepresentable) hold values protobuf-c cannot represent (NUL in a string, -0.0)")
    }
}
