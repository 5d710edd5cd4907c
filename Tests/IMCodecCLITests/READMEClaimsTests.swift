import IMCodec
import IMCodecREST
import Testing

/// What README.md says of the REST form of its own example messages.
@Suite struct READMEClaimsTests {
    /// A message ID, an @ list and an image's UUID have no REST key: the
    /// export names each with `rest.unrepresentable`.
    @Test func readmesExampleMessagesDoNotExportToREST() {
        var level = ImageLevel()
        level.uuid = "d3b07384-large"
        var image = ImageElem()
        image.levels = [level]
        let messages: [Message] = [
            Message(from: "alice", to: "bob", elems: [.text("你好")], msgID: "m1"),
            Message(from: "alice", toGroup: "@TGS#2C5SZEAEF", mentioning: "\(mention: "bob", as: "Bob") lunch at 12?"),
            Message(from: "alice", to: "bob", elems: [.image(image)]),
        ]
        for message in messages {
            #expect {
                try RESTCodec.export(message)
            } throws: { error in
                (error as? IMCodecError)?.code == .restUnrepresentable
            }
        }
    }

    /// A message imported from REST JSON exports again.
    @Test func aMessageImportedFromRESTExportsAgain() throws {
        let document = #"[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hello world"}}]"#
        let imported = try RESTCodec.importMessage(Array(document.utf8)).value
        let exported = try RESTCodec.export(imported)
        #expect(try RESTCodec.importMessage(Array(exported.utf8)).value == imported)
    }
}
