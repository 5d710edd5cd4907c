import Foundation
import IMCodec
import IMCodecREST
import IMCodecValidation
import Testing

/// Whole inputs through ``InputValidator``: JSON values and arrays, streams
/// of frames and REST documents, and the JSON report of
/// ``ValidationReport``. Expected codes and paths are written by hand from
/// docs/spec/validation.md and Sources/IMCodecREST/IMCodecREST.docc/REST.md.
@Suite struct InputValidatorTests {
    /// A valid one-to-one message.
    static let valid = #"{"msgId":"m1","sender":"alice","receiver":"bob","elems":[{"text":{"text":"hi"}}]}"#
    /// A message with no target and no elem: M-rules target-missing at the
    /// root and elems-missing at `elems`.
    static let untargeted = #"{"msgId":"m2","elems":[]}"#

    /// Code and path of every finding, with its frame when it has one.
    static func summary(_ report: ValidationReport) -> [String] {
        report.findings.map { located in
            let frame = located.frame.map { "#\($0) " } ?? ""
            return frame + located.finding.code.rawValue + " " + located.finding.path.description
        }
    }

    static func frame(_ json: String) throws -> [UInt8] {
        try FrameEncoder(policy: .disabled).encode(FramePayload(kind: .message, jsonString: json))
    }

    @Test func validatesOneJSONValueWithPathsFromItsRoot() {
        let report = InputValidator.validate(Array(Self.untargeted.utf8), named: "one.json")
        #expect(report.name == "one.json")
        #expect(report.failure == nil)
        #expect(Self.summary(report) == ["rule.message.target-missing ", "rule.message.elems-missing elems"])
        #expect(report.errorCount == 2)
        #expect(report.warningCount == 0)
    }

    @Test func prefixesTheFindingsOfAJSONArrayWithTheEntryIndex() {
        let input = "[\(Self.valid),\(Self.untargeted)]"
        let report = InputValidator.validate(Array(input.utf8))
        #expect(report.failure == nil)
        #expect(Self.summary(report) == ["rule.message.target-missing [1]", "rule.message.elems-missing [1].elems"])
    }

    @Test func endsTheWalkAtAnEntryThatDoesNotDecodeAndKeepsEarlierFindings() throws {
        let input = #"[\#(Self.untargeted),{"elems":[{"text":{"bogus":1}}]},\#(Self.untargeted)]"#
        let report = InputValidator.validate(Array(input.utf8))
        #expect(Self.summary(report) == ["rule.message.target-missing [0]", "rule.message.elems-missing [0].elems"])
        let failure = try #require(report.failure)
        #expect(failure.code.rawValue == "json.unknown-field")
        #expect(failure.path.description == "[1].elems[0].text.bogus")
        #expect(report.failedFrame == nil)
    }

    @Test func readsJSONAfterAByteOrderMarkAndLeadingWhitespace() {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let report = InputValidator.validate(bom + Array(" \n\t\(Self.untargeted)".utf8))
        #expect(report.failure == nil)
        #expect(Self.summary(report) == ["rule.message.target-missing ", "rule.message.elems-missing elems"])
    }

    @Test func validatesJSONOfTheGivenKind() {
        // F1: a remark of 97 UTF-8 bytes, one past the 96 allowed.
        let remark = String(repeating: "字", count: 32) + "a"
        let event = #"{"friendRequest":{"identifier":"user_dave","remark":"\#(remark)"}}"#
        let report = InputValidator.validate(Array(event.utf8), format: .jsonOrFrames(kind: .event))
        #expect(Self.summary(report) == ["limit.friend.remark-bytes friendRequest.remark"])
        #expect(report.findings.first?.finding.limit == 96)
        #expect(report.findings.first?.finding.actual == 97)

        let asMessage = InputValidator.validate(Array(event.utf8), format: .jsonOrFrames(kind: .message))
        #expect(asMessage.failure?.code.rawValue == "json.unknown-field")
        #expect(asMessage.failure?.path.description == "friendRequest")
    }

