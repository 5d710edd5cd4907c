import IMCodec
import IMCodecREST
import Testing

/// ``RESTReader/messageLeavingForwarded(document:)`` and
/// ``RESTReader/forwardedMessage(in:at:)``: a message read without its
/// forwarded messages, then each of them read from the document, puts back
/// the message the import reads whole.
@Suite struct RESTForwardedReadingTests {
    static func text(_ text: String) -> String {
        #"{"MsgType":"TIMTextElem","MsgContent":{"Text":"\#(text)"}}"#
    }

    static func forwarded(_ body: [String], seq: Int = 1) -> String {
        #"{"From_Account":"alice","To_Account":"bob","MsgSeq":\#(seq),"MsgRandom":1,"MsgTimeStamp":1,"MsgBody":["#
            + body.joined(separator: ",") + "]}"
    }

    /// A relay element; `typeFirst` puts MsgType ahead of MsgContent.
    static func relay(_ messages: [String], typeFirst: Bool = true) -> String {
        let content =
            #"{"Title":"history","MsgNum":\#(messages.count),"CompatibleText":"[history]","AbstractList":["a"],"MsgList":["#
            + messages.joined(separator: ",") + "]}"
        return typeFirst
            ? #"{"MsgType":"TIMRelayElem","MsgContent":\#(content)}"#
            : #"{"MsgContent":\#(content),"MsgType":"TIMRelayElem"}"#
    }

    /// A message of a text, a relay of three (the second forwarding a relay
    /// of two, behind its content), and a relay of one around an empty relay.
    static let nested: String = {
        let inner = relay(
            [forwarded([text("x")], seq: 7), forwarded([text("y"), text("z")], seq: 8)], typeFirst: false)
        let first = relay([
            forwarded([text("a")], seq: 1), forwarded([text("b"), inner], seq: 2), forwarded([text("c")], seq: 3),
        ])
        let second = relay([forwarded([relay([])], seq: 4)])
        return #"{"From_Account":"alice","To_Account":"bob","MsgBody":["#
            + [text("t"), first, second].joined(separator: ",")
            + "]}"
    }()

    /// The message with each relay's forwarded messages read in place.
    static func reassembled(_ document: String) throws -> Message {
        let reader = RESTReader(limits: .default, keep: 0)
        return try RESTReader.withDocument(Array(document.utf8), limits: .default) { json in
            let (root, lists) = reader.messageLeavingForwarded(document: &json)
            func filled(_ message: Message, _ lists: [RESTReader.ForwardedList]) -> Message {
                var message = message
                for list in lists {
                    guard case .merger(var merger)? = message.elems[list.elem].kind else {
                        Issue.record("elem \(list.elem) is not a relay")
                        continue
                    }
                    // The stand-ins count the forwarded messages.
                    #expect(merger.messages == Array(repeating: Message(), count: list.count))
                    merger.messages = (0..<list.count).map { index in
                        let (forwarded, nested) = reader.forwardedMessage(in: list, at: index)
                        return filled(forwarded, nested)
                    }
                    message.elems[list.elem].kind = .merger(merger)
                }
                return message
            }
            return filled(root, lists)
        }
    }

    @Test func forwardedMessagesReadOneAtATimePutTheMessageBack() throws {
        let whole = try RESTCodec.importMessage(Array(Self.nested.utf8)).value
        #expect(try Self.reassembled(Self.nested) == whole)
        guard case .merger(let merger)? = whole.elems[1].kind else {
            Issue.record("elem 1 is not a relay")
            return
        }
        #expect(merger.messages.count == 3)
    }

    @Test func aBareBodyAndAMessageWithoutRelaysComeBackWhole() throws {
        let body = "[" + [Self.text("a"), Self.relay([Self.forwarded([Self.text("b")])])].joined(separator: ",") + "]"
        #expect(try Self.reassembled(body) == RESTCodec.importMessage(Array(body.utf8)).value)
        let plain = Self.forwarded([Self.text("a"), Self.text("b")])
        #expect(try Self.reassembled(plain) == RESTCodec.importMessage(Array(plain.utf8)).value)
    }
}
