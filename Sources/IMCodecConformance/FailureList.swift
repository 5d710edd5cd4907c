/// What a testee declares about itself: the operations it does not implement
/// and the cases it is known to fail, each with the reason, and each known
/// failure with the way it fails.
///
/// The text format, one entry per line:
///
/// ```text
/// # Comments start with #; blank lines are ignored.
/// skip validate               # this implementation has no validator
/// elem.text.nul  runtime-error  # protobuf-c keeps strings as C strings and cuts them at NUL
/// payload.wire-type.seq-as-fixed64  error:payload.wire-type  # rejects a known field with the wrong wire type
/// ```
///
/// - `skip OPERATION # reason` declares that the testee answers `skipped` to
///   every request of a testee-protocol operation (`decode_payload`,
///   `decode_frame`, `encode_frame`, `decode_stream`, `validate`,
///   `json_to_payload`, `payload_to_json`, `rest_to_payload`,
///   `payload_to_rest`, `validate_rest`). A `skipped` answer to an operation
///   not declared here fails its case; a declaration the testee never uses
///   (it answered every such request) fails the run.
/// - `CASE-ID FAILURE # reason` declares a known failure. `FAILURE` is the
///   failure code the case is expected to end with (``CheckFailure``):
///   `runtime-error`, `wrong-answer` or `error:CODE`. A listed case that
///   passes, is skipped, or fails another way fails the run.
///
/// - `differential OPERATION REFERENCE OTHER # reason` declares a known
///   disagreement of `imcodec differential` (``DifferentialSignature``):
///   on `OPERATION`, the reference answered `REFERENCE` and this
///   implementation `OTHER`; `*` in place of a word matches any.
///   Conformance runs ignore these lines.
///
/// The reason is required everywhere.
public struct FailureList: Sendable, Hashable {
    /// A known failure: how the case fails and why.
    public struct Entry: Sendable, Hashable {
        /// The failure code of ``CheckFailure`` the case must end with.
        public var failure: String
        /// Why the implementation fails it.
        public var reason: String

        public init(failure: String, reason: String) {
            self.failure = failure
            self.reason = reason
        }
    }

    /// Every known failure, by case id.
    public var entries: [String: Entry]
    /// The operations declared unsupported, with the reason, by operation
    /// name.
    public var skips: [String: String]
    /// The known disagreements of differential runs, reason by signature
    /// (``DifferentialSignature/description``).
    public var differentials: [String: String]

    /// The reason of every listed case, by case id.
    public var reasons: [String: String] { entries.mapValues(\.reason) }

    /// The operation names of the testee protocol, in request field order.
    public static let operations = [
        "decode_payload", "decode_frame", "encode_frame", "decode_stream", "validate", "json_to_payload",
        "payload_to_json", "rest_to_payload", "payload_to_rest", "validate_rest",
    ]

    /// A line of a failure list that does not follow the format.
    public struct FormatError: Error, CustomStringConvertible, Sendable {
        public var line: Int
        public var reason: String
        public var description: String { "failure list line \(line): \(reason)" }
    }

    /// An empty list: every operation implemented, no known failure.
    public init() {
        entries = [:]
        skips = [:]
        differentials = [:]
    }

