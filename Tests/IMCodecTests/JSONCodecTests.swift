import IMCodec
import Testing

/// The proto3 JSON mapping of the model.
@Suite struct JSONCodecTests {
    @Test func writesProto3JSONAsWrittenByHand() {
        var message = Message(msgID: "m1", sender: "alice", groupID: "g", seq: 42, priority: .high)
        message.elems = [.text("你好"), .custom([0xFF, 0x00], desc: "d")]
        message.offlinePushInfo = OfflinePushInfo(title: "t")
        let expected =
            #"{"msgId":"m1","sender":"alice","groupId":"g","seq":"42","priority":"PRIORITY_HIGH","#
            + #""offlinePushInfo":{"title":"t"},"elems":[{"text":{"text":"你好"}},{"custom":{"data":"/wA=","desc":"d"}}]}"#
        #expect(message.jsonString() == expected)
    }

    @Test func writesNumbersAndSpecialDoublesAsProto3Requires() throws {
        let location = LocationElem(longitude: .infinity, latitude: .nan)
        #expect(location.jsonString() == #"{"longitude":"Infinity","latitude":"NaN"}"#)
        let receipt = MessageReceipt(timestamp: -1, readCount: UInt64.max)
        #expect(receipt.jsonString() == #"{"timestamp":"-1","readCount":"18446744073709551615"}"#)
        let unknownPriority = Message(priority: Priority(rawValue: 7))
        #expect(unknownPriority.jsonString() == #"{"priority":7}"#)
        let precise = LocationElem(latitude: 29.340656774469956)
        #expect(try LocationElem(jsonString: precise.jsonString()).latitude == 29.340656774469956)
    }

    @Test func readsEitherFieldNameNumbersOrStringsAndNull() throws {
        let message = try Message(
            jsonString: #"""
                {"msg_id": "a", "seq": 7, "timestamp": "-5", "priority": 2, "needReadReceipt": true,
                 "sender": null, "elems": [{"face": {"index": "3", "data": "AQI"}}]}
                """#)
        #expect(message.msgID == "a")
        #expect(message.seq == 7)
        #expect(message.timestamp == -5)
        #expect(message.priority == .normal)
        #expect(message.needReadReceipt)
        #expect(message.elems == [Elem(.face(FaceElem(index: 3, data: [1, 2])))])
    }

    /// Cloud custom data is NSData in the SDK: three bytes that are not UTF-8
    /// survive a frame and proto3 JSON (base64 written by hand).
    @Test func cloudCustomDataThatIsNotUTF8RoundTripsThroughAFrameAndJSON() throws {
        let data: [UInt8] = [0xFF, 0xFE, 0x80]
        #expect(String(validating: data, as: UTF8.self) == nil)
        let message = Message(cloudCustomData: data)
        let frame = try FrameEncoder().encode(message)
        #expect(try FrameDecoder().decode(Message.self, from: frame) == message)
        #expect(message.jsonString() == #"{"cloudCustomData":"//6A"}"#)
        #expect(try Message(jsonString: message.jsonString()) == message)
    }

    @Test func readsURLSafeBase64() throws {
        let custom = try CustomElem(jsonString: #"{"data":"-_8"}"#)
        #expect(custom.data == [0xFB, 0xFF])
    }

    @Test(arguments: [
        (#"{"msgId":"a","msg_id":"b"}"#, "json.duplicate-field", "msg_id"),
        (#"{"elems":[{"text":{},"image":{}}]}"#, "json.duplicate-field", "elems[0].image"),
        (#"{"elems":[{"text":{"bogus":1}}]}"#, "json.unknown-field", "elems[0].text.bogus"),
        (#"{"priority":"PRIORITY_URGENT"}"#, "json.value", "priority"),
        (#"{"random":4294967296}"#, "json.value", "random"),
        (#"{"seq":"-1"}"#, "json.value", "seq"),
        (#"{"seq":1.5}"#, "json.value", "seq"),
        (#"{"sender":5}"#, "json.type", "sender"),
        (#"{"elems":{}}"#, "json.type", "elems"),
        (#"{"elems":[{"custom":{"data":"!!"}}]}"#, "json.value", "elems[0].custom.data"),
        (#"{"needReadReceipt":"true"}"#, "json.type", "needReadReceipt"),
        (#"{"msgId":"a",}"#, "json.syntax", ""),
        (#"{"msgId":"\ud800"}"#, "json.syntax", ""),
        (#"[]"#, "json.type", ""),
        (#"{"msgId":"a"} x"#, "json.syntax", ""),
    ])
    func rejectsInvalidJSON(input: String, code: String, path: String) throws {
        let error = #expect(throws: IMCodecError.self) { try Message(jsonString: input) }
        #expect(error?.code.rawValue == code)
        #expect(error?.path.description == path)
    }

    @Test func appliesTheDepthBudgetToJSON() throws {
        var message = Message()
        for _ in 0..<101 { message = Message(elems: [Elem(.merger(MergerElem(messages: [message])))]) }
        let error = #expect(throws: IMCodecError.self) { try Message(jsonString: message.jsonString()) }
        #expect(error?.code == .limitDepth)
        #expect(
            error?.path.description
                == Array(repeating: "elems[0].merger.messages[0]", count: 101).joined(separator: "."))
        let deepArrays = String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)
        let nesting = #expect(throws: IMCodecError.self) { try Message(jsonString: deepArrays) }
        #expect(nesting?.code == .jsonDepth)
    }

    @Test func prettyPrintingReadsBackToTheSameValue() throws {
        let message = Message(
            sender: "a", atUserList: ["x", "y"],
            elems: [
                .text("line\nbreak \"quoted\" \u{0} nul"),
                Elem(.image(ImageElem(uuid: "u", levels: [ImageLevel(type: .original)]))),
            ])
        let pretty = message.jsonString(pretty: true)
        #expect(pretty.contains("\n  \"sender\": \"a\""))
        #expect(try Message(jsonString: pretty) == message)
    }
}
