import IMCodec
import IMCodecValidation
import Testing

/// A message built with `MentionText`, its JSON written here by hand from
/// the proto3 JSON mapping of `Schemas/imcodec/v1/model.proto` (fields in
/// number order: sender 2, groupId 4, atUserList 15, elems 18, atType 22).
struct MentionCase: Sendable, CustomTestStringConvertible {
    var name: String
    var text: MentionText
    var json: String

    var testDescription: String { name }
}

/// `MentionText` keeps the text elem, the @ user list and the @ type
/// consistent: every message it builds validates clean in both profiles.
@Suite struct MentionTextTests {
    static let atAll = "__kImSDK_MesssageAtALL__"

    static let cases: [MentionCase] = [
        MentionCase(
            name: "@ someone",
            text: "\(mention: "bob", as: "Bob") lunch at 12?",
            json: #"{"sender":"alice","groupId":"@TGS#2C5SZEAEF","atUserList":["bob"],"#
                + #""elems":[{"text":{"text":"@Bob lunch at 12?"}}],"atType":"GROUP_AT_TYPE_AT_ME"}"#),
        MentionCase(
            name: "@ two users, one of them twice",
            text: "\(mention: "bob", as: "Bob") and \(mention: "carol", as: "卡罗尔"), \(mention: "bob", as: "Bob")!",
            json: #"{"sender":"alice","groupId":"@TGS#2C5SZEAEF","atUserList":["bob","carol"],"#
                + #""elems":[{"text":{"text":"@Bob and @卡罗尔, @Bob!"}}],"atType":"GROUP_AT_TYPE_AT_ME"}"#),
        MentionCase(
            name: "@ all",
            text: "\(mentionAll: "All") the build is green",
            json: #"{"sender":"alice","groupId":"@TGS#2C5SZEAEF","atUserList":["\#(atAll)"],"#
                + #""elems":[{"text":{"text":"@All the build is green"}}],"atType":"GROUP_AT_TYPE_AT_ALL"}"#),
        MentionCase(
            name: "@ all and someone",
            text: "\(mentionAll: "所有人") \(mention: "bob", as: "Bob") the build is green",
            json: #"{"sender":"alice","groupId":"@TGS#2C5SZEAEF","atUserList":["\#(atAll)","bob"],"#
                + #""elems":[{"text":{"text":"@所有人 @Bob the build is green"}}],"#
                + #""atType":"GROUP_AT_TYPE_AT_ALL_AT_ME"}"#),
        MentionCase(
            name: "no mention",
            text: "just text",
            json: #"{"sender":"alice","groupId":"@TGS#2C5SZEAEF","elems":[{"text":{"text":"just text"}}]}"#),
    ]

    @Test(arguments: cases)
    func everyBuiltMessageValidatesCleanInBothProfilesAndWritesTheExpectedJSON(_ mention: MentionCase) throws {
        let message = Message(from: "alice", toGroup: "@TGS#2C5SZEAEF", mentioning: mention.text)
        #expect(message.jsonString() == mention.json)
        for profile in ValidationLimits.profileNames {
            let limits = try #require(ValidationLimits.profile(named: profile))
            #expect(Validator.validate(message, limits: limits) == [], "\(profile)")
        }
        // Framed and read back, it is the same message.
        #expect(try FrameDecoder().decode(FrameEncoder().encode(message)) == .message(message))
    }

    @Test func theStepByStepBuilderMakesWhatTheInterpolationMakes() {
        var text = MentionText()
        text.appendMentionOfAll(as: "All")
        text.append(" ")
        text.appendMention(of: "bob", as: "Bob")
        text.append(" the build is green, ")
        text.appendMention(of: Self.atAll, as: "All")
        let interpolated: MentionText = "\(mentionAll: "All") \(mention: "bob", as: "Bob") the build is green, @All"
        #expect(text == interpolated)
        #expect(text.text == "@All @Bob the build is green, @All")
        #expect(text.atUserList == [Self.atAll, "bob"])
        #expect(text.atType == .atAllAtMe)
        #expect(text.mentionsAllMembers && text.mentionsUsers)
    }

    /// The rules the builder keeps are real: the same fields set by hand the
    /// other ways are findings.
    @Test func theRulesItKeepsAreFindingsWhenBrokenByHand() {
        var message = Message(from: "alice", toGroup: "@TGS#2C5SZEAEF", mentioning: "\(mention: "bob", as: "Bob") hi")
        message.atType = .atAll
        #expect(Validator.validate(message).map(\.code) == [.atTypeMismatch])
        message.atType = .atMe
        message.elems.append(.face(FaceElem(index: 1)))
        #expect(Validator.validate(message).map(\.code) == [.atTextOnly])
        message.elems.removeLast()
        message.targetedReceivers = ["carol"]
        #expect(Validator.validate(message).map(\.code) == [.targetedWithAt])
    }
}
