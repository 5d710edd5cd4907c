import IMCodec
import IMCodecTestSupport
import IMCodecTraffic
import Testing

@testable import IMCodecConformance

/// The envelope peek (`MessageEnvelope`, `FrameDecoder.peekEnvelope`) against
/// the full decoder: the same routing fields wherever the message decodes,
/// and the same error, code and path, wherever the decoder's error lies in
/// bytes the peek reads (`FuzzChecks.peekReads`).
@Suite struct EnvelopeTests {
    static let files = Result { try VectorLoader.loadDirectory(repositoryRoot + "/Vectors") }

    static func limits(_ vector: VectorCase) -> DecodingLimits {
        CaseCheck.limits(vector.limits).applied(to: DecodingLimits())
    }

    static func decode(_ payload: [UInt8], limits: DecodingLimits = .default) -> Result<Message, IMCodecError> {
        do throws(IMCodecError) {
            return .success(try Message(serializedBytes: payload, limits: limits))
        } catch {
            return .failure(error)
        }
    }

    static func peek(_ payload: [UInt8], limits: DecodingLimits = .default) -> Result<MessageEnvelope, IMCodecError> {
        do throws(IMCodecError) {
            return .success(try MessageEnvelope(serializedBytes: payload, limits: limits))
        } catch {
            return .failure(error)
        }
    }

    @Test func everyMessagePayloadVectorPeeksAsItDecodes() throws {
        var decoded = 0
        var sameError = 0
        for file in try Self.files.get() {
            for vector in file.cases where vector.operation == .payload && vector.kind == .message {
                // A case read from JSON has its canonical payload as the expectation.
                guard let payload = vector.input.payload ?? vector.expected.payload else { continue }
                let limits = Self.limits(vector)
                let result = Self.decode(payload, limits: limits)
                let finding = payload.withUnsafeBytes {
                    FuzzChecks.envelopeDifference($0, decoded: result, limits: limits)
                }
                #expect(finding == nil, "\(vector.id): \(finding ?? "")")
                switch result {
                case .success: decoded += 1
                case .failure(let error) where FuzzChecks.peekReads(error) == true: sameError += 1
                case .failure: break
                }
            }
        }
        // Not vacuous: hundreds of messages, and malformed payloads whose
        // problem is in what the peek reads.
        #expect(decoded > 300 && sameError > 40, "\(decoded) decoded, \(sameError) errors the peek reads")
    }

    @Test func everyFrameVectorPeeksAsItDecodes() throws {
        var frames = 0
        var frameErrors = 0
        for file in try Self.files.get() {
            for vector in file.cases where vector.operation == .decodeFrame {
                guard let frame = vector.input.frame else { continue }
                let limits = Self.limits(vector)
                let decoded: Result<FramePayload, IMCodecError>
                do throws(IMCodecError) {
                    decoded = .success(try FrameDecoder(limits: limits).decode(frame))
                } catch {
                    decoded = .failure(error)
                    if error.code.rawValue.hasPrefix("frame.") { frameErrors += 1 }
                }
                let finding = FuzzChecks.frameEnvelopeDifference(frame, decoded: decoded, limits: limits)
                #expect(finding == nil, "\(vector.id): \(finding ?? "")")
                frames += 1
            }
        }
        #expect(frames > 200 && frameErrors > 50, "\(frames) frames, \(frameErrors) frame errors")
    }

    @Test func theTrafficPeeksToTheEnvelopeOfEveryMessageUnderEveryPolicy() throws {
        let corpus = Corpus(count: 300)
        let policies: [CompressionPolicy] =
            [.disabled, .default, .deflateWithDictionary] + (FrameCompression.zstd.isAvailable ? [.zstd()] : [])
        let decoder = FrameDecoder()
        for policy in policies {
            let encoder = FrameEncoder(policy: policy)
            for message in corpus.messages {
                let frame = try encoder.encode(message)
                let envelope = try decoder.peekEnvelope(frame)
                #expect(envelope.kind == .message)
                #expect(envelope.message == MessageEnvelope(message), "\(policy)")
                #expect(try MessageEnvelope(serializedBytes: message.serializedBytes()) == MessageEnvelope(message))
            }
        }
        let merger = try MessageEnvelope(serializedBytes: corpus.merger.serializedBytes())
        #expect(merger == MessageEnvelope(corpus.merger) && merger.elemCount == corpus.merger.elems.count)
    }

