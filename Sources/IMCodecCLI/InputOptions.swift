import ArgumentParser
import Foundation
import IMCodec

/// The input file argument shared by the subcommands.
struct InputOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The input file; '-' reads standard input.", valueName: "file"))
    var input: String = "-"

    /// Opens the input for reading.
    ///
    /// - Throws: after reporting it, exit status 2 for a file that is
    ///   missing (`input.missing`), a directory (`input.directory`) or
    ///   cannot be opened (`input.unreadable`, with the system's reason).
    func open() throws -> FileHandle {
        try Self.open(input)
    }

    /// Opens a file named on the command line for reading, as every
    /// subcommand does, so that a file that cannot be read is reported in
    /// one format by all of them.
    ///
    /// - Parameter input: The file's path, or `-` for standard input.
    /// - Returns: The open file.
    /// - Throws: after reporting it, exit status 2 for a file that is
    ///   missing (`input.missing`), a directory (`input.directory`) or
    ///   cannot be opened (`input.unreadable`, with the system's reason).
    static func open(_ input: String) throws -> FileHandle {
        if input == "-" { return .standardInput }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory) else {
            throw InputProblem(
                error: IMCodecError(.inputMissing, reason: "cannot read '\(input)': no such file"),
                hint: "check the name and the directory; '-' or no name reads standard input",
                status: unreadableInputStatus
            ).reported()
        }
        guard !isDirectory.boolValue else {
            throw InputProblem(
                error: IMCodecError(.inputDirectory, reason: "cannot read '\(input)': it is a directory"),
                hint: "name a file in it", status: unreadableInputStatus
            ).reported()
        }
        let descriptor = openFile(input)
        guard descriptor >= 0 else { throw unreadable(input, errno: errno) }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// Where in the input a problem is, naming the file when there is one:
    /// `message.frame, frame 1 at byte 80`.
    func context(_ position: String?) -> String? {
        guard input != "-" else { return position }
        return position.map { "\(input), \($0)" } ?? input
    }

    /// The reported problem of a file the system refuses to open or read.
    static func unreadable(_ input: String, errno code: Int32) -> ExitCode {
        InputProblem(
            error: IMCodecError(
                .inputUnreadable, reason: "cannot read \(displayName(input)): \(String(cString: strerror(code)))"),
            hint: "check that the file is readable by you (ls -l)", status: unreadableInputStatus
        ).reported()
    }

    /// Reads the whole input into one array, sized once from the file's
    /// size when it has one.
    func readAll() throws -> [UInt8] {
        try readAll(atMost: .max)
    }

    /// Reads the whole input, refusing one longer than `limit` bytes as soon
    /// as more than that has been read.
    ///
    /// - Throws: `limit.document-size` past `limit`; what reading throws.
    func readAll(atMost limit: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        // A file's size, when it has one, sizes the buffer once.
        if input != "-", let size = try? FileManager.default.attributesOfItem(atPath: input)[.size] as? Int {
            bytes.reserveCapacity(min(size, limit))
        }
        try forEachChunk { chunk in
            guard bytes.count + chunk.count <= limit else {
                throw Self.tooLarge(atLeast: bytes.count + chunk.count, limit)
            }
            bytes += chunk
        }
        return bytes
    }

    /// Calls `body` with each line of the input (without its line feed), a
    /// line at a time: the input is never held whole.
    ///
    /// - Parameters:
    ///   - limit: The longest line accepted, in bytes.
    ///   - body: Called with each line and its number, from 1.
    /// - Throws: `limit.document-size` for a line past `limit`; what `body`
    ///   or reading throws.
    func forEachLine(atMost limit: Int, _ body: ([UInt8], Int) throws -> Void) throws {
        var line: [UInt8] = []
        var number = 1
        try forEachChunk { chunk in
            var start = chunk.startIndex
            while let end = chunk[start...].firstIndex(of: UInt8(ascii: "\n")) {
                guard line.count + (end - start) <= limit else {
                    throw Self.tooLarge(atLeast: line.count + (end - start), limit, line: number)
                }
                line += chunk[start..<end]
                try body(line, number)
                line.removeAll(keepingCapacity: true)
                number += 1
                start = end + 1
            }
            guard line.count + (chunk.endIndex - start) <= limit else {
                throw Self.tooLarge(atLeast: line.count + (chunk.endIndex - start), limit, line: number)
            }
            line += chunk[start...]
        }
        try body(line, number)
    }

    /// The error for a document past `limit` bytes, of which `count` are read.
    private static func tooLarge(atLeast count: Int, _ limit: Int, line: Int? = nil) -> Error {
        let error = IMCodecError(
            .limitDocumentSize, reason: "a JSON document of more than \(limit) bytes (\(count) read)", limit: limit,
            observed: count)
        return report(error, context: line.map { "line \($0)" })
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
                if count < 0 { throw Self.unreadable(input, errno: errno) }
                return
            }
            try body(Array(buffer[0..<count]))
        }
    }
}

/// Opens a file for reading with `open(2)`, whose `errno` says why not.
private func openFile(_ path: String) -> Int32 {
    #if canImport(Glibc)
        Glibc.open(path, O_RDONLY)
    #elseif canImport(Musl)
        Musl.open(path, O_RDONLY)
    #else
        Darwin.open(path, O_RDONLY)
    #endif
}
