import IMCodec
import IMCodecREST
import IMCodecValidation
import Testing

/// ``RESTValidator`` reads a message's forwarded messages from the document
/// as the validator reaches them, never the whole message at once: its
/// findings are those of the message imported whole, in the same order at
/// the same paths, at the merger limit and on each side of it.
@Suite struct RESTValidatorForwardedTests {
    static func text(_ text: String) -> String {
        #"{"MsgType":"TIMTextElem","MsgContent":{"Text":"\#(text)"}}"#
    }

    /// A forwarded message to `bob`; with `group`, to a group as well, which
    /// the validator reports (`rule.message.target-ambiguous`).
    static func forwarded(_ body: [String], group: Bool = false) -> String {
        #"{"From_Account":"alice","To_Account":"bob",\#(group ? #""GroupId":"g","# : "")"#
            + #""MsgSeq":1,"MsgRandom":1,"MsgTimeStamp":1,"MsgBody":["# + body.joined(separator: ",") + "]}"
    }

    static func relay(_ messages: [String]) -> String {
        #"{"MsgContent":{"Title":"history","MsgNum":\#(messages.count),"CompatibleText":"[history]","#
            + #""AbstractList":["a"],"MsgList":["# + messages.joined(separator: ",")
            + #"]},"MsgType":"TIMRelayElem"}"#
    }

    /// A message whose relay forwards one message holding a relay of
    /// `count` messages, the last of them naming a group as well; then a
    /// relay of two.
    static func document(forwarding count: Int) -> [UInt8] {
        var messages = Array(repeating: forwarded([text("x"), text("y")]), count: count - 1)
        messages.append(forwarded([text("z")], group: true))
        let outer = relay([forwarded([text("a"), relay(messages)])])
        let second = relay([forwarded([text("b")]), forwarded([text("c")], group: true)])
        return Array(
            (#"{"From_Account":"alice","To_Account":"bob","MsgBody":["#
                + [outer, text("t"), second].joined(separator: ",")
                + "]}").utf8)
    }

    /// The findings of the message imported whole, with REST paths: what
    /// ``RESTValidator`` reported while it held the whole message.
    static func wholeFindings(_ document: [UInt8], limits: ValidationLimits) throws -> [String] {
        let message = try RESTCodec.importMessage(document).value
        return Validator.validate(message, limits: limits).map {
            "\($0.code) \(RESTPath.translate($0.path, listKey: nil)) \($0.actual.map(String.init) ?? "-")"
        }
    }

    static func findings(_ document: [UInt8], limits: ValidationLimits) -> [String] {
        RESTValidator.validate(document, limits: limits).map {
            "\($0.code) \($0.path) \($0.actual.map(String.init) ?? "-")"
        }
    }

    @Test func aMergerPastTheLimitIsFoundWhereTheWholeMessageHasIt() throws {
        let document = Self.document(forwarding: 301)
        let findings = Self.findings(document, limits: .sdkGuide)
        #expect(findings == (try Self.wholeFindings(document, limits: .sdkGuide)))
        #expect(
            findings == [
                "limit.merger.messages MsgBody[0].MsgContent.MsgList[0].MsgBody[1].MsgContent.MsgList 301",
                "rule.message.target-ambiguous MsgBody[0].MsgContent.MsgList[0].MsgBody[1].MsgContent.MsgList[300] -",
                "rule.message.target-ambiguous MsgBody[2].MsgContent.MsgList[1] -",
            ])
    }

    @Test func aMergerAtTheLimitIsValidatedWhole() throws {
        let document = Self.document(forwarding: 300)
        let findings = Self.findings(document, limits: .sdkGuide)
        #expect(findings == (try Self.wholeFindings(document, limits: .sdkGuide)))
        // The last forwarded message is reached: its finding is there.
        #expect(
            findings == [
                "rule.message.target-ambiguous MsgBody[0].MsgContent.MsgList[0].MsgBody[1].MsgContent.MsgList[299] -",
                "rule.message.target-ambiguous MsgBody[2].MsgContent.MsgList[1] -",
            ])
    }

    @Test func aMessageListsMessagesAreValidatedAsTheWholeBatchIs() throws {
        let sound =
            #"{"MsgType":"TIMSoundElem","MsgContent":{"Url":"u","UUID":"s","Size":1,"Second":1,"#
            + #""Download_Flag":1}}"#
        var messages = Array(repeating: Self.forwarded([Self.text("x")]), count: 300)
        messages.append(Self.forwarded([Self.text("y"), sound], group: true))
        let first = Self.forwarded([Self.text("a"), Self.relay([Self.forwarded([Self.relay(messages)])])])
        let second = Self.forwarded([Self.relay([Self.forwarded([Self.text("b")], group: true)])])
        let document = Array((#"{"MsgList":["# + first + "," + second + "]}").utf8)
        let batch = try RESTCodec.importBatch(document).value
        var limits = ValidationLimits.current
        limits.maxMessageBodyBytes = 1_000
        var modelLimits = limits
        modelLimits.maxMessageBodyBytes = nil
        var expected = batch.messages.enumerated().flatMap { index, message in
            Validator.validate(message, limits: modelLimits).map {
                var path = $0.path
                path.prepend(FieldPath([.field("messages"), .index(index)]))
                return "\($0.code) \(RESTPath.translate(path, listKey: "MsgList")) \($0.actual.map(String.init) ?? "-")"
            }
        }
        // The first message's MsgBody, every forwarded message in it: its export without an envelope.
        var body = Message()
        body.elems = batch.messages[0].elems
        let size = try RESTCodec.export(body).utf8.count
        #expect(size > 1_000)
        expected.append("limit.message.body-bytes MsgList[0].MsgBody \(size)")
        expected.append(
            "rule.rest.download-flag MsgList[0].MsgBody[1].MsgContent.MsgList[0].MsgBody[0].MsgContent.MsgList[300]"
                + ".MsgBody[1].MsgContent.Download_Flag 1")
        let findings = Self.findings(document, limits: limits)
        #expect(findings == expected)
        #expect(
            findings.contains(
                "limit.merger.messages MsgList[0].MsgBody[1].MsgContent.MsgList[0].MsgBody[0].MsgContent.MsgList 301"))
    }

    @Test func theBodySizeCountsEveryForwardedMessage() throws {
        // A bare MsgBody: its canonical export is the MsgBody the rule measures.
        let elements = [
            Self.relay([Self.forwarded([Self.text("a"), Self.relay([Self.forwarded([Self.text("b")])])])]),
            Self.text("t"), Self.relay(Array(repeating: Self.forwarded([Self.text("c")]), count: 3)),
        ]
        let document = Array(("[" + elements.joined(separator: ",") + "]").utf8)
        let exported = try RESTCodec.export(RESTCodec.importMessage(document).value).utf8.count
        var limits = ValidationLimits.current
        for limit in [exported - 1, exported] {
            limits.maxMessageBodyBytes = limit
            let sizes = RESTValidator.validate(document, limits: limits).filter { $0.code == .messageBodyBytes }
            #expect(sizes.map(\.actual) == (limit < exported ? [Int64(exported)] : []), "limit \(limit)")
            #expect(sizes.map(\.path.description) == (limit < exported ? ["MsgBody"] : []), "limit \(limit)")
        }
    }
}
