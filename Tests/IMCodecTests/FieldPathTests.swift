import IMCodec
import Testing

/// ``FieldPath``: the text of hand-written component lists, the operations
/// that build paths, and the components that errors of real decodes carry
/// (REST paths: `RESTPathTests`; findings: `FindingPathTests`). Expected texts
/// are written by hand from docs/spec/payloads.md ("Paths").
@Suite struct FieldPathTests {
    // MARK: Text form

    @Test(
        arguments: [
            ([], ""),
            ([.field("msgId")], "msgId"),
            ([.field("elems"), .index(2)], "elems[2]"),
            (
                [.field("elems"), .index(2), .field("image"), .field("levels"), .index(1), .field("width")],
                "elems[2].image.levels[1].width"
            ),
            (
                [
                    .field("elems"), .index(3), .field("merger"), .field("messages"), .index(7), .field("elems"),
                    .index(0), .field("text"), .field("text"),
                ],
                "elems[3].merger.messages[7].elems[0].text.text"
            ),
            ([.index(1), .field("elems"), .index(0), .field("text")], "[1].elems[0].text"),
            ([.index(0)], "[0]"),
            ([.index(0), .index(12)], "[0][12]"),
            (
                [.field("groupProfiles"), .field("groups"), .index(10), .field("lastMsg")],
                "groupProfiles.groups[10].lastMsg"
            ),
            (
                [
                    .field("MsgBody"), .index(1), .field("MsgContent"), .field("ImageInfoArray"), .index(0),
                    .field("URL"),
                ],
                "MsgBody[1].MsgContent.ImageInfoArray[0].URL"
            ),
            (
                [.field("RspMsgList"), .index(4), .field("MsgBody"), .index(0), .field("MsgContent"), .field("Text")],
                "RspMsgList[4].MsgBody[0].MsgContent.Text"
            ),
            ([.field("OfflinePushInfo"), .field("ApnsInfo"), .field("Sound")], "OfflinePushInfo.ApnsInfo.Sound"),
            // A key that is not the first component follows a dot even when empty.
            ([.field("MsgBody"), .index(0), .field("")], "MsgBody[0]."),
        ] as [([FieldPath.Component], String)])
    func rendersComponentsInThePathSyntax(_ components: [FieldPath.Component], _ text: String) {
        #expect(FieldPath(components).description == text)
        #expect("\(FieldPath(components))" == text)
    }

    @Test func componentsRenderAlone() {
        #expect(FieldPath.Component.field("msgId").description == "msgId")
        #expect(FieldPath.Component.index(17).description == "[17]")
    }

    // MARK: Building paths

    @Test func literalsInitialisersAndRootAgree() {
        let literal: FieldPath = [.field("elems"), .index(0)]
        #expect(literal == FieldPath([.field("elems"), .index(0)]))
        #expect(literal.components == [.field("elems"), .index(0)])
        #expect(FieldPath.root == FieldPath())
        #expect(FieldPath.root.isEmpty)
        #expect(FieldPath.root.description.isEmpty)
        #expect(!literal.isEmpty)
    }

    @Test func appendsAtTheInnerEnd() {
        let elem: FieldPath = [.field("elems"), .index(1)]
        #expect(elem.appending(.field("text")) == [.field("elems"), .index(1), .field("text")])
        #expect(
            elem.appending([.field("image"), .field("levels"), .index(2)])
                == [.field("elems"), .index(1), .field("image"), .field("levels"), .index(2)])
        #expect(FieldPath.root.appending(.index(3)).description == "[3]")
        var path = elem
        path.append(.field("merger"))
        path.append([.field("messages"), .index(0)])
        #expect(path.description == "elems[1].merger.messages[0]")
        // The value it was copied from is unchanged.
        #expect(elem.description == "elems[1]")
    }

    @Test func prependsAtTheRootEnd() {
        let field: FieldPath = [.field("text"), .field("text")]
        #expect(field.prepending(.index(4)).description == "[4].text.text")
        #expect(
            field.prepending([.field("elems"), .index(0)])
                == [.field("elems"), .index(0), .field("text"), .field("text")])
        var path: FieldPath = [.field("elems"), .index(2)]
        path.prepend([.field("messages"), .index(5)])
        path.prepend(.index(1))
        #expect(path.components == [.index(1), .field("messages"), .index(5), .field("elems"), .index(2)])
        #expect(path.description == "[1].messages[5].elems[2]")
        var root = FieldPath()
        root.prepend(.field("msgId"))
        #expect(root == [.field("msgId")])
    }

    @Test func equalityIsByComponentsNotByText() {
        let dotted: FieldPath = [.field("a.b")]
        let two: FieldPath = [.field("a"), .field("b")]
        #expect(dotted.description == two.description)
        #expect(dotted != two)
        #expect(Set([dotted, two, [.field("a"), .field("b")]]).count == 2)
        #expect(FieldPath([.index(1)]) != [.field("1")])
    }

    // MARK: Errors of real decodes

    @Test func binaryDecodeErrorsCarryTheirComponents() {
        // elems (18): an empty elem, then an elem whose text (1) holds a text (1) of the byte 0xFF.
        let bytes: [UInt8] = [0x92, 0x01, 0x00, 0x92, 0x01, 0x05, 0x0A, 0x03, 0x0A, 0x01, 0xFF]
        let error = #expect(throws: IMCodecError.self) { try Message(serializedBytes: bytes) }
        #expect(error?.code == .payloadUTF8)
        #expect(error?.path == [.field("elems"), .index(1), .field("text"), .field("text")])

        var limits = DecodingLimits()
        limits.maxRepeated = 2
        let mentions = Message(groupID: "g", atUserList: ["a", "b", "c"])
        let overLimit = #expect(throws: IMCodecError.self) {
            try Message(serializedBytes: mentions.serializedBytes(), limits: limits)
        }
        #expect(overLimit?.path == [.field("atUserList"), .index(2)])
    }

    @Test func jsonDecodeErrorsCarryTheirComponents() {
        let unknown = #expect(throws: IMCodecError.self) {
            try Message(jsonString: #"{"elems":[{"text":{"text":"a"}},{"text":{"bogus":1}}]}"#)
        }
        #expect(unknown?.code == .jsonUnknownField)
        #expect(unknown?.path == [.field("elems"), .index(1), .field("text"), .field("bogus")])
        let duplicate = #expect(throws: IMCodecError.self) {
            try Message(jsonString: #"{"elems":[{"text":{},"image":{}}]}"#)
        }
        #expect(duplicate?.path == [.field("elems"), .index(0), .field("image")])
        // An empty key names no component: the problem is at the object.
        let empty = #expect(throws: IMCodecError.self) { try Message(jsonString: #"{"elems":[{"":1}]}"#) }
        #expect(empty?.code == .jsonUnknownField)
        #expect(empty?.path == [.field("elems"), .index(0)])
    }
}
