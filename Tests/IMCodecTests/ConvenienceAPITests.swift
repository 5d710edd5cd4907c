import IMCodec
import Testing

/// The conveniences for values users hold: payload accessors, element and
/// message constructors, the dictionary preset (REST's `String` overloads:
/// `RESTCodecTests`; `Data` and `LocalizedError`: IMCodecFoundationTests).
@Suite struct ConvenienceAPITests {
    static let message = Message(
        msgID: "m1", sender: "alice", receiver: "bob", elems: [.text("hello, how are you doing today? 你好")])

    @Test func payloadAccessorsGiveTheValueOfTheirKindOnly() {
        let message = FramePayload.message(Self.message)
        #expect(message.message == Self.message)
        #expect(message.batch == nil && message.event == nil)
        let batch = FramePayload.batch(MessageBatch(messages: [Self.message]))
        #expect(batch.batch?.messages == [Self.message])
        #expect(batch.message == nil && batch.event == nil)
        let event = FramePayload.event(Event())
        #expect(event.event == Event())
        #expect(event.message == nil && event.batch == nil)
    }

    @Test func theDictionaryPresetIsDeflateWithDictionaryTwoTryingEveryPayload() throws {
        let policy = CompressionPolicy.deflateWithDictionary
        #expect(policy.algorithm == .deflate && policy.threshold == 0 && policy.level == 6)
        #expect(policy.dictionary == .imMessages2)
        let frame = try FrameEncoder(policy: policy).encode(.message(Self.message))
        let header = try #require(try FrameHeader.peek(frame))
        #expect(header.compression == .deflate && header.dictionaryID == 2)
        #expect(try FrameDecoder().decode(frame) == .message(Self.message))
    }

    @Test func everyElemKindHasAConstructorByItsName() {
        let elems: [Elem] = [
            .text("hi"), .custom([1, 2]), .image(ImageElem(uuid: "u")), .sound(SoundElem(uuid: "s")),
            .video(VideoElem(videoUUID: "v")), .file(FileElem(uuid: "f")), .location(LocationElem(desc: "here")),
            .face(FaceElem(index: 3)), .merger(MergerElem(title: "t")), .groupTips(GroupTipsElem(groupID: "g")),
            .groupSystem(GroupSystemElem(groupID: "g")), .snsSystem(SnsSystemElem()),
            .profileSystem(ProfileSystemElem(fromUser: "a")),
        ]
        let kinds: [Elem.Kind] = [
            .text(TextElem(text: "hi")), .custom(CustomElem(data: [1, 2])), .image(ImageElem(uuid: "u")),
            .sound(SoundElem(uuid: "s")), .video(VideoElem(videoUUID: "v")), .file(FileElem(uuid: "f")),
            .location(LocationElem(desc: "here")), .face(FaceElem(index: 3)), .merger(MergerElem(title: "t")),
            .groupTips(GroupTipsElem(groupID: "g")), .groupSystem(GroupSystemElem(groupID: "g")),
            .snsSystem(SnsSystemElem()), .profileSystem(ProfileSystemElem(fromUser: "a")),
        ]
        #expect(elems == kinds.map { Elem(kind: $0) })
    }

    @Test func messageConstructorsFillTheFieldsTheyName() {
        let direct = Message(from: "alice", to: "bob", elems: [.text("hi")], msgID: "m1")
        #expect(direct == Message(msgID: "m1", sender: "alice", receiver: "bob", elems: [.text("hi")]))
        let group = Message(from: "alice", toGroup: "g1", elems: [.text("hi")])
        #expect(group == Message(sender: "alice", groupID: "g1", elems: [.text("hi")]))
        #expect(group.isGroupMessage && !direct.isGroupMessage)
        // Many at once, as a server builds them: a map the type checker takes at once.
        let messages = (0..<3).map { Message(from: "u\($0)", to: "bob", elems: [.text("\($0)")]) }
        #expect(messages.map(\.sender) == ["u0", "u1", "u2"])
    }
}
