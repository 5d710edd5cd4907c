import IMCodec
import IMCodecTraffic
import Testing

/// The traffic model is the benchmarks' corpus and part of dictionary 2's
/// training data: it must give the same messages for the same seed on every
/// run (and messages this library and swift-protobuf read and write alike:
/// `TrafficCorpusOracleTests`).
@Suite struct TrafficCorpusTests {
    @Test func theSameSeedGivesTheSameCorpus() {
        let first = Corpus(seed: 42, count: 200)
        let second = Corpus(seed: 42, count: 200)
        #expect(first.payloads == second.payloads)
        #expect(first.merger == second.merger)
        #expect(first.batches == second.batches)
        #expect(Corpus(seed: 43, count: 200).payloads != first.payloads)
    }

    @Test func theCorpusHasItsShape() {
        let corpus = Corpus(seed: Corpus.defaultSeed, count: 1_000)
        #expect(corpus.messages.count == 1_000)
        #expect(corpus.batches.count == 50)
        #expect(corpus.batches.allSatisfy { $0.messages.count == 20 })
        guard case .merger(let merger)? = corpus.merger.elems.first?.kind else {
            Issue.record("the merger message holds no merger")
            return
        }
        #expect(merger.messages.count == 300)
        // Every elem kind the model makes occurs.
        var kinds = Set<String>()
        for message in corpus.messages {
            for elem in message.elems {
                if let kind = elem.kind { kinds.insert(String(describing: kind).prefix { $0 != "(" }.description) }
            }
        }
        #expect(kinds.count >= 12, "\(kinds.sorted())")
    }
}
