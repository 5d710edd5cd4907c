import Testing

@testable import IMCodec

/// ``JSONReader/skipValueOverExtents()`` ends where ``JSONReader/skipValue()``
/// ends, whether the containers under the recorded keys are the value, inside
/// it, nested in one another, or absent.
@Suite struct JSONSkipTests {
    static let documents = [
        #"{"a":[{"MsgList":[1,{"MsgList":[2,"]"]}]},"x\"}{[",{"b":{"MsgContent":{"k":"}"}}}],"MsgList":[[]],"c":1}"#,
        #"{"a":{"MsgContent":{"MsgList":[{"MsgContent":[]}]},"MsgList":{}},"b":[[],{}],"c":"MsgList"}"#,
        #"{"a":[1,2,{"x":[{"y":{}}]}],"b":true,"c":null,"d":-1.5e3}"#,
    ]

    /// The end of every member's value of the root object, and of the root,
    /// stepping over them with `skip`.
    static func ends(_ document: String, _ skip: (inout JSONReader) -> Void) throws -> [Int] {
        try JSONDocument.read(
            Array(document.utf8), limits: nil, maxNesting: 100, extentKeys: ["MsgContent", "MsgList"]
        ) { (reader) throws(IMCodecError) -> [Int] in
            var ends: [Int] = []
            var root = reader
            skip(&root)
            ends.append(root.position)
            reader.beginObject()
            while reader.nextKey() != nil {
                var value = reader
                skip(&value)
                ends.append(value.position)
                reader.skipValue()
            }
            return ends
        }
    }

    @Test func steppingOverRecordedContainersEndsWhereReadingEveryByteEnds() throws {
        for document in Self.documents {
            let expected = try Self.ends(document) { $0.skipValue() }
            #expect(try Self.ends(document) { $0.skipValueOverExtents() } == expected, "\(document)")
            #expect(expected.first == document.utf8.count)
        }
    }
}