    @Test func everyStrictPrefixOfAPayloadPeeksExactlyAsItDecodes() {
        for message in Corpus(count: 60).messages {
            let payload = message.serializedBytes()
            for end in 0..<payload.count {
                let prefix = Array(payload[..<end])
                let decoded = Self.decode(prefix).map(MessageEnvelope.init)
                let peeked = Self.peek(prefix)
                switch (decoded, peeked) {
                case (.success(let a), .success(let b)): #expect(a == b, "prefix of \(end) bytes")
                case (.failure(let a), .failure(let b)):
                    #expect(a.code == b.code && a.path == b.path, "prefix of \(end): \(a) against \(b)")
                default: Issue.record("prefix of \(end) bytes: decoded \(decoded), peeked \(peeked)")
                }
            }
        }
    }

    @Test func generatedValuesWithUnknownFieldsPeekAsTheyDecode() throws {
        var generator = ValueGenerator(seed: 0xE1E7, maxLayers: 2)
        for _ in 0..<2_000 {
            let message = Message.arbitrary(using: &generator)
            let payload = message.serializedBytes()
            #expect(try MessageEnvelope(serializedBytes: payload) == MessageEnvelope(message))
        }
    }

    @Test func stringsNotAskedForAreNeitherReadNorChecked() throws {
        // sender (field 2) holds ff fe, which is not UTF-8; receiver (field 3) is "bob".
        let payload: [UInt8] = [0x12, 0x02, 0xFF, 0xFE, 0x1A, 0x03, 0x62, 0x6F, 0x62]
        let decodeError = try #require(throws: IMCodecError.self) { try Message(serializedBytes: payload) }
        #expect(decodeError.code == .payloadUTF8 && decodeError.path.description == "sender")
        let peekError = try #require(throws: IMCodecError.self) { try MessageEnvelope(serializedBytes: payload) }
        #expect(peekError.code == .payloadUTF8 && peekError.path.description == "sender")
        let destination = try MessageEnvelope(serializedBytes: payload, fields: .destination)
        #expect(destination.receiver == "bob" && destination.sender.isEmpty && !destination.isGroup)
    }

    @Test func aRepeatedFieldPastItsLimitFailsAsInTheDecoder() throws {
        var limits = DecodingLimits()
        limits.maxElems = 3
        limits.maxRepeated = 2
        let elems = Message(from: "a", to: "b", elems: Array(repeating: .text("x"), count: 4))
        let mentions = Message(from: "a", toGroup: "g", elems: [.text("x")])
        var mentioned = mentions
        mentioned.atUserList = ["u1", "u2", "u3"]
        for (message, path) in [(elems, "elems[3]"), (mentioned, "atUserList[2]")] {
            let payload = message.serializedBytes()
            let decodeError = try #require(throws: IMCodecError.self) {
                try Message(serializedBytes: payload, limits: limits)
            }
            let peekError = try #require(throws: IMCodecError.self) {
                try MessageEnvelope(serializedBytes: payload, limits: limits)
            }
            #expect(decodeError.path.description == path && peekError.path.description == path)
            #expect(decodeError.code == peekError.code && peekError.observed == decodeError.observed)
        }
        limits.maxElems = 4
        #expect(try MessageEnvelope(serializedBytes: elems.serializedBytes(), limits: limits).elemCount == 4)
    }

    @Test func batchAndEventFramesPeekToTheirHeaderAlone() throws {
        let batch = MessageBatch(messages: [Message(from: "a", to: "b", elems: [.text("hi")])])
        let decoder = FrameDecoder()
        for payload in [FramePayload.batch(batch), .event(Event())] {
            let frame = try FrameEncoder().encode(payload)
            let envelope = try decoder.peekEnvelope(frame)
            #expect(envelope.kind == payload.kind && envelope.message == nil)
            #expect(envelope.header == (try decoder.decodeFrame(frame)).header)
        }
    }

    @Test func aCorruptedCompressedFrameFailsItsChecksumAsInTheDecoder() throws {
        let message = Message(from: "alice", toGroup: "room", elems: [.text(String(repeating: "hello ", count: 80))])
        var frame = try FrameEncoder(policy: CompressionPolicy(threshold: 0, level: 6, dictionary: nil)).encode(message)
        let decoder = FrameDecoder()
        #expect(try decoder.decodeFrame(frame).header.compression == .deflate)
        #expect(try decoder.peekEnvelope(frame).message == MessageEnvelope(message))
        // The CRC-32 sits in the header's last four bytes: flip one of its bits.
        let header = try decoder.decodeFrame(frame).header
        frame[header.encodedLength - 1] ^= 0x01
        let decodeError = try #require(throws: IMCodecError.self) { try decoder.decode(frame) }
        let peekError = try #require(throws: IMCodecError.self) { try decoder.peekEnvelope(frame) }
        #expect(decodeError.code == .frameChecksum && peekError.code == .frameChecksum)
    }
}
