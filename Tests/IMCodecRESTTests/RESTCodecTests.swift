import IMCodec
import IMCodecREST
import IMCodecTestSupport
import Testing

/// REST MsgBody import and export (Sources/IMCodecREST/IMCodecREST.docc/REST.md) on hand-written documents
/// whose expected models and texts are written out here, not computed.
@Suite struct RESTCodecTests {
    private func importMessage(_ text: String) throws -> Message {
        try RESTCodec.importMessage(Array(text.utf8)).value
    }

    private func problem(_ text: String) -> IMCodecError? {
        do {
            _ = try RESTCodec.importPayload(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func documentationTextFaceTextBody() throws {
        // The "MsgBody Examples" body of the Message Formats page: text, face, text.
        let text =
            #"[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hello"}},"#
            + #"{"MsgType":"TIMFaceElem","MsgContent":{"Index":1,"Data":"content"}},"#
            + #"{"MsgType":"TIMTextElem","MsgContent":{"Text":"world"}}]"#
        let message = try importMessage(text)
        #expect(
            message
                == Message(elems: [
                    Elem(kind: .text(TextElem(text: "hello"))),
                    Elem(kind: .face(FaceElem(index: 1, data: Array("content".utf8)))),
                    Elem(kind: .text(TextElem(text: "world"))),
                ]))
        #expect(try RESTCodec.export(message) == text)
    }

    @Test func everyElementFormRoundTripsByteForByte() throws {
        let documents = [
            #"[{"MsgType":"TIMLocationElem","MsgContent":{"Desc":"someinfo","Latitude":29.340656774469956,"Longitude":116.77497920478824}}]"#,
            #"[{"MsgType":"TIMCustomElem","MsgContent":{"Data":"message","Desc":"notification","Ext":"url","Sound":"dingdong.aiff"}}]"#,
            #"[{"MsgType":"TIMSoundElem","MsgContent":{"Url":"https://x/a.mp3","UUID":"u1","Size":1553,"Second":1,"Download_Flag":2}}]"#,
            #"[{"MsgType":"TIMSoundElem","MsgContent":{"UUID":"u1","Size":1553,"Second":1}}]"#,
            #"[{"MsgType":"TIMImageElem","MsgContent":{"UUID":"img","ImageFormat":1,"ImageInfoArray":[{"Type":1,"Size":1853095,"Width":2448,"Height":3264,"URL":"https://x/o"},{"Type":2,"Size":0,"Width":0,"Height":0,"URL":"https://x/l"},{"Type":3,"Size":0,"Width":0,"Height":0,"URL":"https://x/t"}]}}]"#,
            #"[{"MsgType":"TIMFileElem","MsgContent":{"Url":"https://x/f","UUID":"f1","FileSize":1773552,"FileName":"file:///a.MOV","Download_Flag":2}}]"#,
            #"[{"MsgType":"TIMFileElem","MsgContent":{"UUID":"f1","FileSize":1773552,"FileName":"a.MOV"}}]"#,
            #"[{"MsgType":"TIMVideoFileElem","MsgContent":{"VideoUrl":"https://x/v","VideoUUID":"v1","VideoSize":1194603,"VideoSecond":5,"VideoFormat":"mp4","VideoDownloadFlag":2,"ThumbUrl":"https://x/t","ThumbUUID":"t1","ThumbSize":13907,"ThumbWidth":720,"ThumbHeight":1280,"ThumbFormat":"JPG","ThumbDownloadFlag":2}}]"#,
            #"[{"MsgType":"TIMVideoFileElem","MsgContent":{"VideoUUID":"v1","VideoSize":1194603,"VideoSecond":5,"VideoFormat":"mp4","ThumbUUID":"t1","ThumbSize":13907,"ThumbWidth":720,"ThumbHeight":1280,"ThumbFormat":"JPG"}}]"#,
            #"{"From_Account":"a","To_Account":"b","MsgSeq":4294967295,"MsgRandom":3998651049,"MsgTimeStamp":1557481126,"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"\u0000   👨‍👩‍👧 中文"}}],"CloudCustomData":"c","OfflinePushInfo":{"PushFlag":1,"Title":"t","Desc":"d","Ext":"e","AndroidInfo":{"Sound":"s","VIVOClassification":1},"ApnsInfo":{"Sound":"a.aiff","BadgeMode":1,"SubTitle":"st","MutableContent":1}}}"#,
            #"[{"MsgType":"TIMRelayElem","MsgContent":{"Title":"Chat","MsgNum":1,"CompatibleText":"upgrade","AbstractList":["a: hi"],"MsgList":[{"From_Account":"a","GroupId":"g","MsgSeq":1,"MsgRandom":2,"MsgTimeStamp":3,"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hi"}}]}]}}]"#,
            #"[{"MsgType":"TIMRelayElem","MsgContent":{"Title":"Chat","MsgNum":500,"CompatibleText":"upgrade","AbstractList":[],"JsonMsgKey":"key-1"}}]"#,
        ]
        for document in documents {
            let message = try importMessage(document)
            let frame = try FrameEncoder().encode(message)
            guard case .message(let decoded) = try FrameDecoder().decode(frame) else {
                Issue.record("not a message frame")
                continue
            }
            #expect(try RESTCodec.export(decoded) == document, "\(document)")
        }
    }

    @Test func fieldsLandInTheModel() throws {
        let message = try importMessage(
            #"{"From_Account":"a","MsgSeq":7,"MsgBody":[{"MsgType":"TIMSoundElem","MsgContent":{"Url":"u","UUID":"id","Size":3,"Second":4,"Download_Flag":2}}],"OfflinePushInfo":{"ApnsInfo":{"Sound":"ring"}}}"#
        )
        #expect(message.sender == "a")
        #expect(message.seq == 7)
        #expect(
            message.elems == [
                Elem(kind: .sound(SoundElem(uuid: "id", url: "u", size: 3, duration: 4, downloadFlag: 2)))
            ])
        #expect(message.offlinePushInfo?.iosSound == "ring")
    }

    @Test(arguments: [
        (#"[{"msgType":"TIMTextElem","MsgContent":{"Text":"x"}}]"#, "rest.key-case", "MsgBody[0].msgType"),
        (#"[{"MsgType":"TIMTextElem","MsgContent":{"Text":1}}]"#, "rest.type", "MsgBody[0].MsgContent.Text"),
        (#"[{"MsgType":"TIMFaceElem","MsgContent":{"Index":"1"}}]"#, "rest.type", "MsgBody[0].MsgContent.Index"),
        (#"[{"MsgType":"TIMTextElem","MsgContent":null}]"#, "rest.type", "MsgBody[0].MsgContent"),
        (#"[{"MsgType":"TIMTextElemX","MsgContent":{}}]"#, "rest.msg-type", "MsgBody[0].MsgType"),
        (#"[{"MsgType":"TIMTextElem","MsgContent":{}}]"#, "rest.missing-key", "MsgBody[0].MsgContent.Text"),
        (
            #"[{"MsgType":"TIMTextElem","MsgContent":{"Text":"x","Extra":1}}]"#, "rest.unknown-key",
            "MsgBody[0].MsgContent.Extra"
        ),
        (
            #"[{"MsgType":"TIMTextElem","MsgContent":{"Text":"x","Text":"y"}}]"#, "rest.duplicate-key",
            "MsgBody[0].MsgContent.Text"
        ),
        (#"{"MsgSeq":4294967296,"MsgBody":[]}"#, "rest.range", "MsgSeq"),
        (#"{"MsgRandom":-1,"MsgBody":[]}"#, "rest.range", "MsgRandom"),
        (#"{"MsgTimeStamp":1.5,"MsgBody":[]}"#, "rest.type", "MsgTimeStamp"),
        (#"{"MsgTimeStamp":1e3,"MsgBody":[]}"#, "rest.type", "MsgTimeStamp"),
        (
            #"[{"MsgType":"TIMSoundElem","MsgContent":{"Url":"u","UUID":"id","Size":3,"Second":4}}]"#,
            "rest.missing-key", "MsgBody[0].MsgContent.Download_Flag"
        ),
        (
            #"[{"MsgType":"TIMImageElem","MsgContent":{"UUID":"i","ImageFormat":1,"ImageInfoArray":[{"Type":4,"Size":0,"Width":0,"Height":0,"URL":"u"}]}}]"#,
            "rest.range", "MsgBody[0].MsgContent.ImageInfoArray[0].Type"
        ),
        (
            #"[{"MsgType":"TIMImageElem","MsgContent":{"UUID":"i","ImageFormat":1,"ImageInfoArray":[{"Type":1,"Size":0,"Width":0,"Height":0,"Url":"u"}]}}]"#,
            "rest.key-case", "MsgBody[0].MsgContent.ImageInfoArray[0].Url"
        ),
        (
            #"[{"MsgType":"TIMRelayElem","MsgContent":{"Title":"t","MsgNum":0,"CompatibleText":"c","AbstractList":[],"MsgList":[],"JsonMsgKey":"k"}}]"#,
            "rest.relay-list-and-key", "MsgBody[0].MsgContent"
        ),
        (
            #"[{"MsgType":"TIMRelayElem","MsgContent":{"Title":"t","MsgNum":2,"CompatibleText":"c","AbstractList":[],"MsgList":[]}}]"#,
            "rest.relay-msg-num", "MsgBody[0].MsgContent.MsgNum"
        ),
        (
            #"[{"MsgType":"TIMRelayElem","MsgContent":{"Title":"t","MsgNum":0,"CompatibleText":"c","AbstractList":[]}}]"#,
            "rest.missing-key", "MsgBody[0].MsgContent.MsgList"
        ),
        (
            #"[{"MsgType":"TIMRelayElem","MsgContent":{"Title":"t","MsgNum":1,"CompatibleText":"c","AbstractList":[],"JsonMsgKey":""}}]"#,
            "rest.range", "MsgBody[0].MsgContent.JsonMsgKey"
        ),
        (#"{"CallbackCommand":"C2C.CallbackAfterSendMsg","Unknown":1,"MsgBody":[]}"#, "rest.unknown-key", "Unknown"),
        (#""text""#, "rest.type", ""),
        (#"[1"#, "json.syntax", ""),
    ])
    func problemsHaveCodesAndPaths(_ document: String, _ code: String, _ path: String) {
        let error = problem(document)
        #expect(error?.code.rawValue == code, "\(String(describing: error))")
        #expect(error?.path.description == path, "\(String(describing: error))")
    }

    @Test func relayNestingStopsAtTheDepthLimit() {
        func relay(_ inner: String) -> String {
            #"[{"MsgType":"TIMRelayElem","MsgContent":{"Title":"t","MsgNum":1,"CompatibleText":"c","AbstractList":[],"MsgList":[{"From_Account":"a","MsgSeq":1,"MsgRandom":1,"MsgTimeStamp":1,"MsgBody":"#
                + inner + "}]}}]"
        }
        var hundred = #"[{"MsgType":"TIMTextElem","MsgContent":{"Text":"x"}}]"#
        for _ in 0..<100 { hundred = relay(hundred) }
        #expect(problem(hundred) == nil)
        let error = problem(relay(hundred))
        #expect(error?.code == .limitDepth)
        #expect(error?.path.description.hasSuffix(".MsgContent.MsgList") == true)
        #expect(error?.path.description.components(separatedBy: "MsgList[0]").count == 101)
    }

    @Test func batchesTakeTheListGroupID() throws {
        let batch = try RESTCodec.importBatch(
            Array(
                #"{"ActionStatus":"OK","GroupId":"g1","RspMsgList":[{"From_Account":"a","MsgSeq":1,"MsgBody":[]},{"From_Account":"b","GroupId":"g2","MsgBody":[]}]}"#
                    .utf8))
        #expect(batch.value.messages.map(\.groupID) == ["g1", "g2"])
        #expect(batch.skippedKeys == [[.field("ActionStatus")]])
        #expect(
            try RESTCodec.export(batch.value)
                == #"{"MsgList":[{"From_Account":"a","GroupId":"g1","MsgSeq":1,"MsgBody":[]},{"From_Account":"b","GroupId":"g2","MsgBody":[]}]}"#
        )
    }

    @Test(arguments: [
        (Message(msgID: "m"), "msgId"),
        (Message(seq: 1 << 32), "seq"),
        (Message(timestamp: -1), "timestamp"),
        (Message(elems: [Elem(kind: .groupTips(GroupTipsElem()))]), "elems[0].groupTips"),
        (Message(elems: [Elem()]), "elems[0]"),
        (Message(elems: [Elem(kind: .custom(CustomElem(data: [0xFF])))]), "elems[0].custom.data"),
        (
            Message(elems: [Elem(kind: .image(ImageElem(levels: [ImageLevel(type: .original, uuid: "x")])))]),
            "elems[0].image.levels[0].uuid"
        ),
        (Message(elems: [Elem(kind: .location(LocationElem(longitude: .nan)))]), "elems[0].location.longitude"),
        (
            Message(elems: [Elem(kind: .merger(MergerElem(messages: [Message(msgID: "inner")], layersOverLimit: true)))]
            ),
            "elems[0].merger.messages[0].msgId"
        ),
        // Written with an empty MsgList, which MsgNum 2 would contradict.
        (Message(elems: [Elem(kind: .merger(MergerElem(msgNum: 2)))]), "elems[0].merger.msgNum"),
    ])
    func unrepresentableValuesAreRefused(_ message: Message, _ path: String) {
        #expect(throws: IMCodecError(.restUnrepresentable, path: FieldPath(documented: path), reason: "")) {
            try RESTCodec.export(message)
        }
    }

    @Test(arguments: [
        (30.0, "30"), (0.5, "0.5"), (-0.0, "-0"), (1e-7, "1e-7"), (1.5e300, "1.5e+300"),
        (123456789012345680000.0, "123456789012345680000"),
        (1e21, "1e+21"), (0.000001, "0.000001"), (29.340656774469956, "29.340656774469956"),
        (-116.77497920478824, "-116.77497920478824"),
        (Double.leastNonzeroMagnitude, "5e-324"),
    ])
    func doublesAreWrittenAsJavaScriptWritesThem(_ value: Double, _ text: String) throws {
        let message = Message(elems: [Elem(kind: .location(LocationElem(desc: "", longitude: value, latitude: 0)))])
        #expect(
            try RESTCodec.export(message)
                == #"[{"MsgType":"TIMLocationElem","MsgContent":{"Desc":"","Latitude":0,"Longitude":"# + text + "}}]")
    }

    @Test func restImportTakesAString() throws {
        let text = #"[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hello"}}]"#
        #expect(try RESTCodec.importMessage(text).value == RESTCodec.importMessage(Array(text.utf8)).value)
        #expect(try RESTCodec.importPayload(text).value.message?.elems == [.text("hello")])
    }
}
