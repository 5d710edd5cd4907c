import ArgumentParser
import Foundation

/// The input file argument shared by the subcommands.
struct InputOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The input file; '-' reads standard input.", valueName: "file"))
    var input: String = "-"

    func validate() throws {
        if input != "-" && !FileManager.default.isReadableFile(atPath: input) {
            throw ValidationError("cannot read '\(input)'")
        }
    }

    /// Opens the input for reading.
    func open() throws -> FileHandle {
        if input == "-" { return .standardInput }
        guard let handle = FileHandle(forReadingAtPath: input) else {
            throw ValidationError("cannot read '\(input)'")
        }
        return handle
    }

    /// Reads the whole input.
    func readAll() throws -> [UInt8] {
        let handle = try open()
        return [UInt8](try handle.readToEnd() ?? Data())
    }

    /// Calls `body` with each chunk of the input as soon as it is read.
    ///
    /// `read(2)` returns what a pipe holds without waiting for a full
    /// buffer, so frames are handled as they arrive, and a large file is
    /// never held whole.
    func forEachChunk(_ body: ([UInt8]) throws -> Void) throws {
        let handle = try open()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                if count < 0 { throw ValidationError("cannot read '\(input)': error \(errno)") }
                return
            }
            try body(Array(buffer[0..<count]))
        }
    }
}
