import Foundation
import IMCodec
import IMCodecREST
import IMCodecValidation
import Testing

/// `--from restapi` and `--to restapi` on the `imcodec` executable.
@Suite struct RESTCLITests {
    let cli = CLITests()

    static let callback =
        #"{"CallbackCommand":"C2C.CallbackAfterSendMsg","From_Account":"jared","To_Account":"Jonh","MsgSeq":48374,"MsgRandom":2837546,"MsgTime":1557481126,"MsgKey":"48374_2837546_1557481126","OnlineOnlyFlag":1,"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"red packet"}}],"CloudCustomData":"your cloud custom data","EventTime":1670574414123}"#

    @Test func aCallbackEncodesAndDecodesBackToItsMessage() throws {
        let encoded = try cli.imcodec("encode", "--from", "restapi", text: Self.callback)
        #expect(encoded.status == 0, "\(encoded.standardError)")
        #expect(
            encoded.standardError
                == "note: not part of the message, not encoded: CallbackCommand, MsgTime, MsgKey, OnlineOnlyFlag, EventTime\n"
        )
        let decoded = try cli.imcodec("decode", "--to", "restapi", input: encoded.standardOutputBytes)
        #expect(decoded.status == 0, "\(decoded.standardError)")
        #expect(
            decoded.standardOutput
                == #"{"From_Account":"jared","To_Account":"Jonh","MsgSeq":48374,"MsgRandom":2837546,"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"red packet"}}],"CloudCustomData":"your cloud custom data"}"#
                + "\n")
    }

    @Test func validateReportsEveryProblemWithItsJSONPath() throws {
        let broken =
            #"[{"MsgType":"TIMImageElem","MsgContent":{"UUID":"u","ImageFormat":"1","ImageInfoArray":[{"Type":1,"Size":1,"Width":1,"Height":1,"url":"x"}]}},"#
            + #"{"MsgType":"TIMSoundElem","MsgContent":{"Url":"x","UUID":"s","Size":1,"Second":1}},{"MsgType":"TIMTextElem","MsgContent":null}]"#
        let path = try cli.file(Array(broken.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try cli.imcodec("validate", "--from", "restapi", "--profile", "current", path)
        #expect(result.status == 1)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(result.standardOutput)")
        for expected in [
            "error rest.type at MsgBody[0].MsgContent.ImageFormat:",
            "error rest.key-case at MsgBody[0].MsgContent.ImageInfoArray[0].url:",
            "error rest.missing-key at MsgBody[1].MsgContent.Download_Flag:",
            "error rest.type at MsgBody[2].MsgContent:",
        ] {
            #expect(lines.contains { $0.contains(expected) }, "no line has \(expected)")
        }
        #expect(lines.last == "1 file: 4 errors, 0 warnings")
    }

    @Test func validateAcceptsACleanCallbackUnderTheCurrentProfile() throws {
        let path = try cli.file(Array(Self.callback.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try cli.imcodec("validate", "--from", "restapi", "--profile", "current", path)
        #expect(result.status == 0, "\(result.standardOutput)")
        #expect(result.standardOutput == "1 file: 0 errors, 0 warnings\n")
    }

    @Test func encodeRefusesABodyOverTheCurrentRESTLimits() throws {
        let body =
            #"[{"MsgType":"TIMFileElem","MsgContent":{"Url":"u","UUID":"f","FileSize":1,"FileName":"n","Download_Flag":1}}]"#
        let refused = try cli.imcodec("encode", "--from", "restapi", "--profile", "current", text: body)
        #expect(refused.status == 1)
        #expect(
            refused.standardError.hasPrefix(
                "error: validation.failed at MsgBody[0].MsgContent.Download_Flag: rule.rest.download-flag"))
        let seed = try cli.imcodec("encode", "--from", "restapi", text: body)
        #expect(seed.status == 0, "\(seed.standardError)")
    }

    @Test func decodeRefusesAValueWithoutARESTForm() throws {
        let frame = try FrameEncoder().encode(.message(Message(msgID: "m1", sender: "a", receiver: "b")))
        let result = try cli.imcodec("decode", "--to", "restapi", input: frame)
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("error: rest.unrepresentable at msgId:"))
    }
}
