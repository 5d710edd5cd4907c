import IMCodec

/// What validating one input gave: every finding of every value the input
/// holds, and why the input, or part of it, could not be read.
///
/// ``InputValidator`` makes one for each input. Findings from before a
/// failure are kept: in a stream of frames, the frames before a damaged one
/// are validated and reported.
///
/// ```swift
/// let report = InputValidator.validate(bytes, named: "messages.frames")
/// for located in report.findings {
///     print(located.frame ?? 0, located.finding)
/// }
/// if let failure = report.failure { print("unreadable:", failure) }
/// ```
public struct ValidationReport: Hashable, Sendable {
    /// A finding with where in the input it was found.
    public struct LocatedFinding: Hashable, Sendable {
        /// The finding. For a JSON array its path starts with the entry's
        /// index (`[2].elems[0].text`).
        public var finding: ValidationFinding

        /// The index of the frame that holds the value, counted from 0, for
        /// an input of frames; `nil` for JSON.
        public var frame: Int?

        /// Creates a located finding.
        ///
        /// - Parameters:
        ///   - finding: The finding.
        ///   - frame: The index of the frame in an input of frames.
        public init(finding: ValidationFinding, frame: Int? = nil) {
            self.finding = finding
            self.frame = frame
        }
    }

    /// The name of the input as the caller gave it (a file name, or `-` for
    /// standard input); reports name their input with it.
    public var name: String

    /// Every finding of every value the input holds, in input order.
    public var findings: [LocatedFinding]

    /// Why the input, or part of it, could not be read or decoded; `nil`
    /// when all of it was.
    public var failure: IMCodecError?

    /// The index of the frame the failure is in, for an input of frames.
    public var failedFrame: Int?

    /// Creates a report.
    ///
    /// - Parameters:
    ///   - name: The name of the input.
    ///   - findings: The findings.
    ///   - failure: Why the input, or part of it, could not be read.
    ///   - failedFrame: The frame the failure is in.
    public init(
        name: String, findings: [LocatedFinding] = [], failure: IMCodecError? = nil, failedFrame: Int? = nil
    ) {
        self.name = name
        self.findings = findings
        self.failure = failure
        self.failedFrame = failedFrame
    }

    /// The number of findings of severity error.
    public var errorCount: Int {
        findings.count { $0.finding.severity == .error }
    }

    /// The number of findings of severity warning.
    public var warningCount: Int {
        findings.count { $0.finding.severity == .warning }
    }
}
