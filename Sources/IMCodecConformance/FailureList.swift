/// Cases a testee is known to fail, each with the reason.
///
/// The text format, one entry per line:
///
/// ```text
/// # Comments start with #; blank lines are ignored.
/// elem.text.nul            # protobuf-c keeps strings as C strings and cuts them at NUL
/// elem.location.negative-zero  # protobuf-c leaves -0.0 out as a default
/// ```
///
/// A line is a case id, whitespace, `#` and the reason; the reason is
/// required. A listed case that fails counts as a known failure; one that
/// passes is an error, so the list cannot go stale unnoticed.
public struct FailureList: Sendable, Hashable {
    /// The reason of every listed case, by case id.
    public var reasons: [String: String]

    /// A line of a failure list that does not follow the format.
    public struct FormatError: Error, CustomStringConvertible, Sendable {
        public var line: Int
        public var reason: String
        public var description: String { "failure list line \(line): \(reason)" }
    }

    /// An empty list.
    public init() { reasons = [:] }

    /// Parses the text format.
    ///
    /// - Parameter text: The list.
    /// - Throws: ``FormatError`` for an entry without a reason, with more than
    ///   one id, or listed twice.
    public init(parsing text: String) throws(FormatError) {
        reasons = [:]
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let hash = line.firstIndex(of: "#") else {
                throw FormatError(line: index + 1, reason: "\(line): every entry needs `# reason`")
            }
            let id = line[..<hash].trimmingWhitespace()
            let reason = line[line.index(after: hash)...].trimmingWhitespace()
            guard !id.isEmpty, !id.contains(where: \.isWhitespace) else {
                throw FormatError(line: index + 1, reason: "expected one case id before #")
            }
            guard !reason.isEmpty else { throw FormatError(line: index + 1, reason: "\(id): the reason is empty") }
            guard reasons[id] == nil else { throw FormatError(line: index + 1, reason: "\(id) is listed twice") }
            reasons[id] = reason
        }
    }

    /// The text format of the list, sorted by id.
    public var text: String {
        reasons.sorted { $0.key < $1.key }.map { "\($0.key)  # \($0.value)" }.joined(separator: "\n") + "\n"
    }
}

extension StringProtocol {
    func trimmingWhitespace() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
