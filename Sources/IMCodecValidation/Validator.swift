import IMCodec

/// Checks messages, batches and events against the documented limits and
/// rules of docs/spec/limits.md (docs/spec/error-and-finding-codes.md gives every
/// finding code its rows; docs/spec/validation.md says how values are measured).
///
/// The validator never throws and never stops early: one pass collects every
/// finding, each with a stable ``FindingCode``, the path of the field, a
/// severity and, for limits, the limit and the observed value. Messages
/// nested in mergers are validated with their paths
/// (`elems[2].merger.messages[0].elems[1].text`). It accepts any value the
/// model can hold, including empty messages, unknown enum values and
/// hand-built mergers nested deeper than any decoder allows: the walk is
/// iterative, and its cost is linear in the size of the value.
///
/// ```swift
/// let findings = Validator.validate(message)   // the default profile, sdk-guide
/// for finding in findings where finding.severity == .error {
///     print(finding.code, finding.path)
/// }
/// ```
public enum Validator {
    /// Validates a message and every message nested in its mergers.
    ///
    /// - Parameters:
    ///   - message: The message.
    ///   - limits: The limits to check against; the sdk-guide profile by default.
    /// - Returns: Every finding, a message's own before those of the messages
    ///   nested in it; empty when the message is valid.
    public static func validate(_ message: Message, limits: ValidationLimits = .sdkGuide) -> [ValidationFinding] {
        withRun(limits) { run in
            run.validate(message: message)
            return run.findings
        }
    }

    /// Validates a message whose mergers hold stand-ins for their messages
    /// (as many empty messages as each forwards), asking `forwarded` for
    /// each forwarded message as the walk reaches it: the findings are those
    /// of the message with its mergers' messages in place, and only the
    /// messages on the way from the root to the one visited need to be held.
    ///
    /// - Parameters:
    ///   - message: The message.
    ///   - limits: The limits to check against.
    ///   - forwarded: Gives message `index` of the merger at elem `elem` of
    ///     the message at node `parent` (0 for `message`); `node` is the node
    ///     of the message given, the `parent` its own mergers' messages are
    ///     asked for with. Each list is asked for in order, a message's
    ///     own lists before the next message of its list.
    /// - Returns: Every finding, as the message validated whole has them.
    package static func validate(
        _ message: Message, limits: ValidationLimits,
        forwarded: (_ parent: Int, _ elem: Int, _ index: Int, _ node: Int) -> Message
    ) -> [ValidationFinding] {
        withoutActuallyEscaping(forwarded) { forwarded in
            withRun(limits) { run in
                run.forwarded = { forwarded($0.parent, $0.elem, $0.index, $0.node) }
                run.validate(message: message)
                run.forwarded = nil
                return run.findings
            }
        }
    }

    /// Validates every message of a batch; paths start with `messages[i]`.
    ///
    /// - Parameters:
    ///   - batch: The batch.
    ///   - limits: The limits to check against; the sdk-guide profile by default.
    /// - Returns: Every finding, in message order.
    public static func validate(_ batch: MessageBatch, limits: ValidationLimits = .sdkGuide) -> [ValidationFinding] {
        withRun(limits) { run in
            run.validate(batch: batch)
            return run.findings
        }
    }

    /// Validates the message at `index` of a batch, batch rules included;
    /// paths start with `messages[index]`. The findings of a batch are
    /// those of its messages in order, so a reader that does not hold the
    /// whole batch gets the same findings message by message.
    ///
    /// - Parameters:
    ///   - message: The message.
    ///   - index: Its index in the batch.
    ///   - limits: The limits to check against.
    /// - Returns: Every finding of the message as a member of a batch.
    package static func validate(_ message: Message, inBatchAt index: Int, limits: ValidationLimits)
        -> [ValidationFinding]
    {
        withRun(limits) { run in
            run.validate(batchMessage: message, at: index)
            return run.findings
        }
    }

