import ArgumentParser
import Foundation
import IMCodec

// The codes of the `imcodec` command's own input problems (Sources/IMCodec/IMCodec.docc/HandlingErrors.md,
// "Command-line codes"): the file itself, before the format is reached.
extension IMCodecError.Code {
    /// The named input file does not exist.
    static let inputMissing = Self("input.missing")
    /// The named input is a directory.
    static let inputDirectory = Self("input.directory")
    /// The input exists but cannot be opened or read (permissions, I/O).
    static let inputUnreadable = Self("input.unreadable")
    /// The input holds no bytes.
    static let inputEmpty = Self("input.empty")
    /// Input read as frames is another kind of file: JSON, an image,
    /// compressed data, text.
    static let inputNotFrames = Self("input.not-frames")
    /// A count or size option is given a negative number.
    static let usageNegative = Self("usage.negative")
}

/// The exit status for input that cannot be read at all: missing, a
/// directory, unreadable (2, as `cat` and `grep` use).
let unreadableInputStatus = ExitCode(2)

/// An input problem found before any of the input is decoded: its error,
/// printed with a hint, and the exit status.
struct InputProblem: Error {
    /// The error, with a reason that names the file.
    var error: IMCodecError
    /// What to do about it.
    var hint: String
    /// 2 when the input cannot be read, 1 when it can but is not what was asked for.
    var status: ExitCode

    /// Prints the error and the hint and returns the exit status.
    func reported() -> ExitCode {
        _ = report(error, hint: hint)
        return status
    }
}

/// How the input is named in messages: its path, or `standard input`.
func displayName(_ input: String) -> String {
    input == "-" ? "standard input" : "'\(input)'"
}

/// The kind of file `bytes` (its first bytes) looks like when it is not a
/// frame, or nil when it could be one.
///
/// A frame starts with the version byte 0x01; the formats named here start
/// otherwise, so a file they recognise can never be read as frames.
func nonFrameKind(of bytes: some Collection<UInt8>) -> String? {
    guard let first = bytes.first, first != FrameHeader.version else { return nil }
    let head = Array(bytes.prefix(8))
    if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "a JPEG image" }
    if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "a PNG image" }
    if head.starts(with: [0x47, 0x49, 0x46, 0x38]) { return "a GIF image" }
    if head.starts(with: [0x1F, 0x8B]) { return "gzip data" }
    if head.starts(with: [0x28, 0xB5, 0x2F, 0xFD]) { return "a zstd frame (not an imcodec frame)" }
    if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return "a zip archive" }
    if head.starts(with: Array("%PDF".utf8)) { return "a PDF document" }
    var text = head[...]
    if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
    let start = text.first { !(($0 == 0x20) || ($0 == 0x09) || ($0 == 0x0A) || ($0 == 0x0D)) }
    if start == UInt8(ascii: "{") || start == UInt8(ascii: "[") { return "JSON" }
    if !text.isEmpty
        && text.allSatisfy({ $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || (0x20...0x7E).contains($0) || $0 >= 0x80 })
    {
        return "text"
    }
    return nil
}

/// The input problem for input that should be frames but is `kind`.
func notFrames(_ input: String, kind: String, command: String) -> InputProblem {
    let hint =
        kind == "JSON"
        ? "'imcodec encode\(input == "-" ? "" : " \(input)")' turns JSON into frames; '\(command)' reads frames"
        : "'\(command)' reads frames written by 'imcodec encode'; a frame starts with the byte 0x01"
    return InputProblem(
        error: IMCodecError(.inputNotFrames, reason: "\(displayName(input)) is \(kind), not frames"), hint: hint,
        status: .failure)
}

/// The input problem for input with no bytes.
func emptyInput(_ input: String) -> InputProblem {
    InputProblem(
        error: IMCodecError(.inputEmpty, reason: "\(displayName(input)) is empty"),
        hint: "nothing to read: name a file that holds the input, or pipe it in", status: .failure)
}

/// A negative value for a count or size option: a usage error, with its code.
func negativeOption(_ name: String, _ value: Int) -> ValidationError {
    ValidationError("\(IMCodecError.Code.usageNegative): \(name) must be 0 or more, not \(value)")
}

/// A hint for an error of the input's format, or nil: the field the
/// schema has for an unknown one.
func hint(for error: IMCodecError) -> String? {
    guard error.code == .jsonUnknownField else { return nil }
    // "<Type> has no field named <key>"
    let words = error.reason.split(separator: " ")
    guard let typeName = words.first, let key = words.last else { return nil }
    let fields =
        SchemaFields.byMessage.first { name, _ in name.hasSuffix("." + typeName) }?.value.map {
            jsonName($0.name)
        } ?? []
    guard !fields.isEmpty else { return nil }
    if let match = closest(String(key), in: fields) {
        return "did you mean \(match)?"
    }
    return "the fields of \(typeName) are \(fields.joined(separator: ", "))"
}

/// The proto3 JSON name of a field: lower camel case of its proto name.
func jsonName(_ protoName: String) -> String {
    var result = ""
    var upper = false
    for character in protoName {
        if character == "_" {
            upper = true
        } else {
            result += upper ? character.uppercased() : String(character)
            upper = false
        }
    }
    return result
}

/// The candidate nearest `word`, ignoring letter case, within a third of
/// its length in edits (at least 2), or nil.
func closest(_ word: String, in candidates: [String]) -> String? {
    let lowered = Array(word.lowercased())
    var best: (String, Int)?
    for candidate in candidates {
        let distance = editDistance(lowered, Array(candidate.lowercased()))
        if distance <= max(2, lowered.count / 3) && distance < (best?.1 ?? .max) { best = (candidate, distance) }
    }
    return best?.0
}

/// The Levenshtein distance between two strings.
func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...max(b.count, 1) where j <= b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}
