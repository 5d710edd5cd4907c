import IMCodec
import IMCodecREST
import Testing

/// ``FieldPath`` in REST documents: the components of import problems,
/// skipped keys and export refusals. Expected texts are written by hand from
/// Sources/IMCodecREST/IMCodecREST.docc/REST.md.
@Suite struct RESTPathTests {
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
}
