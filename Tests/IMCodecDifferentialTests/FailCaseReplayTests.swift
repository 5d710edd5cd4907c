import CReferenceChecks
import Foundation
import IMCodec
import IMCodecTestSupport
import Testing

/// Replays every input a fuzz target once failed on (FuzzTesting/FailCases/)
/// through the same check the target runs, so a fixed bug stays fixed.
@Suite struct FailCaseReplayTests {
    static let checks: [(target: String, check: @Sendable ([UInt8]) -> String?)] = [
        ("FuzzPayload", FuzzChecks.payload),
        ("FuzzJSON", FuzzChecks.json),
        ("FuzzFrame", FuzzChecks.frame),
        ("FuzzStream", FuzzChecks.stream),
        ("FuzzREST", FuzzChecks.rest),
        ("FuzzValidate", FuzzChecks.validation),
        ("FuzzReference", referenceCheck),
    ]

    /// FuzzReference's checks, in C.
    @Sendable static func referenceCheck(_ input: [UInt8]) -> String? {
        input.withUnsafeBufferPointer { buffer in
            imcodec_reference_check(buffer.baseAddress, buffer.count).map { String(cString: $0) }
        }
    }

    @Test func everySavedFuzzInputPassesItsCheck() throws {
        var replayed = 0
        for (target, check) in Self.checks {
            let folder = repositoryRoot + "/FuzzTesting/FailCases/" + target
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for name in names.sorted() where !name.hasPrefix(".") && !name.hasSuffix(".md") {
                let input = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
                let finding = check(input)
                #expect(finding == nil, "\(target)/\(name): \(finding ?? "")")
                replayed += 1
            }
        }
        print("fuzz fail cases replayed: \(replayed)")
    }

    @Test func checksPassOnWellFormedAndOnRejectedInputs() throws {
        let message = Message(msgID: "m", sender: "a", receiver: "b", elems: [.text("你好")])
        let frame = try FrameEncoder().encode(.message(message))
        #expect(FuzzChecks.payload(message.serializedBytes()) == nil)
        #expect(FuzzChecks.payload([0x0A, 0x05]) == nil)
        #expect(FuzzChecks.json(Array(message.jsonString().utf8)) == nil)
        #expect(FuzzChecks.json(Array("{".utf8)) == nil)
        #expect(FuzzChecks.frame(frame) == nil)
        #expect(FuzzChecks.frame(Array(frame.dropLast())) == nil)
        #expect(FuzzChecks.stream([3, 5] + frame + frame) == nil)
        #expect(FuzzChecks.rest(Array(#"[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hi"}}]"#.utf8)) == nil)
        #expect(FuzzChecks.rest(Array(#"[{"MsgType":"TIMTextElem"}]"#.utf8)) == nil)
        let payload = message.serializedBytes()
        let batch = MessageBatch(messages: [message, message])
        let event = Event(kind: .createGroup(CreateGroupInfo(groupType: "Private", setAddOpt: true)))
        #expect(FuzzChecks.validation([1] + payload) == nil)
        #expect(FuzzChecks.validation([5] + Array(message.jsonString().utf8)) == nil)
        #expect(FuzzChecks.validation([2] + batch.serializedBytes()) == nil)
        #expect(FuzzChecks.validation([6] + Array(batch.jsonString().utf8)) == nil)
        #expect(FuzzChecks.validation([3] + event.serializedBytes()) == nil)
        #expect(FuzzChecks.validation([7] + Array(event.jsonString().utf8)) == nil)
        #expect(FuzzChecks.validation([3, 0x0A, 0x05]) == nil)
        #expect(FuzzChecks.validation([]) == nil)
        #expect(Self.referenceCheck([0, 0] + payload) == nil)
        #expect(Self.referenceCheck([1] + frame) == nil)
        #expect(Self.referenceCheck([2, 0, 1, 0, 0x16] + payload) == nil)
        #expect(Self.referenceCheck([3, 3, 5] + frame + frame) == nil)
        #expect(Self.referenceCheck([1, 0x01, 0x11]) == nil)
    }
}
