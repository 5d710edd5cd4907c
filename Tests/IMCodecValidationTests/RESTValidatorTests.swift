import IMCodec
import IMCodecREST
import IMCodecValidation
import Testing

/// ``RESTValidator`` on hand-written REST documents (Sources/IMCodecREST/IMCodecREST.docc/REST.md): every
/// problem with its code and path in document order, the problem limit, and
/// the REST rules of the current profile measured on the REST form.
@Suite struct RESTValidatorTests {
    @Test func theFirstProblemInDocumentOrderIsThrownAndAllAreReported() {
        let text =
            #"[{"MsgType":"TIMImageElem","MsgContent":{"UUID":1,"ImageFormat":1,"ImageInfoArray":[{"Type":1,"Size":0,"Width":0,"Height":0}]}},"#
            + #"{"MsgType":"TIMTextElem","MsgContent":{"Text":"x","text":"y"}}]"#
        let thrown = #expect(throws: IMCodecError.self) { try RESTCodec.importPayload(Array(text.utf8)) }
        #expect(thrown?.path.description == "MsgBody[0].MsgContent.UUID")
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
        let thrown = #expect(throws: IMCodecError.self) { try RESTCodec.importPayload(Self.emptyEntries(20)) }
        #expect(thrown?.path.description == "MsgBody[0].MsgContent.MsgList[0].From_Account")
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
