import Logging
import NIOCore

/// How the relay puts what a peer chose (user and group IDs, reasons that
/// quote a frame) into its log: escaped and truncated, so that no value can
/// start a line, pose as another field or fill the log.
enum RelayLog {
    /// The most UTF-8 bytes of a value that are logged; longer values are
    /// cut and say how long they were.
    static let maxValueBytes = 64

    /// `value` with every byte outside printable ASCII but for letters
    /// beyond ASCII, the space, `=`, `"` and `\` written as `\xHH`, cut
    /// after `limit` bytes with `…(N bytes)` appended.
    ///
    /// A newline, a carriage return or any other control character cannot
    /// reach the log as itself, nor can a space followed by `key=`.
    static func escaped(_ value: String, limit: Int = maxValueBytes) -> Logger.MetadataValue {
        var text = ""
        var taken = 0
        for scalar in value.unicodeScalars {
            let length = String(scalar).utf8.count
            guard taken + length <= limit else {
                text += "…(\(value.utf8.count) bytes)"
                break
            }
            taken += length
            switch scalar.value {
            case 0x21...0x7E where scalar != "=" && scalar != "\"" && scalar != "\\":
                text.unicodeScalars.append(scalar)
            case 0xA0...0x2027, 0x202F...0xFFFD, 0x10000...:
                // Letters and symbols beyond ASCII; not the C1 controls, nor
                // U+2028 and U+2029, the line and paragraph separators, nor
                // the bidirectional overrides U+202A to U+202E.
                text.unicodeScalars.append(scalar)
            default:
                for byte in String(scalar).utf8 {
                    text += "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
                }
            }
        }
        return .string(text)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}

/// One line per key per interval for events a peer can repeat at will
/// (refused connections, rejected messages): the first is logged, the
/// repeats within the interval are counted, and the next line logged for
/// the key says how many were left out (`suppressed`).
///
/// Confined to the server's event loop.
final class RelayLogLimiter {
    private let interval: TimeAmount
    private var windows: [String: (opened: NIODeadline, suppressed: Int)] = [:]

    init(interval: TimeAmount) {
        self.interval = interval
    }

    /// Whether a line for `key` is logged now.
    ///
    /// - Returns: `nil` when it is left out; otherwise how many lines for
    ///   the key were left out since the last one logged.
    func admit(_ key: String, now: NIODeadline = .now()) -> Int? {
        if let window = windows[key], now - window.opened < interval {
            windows[key]?.suppressed += 1
            return nil
        }
        let suppressed = windows[key]?.suppressed ?? 0
        windows[key] = (now, 0)
        // Keys are codes and reasons, a small set; a bound all the same.
        if windows.count > 1_024 { windows = windows.filter { now - $0.value.opened < interval } }
        return suppressed
    }
}
