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

            Exit status: 0 when the matrix was made; 1 when a file is not a \
            conformance report or two reports name the same implementation; 2 \
            when a file cannot be read; 64 on a usage error. The runs' own \
            results do not change it: 'imcodec conformance' decides those.

            Examples:
              imcodec conformance --json swift.json --name swift
              imcodec conformance --testee testees/java/testee --name java \\
                  --failure-list testees/java/failure-list.txt --json java.json
              imcodec report swift.json java.json
              imcodec report --html matrix.html swift.json c.json python.json java.json
            """
    )

    @Argument(
        help: ArgumentHelp("JSON reports of conformance runs, one column each, in this order.", valueName: "file"))
    var reports: [String]

    @Option(help: ArgumentHelp("Write the matrix as a self-contained HTML page here.", valueName: "file"))
    var html: String?

    func validate() throws {
        guard !reports.isEmpty else { throw ValidationError("name at least one JSON report") }
    }

    func run() throws {
        var runs: [ReportedRun] = []
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
            do {
                runs.append(try ReportedRun(json: text))
            } catch {
                fail("'\(path)' is not a conformance report: \(error)")
                throw ExitCode.failure
            }
        }
        let matrix: ReportMatrix
        do {
            matrix = try ReportMatrix(runs)
        } catch {
            fail("\(error)")
            throw ExitCode.failure
        }
        print(matrix.text())
        if let html {
            do {
                try HTMLReport.matrix(matrix).write(toFile: html, atomically: true, encoding: .utf8)
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