    @Test func aJSONBatchReadMessageByMessageKeepsTheBatchRules() {
        // M21 (docs/spec/validation.md): a batch holds no AVChatRoom and no
        // online-only message; the findings come after each message's own.
        let avChatRoom =
            #"{"msgId":"m3","sender":"alice","groupId":"@TGS#2C5SZEAEF","groupType":"AVChatRoom","#
            + #""elems":[{"text":{"text":"hi"}}]}"#
        let onlineOnly =
            #"{"msgId":"m4","sender":"alice","receiver":"bob","onlineUserOnly":true,"#
            + #""elems":[{"text":{"text":"hi"}}]}"#
        let batch = #"{"messages":[\#(Self.valid),\#(avChatRoom),\#(onlineOnly),\#(Self.untargeted)]}"#
        let report = InputValidator.validate(Array(batch.utf8), format: .jsonOrFrames(kind: .batch))
        #expect(report.failure == nil)
        #expect(
            Self.summary(report) == [
                "rule.batch.avchatroom messages[1].groupType", "rule.batch.online-only messages[2].onlineUserOnly",
                "rule.message.target-missing messages[3]", "rule.message.elems-missing messages[3].elems",
            ])
    }

    @Test func refusesAJSONDocumentOverTheDocumentLimit() {
        var limits = DecodingLimits.default
        limits.maxDocumentBytes = Self.valid.utf8.count - 1
        let report = InputValidator.validate(Array(Self.valid.utf8), decodingLimits: limits)
        #expect(report.failure?.code.rawValue == "limit.document-size")
        #expect(report.failure?.limit == Int64(Self.valid.utf8.count - 1))
        #expect(report.failure?.observed == Int64(Self.valid.utf8.count))
        limits.maxDocumentBytes = Self.valid.utf8.count
        #expect(InputValidator.validate(Array(Self.valid.utf8), decodingLimits: limits).failure == nil)
    }

    @Test func validatesEveryFrameOfAStreamAndNamesItsFrame() throws {
        let stream = try Self.frame(Self.valid) + Self.frame(Self.untargeted)
        #expect(stream.first == 0x01)
        let report = InputValidator.validate(stream)
        #expect(report.failure == nil)
        #expect(Self.summary(report) == ["#1 rule.message.target-missing ", "#1 rule.message.elems-missing elems"])
    }

    @Test func reportsTheFrameAStreamEndsInAndKeepsEarlierFindings() throws {
        let stream = try Self.frame(Self.untargeted) + Self.frame(Self.valid)
        let report = InputValidator.validate(Array(stream.dropLast(3)))
        #expect(Self.summary(report) == ["#0 rule.message.target-missing ", "#0 rule.message.elems-missing elems"])
        #expect(report.failure?.code.rawValue == "frame.truncated")
        #expect(report.failedFrame == 1)
    }

    @Test func anEmptyInputHoldsNoValue() {
        let report = InputValidator.validate([])
        #expect(report.findings.isEmpty)
        #expect(report.failure == nil)
    }

    @Test func readsFramesFromTheFirstByteEvenAfterAByteOrderMark() throws {
        // 0xEF, the mark's first byte, is no frame version (frames are version 1).
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        for input in [bom, try bom + Self.frame(Self.valid)] {
            let report = InputValidator.validate(input)
            #expect(report.findings.isEmpty)
            #expect(report.failure?.code.rawValue == "frame.version")
            #expect(report.failedFrame == 0)
        }
    }

    @Test func validatesARESTDocumentWithRESTPaths() {
        let document =
            #"{"MsgBody":[{"MsgType":"TIMImageElem","MsgContent":{"UUID":"u","ImageFormat":9,"ImageInfoArray":[{"Type":1,"URL":5}]}}]}"#
        let report = InputValidator.validate(Array(document.utf8), format: .restAPI, limits: .current)
        #expect(report.failure == nil)
        let level = "MsgBody[0].MsgContent.ImageInfoArray[0]"
        #expect(
            Self.summary(report) == [
                "rest.type \(level).URL", "rest.missing-key \(level).Size", "rest.missing-key \(level).Width",
                "rest.missing-key \(level).Height",
            ])
        // The same text as proto3 JSON is not a message: REST is never sniffed.
        let asJSON = InputValidator.validate(Array(document.utf8))
        #expect(asJSON.failure?.code.rawValue == "json.unknown-field")
    }

    @Test func theJSONReportHoldsEveryFileFindingAndFailure() throws {
        let stream = try Self.frame(Self.untargeted)
        let reports = [
            InputValidator.validate(Array("[\(Self.valid),\(Self.untargeted)]".utf8), named: "a.json"),
            InputValidator.validate(stream + [0x01], named: "b.frames"),
        ]
        let text = ValidationReport.json(reports, profile: "current")
        #expect(!text.hasSuffix("\n"))
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(root["profile"] as? String == "current")
        #expect(root["errors"] as? Int == 4)
        #expect(root["warnings"] as? Int == 0)
        let files = try #require(root["files"] as? [[String: Any]])
        #expect(files.map { $0["file"] as? String } == ["a.json", "b.frames"])

        let first = try #require(files[0]["findings"] as? [[String: Any]])
        #expect(first.map { $0["path"] as? String } == ["[1]", "[1].elems"])
        #expect(first.allSatisfy { $0["frame"] == nil && $0["limit"] is NSNull && $0["actual"] is NSNull })
        #expect(first.first?["code"] as? String == "rule.message.target-missing")
        #expect(first.first?["severity"] as? String == "error")
        #expect(files[0]["error"] == nil)

        let second = try #require(files[1]["findings"] as? [[String: Any]])
        #expect(second.map { $0["frame"] as? Int } == [0, 0])
        let error = try #require(files[1]["error"] as? [String: Any])
        #expect(error["code"] as? String == "frame.truncated")
        #expect(error["frame"] as? Int == 1)
    }
}
