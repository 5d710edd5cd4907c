import IMCodec
import IMCodecTestSupport
import IMCodecValidation
import Testing

/// The FuzzValidate check that validates a message with its forwarded
/// messages handed over one at a time (as the REST validator reads them
/// from a document) against the message validated whole.
@Suite struct ForwardedValidationCheckTests {
    /// A message whose merger forwards a message holding a merger of two,
    /// the second naming a group as well as a receiver; then a merger of
    /// three, one of them without a sender. Findings at every layer.
    static let message: Message = {
        func merger(_ messages: [Message]) -> Elem {
            .merger(MergerElem(title: "history", abstracts: ["a"], compatibleText: "[history]", messages: messages))
        }
        let plain = Message(msgID: "p", sender: "a", receiver: "b", elems: [.text("x")])
        var both = plain
        both.groupID = "g"
        var anonymous = plain
        anonymous.sender = ""
        let middle = Message(msgID: "m", sender: "a", receiver: "b", elems: [.text("y"), merger([plain, both])])
        return Message(
            msgID: "t", sender: "a", receiver: "b",
            elems: [merger([middle]), .text("z"), merger([plain, anonymous, both])])
    }()

    @Test func handingOverForwardedMessagesGivesTheWholeMessagesFindings() throws {
        for name in ValidationLimits.profileNames {
            let limits = try #require(ValidationLimits.profile(named: name))
            let findings = Validator.validate(Self.message, limits: limits)
            #expect(
                findings.filter { "\($0.path)".contains("messages[") }.count >= 2,
                "findings in forwarded messages, in \(name)")
            #expect(FuzzChecks.forwardedDifference(Self.message, limits, findings) == nil)
        }
        #expect(FuzzChecks.validation([1] + Self.message.serializedBytes()) == nil)
    }

    @Test func findingsThatDifferAreReported() throws {
        let limits = try #require(ValidationLimits.profile(named: ValidationLimits.profileNames[0]))
        let findings = Validator.validate(Self.message, limits: limits)
        #expect(FuzzChecks.forwardedDifference(Self.message, limits, Array(findings.dropLast())) != nil)
        #expect(FuzzChecks.forwardedDifference(Self.message, limits, Array(findings.reversed())) != nil)
    }

    @Test func aMessageWithoutAMergerIsNotChecked() throws {
        let limits = try #require(ValidationLimits.profile(named: ValidationLimits.profileNames[0]))
        let message = Message(msgID: "t", sender: "a", receiver: "b", elems: [.text("x")])
        #expect(FuzzChecks.forwardedDifference(message, limits, []) == nil)
    }
}