    /// Parses the text format.
    ///
    /// - Parameter text: The list.
    /// - Throws: ``FormatError`` for an entry without a reason or without a
    ///   failure code, a failure code that is not an answer
    ///   (`runtime-error`, `wrong-answer`, `error:CODE`), an unknown
    ///   operation, or an id or operation listed twice.
    public init(parsing text: String) throws(FormatError) {
        self.init()
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") { continue }
            func fail(_ reason: String) -> FormatError { FormatError(line: index + 1, reason: reason) }
            guard let hash = line.firstIndex(of: "#") else {
                throw fail("\(line): every entry needs `# reason`")
            }
            let words = line[..<hash].split(whereSeparator: \.isWhitespace).map(String.init)
            let reason = line[line.index(after: hash)...].trimmingWhitespace()
            if words.first == "differential" {
                guard words.count == 4 else {
                    throw fail("expected `differential OPERATION REFERENCE OTHER # reason`")
                }
                guard !reason.isEmpty else { throw fail("\(words[1]): the reason is empty") }
                guard words[1] == "*" || Self.operations.contains(words[1]) else {
                    throw fail("\(words[1]) is not an operation of the testee protocol")
                }
                let signature = words[1...].joined(separator: " ")
                guard differentials[signature] == nil else { throw fail("differential \(signature) is listed twice") }
                differentials[signature] = reason
                continue
            }
            guard words.count == 2 else {
                throw fail(
                    "expected `skip OPERATION # reason` or `CASE-ID FAILURE # reason`"
                        + " (FAILURE: runtime-error, wrong-answer or error:CODE)")
            }
            guard !reason.isEmpty else { throw fail("\(words[1]): the reason is empty") }
            if words[0] == "skip" {
                let operation = words[1]
                guard Self.operations.contains(operation) else {
                    throw fail("\(operation) is not an operation of the testee protocol")
                }
                guard skips[operation] == nil else { throw fail("skip \(operation) is declared twice") }
                skips[operation] = reason
                continue
            }
            let (id, failure) = (words[0], words[1])
            guard CheckFailure.isListable(failure) else {
                throw fail(
                    "\(id): \(failure) is not a failure a list may expect (runtime-error, wrong-answer, error:CODE)")
            }
            guard entries[id] == nil else { throw fail("\(id) is listed twice") }
            entries[id] = Entry(failure: failure, reason: reason)
        }
    }

    /// The text format of the list: declared skips, then known failures,
    /// each sorted.
    public var text: String {
        let skipLines = skips.sorted { $0.key < $1.key }.map { "skip \($0.key)  # \($0.value)" }
        let entryLines = entries.sorted { $0.key < $1.key }.map {
            "\($0.key)  \($0.value.failure)  # \($0.value.reason)"
        }
        let differentialLines = differentials.sorted { $0.key < $1.key }.map { "differential \($0.key)  # \($0.value)" }
        return (skipLines + entryLines + differentialLines).joined(separator: "\n") + "\n"
    }
}

/// How a check failed, as a short stable code: what failure lists pin.
///
/// - `runtime-error`: the testee answered `runtime_error`.
/// - `error:CODE`: the testee rejected the input with `CODE` where another
///   result was expected (a different code or path, or an accepted input).
/// - `wrong-answer`: the testee answered a result that differs from the
///   expected one.
/// - `undeclared-skip`: the testee answered `skipped` to an operation it does
///   not declare unsupported.
/// - `no-answer`: the testee timed out, crashed or broke the framing.
public enum CheckFailure {
    public static let runtimeError = "runtime-error"
    public static let wrongAnswer = "wrong-answer"
    public static let undeclaredSkip = "undeclared-skip"
    public static let noAnswer = "no-answer"

    /// The code for a rejection with `code`.
    public static func error(_ code: String) -> String { "error:" + code }

    /// Whether a failure list may expect `failure`: only answers can be
    /// known failures, never a skip, a timeout or a crash.
    public static func isListable(_ failure: String) -> Bool {
        failure == runtimeError || failure == wrongAnswer
            || (failure.hasPrefix("error:") && failure.count > "error:".count)
    }
}

extension StringProtocol {
    func trimmingWhitespace() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}

extension FailureList {
    /// The reason a differential disagreement is listed with, or nil when no
    /// `differential` line matches it (exactly, or with `*` for any word).
    ///
    /// - Parameter signature: The disagreement's signature.
    /// - Returns: The reason of the first matching line.
    public func differentialReason(for signature: DifferentialSignature) -> String? {
        if let reason = differentials[signature.description] { return reason }
        let words = [signature.operation, signature.reference, signature.other]
        for (key, reason) in differentials.sorted(by: { $0.key < $1.key }) {
            let pattern = key.split(separator: " ").map(String.init)
            if pattern.count == 3 && zip(pattern, words).allSatisfy({ $0 == "*" || $0 == $1 }) { return reason }
        }
        return nil
    }

    /// The union of two lists: the skips and known disagreements of both;
    /// for a key in both, this list's entry.
    ///
    /// - Parameter other: The other list.
    /// - Returns: The merged list.
    public func merging(_ other: FailureList) -> FailureList {
        var merged = self
        merged.entries.merge(other.entries) { mine, _ in mine }
        merged.skips.merge(other.skips) { mine, _ in mine }
        merged.differentials.merge(other.differentials) { mine, _ in mine }
        return merged
    }
}
