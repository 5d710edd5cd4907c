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
            mis-cased keys, missing keys, ranges; the first 100, then \
            limit.problems with their number), else the limits and rules of \
            --profile; the current profile adds the REST rules (12 KB body measured \
            on the compact JSON, download flags of 2, documented image formats).

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

    @Option(help: "The limits: sdk-guide (the Tencent IM SDK guides, the default; seed is accepted too) or current.")
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
        let reports = files.map { check(file: $0, limits: limits) }
        switch format {
        case .text: printText(reports)
        case .json: print(ValidationReport.json(reports, profile: profile.name))
        }
        if reports.contains(where: { $0.failure != nil }) {
            throw ExitCode(2)
        }
        if reports.contains(where: { strict ? !$0.findings.isEmpty : $0.errorCount > 0 }) {
            throw ExitCode(1)
        }
    }

    // MARK: Reading

    /// Reads one file and validates it with the library's ``InputValidator``.
    ///
    /// A file that is missing, a directory, unreadable or empty is a
    /// report with the command's `input.*` failure.
    func check(file: String, limits: ValidationLimits) -> ValidationReport {
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
        return InputValidator.validate(bytes, named: file, format: format, limits: limits)
    }

    /// The file's bytes, or `nil` when it cannot be read.
    static func read(_ file: String) -> [UInt8]? {
        if file == "-" {
            return [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        }
        return FileManager.default.contents(atPath: file).map { [UInt8]($0) }
    }

    // MARK: Printing

    /// One line per finding, `<file>[#frame]: <severity> <code> at <path>: <reason>`,
    /// failures on standard error, then a summary.
    func printText(_ reports: [ValidationReport]) {
        for fileReport in reports {
            for located in fileReport.findings {
                let finding = located.finding
                let place = located.frame.map { "\(fileReport.name)#\($0)" } ?? fileReport.name
                var line = "\(place): \(finding.severity) \(finding.code)"
                line += " at \(finding.path.isEmpty ? "(root)" : finding.path.description): \(finding.reason)"
                switch (finding.limit, finding.actual) {
                case (let limit?, let actual?): line += " (limit \(limit), actual \(actual))"
                case (let limit?, nil): line += " (limit \(limit))"
                case (nil, let actual?): line += " (actual \(actual))"
                case (nil, nil): break
                }
                print(line)
            }
            if let failure = fileReport.failure {
                let place = fileReport.failedFrame.map { "\(fileReport.name) frame \($0)" } ?? fileReport.name
                _ = report(failure, context: place)
            }
        }
        let errors = reports.reduce(0) { $0 + $1.errorCount }
        let warnings = reports.reduce(0) { $0 + $1.warningCount }
        let unreadable = reports.count(where: { $0.failure != nil })
        var summary = "\(reports.count) file\(reports.count == 1 ? "" : "s"): \(errors) error"
        summary += "\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
        if unreadable > 0 { summary += ", \(unreadable) unreadable" }
        print(summary)
    }
}
