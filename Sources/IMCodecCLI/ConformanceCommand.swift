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
            (docs/spec/testee-protocol.md): the command is started once under /bin/sh and \
            requests are streamed to it. A case that takes longer than --timeout \
            fails and the testee is killed and restarted for the remaining cases; \
            a testee that crashes is restarted too.

            Prints each unexpected result with what differed and a summary per \
            area. A case passes only when every one of its checks ran and \
            passed. A failure list declares what the testee does not do: \
            'skip OPERATION  # reason' for an operation it does not implement \
            (a skipped answer to any other operation fails the case), and \
            'case-id  FAILURE  # reason' for a case it is known to fail, where \
            FAILURE is runtime-error, wrong-answer or error:CODE. A listed case \
            that passes, is skipped or fails another way is an error, and so is \
            an entry that names no case, a declared skip never used, a filter \
            that selects nothing, and a testee that does not exit cleanly. \
            --require AREA fails the run when a case of that area is skipped.

            The vectors are read from ./Vectors by default: run from the \
            repository root, or pass --vectors.

            Exit status: 0 when every case is as expected; 1 when a case failed, \
            a listed case did not fail as listed, or the run had a problem; 64 on \
            a usage error.

            Examples:
              swift run imcodec conformance
              swift run imcodec conformance --testee "$(swift build --show-bin-path)/imcodec testee"
              imcodec conformance --testee ./my-testee --failure-list known-failures.txt \\
                  --require frames --junit conformance.xml --json conformance.json
              imcodec conformance --testee testees/java/testee --name java \\
                  --failure-list testees/java/failure-list.txt --json java.json --html java.html

            --html writes one self-contained page (no external files): a summary \
            per area and every case with its status, checks and what happened, \
            with a filter for failures. --json reports of several runs are set \
            side by side by 'imcodec report'; --name is the name a run goes by \
            there (default: LANGUAGE for a testee started as \
            testees/LANGUAGE/testee, else the testee command, and \
            'in-process (imcodec Swift library)' without --testee).
            """
    )

    @Option(help: ArgumentHelp("The vectors directory.", valueName: "dir"))
    var vectors = "Vectors"

    @Option(
        help: ArgumentHelp(
            "A shell command line that starts a testee; without it the library is checked in-process.",
            valueName: "command"))
    var testee: String?

    @Option(
        help: ArgumentHelp(
            "Declared skips ('skip OPERATION  # reason') and known failures ('case-id  FAILURE  # reason').",
            valueName: "file"))
    var failureList: String?

    @Option(
        name: .customLong("require"),
        help: ArgumentHelp("Fail when a case of this area is skipped or none runs; repeatable.", valueName: "area"))
    var requiredAreas: [String] = []

    @Option(help: ArgumentHelp("Write a JUnit XML report here.", valueName: "file"))
    var junit: String?

    @Option(help: ArgumentHelp("Write a JSON report here.", valueName: "file"))
    var json: String?

    @Option(help: ArgumentHelp("Write a self-contained HTML report here.", valueName: "file"))
    var html: String?

    @Option(
        help: ArgumentHelp(
            "The implementation's name in the reports (default: LANGUAGE for testees/LANGUAGE/testee).",
            valueName: "name"))
    var name: String?

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
        session.htmlPath = html
        session.implementation = name
        session.timeout = .milliseconds(Int64((timeout * 1000).rounded()))
        session.filters = filters
        session.requiredAreas = requiredAreas
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
