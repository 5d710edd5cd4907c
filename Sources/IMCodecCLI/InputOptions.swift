import ArgumentParser
import Foundation
import IMCodec

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
            guard bytes.count + chunk.count <= limit else { throw Self.tooLarge(atLeast: bytes.count + chunk.count, limit) }
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
                if count < 0 { throw ValidationError("cannot read '\(input)': error \(errno)") }
                return
            }
            try body(Array(buffer[0..<count]))
        }
    }
}
