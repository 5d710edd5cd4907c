import ArgumentParser
import Foundation
import IMCodecConformance

/// `imcodec differential`: fuzzes implementations against each other
/// through the testee protocol.
struct DifferentialCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "differential",
        abstract: "Fuzz implementations against the library: generated and mutated requests, answers compared.",
        discussion: """
            Generates requests from the model (every elem kind, number and \
            unicode edge cases, merger chains around the depth limit) and \
            mutates the vectors' inputs (payloads as wire fields, frames with \
            their checksums kept, streams re-chunked, JSON as values), sends \
            each to the library in this process and to every --testee, and \
            compares the answers: bytes, JSON as values, error code and path, \
            findings. Each disagreement is shrunk to a minimal request and \
            grouped by its signature (operation, the library's answer, the \
            testee's answer). A testee's failure list declares the operations \
            it skips and its known disagreements: \
            'differential OPERATION REFERENCE OTHER  # reason'.

            Exit status: 0 when every disagreement is listed; 1 when one is \
            not; 2 when the vectors or a failure list cannot be read; 64 on a \
            usage error.

            Examples:
              imcodec differential --testee testees/c/testee \\
                  --failure-list testees/c/failure-list.txt --seconds 15
              imcodec differential --testee testees/java/testee --count 100000 \\
                  --cases found.json --html found.html
              imcodec differential --testee testees/js/testee --seconds 12 \\
                  --json js-differential.json
              imcodec report swift.json js.json js-differential.json
            """
    )

    @Option(help: ArgumentHelp("The vectors directory, whose inputs are mutated.", valueName: "dir"))
    var vectors = "Vectors"

    @Option(help: ArgumentHelp("A testee command line to compare with the library; repeatable.", valueName: "command"))
    var testee: [String] = []

    @Option(
        help: ArgumentHelp(
            "The failure list of the testee at the same position (files joined by commas are merged); repeatable.",
            valueName: "file"))
    var failureList: [String] = []

    @Option(help: ArgumentHelp("The name of the testee at the same position; repeatable.", valueName: "name"))
    var name: [String] = []

    @Option(help: ArgumentHelp("The generator's seed.", valueName: "n"))
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("Stop after this many requests.", valueName: "n"))
    var count: Int?

    @Option(help: ArgumentHelp("Stop after this many seconds.", valueName: "seconds"))
    var seconds: Double?

    @Option(
        name: .customLong("operation"),
        help: ArgumentHelp("Send only this testee-protocol operation; repeatable.", valueName: "name"))
    var operations: [String] = []

    @Option(help: ArgumentHelp("The most seconds spent shrinking one disagreement.", valueName: "seconds"))
    var shrinkSeconds: Double = 10

    @Option(help: ArgumentHelp("Write the minimal cases here as a vector file.", valueName: "file"))
    var cases: String?

    @Option(help: ArgumentHelp("Write the differential section as an HTML page here.", valueName: "file"))
    var html: String?

    @Option(
        help: ArgumentHelp(
            "Write the run as a JSON report here, which 'imcodec report' sets below the conformance matrix.",
            valueName: "file"))
    var json: String?

    @Option(
        name: .customLong("matrix"),
        help: ArgumentHelp(
            "A conformance run's JSON report to set above the differential section in --html; repeatable.",
            valueName: "file"))
    var matrixReports: [String] = []

    func validate() throws {
        guard !testee.isEmpty else { throw ValidationError("name at least one --testee") }
        guard failureList.isEmpty || failureList.count == testee.count else {
            throw ValidationError("give one --failure-list per --testee, in the same order, or none")
        }
        guard name.isEmpty || name.count == testee.count else {
            throw ValidationError("give one --name per --testee, in the same order, or none")
        }
        guard count != nil || seconds != nil else { throw ValidationError("bound the run with --count or --seconds") }
        if let seconds {
            guard seconds > 0, seconds.isFinite else { throw ValidationError("--seconds must be positive") }
        }
        for operation in operations where !FailureList.operations.contains(operation) {
            throw ValidationError("\(operation) is not an operation of the testee protocol")
        }
    }

    func run() throws {
        let files: [VectorFile]
        var implementations: [DifferentialRun.Implementation] = []
        do {
            files = try VectorLoader.loadDirectory(vectors)
            for (index, command) in testee.enumerated() {
                var list = FailureList()
                if !failureList.isEmpty {
                    for path in failureList[index].split(separator: ",") {
                        list = list.merging(
                            try FailureList(parsing: String(contentsOfFile: String(path), encoding: .utf8)))
                    }
                }
                let label = name.isEmpty ? command : name[index]
                implementations.append(.init(name: label, testee: ProcessTestee(command: command), failureList: list))
            }
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(2)
        }
        var options = DifferentialRun.Options()
        options.seed = seed
        options.maxRequests = count
        options.duration = seconds.map { .milliseconds(Int64(($0 * 1000).rounded())) }
        options.operations = operations.isEmpty ? nil : Set(operations)
        options.shrinkBudget = .milliseconds(Int64((shrinkSeconds * 1000).rounded()))
        let terminal = isatty(2) == 1
        let run = DifferentialRun(
            reference: InProcessTestee(), referenceName: "library", implementations: implementations, vectors: files,
            options: options)
        var lastDraw = ContinuousClock.now
        let result = run.run { requests, disagreements in
            guard terminal, ContinuousClock.now - lastDraw >= .milliseconds(200) else { return }
            lastDraw = ContinuousClock.now
            FileHandle.standardError.write(
                Data("\r\u{1B}[K  differential: \(requests) requests, \(disagreements) disagreements".utf8))
        }
        if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        for implementation in implementations { _ = implementation.testee.finish() }
        print(result.text(), terminator: "")
        try write(result)
        if !result.unlisted.isEmpty {
            print("\(result.unlisted.count) disagreements no failure list names")
            throw ExitCode.failure
        }
    }

    private func write(_ result: DifferentialResult) throws {
        do {
            if let cases {
                try result.vectorFile().write(toFile: cases, atomically: true, encoding: .utf8)
            }
            let reported = ReportedDifferentialRun(result, casesFile: cases)
            if let json {
                try reported.json().write(toFile: json, atomically: true, encoding: .utf8)
            }
            if let html {
                var matrix: ReportMatrix?
                if !matrixReports.isEmpty {
                    matrix = try ReportMatrix(
                        matrixReports.map { try ReportedRun(json: String(contentsOfFile: $0, encoding: .utf8)) })
                }
                var linked = reported
                linked.casesFile = cases.map { linkPath($0, fromPageAt: html) }
                try HTMLReport.matrix(matrix, differentialRuns: [linked]).write(
                    toFile: html, atomically: true, encoding: .utf8)
            }
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}
