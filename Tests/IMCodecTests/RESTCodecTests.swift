import IMCodec
import IMCodecREST
import IMCodecValidation
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

    @Test func theFirstProblemInDocumentOrderIsThrownAndAllAreReported() {
        let text =
            #"[{"MsgType":"TIMImageElem","MsgContent":{"UUID":1,"ImageFormat":1,"ImageInfoArray":[{"Type":1,"Size":0,"Width":0,"Height":0}]}},"#
            + #"{"MsgType":"TIMTextElem","MsgContent":{"Text":"x","text":"y"}}]"#
        #expect(problem(text)?.path.description == "MsgBody[0].MsgContent.UUID")
        let findings = RESTValidator.validate(Array(text.utf8)).map { "\($0.code) \($0.path)" }
        #expect(
            findings == [
                "rest.type MsgBody[0].MsgContent.UUID",
                "rest.missing-key MsgBody[0].MsgContent.ImageInfoArray[0].URL",
                "rest.key-case MsgBody[1].MsgContent.text",
            ])
    }

    /// A relay whose `MsgNum` (1) disagrees with its `MsgList` of `entries`
    /// empty messages: five missing keys each, in the table order
    /// From_Account, MsgSeq, MsgRandom, MsgTimeStamp, MsgBody, and then, after
    /// the list in document order but found before it, `rest.relay-msg-num`.
    private static func emptyEntries(_ entries: Int) -> [UInt8] {
        let list = Array(repeating: "{}", count: entries).joined(separator: ",")
        return Array(
            #"[{"MsgType":"TIMRelayElem","MsgContent":{"Title":"t","MsgNum":1,"CompatibleText":"c","AbstractList":[],"MsgList":[\#(list)]}}]"#
                .utf8)
    }

    @Test func validationReportsTheFirstProblemsAndCountsTheRest() {
        var limits = DecodingLimits()
        limits.maxProblems = 3
        let findings = RESTValidator.validate(Self.emptyEntries(20), decodingLimits: limits)
        #expect(
            findings.map { "\($0.code) \($0.path)" } == [
                "rest.missing-key MsgBody[0].MsgContent.MsgList[0].From_Account",
                "rest.missing-key MsgBody[0].MsgContent.MsgList[0].MsgSeq",
                "rest.missing-key MsgBody[0].MsgContent.MsgList[0].MsgRandom",
                "limit.problems ",
            ])
        #expect(findings.last?.limit == 3)
        #expect(findings.last?.actual == 101)
        #expect(findings.last?.severity == .error)
        #expect(findings.last?.reason == "the document has 101 problems; the first 3 are reported")
        // Import throws the first problem whatever the limit.
        #expect(
            problem(String(decoding: Self.emptyEntries(20), as: UTF8.self))?.path.description
                == "MsgBody[0].MsgContent.MsgList[0].From_Account")
    }

    @Test func theProblemFoundFirstYieldsToOnesBeforeIt() {
        // rest.relay-msg-num is found before the queued list is read; it is
        // the 11th problem in document order, so a limit of 10 leaves it out
        // and a limit of 11 keeps it last.
        var limits = DecodingLimits()
        limits.maxProblems = 10
        let ten = RESTValidator.validate(Self.emptyEntries(2), decodingLimits: limits)
        #expect(ten.map(\.code.rawValue) == Array(repeating: "rest.missing-key", count: 10) + ["limit.problems"])
        #expect(ten.last?.actual == 11)
        limits.maxProblems = 11
        let eleven = RESTValidator.validate(Self.emptyEntries(2), decodingLimits: limits)
        #expect(eleven.map(\.code.rawValue) == Array(repeating: "rest.missing-key", count: 10) + ["rest.relay-msg-num"])
        #expect(eleven.last?.path.description == "MsgBody[0].MsgContent.MsgNum")
    }

    @Test func theDefaultLimitIsAHundredAndZeroReportsOnlyTheCount() {
        let findings = RESTValidator.validate(Self.emptyEntries(20))
        #expect(findings.count == 101)
        #expect(findings.prefix(100).allSatisfy { $0.code.rawValue == "rest.missing-key" })
        #expect(findings[99].path.description == "MsgBody[0].MsgContent.MsgList[19].MsgBody")
        #expect(findings.last?.code.rawValue == "limit.problems")
        #expect(findings.last?.actual == 101)
        var limits = DecodingLimits()
        limits.maxProblems = 0
        let none = RESTValidator.validate(Self.emptyEntries(20), decodingLimits: limits)
        #expect(none.map { "\($0.code) \($0.path) \($0.limit ?? -1) \($0.actual ?? -1)" } == ["limit.problems  0 101"])
        // At the limit exactly, or with no limit, there is nothing to count.
        for limit in [101, Int.max] {
            limits.maxProblems = limit
            let all = RESTValidator.validate(Self.emptyEntries(20), decodingLimits: limits)
            #expect(all.count == 101)
            #expect(all.last?.code.rawValue == "rest.relay-msg-num")
        }
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

    @Test func restRulesAreMeasuredOnTheRESTForm() {
        func body(_ text: String) -> String {
            #"[{"MsgType":"TIMTextElem","MsgContent":{"Text":""# + text + #""}}]"#
        }
        // The frame of a body is 52 bytes plus the text.
        let overhead = body("").utf8.count
        let atLimit = body(String(repeating: "a", count: 12_288 - overhead))
        #expect(RESTValidator.validate(Array(atLimit.utf8), limits: .current).isEmpty)
        let over = RESTValidator.validate(
            Array(body(String(repeating: "a", count: 12_289 - overhead)).utf8), limits: .current)
        #expect(over.map(\.code) == [.messageBodyBytes])
        #expect(over.first?.actual == 12_289)
        #expect(over.first?.path.description == "MsgBody")
        #expect(
            RESTValidator.validate(Array(body(String(repeating: "a", count: 20_000)).utf8), limits: .sdkGuide).isEmpty)

        let flags =
            #"[{"MsgType":"TIMImageElem","MsgContent":{"UUID":"i","ImageFormat":7,"ImageInfoArray":["#
            + #"{"Type":1,"Size":1,"Width":0,"Height":0,"URL":"u"}]}},"#
            + #"{"MsgType":"TIMFileElem","MsgContent":{"Url":"u","UUID":"f","FileSize":1,"FileName":"n","Download_Flag":1}}]"#
        let findings = RESTValidator.validate(Array(flags.utf8), limits: .current).map { "\($0.code) \($0.path)" }
        #expect(
            Set(findings)
                == [
                    "rule.rest.image-format MsgBody[0].MsgContent.ImageFormat",
                    "rule.rest.download-flag MsgBody[1].MsgContent.Download_Flag",
                ])
        // The sdk-guide profile does not check REST codes: only the model's warning remains.
        #expect(RESTValidator.validate(Array(flags.utf8), limits: .sdkGuide).map(\.code) == [.unknownEnumValue])

        // M17 and M18 hold in every profile: an empty MsgBody, an empty ImageInfoArray.
        let emptyImage = #"[{"MsgType":"TIMImageElem","MsgContent":{"UUID":"i","ImageFormat":1,"ImageInfoArray":[]}}]"#
        for limits in [ValidationLimits.sdkGuide, .current] {
            #expect(
                RESTValidator.validate(Array("[]".utf8), limits: limits).map { "\($0.code) \($0.path)" }
                    == ["rule.message.elems-missing MsgBody"])
            #expect(
                RESTValidator.validate(Array(emptyImage.utf8), limits: limits).map { "\($0.code) \($0.path)" }
                    == ["rule.image.levels-missing MsgBody[0].MsgContent.ImageInfoArray"])
        }
    }

    @Test func modelFindingsGetRESTPaths() {
        let text =
            #"[{"MsgType":"TIMCustomElem","MsgContent":{"Data":"a"}},{"MsgType":"TIMCustomElem","MsgContent":{"Data":"b"}},"#
            + #"{"MsgType":"TIMLocationElem","MsgContent":{"Desc":"","Latitude":91,"Longitude":0}},"#
            + #"{"MsgType":"TIMRelayElem","MsgContent":{"Title":"t","MsgNum":1,"CompatibleText":"","AbstractList":[],"MsgList":[{"From_Account":"a","To_Account":"b","MsgSeq":1,"MsgRandom":1,"MsgTimeStamp":1,"MsgBody":[{"MsgType":"TIMImageElem","MsgContent":{"UUID":"i","ImageFormat":1,"ImageInfoArray":[{"Type":1,"Size":0,"Width":10,"Height":10,"URL":"u"},{"Type":1,"Size":0,"Width":10,"Height":10,"URL":"u"}]}}]}]}}]"#
        let findings = Set(
            RESTValidator.validate(Array(text.utf8), limits: .current).map { "\($0.code) \($0.path)" })
        #expect(findings.contains("limit.message.custom-elems MsgBody[1]"))
        #expect(findings.contains("range.location.latitude MsgBody[2].MsgContent.Latitude"))
        #expect(findings.contains("rule.merger.compatible-text-missing MsgBody[3].MsgContent.CompatibleText"))
        #expect(
            findings.contains(
                "rule.image.duplicate-level MsgBody[3].MsgContent.MsgList[0].MsgBody[0].MsgContent.ImageInfoArray[1].Type"
            ))
    }
}
