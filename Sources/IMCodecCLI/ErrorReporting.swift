import ArgumentParser
import Foundation
import IMCodec

/// Prints an input error as `error: <code> at <path>: <reason>` on standard
/// error and returns the exit code for invalid input (1).
///
/// The root of a value has the empty path; it is printed as `(root)` so the
/// line keeps one shape for scripts.
///
/// A `hint: <text>` line follows when there is something to do about it
/// (the field meant by an unknown one, the command for a file of another
/// kind).
///
/// - Parameters:
///   - error: The error the library threw.
///   - context: Where in the input it happened, such as `frame 3 at byte 120`;
///     appended to the reason.
///   - hint: What to do about it; by default the hint for the error's code,
///     if it has one.
func report(_ error: IMCodecError, context: String? = nil, hint given: String? = nil) -> ExitCode {
    var line = "error: \(error.code) at \(error.path.isEmpty ? "(root)" : error.path.description): \(error.reason)"
    if let limit = error.limit, let observed = error.observed {
        line += " (limit \(limit), observed \(observed))"
    }
    if let context { line += " [\(context)]" }
    if let hint = given ?? hint(for: error) { line += "\nhint: \(hint)" }
    FileHandle.standardError.write(Data((line + "\n").utf8))
    return .failure
}

/// Prints `note: <text>` on standard error: something the user should know
/// that is not an error.
///
/// - Parameters:
///   - text: The note.
///   - context: Where in the input it applies, such as `line 3`.
func note(_ text: String, context: String? = nil) {
    var line = "note: \(text)"
    if let context { line += " [\(context)]" }
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Where a frame of the input is, in the one form every command prints:
/// `frame 3 at byte 120`, or `frame 3` when where it starts is not known.
///
/// - Parameters:
///   - index: The frame's index in the stream, from 0.
///   - offset: The byte at which it starts, when known.
func frameLocation(_ index: Int, byte offset: Int?) -> String {
    offset.map { "frame \(index) at byte \($0)" } ?? "frame \(index)"
}
