import IMCodecTestee

/// What became of one request sent to a testee.
public enum TesteeOutcome: Sendable {
    /// The testee answered.
    case response(TesteeResponse)
    /// The testee did not answer before the case's deadline and was stopped.
    case timedOut(seconds: Double)
    /// The testee died, closed its output or broke the framing; the reason
    /// says which.
    case crashed(String)
}

/// An implementation of the format that the runner checks: our library in
/// this process, or another program driven over the testee protocol.
///
/// A testee answers requests one at a time, in order. It is not `Sendable`:
/// the runner uses it from one thread.
public protocol Testee: AnyObject {
    /// A short name for reports, such as `in-process` or the command line.
    var name: String { get }

    /// Sends one request and waits for its answer.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - deadline: When to give up; nil waits for ever.
    /// - Returns: The response, or why there is none. After a timeout or a
    ///   crash the testee starts afresh on the next request.
    func respond(to request: TesteeRequest, deadline: ContinuousClock.Instant?) -> TesteeOutcome

    /// Ends the session: closes the testee's input and waits for it to exit.
    ///
    /// - Returns: A warning when the testee did not exit cleanly, else nil.
    func finish() -> String?
}
