import IMCodec
import IMCodecTestSupport
import IMCodecTestee
import Testing

@testable import IMCodecConformance

/// Every decode-stream vector read through the asynchronous frame sequence,
/// by both of its reading methods (README, "Apple platforms"), and judged
/// by the same check as a testee's answer: the in-process runner reads
/// streams with a `FrameReader`, so the asynchronous paths would otherwise
/// meet no vector.
@Suite struct AsyncStreamVectorTests {
    struct NotAStreamRequest: Error {}

    /// The answer a testee gives to `request`, read through the asynchronous
    /// sequence by `path` instead of a `FrameReader`.
    static func answer(_ request: TesteeRequest, via path: AsyncPath) async throws -> TesteeResponse {
        guard case .decodeStream(let operation) = request.operation else { throw NotAStreamRequest() }
        let limits = request.limits?.applied(to: DecodingLimits()) ?? DecodingLimits()
        var result = TesteeStreamResult()
        var iterator = asyncChunkStream(operation.chunks).frames(limits: limits).makeAsyncIterator()
        do {
            while let frame = try await iterator.next(via: path) {
                let payload = try FramePayload(decoding: frame, limits: limits)
                var decoded = TesteeDecodedFrame()
                decoded.kind = InProcessTestee.payloadKind(frame.header.kind)
                decoded.compression = UInt32(frame.header.compression.rawValue)
                decoded.dictionaryID = frame.header.dictionaryID ?? 0
                decoded.payload = payload.serializedBytes()
                result.frames.append(decoded)
            }
        } catch {
            // Every error of the loop is an IMCodecError (the iterator's and
            // the payload decoder's typed throws). The testee protocol answers a stream that ends inside a frame
            // with `incomplete_tail`; the sequence throws frame.truncated then.
            if error.code == .frameTruncated {
                result.incompleteTail = true
            } else {
                result.failure = InProcessTestee.failure(error)
            }
        }
        var response = TesteeResponse()
        response.result = .stream(result)
        return response
    }

    @Test(arguments: AsyncPath.allCases)
    func everyStreamVectorPassesThroughTheAsyncSequence(path: AsyncPath) async throws {
        let files = try VectorLoader.loadDirectory(repositoryRoot + "/Vectors")
        var checked = 0
        var failures: [String] = []
        for file in files {
            for vector in file.cases {
                for check in CaseCheck.checks(for: vector) {
                    guard case .decodeStream = check.request.operation else { continue }
                    checked += 1
                    if case .failed(let reason, _) = check.verify(try await Self.answer(check.request, via: path)) {
                        failures.append("\(vector.id): \(reason)")
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) fail:\n\(failures.prefix(20).joined(separator: "\n"))")
        #expect(checked >= 20, "\(checked) stream checks")
        print("stream vectors through the async sequence's \(path.rawValue) path: \(checked) checks")
    }
}
