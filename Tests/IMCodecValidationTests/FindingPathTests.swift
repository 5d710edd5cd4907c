import IMCodec
import IMCodecValidation
import Testing

/// The ``FieldPath`` components that findings and failures of real
/// validations carry: payload paths mapped to REST paths component by
/// component for REST documents' findings, the paths of the model's
/// validator, and those of ``InputValidator`` with the entry index in front. Expected texts are
/// written by hand from docs/spec/payloads.md ("Paths") and
/// Sources/IMCodecREST/IMCodecREST.docc/REST.md.
@Suite struct FindingPathTests {
    @Test(
        arguments: [
            ([], nil, []),
            (
                [.field("elems"), .index(1), .field("image"), .field("levels"), .index(0), .field("url")], nil,
                [
                    .field("MsgBody"), .index(1), .field("MsgContent"), .field("ImageInfoArray"), .index(0),
                    .field("URL"),
                ]
            ),
            ([.field("sender")], nil, [.field("From_Account")]),
            // A field without a REST key stays as it is.
            ([.field("msgId")], nil, [.field("msgId")]),
            (
                [.field("elems"), .index(0), .field("sound"), .field("duration")], nil,
                [.field("MsgBody"), .index(0), .field("MsgContent"), .field("Second")]
            ),
            (
                [
                    .field("elems"), .index(3), .field("merger"), .field("messages"), .index(0), .field("elems"),
                    .index(1), .field("text"), .field("text"),
                ], nil,
                [
                    .field("MsgBody"), .index(3), .field("MsgContent"), .field("MsgList"), .index(0), .field("MsgBody"),
                    .index(1), .field("MsgContent"), .field("Text"),
                ]
            ),
            (
                [.field("elems"), .index(0), .field("merger"), .field("abstracts"), .index(2)], nil,
                [.field("MsgBody"), .index(0), .field("MsgContent"), .field("AbstractList"), .index(2)]
            ),
            // One model field, two REST keys.
            (
                [.field("offlinePushInfo"), .field("iosSound")], nil,
                [.field("OfflinePushInfo"), .field("ApnsInfo"), .field("Sound")]
            ),
            (
                [.field("offlinePushInfo"), .field("android"), .field("sound")], nil,
                [.field("OfflinePushInfo"), .field("AndroidInfo"), .field("Sound")]
            ),
            (
                [.field("messages"), .index(2), .field("receiver")], "RspMsgList",
                [.field("RspMsgList"), .index(2), .field("To_Account")]
            ),
            (
                [.field("messages"), .index(0), .field("elems"), .index(4), .field("file"), .field("size")], "MsgList",
                [.field("MsgList"), .index(0), .field("MsgBody"), .index(4), .field("MsgContent"), .field("FileSize")]
            ),
        ] as [([FieldPath.Component], String?, [FieldPath.Component])])
    func mapsPayloadPathsToRESTPathsByComponent(
        _ payload: [FieldPath.Component], _ listKey: String?, _ rest: [FieldPath.Component]
    ) {
        #expect(RESTPath.translate(FieldPath(payload), listKey: listKey) == FieldPath(rest))
    }

    @Test func restValidationFindingsCarryRESTComponents() {
        let document =
            #"[{"MsgType":"TIMImageElem","MsgContent":{"UUID":"i","ImageFormat":7,"ImageInfoArray":["#
            + #"{"Type":1,"Size":1,"Width":0,"Height":0,"URL":"u"}]}},"#
            + #"{"MsgType":"TIMFileElem","MsgContent":{"Url":"u","UUID":"f","FileSize":1,"FileName":"n","Download_Flag":1}}]"#
        let findings = RESTValidator.validate(Array(document.utf8), limits: .current)
        let byCode = Dictionary(findings.map { ($0.code, $0.path) }, uniquingKeysWith: { first, _ in first })
        #expect(
            byCode[.restImageFormat] == [.field("MsgBody"), .index(0), .field("MsgContent"), .field("ImageFormat")])
        #expect(
            byCode[.restDownloadFlag] == [.field("MsgBody"), .index(1), .field("MsgContent"), .field("Download_Flag")])
        // The REST rule replaces the model's warning at the same components.
        #expect(byCode[.unknownEnumValue] == nil)

        let relay =
            #"[{"MsgType":"TIMRelayElem","MsgContent":{"Title":"t","MsgNum":1,"CompatibleText":"c","AbstractList":[],"#
            + #""MsgList":[{"From_Account":"a","MsgSeq":1,"MsgRandom":1,"MsgTimeStamp":1,"#
            + #""MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"x"}}]}]}}]"#
        // The outer message names no target and is not told so; the
        // forwarded one, inside MsgContent, is.
        let targets = RESTValidator.validate(Array(relay.utf8)).filter { $0.code == .messageTargetMissing }
        #expect(
            targets.map(\.path) == [[.field("MsgBody"), .index(0), .field("MsgContent"), .field("MsgList"), .index(0)]])
    }

    @Test func validationFindingsAndFailuresCarryTheirComponents() {
        let batch = MessageBatch(messages: [
            Message(sender: "a", receiver: "b", elems: [Elem(kind: .text(TextElem(text: "x")))]),
            Message(sender: "a", receiver: "b", elems: [Elem(kind: .file(FileElem(size: UInt32.max)))]),
        ])
        let findings = Validator.validate(batch)
        let size = findings.first { $0.code == .fileSize }
        #expect(
            size?.path == [.field("messages"), .index(1), .field("elems"), .index(0), .field("file"), .field("size")])
        let failure = #expect(throws: IMCodecError.self) { try Validator.check(.batch(batch)) }
        #expect(failure?.code == .validationFailed)
        #expect(failure?.path == size?.path)
    }

    @Test func inputValidatorPutsTheEntryIndexInFront() throws {
        let input = #"[{"sender":"a","receiver":"b","elems":[{"text":{"text":"x"}}]},{"elems":[]},{"elems":[{"x":1}]}]"#
        let report = InputValidator.validate(Array(input.utf8))
        #expect(report.findings.map(\.finding.path).contains([.index(1), .field("elems")]))
        #expect(report.findings.map(\.finding.path).contains([.index(1)]))
        let failure = try #require(report.failure)
        #expect(failure.path == [.index(2), .field("elems"), .index(0), .field("x")])
    }
}
