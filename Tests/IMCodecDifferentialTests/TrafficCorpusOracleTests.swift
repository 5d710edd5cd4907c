import IMCodec
import IMCodecOracle
import IMCodecTraffic
import Testing

/// The traffic model's messages, the benchmarks' corpus and part of
/// dictionary 2's training data, are read and written alike by this library
/// and swift-protobuf.
@Suite struct TrafficCorpusOracleTests {
    @Test func swiftProtobufReadsAndWritesEveryMessageAlike() throws {
        let corpus = Corpus(seed: 7, count: 300)
        for (message, payload) in zip(corpus.messages, corpus.payloads) {
            let oracle = try Imcodec_V1_Message(serializedBytes: payload)
            #expect(try oracle.serializedBytes() as [UInt8] == payload)
            #expect(try Message(serializedBytes: payload) == message)
        }
    }
}
