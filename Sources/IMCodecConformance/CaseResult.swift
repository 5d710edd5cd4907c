/// The result of one case against one testee.
public struct CaseResult: Sendable {
    /// What happened, after the failure list is applied.
    public enum Status: String, Sendable, CaseIterable {
        /// Every check of the case ran and passed.
        case passed
        /// A check failed, timed out or crashed the testee, and the case is
        /// not in the failure list.
        case failed
        /// No check failed and at least one was skipped by an operation the
        /// testee declares unsupported.
        case skipped
        /// The case failed and the failure list expects that.
        case knownFailure = "known-failure"
        /// The case is in the failure list but passed: the list is stale.
        case unexpectedPass = "unexpected-pass"

        /// Whether this status makes the run fail.
        public var isUnexpected: Bool { self == .failed || self == .unexpectedPass }
    }

    public var id: String
    /// The vector file, relative to the vectors directory.
    public var file: String
    public var area: String
    public var operation: VectorCase.Operation
    public var status: Status
    /// What went wrong for failures; skip reasons for skips; the failure
    /// list's reason for known failures and unexpected passes.
    public var messages: [String]
    /// How many checks passed, failed and were skipped.
    public var passedChecks: Int
    public var failedChecks: Int
    public var skippedChecks: Int
    /// The failure code (``CheckFailure``) of the first check that failed,
    /// or nil when none did.
    public var failure: String?
    /// Wall time of the case, in seconds.
    public var seconds: Double

    public init(
        id: String, file: String, area: String, operation: VectorCase.Operation, status: Status, messages: [String],
        passedChecks: Int, failedChecks: Int, skippedChecks: Int, failure: String? = nil,
        seconds: Double
    ) {
        self.id = id
        self.file = file
        self.area = area
        self.operation = operation
        self.status = status
        self.messages = messages
        self.passedChecks = passedChecks
        self.failedChecks = failedChecks
        self.skippedChecks = skippedChecks
        self.failure = failure
        self.seconds = seconds
    }
}
