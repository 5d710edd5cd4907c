import IMCodec
import Testing

/// `WireMessage`'s public members reach the package-level codec by a cast:
/// code generic over `WireMessage` or `FrameContent`, where the cast is made
/// at run time, encodes and decodes as code that names the type does.
@Suite struct WireMessageDispatchTests {
    static let values: [any FrameContent] = [
        Message(msgID: "m1", sender: "alice", receiver: "bob", elems: [.text("hi"), .face(FaceElem(index: 3))]),
        MessageBatch(messages: [Message(msgID: "m2", sender: "bob", receiver: "alice", elems: [.text("yo")])]),
        Event(kind: .recall(RecallEvent(msgID: "m1"))),
    ]

    /// Encodes, sizes and decodes `value` with `Value` known only at run time.
    @inline(never)
    static func roundTrip<Value: FrameContent>(
        _ value: Value
    ) throws -> (bytes: [UInt8], size: Int, json: String, equal: Bool) {
        let bytes = value.serializedBytes()
        let decoded = try Value(serializedBytes: bytes)
        let fromJSON = try Value(jsonString: value.jsonString())
        return (bytes, value.serializedSize, value.jsonString(), decoded == value && fromJSON == value)
    }

    @Test func codeGenericOverWireMessageEncodesAsCodeThatNamesTheType() throws {
        for value in Self.values {
            let generic = try Self.roundTrip(value)
            let named: [UInt8]
            let json: String
            switch value {
            case let message as Message: (named, json) = (message.serializedBytes(), message.jsonString())
            case let batch as MessageBatch: (named, json) = (batch.serializedBytes(), batch.jsonString())
            case let event as Event: (named, json) = (event.serializedBytes(), event.jsonString())
            default: Issue.record("unexpected type \(type(of: value))"); continue
            }
            #expect(generic.bytes == named)
            #expect(generic.size == named.count)
            #expect(generic.json == json)
            #expect(generic.equal)
        }
    }

    /// Frames `value` with `Value` known only at run time.
    @inline(never)
    static func frame<Value: FrameContent>(_ value: Value, _ encoder: FrameEncoder) throws -> [UInt8] {
        var appended: [UInt8] = []
        let count = try encoder.encode(value, appendingTo: &appended)
        let frame = try encoder.encode(value)
        #expect(count == appended.count && frame == appended)
        return frame
    }

    @Test func frameEncoderGenericOverContentFramesAsTheFramePayloadOverload() throws {
        let encoder = FrameEncoder(policy: .disabled)
        for value in Self.values {
            let payload: FramePayload
            switch value {
            case let message as Message: payload = .message(message)
            case let batch as MessageBatch: payload = .batch(batch)
            case let event as Event: payload = .event(event)
            default: Issue.record("unexpected type \(type(of: value))"); continue
            }
            let frame = try Self.frame(value, encoder)
            #expect(frame == (try encoder.encode(payload)))
            #expect(try FrameDecoder().decode(frame) == payload)
        }
    }

    #if os(macOS) || os(Linux)
        /// Exit tests run in a child process, which the platforms of devices cannot start.
        @Test func aTypeOutsideTheSchemaHasNoCodec() async {
            await #expect(processExitsWith: .failure) {
                _ = ForeignValue().serializedBytes()
            }
        }
    #endif
}

/// A type that declares the conformance without being of the schema.
private struct ForeignValue: WireMessage {
    var unknownFields = UnknownFields()
    static var protoMessageName: String { "example.Foreign" }
}
