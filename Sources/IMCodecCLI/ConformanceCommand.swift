import ArgumentParser
import Foundation
import IMCodecConformance

/// `imcodec conformance`: runs the golden vectors against the library or a
/// testee process.
struct ConformanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance",
        abstract: "Check an implementation against the golden vectors.",
        discussion: """
            Runs every case of the vector files (Vectors/README.md) against the \
            imcodec Swift library in this process, or, with --testee, against \
            another implementation driven over the testee protocol \
            (docs/TESTEE.md): the command is started once under /bin/sh and \
            requests are streamed to it. A case that takes longer than --timeout \
            fails and the testee is killed and restarted for the remaining cases; \
            a testee that crashes is restarted too.

            Prints each unexpected result with what differed and a summary per \
            area. A failure list (one 'case-id  # reason' per line) names cases \
            known to fail; a listed case that passes is an error.

            The vectors are read from ./Vectors by default: run from the \
            repository root, or pass --vectors.

            Exit status: 0 when every case is as expected; 1 when a case failed \
            or a listed case passed; 64 on a usage error.

            Examples:
              swift run imcodec conformance
              swift run imcodec conformance --testee "$(swift build --show-bin-path)/imcodec testee"
              imcodec conformance --testee ./my-testee --failure-list known-failures.txt \\
                  --junit conformance.xml --json conformance.json
            """
    )

    @Option(help: ArgumentHelp("The vectors directory.", valueName: "dir"))
    var vectors = "Vectors"

    @Option(
        help: ArgumentHelp(
            "A shell command line that starts a testee; without it the library is checked in-process.",
            valueName: "command"))
    var testee: String?

    @Option(help: ArgumentHelp("Cases expected to fail, one 'case-id  # reason' per line.", valueName: "file"))
    var failureList: String?

    @Option(help: ArgumentHelp("Write a JUnit XML report here.", valueName: "file"))
    var junit: String?

    @Option(help: ArgumentHelp("Write a JSON report here.", valueName: "file"))
    var json: String?

    @Option(help: ArgumentHelp("The most seconds one case may take with a testee process.", valueName: "seconds"))
    var timeout: Double = 10

    @Option(
        name: .customLong("filter"),
        help: ArgumentHelp("Run only cases whose id contains this text; repeatable.", valueName: "text"))
    var filters: [String] = []

    func validate() throws {
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be a positive number") }
    }

    func run() throws {
        var session = ConformanceSession()
        session.vectorsDirectory = vectors
        session.testeeCommand = testee
        session.failureListPath = failureList
        session.junitPath = junit
        session.jsonPath = json
        session.timeout = .milliseconds(Int64((timeout * 1000).rounded()))
        session.filters = filters
        let report: RunReport
        do {
            report = try session.run { print($0) }
        } catch let error as ConformanceSession.SetupError {
            FileHandle.standardError.write(Data("error: \(error.description)\n".utf8))
            throw ExitCode.failure
        }
        if !report.isSuccess { throw ExitCode.failure }
    }
}
