import IMCodec
import IMCodecREST
import Testing

/// REST documents are bounded as they are read, as JSON input is
/// (docs/spec/payloads.md, "JSON input"): the document's
/// size before parsing, and arrays past every count limit answered with the
/// limit a whole array would break.
@Suite struct RESTInputBoundsTests {
    @Test func aRESTBodyPastEveryLimitGetsTheAnswerOfItsLimit() throws {
        var limits = DecodingLimits()
        limits.maxDocumentBytes = 10
        // Not JSON at all: the size is judged before any byte is parsed.
        let tooLong = try #require(throws: IMCodecError.self) {
            try RESTCodec.importPayload(Array("[not JSON either, and too long]".utf8), limits: limits)
        }
        #expect(tooLong.code == .limitDocumentSize)
        let element = #"{"MsgType":"TIMTextElem","MsgContent":{"Text":"x"}}"#
        for count in [1_001, 20_000] {
            let body = "[" + Array(repeating: element, count: count).joined(separator: ",") + "]"
            let error = try #require(throws: IMCodecError.self) { try RESTCodec.importPayload(Array(body.utf8)) }
            #expect(error.reason.contains(count > 10_000 ? "more than 10000" : "\(count)"), "\(error.reason)")
            #expect(error.code == .limitElems, "\(count) elements")
            // REST names the array that holds too many (Sources/IMCodecREST/IMCodecREST.docc/REST.md, "Strictness").
            #expect(error.path.description == "MsgBody", "\(count) elements")
        }
    }
}
