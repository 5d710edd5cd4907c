import IMCodec
import IMCodecREST
import IMCodecValidation
import Testing

/// ``FieldPath``: the text of hand-written component lists, the operations
/// that build paths, the REST mapping on components, and the components that
/// errors and findings of real decodes and validations carry. Expected texts
/// are written by hand from docs/spec/payloads.md ("Paths") and Sources/IMCodecREST/IMCodecREST.docc/REST.md.
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

    // MARK: REST mapping

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

    @Test func restImportProblemsAndSkippedKeysCarryComponents() throws {
        let problem = #expect(throws: IMCodecError.self) {
            try RESTCodec.importMessage(Array(#"[{"MsgType":"TIMTextElem","MsgContent":{"Text":1}}]"#.utf8))
        }
        #expect(problem?.code.rawValue == "rest.type")
        #expect(problem?.path == [.field("MsgBody"), .index(0), .field("MsgContent"), .field("Text")])
        let imported = try RESTCodec.importBatch(
            Array(#"{"ActionStatus":"OK","MsgList":[{"MsgTime":5,"MsgBody":[]}]}"#.utf8))
        #expect(imported.skippedKeys == [[.field("ActionStatus")], [.field("MsgList"), .index(0), .field("MsgTime")]])
    }

    @Test func restExportRefusalsCarryPayloadComponents() {
        let message = Message(elems: [Elem(kind: .merger(MergerElem(msgNum: 2)))])
        let error = #expect(throws: IMCodecError.self) { try RESTCodec.export(message) }
        #expect(error?.code == .restUnrepresentable)
        #expect(error?.path == [.field("elems"), .index(0), .field("merger"), .field("msgNum")])
    }

    // MARK: Errors and findings of real decodes and validations

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

extension FieldPath {
    /// Reads a path written in the documented syntax (`elems[2].text`,
    /// `[1].elems`), for expected values written by hand as text. Names
    /// hold no `.` or `[`.
    init(documented text: String) {
        var components: [Component] = []
        guard !text.isEmpty else {
            self.init(components)
            return
        }
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            let name = part.prefix { $0 != "[" }
            if !name.isEmpty || part.isEmpty { components.append(.field(String(name))) }
            var rest = part.dropFirst(name.count)
            while rest.first == "[", let close = rest.firstIndex(of: "]") {
                components.append(.index(Int(rest[rest.index(after: rest.startIndex)..<close]) ?? -1))
                rest = rest[rest.index(after: close)...]
            }
        }
        self.init(components)
    }
}
