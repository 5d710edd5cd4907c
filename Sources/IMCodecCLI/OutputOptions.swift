import ArgumentParser
import Foundation

/// The `--output` option shared by the subcommands.
struct OutputOptions: ParsableArguments {
    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Write to this file instead of standard output; '-' is standard output.", valueName: "file"))
    var output: String?

    /// Whether output goes to a terminal: standard output, not redirected,
    /// and not asked for by name with `--output -`.
    var isImplicitTerminal: Bool {
        output == nil && isatty(STDOUT_FILENO) == 1
    }

    /// Opens the output for writing, creating or truncating a named file.
    func open() throws -> FileHandle {
        guard let output, output != "-" else { return .standardOutput }
        guard FileManager.default.createFile(atPath: output, contents: nil),
            let handle = FileHandle(forWritingAtPath: output)
        else {
            throw ValidationError("cannot write '\(output)'")
        }
        return handle
    }
}

extension FileHandle {
    /// Writes bytes.
    func write(bytes: [UInt8]) {
        write(Data(bytes))
    }

    /// Writes text and a newline.
    func write(line: String) {
        write(Data((line + "\n").utf8))
    }
}
