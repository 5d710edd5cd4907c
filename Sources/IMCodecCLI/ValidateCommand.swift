import ArgumentParser
import Foundation
import IMCodec

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
            input. docs/VALIDATION.md lists every finding code.

            With --from restapi each FILE is one Tencent Cloud IM REST document \
            (docs/REST.md): a MsgBody array, a message object such as a send request \
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

            Exit status: 0 when no file has an error finding (with --strict: no finding at all), \
            1 when one has, 2 when a file cannot be read or decoded, 64 for usage errors.
            """)

    /// How findings are printed.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Option(help: "The limits: seed (the seed documents, the default) or current (newer documentation).")
    var profile: ProfileOption = .seed

    @Option(help: "How to print findings: text or json.")
    var format: Format = .text

    @Option(help: "What JSON input holds: message, batch or event. Frames name their own kind.")
    var kind: KindOption = .message

    @Option(help: "The JSON of JSON files: json (proto3 JSON, the default) or restapi (Tencent REST MsgBody JSON).")
    var from: DocumentFormatOption = .json

    @Flag(help: "Exit with status 1 on warnings too, not only on errors.")
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
        case .json: print(json(reports).serialized(pretty: true))
        }
        let findings = reports.flatMap(\.findings)
        if reports.contains(where: { $0.failure != nil }) {
            throw ExitCode(2)
        }
        if findings.contains(where: { strict || $0.finding.severity == .error }) {
            throw ExitCode(1)
        }
    }

    // MARK: Checking

    /// A finding with where in the file it was found.
    struct LocatedFinding {
        /// The finding; for a JSON array its path starts with the entry's index.
        var finding: ValidationFinding
        /// The index of the frame in a file of frames.
        var frame: Int?
    }

    /// What checking one file gave.
    struct FileReport {
        /// The file name as given.
        var file: String
        /// Every finding of every value the file holds.
        var findings: [LocatedFinding] = []
        /// Why the file, or part of it, could not be read.
        var failure: IMCodecError?
        /// The frame the failure is in, for a file of frames.
        var failedFrame: Int?
    }

    /// Reads, decodes and validates one file.
    func check(file: String, limits: ValidationLimits) -> FileReport {
        var report = FileReport(file: file)
        var isDirectory: ObjCBool = false
        if file != "-" && !FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) {
            report.failure = IMCodecError(.inputMissing, reason: "cannot read '\(file)': no such file")
            return report
        }
        if isDirectory.boolValue {
            report.failure = IMCodecError(.inputDirectory, reason: "cannot read '\(file)': it is a directory")
            return report
        }
        guard let bytes = Self.read(file) else {
            report.failure = IMCodecError(.inputUnreadable, reason: "cannot read '\(file)'")
            return report
        }
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        guard let first = body.first else {
            report.failure = IMCodecError(.inputEmpty, reason: "\(displayName(file)) is empty")
            return report
        }
        if from == .restapi {
            report.findings = RESTValidator.validate(body, limits: limits).map { LocatedFinding(finding: $0) }
        } else if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || Self.isJSONWhitespace(first) {
            checkJSON(Array(body), limits: limits, into: &report)
        } else {
            checkFrames(bytes, limits: limits, into: &report)
        }
        return report
    }

    /// A JSON value of `--kind`, or an array of them.
    func checkJSON(_ bytes: [UInt8], limits: ValidationLimits, into report: inout FileReport) {
        do throws(IMCodecError) {
            let maxBytes = DecodingLimits.default.maxDocumentBytes
            guard bytes.count <= maxBytes else {
                throw IMCodecError(
                    .limitDocumentSize, reason: "a JSON document of \(bytes.count) bytes is too large", limit: maxBytes,
                    observed: bytes.count)
            }
            let document = try JSONValue(parsing: bytes)
            guard case .array(let entries) = document else {
                let payload = try FramePayload(kind: kind.frameKind, jsonString: document.serialized())
                report.findings += Validator.validate(payload, limits: limits).map { LocatedFinding(finding: $0) }
                return
            }
            for (index, entry) in entries.enumerated() {
                let prefix = "[\(index)]"
                do throws(IMCodecError) {
                    let payload = try FramePayload(kind: kind.frameKind, jsonString: entry.serialized())
                    for var finding in Validator.validate(payload, limits: limits) {
                        finding.path = Self.join(prefix, finding.path)
                        report.findings.append(LocatedFinding(finding: finding))
                    }
                } catch {
                    var located = error
                    located.path = Self.join(prefix, error.path)
                    throw located
                }
            }
        } catch {
            report.failure = error
        }
    }

    /// One frame or a stream of frames.
    func checkFrames(_ bytes: [UInt8], limits: ValidationLimits, into report: inout FileReport) {
        let reader = FrameReader()
        reader.append(bytes)
        var index = 0
        do throws(IMCodecError) {
            while let frame = try reader.next() {
                let payload = try FramePayload(decoding: frame, limits: reader.limits)
                report.findings += Validator.validate(payload, limits: limits).map {
                    LocatedFinding(finding: $0, frame: index)
                }
                index += 1
            }
            try reader.finish()
        } catch {
            report.failure = error
            report.failedFrame = index
        }
    }

    /// The file's bytes, or `nil` when it cannot be read.
    static func read(_ file: String) -> [UInt8]? {
        if file == "-" {
            return [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        }
        return FileManager.default.contents(atPath: file).map { [UInt8]($0) }
    }

    /// Space, tab, line feed or carriage return.
    static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Joins a path prefix and a path in the payload path syntax.
    static func join(_ prefix: String, _ path: String) -> String {
        if path.isEmpty { return prefix }
        return path.hasPrefix("[") ? prefix + path : prefix + "." + path
    }

    // MARK: Printing

    /// One line per finding, `<file>[#frame]: <severity> <code> at <path>: <reason>`,
    /// failures on standard error, then a summary.
    func printText(_ reports: [FileReport]) {
        var errors = 0
        var warnings = 0
        for fileReport in reports {
            for located in fileReport.findings {
                let finding = located.finding
                let place = located.frame.map { "\(fileReport.file)#\($0)" } ?? fileReport.file
                var line = "\(place): \(finding.severity) \(finding.code)"
                line += " at \(finding.path.isEmpty ? "(root)" : finding.path): \(finding.reason)"
                switch (finding.limit, finding.actual) {
                case (let limit?, let actual?): line += " (limit \(limit), actual \(actual))"
                case (let limit?, nil): line += " (limit \(limit))"
                case (nil, let actual?): line += " (actual \(actual))"
                case (nil, nil): break
                }
                print(line)
                if finding.severity == .error { errors += 1 } else { warnings += 1 }
            }
            if let failure = fileReport.failure {
                let place = fileReport.failedFrame.map { "\(fileReport.file) frame \($0)" } ?? fileReport.file
                _ = report(failure, context: place)
            }
        }
        let unreadable = reports.count(where: { $0.failure != nil })
        var summary = "\(reports.count) file\(reports.count == 1 ? "" : "s"): \(errors) error"
        summary += "\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
        if unreadable > 0 { summary += ", \(unreadable) unreadable" }
        print(summary)
    }

    /// `{"profile", "files": [{"file", "findings": [...], "error"}], "errors", "warnings"}`.
    func json(_ reports: [FileReport]) -> JSONValue {
        func number<T: BinaryInteger>(_ value: T?) -> JSONValue { value.map { .number(String($0)) } ?? .null }
        var errors = 0
        var warnings = 0
        let files: [JSONValue] = reports.map { report in
            let findings: [JSONValue] = report.findings.map { located in
                let finding = located.finding
                if finding.severity == .error { errors += 1 } else { warnings += 1 }
                var members: [JSONValue.Member] = [
                    .init("code", .string(finding.code.rawValue)),
                    .init("path", .string(finding.path)),
                    .init("severity", .string(finding.severity.rawValue)),
                    .init("limit", number(finding.limit)),
                    .init("actual", number(finding.actual)),
                    .init("reason", .string(finding.reason)),
                ]
                if let frame = located.frame { members.append(.init("frame", number(frame))) }
                return .object(members)
            }
            var members: [JSONValue.Member] = [
                .init("file", .string(report.file)), .init("findings", .array(findings)),
            ]
            if let failure = report.failure {
                var error: [JSONValue.Member] = [
                    .init("code", .string(failure.code.rawValue)),
                    .init("path", .string(failure.path)),
                    .init("reason", .string(failure.reason)),
                ]
                if let frame = report.failedFrame { error.append(.init("frame", number(frame))) }
                members.append(.init("error", .object(error)))
            }
            return .object(members)
        }
        return .object([
            .init("profile", .string(profile.rawValue)),
            .init("files", .array(files)),
            .init("errors", number(errors)),
            .init("warnings", number(warnings)),
        ])
    }
}
