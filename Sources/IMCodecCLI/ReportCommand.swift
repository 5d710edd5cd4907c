import ArgumentParser
import Foundation
import IMCodec
import IMCodecConformance

/// `imcodec report`: several conformance runs' JSON reports side by side.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Set several conformance runs side by side: implementations × areas.",
        discussion: """
            Reads the JSON reports of conformance runs ('imcodec conformance \
            --json FILE', one per implementation, each named by its --name) and \
            prints the matrix of implementations × vector areas: in each cell the \
            cases passed, failed (unexpected passes included), skipped as \
            declared and known failures, then how many cases the \
            implementations differ on. With --html it writes the matrix as one \
            self-contained page (no external files), in the manner of the \
            Autobahn test suite's report index: each cell drills down to the \
            cases of its area on which the implementations differ, with every \
            implementation's status and what happened.

            The JSON reports of differential runs ('imcodec differential \
            --json FILE') may be given among them: each is printed after the \
            matrix, and the page gains a differential section below it: the \
            checks run per pair, the disagreements by signature with their \
            failure lists' reasons, each signature's minimal request and \
            answers, and a link to the run's minimal cases as a vector file.

            Exit status: 0 when the matrix was made; 1 when a file is not a \
            conformance or differential report, or two conformance reports \
            name the same implementation; 2 \
            when a file cannot be read; 64 on a usage error. The runs' own \
            results do not change it: 'imcodec conformance' decides those.

            Examples:
              imcodec conformance --json swift.json --name swift
              imcodec conformance --testee testees/java/testee --name java \\
                  --failure-list testees/java/failure-list.txt --json java.json
              imcodec report swift.json java.json
              imcodec report --html matrix.html swift.json c.json python.json java.json
              imcodec report --html matrix.html swift.json java.json java-differential.json
            """
    )

    @Argument(
        help: ArgumentHelp(
            "JSON reports of conformance runs, one column each, in this order, and of differential runs.",
            valueName: "file"))
    var reports: [String]

    @Option(help: ArgumentHelp("Write the matrix as a self-contained HTML page here.", valueName: "file"))
    var html: String?

    func validate() throws {
        guard !reports.isEmpty else { throw ValidationError("name at least one JSON report") }
    }

    func run() throws {
        var runs: [ReportedRun] = []
        var differentialRuns: [ReportedDifferentialRun] = []
        for path in reports {
            // Missing, a directory or refused: reported as every command
            // reports its input (input.missing, input.directory,
            // input.unreadable), exit status 2.
            let handle = try InputOptions.open(path)
            let text: String
            do {
                text = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
            } catch {
                throw InputProblem(
                    error: IMCodecError(
                        .inputUnreadable, reason: "cannot read '\(path)': \(error.localizedDescription)"),
                    hint: "check that the file is readable by you (ls -l)", status: unreadableInputStatus
                ).reported()
            }
            let isDifferential = ReportedDifferentialRun.isDifferentialReport(text)
            do {
                if isDifferential {
                    differentialRuns.append(try ReportedDifferentialRun(json: text))
                } else {
                    runs.append(try ReportedRun(json: text))
                }
            } catch {
                fail("'\(path)' is not a \(isDifferential ? "differential" : "conformance") report: \(error)")
                throw ExitCode.failure
            }
        }
        var matrix: ReportMatrix?
        if !runs.isEmpty {
            do {
                matrix = try ReportMatrix(runs)
            } catch {
                fail("\(error)")
                throw ExitCode.failure
            }
        }
        if let matrix { print(matrix.text()) }
        for run in differentialRuns { print(run.text(), terminator: "") }
        if let html {
            do {
                // Each run's minimal cases linked from where the page is.
                let linked = differentialRuns.map {
                    var run = $0
                    run.casesFile = run.casesFile.map { linkPath($0, fromPageAt: html) }
                    return run
                }
                let page =
                    if let matrix, linked.isEmpty {
                        HTMLReport.matrix(matrix)
                    } else {
                        HTMLReport.matrix(matrix, differentialRuns: linked)
                    }
                try page.write(toFile: html, atomically: true, encoding: .utf8)
            } catch {
                fail("cannot write '\(html)': \(error.localizedDescription)")
                throw ExitCode.failure
            }
        }
    }

    private func fail(_ message: String) {
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    }
}

/// How a page written at `page` links to `target`, both paths as the user
/// gave them: relative to the page's folder when `target` is relative to the
/// working directory, as given when it is absolute or a URL.
///
/// - Parameters:
///   - target: The file the page links to.
///   - page: Where the page is written.
/// - Returns: The link.
func linkPath(_ target: String, fromPageAt page: String) -> String {
    guard !target.hasPrefix("/"), !target.contains("://") else { return target }
    let cwd = FileManager.default.currentDirectoryPath
    func components(_ path: String) -> [String] {
        let absolute = path.hasPrefix("/") ? path : cwd + "/" + path
        return URL(fileURLWithPath: absolute).standardizedFileURL.pathComponents
    }
    let to = components(target)
    let from = Array(components(page).dropLast())
    var common = 0
    while common < min(to.count, from.count), to[common] == from[common] { common += 1 }
    let up = Array(repeating: "..", count: from.count - common)
    return (up + to[common...]).joined(separator: "/")
}
