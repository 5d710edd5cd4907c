import Foundation
import IMCodec
import IMCodecConformance
import IMCodecTestSupport
import IMCodecTraffic
import Testing

/// The string path of Apple releases before `UTF8Span` (README, "Apple
/// platforms"), which Linux would never take: the whole vector set, the
/// traffic corpus and a fifth of the oracle's generated population (against
/// swift-protobuf and the C reference) run through it again, and a fault
/// planted in it fails them, so their passing shows that they went through it. (The asynchronous paths
/// are two methods a caller picks: `AsyncStreamVectorTests` and
/// `AsyncFrameStreamTests` call each.)
///
/// `PortablePaths.isForced` holds for the whole process, so these tests run
/// one at a time and no other test sets it; tests of other suites that run
/// meanwhile take the portable path too, which gives them the same strings.
/// The planted fault holds for this task only.
@Suite(.serialized) struct PortablePathsTests {
    /// Runs `body` with every string made by the portable path.
    func throughThePortablePath<T>(_ body: () throws -> T) rethrows -> T {
        PortablePaths.isForced = true
        defer { PortablePaths.isForced = false }
        return try body()
    }

    /// Every bundled vector, in process, as `imcodec conformance` runs them.
    func runVectors() throws -> RunReport {
        var session = ConformanceSession()
        session.vectorsDirectory = repositoryRoot + "/Vectors"
        return try session.run(progress: ProgressLine(enabled: false)) { _ in }
    }

    @Test func everyVectorPassesThroughThePortableStringPath() throws {
        let report = try throughThePortablePath { try runVectors() }
        let failures = report.unexpected.map { "\($0.id): \($0.messages.joined(separator: " | "))" }
        #expect(failures.isEmpty, "\(failures.count) unexpected:\n\(failures.prefix(20).joined(separator: "\n"))")
        #expect(report.results.count >= 400)
    }

    @Test func theOracleAgreesThroughThePortableStringPath() throws {
        try throughThePortablePath {
            try OracleTests().agreesWithSwiftProtobuf(onPopulationOf: 5)
            try TrafficCorpusOracleTests().swiftProtobufReadsAndWritesEveryMessageAlike()
            try ReferenceDifferentialTests().swiftAndCAgree(onValues: 2_000)
            try TesteeProtocolOracleTests().responsesEncodeAsSwiftProtobufEncodesThem()
        }
    }

    /// The switch is real: with a fault planted in the portable path the
    /// vectors and the oracle fail when the switch is on, and nothing fails
    /// when it is off, because then the path is not taken.
    @Test func aFaultPlantedInThePortablePathFailsTheVectorsAndTheOracleOnlyThroughTheSwitch() throws {
        try PortablePaths.$plantedFault.withValue(true) {
            let broken = try throughThePortablePath { try runVectors() }
            #expect(broken.unexpected.count >= 100, "\(broken.unexpected.count) vectors fail with the fault")
            print(
                "a fault planted in the portable string path: \(broken.unexpected.count) of \(broken.results.count) vectors fail through the switch"
            )
            // The traffic corpus that TrafficCorpusOracleTests reads with the
            // oracle: its messages no longer come back as they were.
            let corpus = Corpus(seed: 7, count: 300)
            let differing = throughThePortablePath {
                zip(corpus.messages, corpus.payloads).filter { (try? Message(serializedBytes: $1)) != $0 }.count
            }
            #expect(differing >= 100, "\(differing) of 300 corpus messages read back differently with the fault")

            let untouched = try runVectors()
            #expect(untouched.unexpected.isEmpty, "the fault is in the portable path only")
            #expect(untouched.results.count == broken.results.count)
        }
    }
}
