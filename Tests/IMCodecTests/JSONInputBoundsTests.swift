import Testing

@testable import IMCodec

/// JSON input is bounded while it is read (docs/spec/payloads.md, "JSON input"):
/// the document's size before it is read, no tree of it, and arrays past
/// every count limit counted only as far as a reader looks, with the answers
/// a whole array would get.
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

    @Test func theFirstPassCountsArraysOnlyAsFarAsTheLargestLimitAndOne() throws {
        var limits = DecodingLimits()
        limits.maxElems = 3
        limits.maxRepeated = 5
        limits.maxBatchMessages = 4
        func count(_ entries: Int) throws -> Int? {
            let document = "[" + Array(repeating: "0", count: entries).joined(separator: ",") + "]"
            return try JSONDocument.read(Array(document.utf8), limits: limits, maxNesting: 10) { $0.beginArray() }
        }
        // Within the smallest limit: not counted, as every field accepts it.
        #expect(try count(3) == nil)
        #expect(try count(4) == 4 && count(6) == 6)
        #expect(try count(7) == 6 && count(100) == 6)
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
