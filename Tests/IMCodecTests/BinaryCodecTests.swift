import IMCodec
import Testing

/// The canonical encoder and the decoder on hand-written bytes.
@Suite struct BinaryCodecTests {
    func hex(_ text: String) -> [UInt8] {
        let digits = text.filter { !$0.isWhitespace }
        return stride(from: 0, to: digits.count, by: 2).map { offset in
            let start = digits.index(digits.startIndex, offsetBy: offset)
            return UInt8(digits[start...digits.index(after: start)], radix: 16)!
        }
    }

    @Test func encodesATextMessageAsWrittenByHand() throws {
        let message = Message(msgID: "m1", sender: "alice", receiver: "bob", elems: [.text("hi")])
        // 0A 02 "m1" | 12 05 "alice" | 1A 03 "bob" | 92 01 06 (elems) 0A 04 (text) 0A 02 "hi"
        let expected = hex("0A026D31 1205616C696365 1A03626F62 920106 0A04 0A026869")
        #expect(message.serializedBytes() == expected)
        #expect(try Message(serializedBytes: expected) == message)
    }

    @Test func omitsDefaultsButWritesASetOneofMemberWithDefaultValue() throws {
        #expect(Message().serializedBytes() == [])
        // An elem whose text elem is empty is still a text elem: 0A 00.
        #expect(Elem.text("").serializedBytes() == hex("0A00"))
        let entry = CustomInfoEntry(key: "", value: .number(0))
        #expect(entry.serializedBytes() == hex("1800"))
        #expect(try CustomInfoEntry(serializedBytes: hex("1800")).value == .number(0))
    }

    @Test func writesNegativeZeroAndNegativeInt32() throws {
        let location = LocationElem(latitude: -0.0)
        #expect(location.serializedBytes() == hex("19 0000000000000080"))
        let face = FaceElem(index: -1)
        #expect(face.serializedBytes() == hex("08 FFFFFFFFFFFFFFFFFF01"))
        #expect(try FaceElem(serializedBytes: face.serializedBytes()).index == -1)
    }

    @Test func keepsUnknownFieldsAndWritesThemLast() throws {
        // Field 99 (varint 7) arrives before msgId; re-encoding moves it after.
        let input = hex("980607 0A016D")
        let message = try Message(serializedBytes: input)
        #expect(message.msgID == "m")
        #expect(message.unknownFields.bytes == hex("980607"))
        #expect(message.serializedBytes() == hex("0A016D 980607"))
    }

    @Test func treatsAKnownFieldWithTheWrongWireTypeAsUnknown() throws {
        // msgId (field 1) sent as a varint.
        let message = try Message(serializedBytes: hex("0805"))
        #expect(message.msgID == "")
        #expect(message.unknownFields.bytes == hex("0805"))
        #expect(message.serializedBytes() == hex("0805"))
    }

    @Test func keepsUnknownGroupsWhole() throws {
        // Field 50 start group (0x93 0x03), inner varint field 1 = 1, end group (0x94 0x03).
        let group = hex("9303 0801 9403")
        let message = try Message(serializedBytes: group)
        #expect(message.unknownFields.bytes == group)
        #expect(message.serializedBytes() == group)
    }

    @Test func mergesARepeatedSingularMessageAndLetsTheLastScalarWin() throws {
        let first = OfflinePushInfo(title: "a").serializedBytes()
        let second = OfflinePushInfo(desc: "b").serializedBytes()
        let input: [UInt8] =
            [0x0A, 0x01, 0x78, 0x0A, 0x01, 0x79] + [0x82, 0x01, UInt8(first.count)] + first
            + [0x82, 0x01, UInt8(second.count)] + second
        let message = try Message(serializedBytes: input)
        #expect(message.msgID == "y")
        #expect(message.offlinePushInfo == OfflinePushInfo(title: "a", desc: "b"))
    }

    @Test func keepsValueSemanticsForAFieldHeldOnTheHeap() throws {
        // offlinePushInfo is stored out of line (Indirect): a copy must
        // still behave as an independent value, compare and hash by value.
        let original = Message(msgID: "m", offlinePushInfo: OfflinePushInfo(title: "a"))
        var copy = original
        copy.offlinePushInfo?.title = "b"
        #expect(original.offlinePushInfo?.title == "a")
        #expect(copy.offlinePushInfo?.title == "b")
        #expect(original != copy)
        copy.offlinePushInfo?.title = "a"
        #expect(original == copy)
        #expect(original.hashValue == copy.hashValue)
        // 0A 01 "m" | 82 01 03 (offlinePushInfo) 0A 01 "a"
        #expect(copy.serializedBytes() == hex("0A016D 820103 0A0161"))
        copy.offlinePushInfo = nil
        #expect(copy.serializedBytes() == hex("0A016D"))
        #expect(try Message(serializedBytes: original.serializedBytes()) == original)
    }

    @Test func replacesADifferentOneofMemberAndMergesTheSameOne() throws {
        // text "a", then image uuid "u": the image replaces the text.
        let replaced = try Elem(serializedBytes: hex("0A03 0A0161 1A03 0A0175"))
        #expect(replaced.kind == .image(ImageElem(uuid: "u")))
        // custom {data "a"}, then custom {desc "d"}: merged.
        let merged = try Elem(serializedBytes: hex("1203 0A0161 1203 120164"))
        #expect(merged.kind == .custom(CustomElem(data: [0x61], desc: "d")))
    }

    @Test func readsBoolsAndNarrowIntegersLikeProtobuf() throws {
        // need_read_receipt = 2 reads as true; random = 2^32 + 5 keeps the low 32 bits.
        let message = try Message(serializedBytes: hex("5002 40 8580808010"))
        #expect(message.needReadReceipt)
        #expect(message.random == 5)
        #expect(message.serializedBytes() == hex("4005 5001"))
    }

    @Test func keepsEnumValuesTheSchemaDoesNotName() throws {
        let message = try Message(serializedBytes: hex("4863"))
        #expect(message.priority.rawValue == 99)
        #expect(!message.priority.isKnown)
        #expect(message.serializedBytes() == hex("4863"))
    }

    @Test(arguments: [
        ("0A02C328", "payload.utf8", "msgId"),
        ("920106 0A04 0A02C328", "payload.utf8", "elems[0].text.text"),
        ("00", "payload.tag", ""),
        ("0F", "payload.tag", ""),
        ("8C01", "payload.group", ""),
        ("9303 9C03", "payload.group", ""),
        ("9303 0801", "payload.truncated", ""),
        ("48 FFFFFFFFFFFFFFFFFFFF01", "payload.varint", "priority"),
        ("48 FFFF", "payload.truncated", "priority"),
        ("9201", "payload.truncated", "elems[0]"),
        ("920105 3A00", "payload.truncated", "elems[0]"),
        ("80808080 10", "payload.tag", ""),
        ("920103 3A01 19", "payload.truncated", "elems[0].location.latitude"),
    ])
    func rejectsMalformedPayloads(input: String, code: String, path: String) throws {
        let error = #expect(throws: IMCodecError.self) { try Message(serializedBytes: hex(input)) }
        #expect(error?.code.rawValue == code)
        #expect(error?.path.description == path)
    }
}
