import Testing

@testable import IMCodec

/// JSON input is bounded while it is parsed (docs/spec/payloads.md, "JSON input"):
/// the document's size before parsing, and arrays past every count limit kept
/// only as far as a reader looks, with the answers a whole array would get.
@Suite struct JSONInputBoundsTests {
    func elems(_ count: Int, last: String = #"{"text":{}}"#) -> String {
        #"{"elems":["# + Array(repeating: #"{"text":{}}"#, count: count - 1).joined(separator: ",") + "," + last + "]}"
    }

    @Test func anArrayPastEveryLimitGetsTheAnswerOfItsFieldsLimit() throws {
        for count in [1_001, 10_001, 10_002, 30_000] {
            let error = try #require(throws: IMCodecError.self) { try Message(jsonString: elems(count)) }
            #expect(error.code == .limitElems && error.path.description == "elems[1000]", "\(count) elems")
        }
        var limits = DecodingLimits()
        limits.maxElems = 20_000
        #expect(try Message(jsonString: elems(20_000), limits: limits).elems.count == 20_000)
    }

    @Test func theParserKeepsNoMoreEntriesThanTheLargestLimitAndOne() throws {
        var limits = DecodingLimits()
        limits.maxElems = 3
        limits.maxRepeated = 5
        limits.maxBatchMessages = 4
        let document = "[" + Array(repeating: "0", count: 100).joined(separator: ",") + "]"
        let value = try JSONValue(parsing: Array(document.utf8), limits: limits, maxNesting: 10)
        guard case .array(let kept) = value else { Issue.record("not an array"); return }
        #expect(kept.count == 6)
    }

    @Test func aSyntaxErrorAmongTheDroppedEntriesIsStillASyntaxError() throws {
        let error = try #require(throws: IMCodecError.self) {
            try Message(jsonString: elems(20_000, last: #"{"text":}"#))
        }
        #expect(error.code == .jsonSyntax)
    }

    @Test func aDocumentPastTheSizeLimitIsRefusedBeforeParsing() throws {
        var limits = DecodingLimits()
        limits.maxDocumentBytes = 10
        // Not JSON at all: the size is judged before any byte is parsed.
        let error = try #require(throws: IMCodecError.self) {
            try Message(jsonString: "this is not JSON, and too long", limits: limits)
        }
        #expect(error.code == .limitDocumentSize && error.limit == 10 && error.observed == 30)
        #expect(try Message(jsonString: "{}", limits: limits) == Message())
    }
}
