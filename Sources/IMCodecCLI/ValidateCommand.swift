import ArgumentParser
import Foundation
import IMCodec
import IMCodecREST
import IMCodecValidation

/// `imcodec validate`: checks messages, batches and events against the
/// documented limits and rules, and prints every finding.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check messages, batches or events against the documented limits and rules.",
        discussion: """
            Each FILE holds JSON (it starts with '{', '[' or whitespace) or frames (anything \
            else). A JSON file holds one value of --kind, or an array of them; a file of frames \
            holds one frame or a stream of frames, each naming its own kind. '-' reads standard \
            input. docs/spec/error-and-finding-codes.md lists every finding code.

            With --from restapi each FILE is one Tencent Cloud IM REST document \
            (Sources/IMCodecREST/IMCodecREST.docc/REST.md): a MsgBody array, a message object such as a send request \
            or a callback, or a message list such as a history answer. Every problem \
            is reported with its JSON path (MsgBody[1].MsgContent.ImageInfoArray[0].URL): \
            first what keeps the document from being read (wrong types, unknown or \
            mis-cased keys, missing keys, ranges; the first \(DecodingLimits.default.maxProblems), then \
            limit.problems with their number), else the limits and rules of \
            --profile; the current profile adds the REST rules (download flags of \
            \(ValidationLimits.current.restDownloadFlag.map(String.init) ?? "any value"), \
            image formats \(HelpText.sorted(ValidationLimits.current.restImageFormats))) and a message \
            body of at most \(HelpText.bytes(ValidationLimits.current.maxMessageBodyBytes)) \
            (docs/spec/limits.md).

            Examples:
              imcodec validate message.json
              imcodec validate --profile current --format json messages.frames
              imcodec validate --from restapi --profile current callback.json

            Warnings: each finding code is an error or a warning, fixed per code. The warnings \
            are values a newer schema, SDK or server may send and that break nothing: an enum \
            value the schema does not name, a kind left at 0, a result code the documents do not \
            name, and the image sizes the messaging guide describes the SDK producing rather \
            than requires: \(warningCodes). They are printed and do not fail a run; --strict \
            fails on them too (docs/spec/validation.md, "Warnings and --strict").

            Exit status: 0 when no file has an error finding (with --strict: no finding at all), \
            1 when one has, 2 when a file cannot be read or decoded, 64 for usage errors.
            """)

    /// The warning codes, from the one list of finding codes.
    static var warningCodes: String {
        FindingCode.validatorCodes.filter { $0.severity == .warning }.map(\.rawValue).joined(separator: ", ")
    }

    /// How findings are printed.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Option(help: "The limits: \(HelpText.profiles); docs/spec/limits.md has their values.")
    var profile: ProfileOption = .sdkGuide

    @Option(help: "How to print findings: text or json.")
    var format: Format = .text

    @Option(help: "What JSON input holds: message, batch or event. Frames name their own kind.")
    var kind: KindOption = .message

    @Option(help: "The JSON of JSON files: json (proto3 JSON, the default) or restapi (Tencent REST MsgBody JSON).")
    var from: DocumentFormatOption = .json

    @Flag(help: "Exit with status 1 on warnings too (see Warnings below), not only on errors.")
    var strict = false

    @Argument(
        help: ArgumentHelp("JSON files or files of frames to check; '-' reads standard input.", valueName: "file"))
    var files: [String]

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("Give at least one FILE to check.") }
    }

    func run() throws {
        let limits = profile.limits
        // Findings are printed as they are found, never held: an input can
        // have many more findings than bytes.
        var counts = (errors: 0, warnings: 0, unreadable: 0, withFindings: false)
        func count(_ finding: ValidationFinding) {
            switch finding.severity {
            case .error: counts.errors += 1
            case .warning: counts.warnings += 1
            }
            counts.withFindings = true
        }
        switch format {
        case .text:
            var output = StandardOutput()
            for file in files {
                let report = check(file: file, limits: limits) { located in
                    count(located.finding)
                    output.print(Self.line(located, in: file))
                }
                output.flush()
                if let failure = report.failure {
                    counts.unreadable += 1
                    let place =
                        report.failedFrame.map { "\(report.name), \(frameLocation($0, byte: failure.frameOffset))" }
                        ?? report.name
                    _ = IMCodecCLI.report(failure, context: place)
                }
            }
            output.print(
                Self.summary(files: files.count, counts.errors, counts.warnings, unreadable: counts.unreadable))
            output.flush()
        case .json:
            var output = StandardOutput()
            var document = ValidationReport.JSONDocumentWriter(profile: profile.name)
            for file in files {
                document.beginFile(file)
                let report = check(file: file, limits: limits) { located in
                    count(located.finding)
                    document.finding(located)
                    output.write(document.take())
                }
                if report.failure != nil { counts.unreadable += 1 }
                document.endFile(report)
            }
            document.finish()
            output.write(document.take())
            output.print("")
            output.flush()
        }
        if counts.unreadable > 0 {
            throw ExitCode(2)
        }
        if strict ? counts.withFindings : counts.errors > 0 {
            throw ExitCode(1)
        }
    }

    // MARK: Reading

    /// Reads one file and validates it with the library's ``InputValidator``,
    /// handing each finding to `body` as soon as it is found.
    ///
    /// A file that is missing, a directory, unreadable or empty is a
    /// report with the command's `input.*` failure.
    func check(
        file: String, limits: ValidationLimits, onFinding body: (ValidationReport.LocatedFinding) -> Void
    ) -> ValidationReport {
        var isDirectory: ObjCBool = false
        if file != "-" && !FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) {
            return ValidationReport(
                name: file, failure: IMCodecError(.inputMissing, reason: "cannot read '\(file)': no such file"))
        }
        if isDirectory.boolValue {
            return ValidationReport(
                name: file, failure: IMCodecError(.inputDirectory, reason: "cannot read '\(file)': it is a directory"))
        }
        guard let bytes = Self.read(file) else {
            return ValidationReport(
                name: file, failure: IMCodecError(.inputUnreadable, reason: "cannot read '\(file)'"))
        }
        guard bytes.count > (bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0) else {
            return ValidationReport(
                name: file, failure: IMCodecError(.inputEmpty, reason: "\(displayName(file)) is empty"))
        }
        let format: InputValidator.Format = from == .restapi ? .restAPI : .jsonOrFrames(kind: kind.frameKind)
        return InputValidator.validate(bytes, named: file, format: format, limits: limits, onFinding: body)
    }

    /// The file's bytes, or `nil` when it cannot be read: read into one
    /// array, sized once from the file's size, so the input is held once
    /// (through `Data` it was held twice while it was copied).
    static func read(_ file: String) -> [UInt8]? {
        let handle: FileHandle
        if file == "-" {
            handle = .standardInput
        } else {
            guard let opened = FileHandle(forReadingAtPath: file) else { return nil }
            handle = opened
        }
        var bytes: [UInt8] = []
        if file != "-", let size = try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int {
            bytes.reserveCapacity(size)
        }
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { readSome(handle.fileDescriptor, into: $0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return count == 0 ? bytes : nil }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    // MARK: Printing

    /// The line of one finding, `<file>[, frame <n>]: <severity> <code> at <path>: <reason>`: the frame
    /// named as every command names it (``frameLocation(_:byte:)``).
    static func line(_ located: ValidationReport.LocatedFinding, in file: String) -> String {
        let finding = located.finding
        let place = located.frame.map { "\(file), \(frameLocation($0, byte: nil))" } ?? file
        var line = "\(place): \(finding.severity) \(finding.code)"
        line += " at \(finding.path.isEmpty ? "(root)" : finding.path.description): \(finding.reason)"
        switch (finding.limit, finding.actual) {
        case (let limit?, let actual?): line += " (limit \(limit), actual \(actual))"
        case (let limit?, nil): line += " (limit \(limit))"
        case (nil, let actual?): line += " (actual \(actual))"
        case (nil, nil): break
        }
        return line
    }

    /// The last line of the text format: the files, errors, warnings and unreadable files.
    static func summary(files: Int, _ errors: Int, _ warnings: Int, unreadable: Int) -> String {
        var summary = "\(files) file\(files == 1 ? "" : "s"): \(errors) error"
        summary += "\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
        if unreadable > 0 { summary += ", \(unreadable) unreadable" }
        return summary
    }
}

/// Standard output, written in blocks of 64 KiB: the validate command
/// writes all it prints through one of these, so its lines keep their order.
struct StandardOutput {
    private var buffer: [UInt8] = []

    /// Writes `bytes`, or keeps them until a block is full.
    mutating func write(_ bytes: [UInt8]) {
        buffer += bytes
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes a line.
    mutating func print(_ line: String) {
        write(Array((line + "\n").utf8))
    }

    /// Writes out what is kept.
    mutating func flush() {
        var written = 0
        while written < buffer.count {
            let count = buffer[written...].withUnsafeBytes { writeSome(1, $0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            written += count
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Writes what `write(2)` takes of `buffer`: the count, or -1.
private func writeSome(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Int {
    write(descriptor, buffer.baseAddress, buffer.count)
}

/// Reads what `read(2)` gives into `buffer`: the count, 0 at the end, or -1.
private func readSome(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
    read(descriptor, buffer.baseAddress, buffer.count)
}
