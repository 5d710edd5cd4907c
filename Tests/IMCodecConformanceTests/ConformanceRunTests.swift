import Foundation
import IMCodecConformance
import IMCodecTestSupport
import Testing

/// The bundled vectors against the library in this process: what
/// `swift run imcodec conformance` does by default.
@Suite struct ConformanceRunTests {
    static let vectorsDirectory = repositoryRoot + "/Vectors"

    @Test func libraryPassesEveryBundledVectorInProcess() throws {
        var session = ConformanceSession()
        session.vectorsDirectory = Self.vectorsDirectory
        var lines: [String] = []
        let report = try session.run(progress: ProgressLine(enabled: false)) { lines.append($0) }
        let failures = report.unexpected.map { "\($0.id): \($0.messages.joined(separator: " | "))" }
        #expect(
            failures.isEmpty, "\(failures.count) unexpected results:\n\(failures.prefix(40).joined(separator: "\n"))")
        #expect(report.summary.total.skipped == 0)
        #expect(report.results.count >= 400)
        print(lines.suffix(3).joined(separator: "\n"))
    }
}