    /// Validates an event: read receipts, recall, modification (whose message
    /// is validated as a message, at `modification.message`), connection and
    /// user status.
    ///
    /// - Parameters:
    ///   - event: The event.
    ///   - limits: The limits to check against; the sdk-guide profile by default.
    /// - Returns: Every finding.
    public static func validate(_ event: Event, limits: ValidationLimits = .sdkGuide) -> [ValidationFinding] {
        withRun(limits) { run in
            run.validate(event: event)
            return run.findings
        }
    }

    /// Validates the content of a frame.
    ///
    /// - Parameters:
    ///   - payload: The message, batch or event.
    ///   - limits: The limits to check against; the sdk-guide profile by default.
    /// - Returns: Every finding.
    public static func validate(_ payload: FramePayload, limits: ValidationLimits = .sdkGuide) -> [ValidationFinding] {
        switch payload {
        case .message(let message): validate(message, limits: limits)
        case .batch(let batch): validate(batch, limits: limits)
        case .event(let event): validate(event, limits: limits)
        }
    }

    /// Throws when a message has an error finding; warnings pass. This is
    /// what an encoder calls to validate before encoding.
    ///
    /// - Parameters:
    ///   - message: The message.
    ///   - limits: The limits to check against; the sdk-guide profile by default.
    /// - Throws: `validation.failed` with the path, limit and observed value
    ///   of the first error finding; its reason starts with the finding's code.
    public static func check(_ message: Message, limits: ValidationLimits = .sdkGuide) throws(IMCodecError) {
        try throwFirstError(of: validate(message, limits: limits))
    }

    /// Throws when a batch has an error finding; warnings pass.
    ///
    /// - Parameters:
    ///   - batch: The batch.
    ///   - limits: The limits to check against; the sdk-guide profile by default.
    /// - Throws: `validation.failed` for the first error finding.
    public static func check(_ batch: MessageBatch, limits: ValidationLimits = .sdkGuide) throws(IMCodecError) {
        try throwFirstError(of: validate(batch, limits: limits))
    }

    /// Throws when an event has an error finding; warnings pass.
    ///
    /// - Parameters:
    ///   - event: The event.
    ///   - limits: The limits to check against; the sdk-guide profile by default.
    /// - Throws: `validation.failed` for the first error finding.
    public static func check(_ event: Event, limits: ValidationLimits = .sdkGuide) throws(IMCodecError) {
        try throwFirstError(of: validate(event, limits: limits))
    }

    /// Throws when the content of a frame has an error finding; warnings pass.
    ///
    /// - Parameters:
    ///   - payload: The message, batch or event.
    ///   - limits: The limits to check against; the sdk-guide profile by default.
    /// - Throws: `validation.failed` for the first error finding.
    public static func check(_ payload: FramePayload, limits: ValidationLimits = .sdkGuide) throws(IMCodecError) {
        try throwFirstError(of: validate(payload, limits: limits))
    }

    /// Validates the content of a frame by reading the library's rule table
    /// entry by entry, as the engine executes any other table, instead of by
    /// the compiled visits generated from it: what tests and the fuzz checks
    /// compare ``validate(_:limits:)-(FramePayload,_)`` with.
    ///
    /// - Parameters:
    ///   - payload: The message, batch or event.
    ///   - limits: The limits to check against.
    /// - Returns: Every finding.
    package static func validateReadingTable(_ payload: FramePayload, limits: ValidationLimits) -> [ValidationFinding] {
        withRun(limits, compiled: false) { run in
            run.validate(payload: payload)
            return run.findings
        }
    }

    /// Runs `body` with a run that borrows `limits` for the call; `compiled`
    /// as ``ValidationRun/init(limits:table:profile:compiled:)`` takes it.
    private static func withRun(
        _ limits: ValidationLimits, compiled: Bool = true, _ body: (ValidationRun) -> [ValidationFinding]
    ) -> [ValidationFinding] {
        withUnsafePointer(to: limits) { body(ValidationRun(limits: $0, compiled: compiled)) }
    }

    /// Throws `validation.failed` for the first error among `findings`.
    private static func throwFirstError(of findings: [ValidationFinding]) throws(IMCodecError) {
        if let first = findings.first(where: { $0.severity == .error }) {
            throw IMCodecError(validationFailure: first)
        }
    }
}
