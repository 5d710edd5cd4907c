import Foundation
import IMCodec
import IMCodecFoundation
import IMCodecTestSupport
import Testing

/// `Data` in and out of the frame and payload APIs, and as the chunks of an
/// asynchronous stream: each overload gives what the byte form gives.
@Suite struct DataTests {
    static let message = Message(
        msgID: "m1", sender: "alice", receiver: "bob", elems: [.text("hello, how are you doing today? 你好")])

    @Test func dataOverloadsReadWhatTheByteFormsRead() throws {
        let frame = try FrameEncoder().encode(.message(Self.message))
        #expect(try FrameDecoder().decode(Data(frame)) == .message(Self.message))
        #expect(try FrameDecoder().decode(Message.self, from: Data(frame)) == Self.message)
        let decodedFrame = try FrameDecoder().decodeFrame(Data(frame))
        #expect(decodedFrame == (try FrameDecoder().decodeFrame(frame)))
        let reader = FrameReader()
        reader.append(Data(frame + frame))
        #expect(try reader.nextPayload()?.message == Self.message)
        #expect(try reader.nextPayload()?.message == Self.message)
        #expect(try reader.nextPayload() == nil)
        let payload = Self.message.serializedBytes()
        #expect(try Message(serializedData: Data(payload)) == Self.message)
        #expect(try FramePayload(kind: .message, serializedData: Data(payload)) == .message(Self.message))
        #expect(throws: IMCodecError(.frameTruncated, reason: "")) { try FrameDecoder().decode(Data(frame.dropLast())) }
        #expect(throws: IMCodecError(.frameUnexpectedKind, reason: "")) {
            try FrameDecoder().decode(Event.self, from: Data(frame))
        }
    }

    /// A `Data` that is a slice of a larger one starts at an index other than
    /// 0; the overloads read its own bytes, not its storage's.
    @Test func dataSlicesAreReadFromTheirOwnStart() throws {
        let frame = try FrameEncoder().encode(.message(Self.message))
        let whole = Data([0xFF, 0xFF] + frame + [0xFF])
        let slice = whole[2..<(2 + frame.count)]
        #expect(slice.startIndex == 2)
        #expect(try FrameDecoder().decode(slice) == .message(Self.message))
        #expect(try Message(serializedData: Data(Self.message.serializedBytes())[...]) == Self.message)
    }

    @Test func dataOverloadsWriteWhatTheByteFormsWrite() throws {
        let encoder = FrameEncoder()
        #expect(try encoder.encodeData(.message(Self.message)) == Data(try encoder.encode(.message(Self.message))))
        #expect(try encoder.encodeData(Self.message) == Data(try encoder.encode(Self.message)))
        #expect(Self.message.serializedData() == Data(Self.message.serializedBytes()))
        #expect(FramePayload.message(Self.message).serializedData() == Data(Self.message.serializedBytes()))
        #expect(Self.message.jsonUTF8Data() == Data(Self.message.jsonUTF8()))
    }

    /// The first user: an `AsyncStream<Data>` fed to
    /// `framePayloads()`, split anywhere.
    @Test func anAsyncStreamOfDataFeedsFramePayloads() async throws {
        let messages = (0..<5).map { Message(from: "u\($0)", to: "bob", elems: [.text("message \($0) 你好")]) }
        var bytes: [UInt8] = []
        for message in messages { try FrameEncoder().encode(message, appendingTo: &bytes) }
        for size in [1, 7, 64, bytes.count] {
            let chunks = AsyncStream<Data> { continuation in
                for start in stride(from: 0, to: bytes.count, by: size) {
                    continuation.yield(Data(bytes[start..<min(start + size, bytes.count)]))
                }
                continuation.finish()
            }
            var read: [Message] = []
            for try await payload in chunks.framePayloads() {
                read.append(try #require(payload.message))
            }
            #expect(read == messages, "chunks of \(size) bytes")
        }
    }

    @Test func localizedDescriptionIsTheErrorsDescription() {
        let error = IMCodecError(.frameChecksum, reason: "the checksum does not match")
        #expect((error as Error).localizedDescription == "frame.checksum: the checksum does not match")
        #expect(error.errorDescription == error.description)
        let located = IMCodecError(.frameChecksum, reason: "the checksum does not match").inFrame(2, at: 74)
        #expect(
            (located as Error).localizedDescription
                == "frame.checksum: the checksum does not match [frame 2 at byte 74]")
    }
}
