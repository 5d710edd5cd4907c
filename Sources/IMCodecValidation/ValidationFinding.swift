import IMCodec

/// One problem the validator found in a message, batch or event.
///
/// A finding names the rule by its stable ``code``, says where the problem is
/// with a ``path`` (a `FieldPath`, written in the payload path syntax of
/// `docs/spec/payloads.md`: `elems[3].merger.messages[7].elems[0].text.text`;
/// empty for the root), how
/// serious it is, and for `limit.*` codes the ``limit`` and the ``actual``
/// value that crossed it (bytes, entries or pixels, as the code says).
///
/// Two findings are equal when their code, path, severity, limit and actual
/// value are equal; the ``reason`` is for people and may change wording
/// between releases.
public struct ValidationFinding: Hashable, Sendable, CustomStringConvertible {
    /// How serious a finding is.
    public enum Severity: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// The value breaks a documented limit or rule: a server or SDK that
        /// enforces it rejects the message.
        case error
        /// The value is unusual but may be legitimate: an enum value or a
        /// string outside the documented set (newer data), or a rule the
        /// documentation states as how SDKs behave rather than as a
        /// requirement.
        case warning

        /// `error` or `warning`.
        public var description: String { rawValue }
    }

    /// The stable code naming the rule.
    public var code: FindingCode
    /// Where the problem is, as JSON field names and indexes; empty for the root.
    public var path: FieldPath
    /// How serious the problem is.
    public var severity: Severity
    /// The limit crossed, for `limit.*` codes; the expected value for the
    /// image-size rules.
    ///
    /// `Int64`, as `IMCodecError/limit` and `IMCodecError/observed`:
    /// exact on every platform, and the type the testee protocol and the C
    /// reference report (see `IMCodecError`).
    public var limit: Int64?
    /// The observed value: the byte count, entry count, size or enum number.
    public var actual: Int64?
    /// A human explanation; its wording may change between releases. A
    /// finding of the validator says it from ``limit`` and ``actual``, as
    /// the finding is read, so that reporting one makes no text.
    public var reason: String {
        get { givenReason ?? Self.reason(limit: limit, actual: actual) }
        set { givenReason = newValue }
    }

    /// The reason a finding was made with; `nil` for the sentence made
    /// from ``limit`` and ``actual``.
    private var givenReason: String?

    /// Creates a finding.
    ///
    /// - Parameters:
    ///   - code: The stable code.
    ///   - path: The path into the value; empty for the root.
    ///   - severity: How serious the problem is.
    ///   - limit: The limit crossed, when the rule has one.
    ///   - actual: The observed value, when it is a number.
    ///   - reason: A human explanation.
    public init(
        _ code: FindingCode,
        path: FieldPath,
        severity: Severity,
        limit: Int64? = nil,
        actual: Int64? = nil,
        reason: String = ""
    ) {
        self.code = code
        self.path = path
        self.severity = severity
        self.limit = limit
        self.actual = actual
        self.givenReason = reason
    }

    /// A finding whose ``reason`` is said from its limit and observed
    /// value: what the rule engine reports.
    package static func ofRule(
        _ code: FindingCode, path: FieldPath, severity: Severity, limit: Int64?, actual: Int64?
    ) -> ValidationFinding {
        var finding = ValidationFinding(code, path: path, severity: severity, limit: limit, actual: actual)
        finding.givenReason = nil
        return finding
    }

    /// The sentence of a finding of the rule engine.
    private static func reason(limit: Int64?, actual: Int64?) -> String {
        switch (limit, actual) {
        case (let limit?, let actual?): "\(actual) where the rule allows \(limit)"
        case (nil, let actual?): "the value \(actual) breaks the rule"
        case (let limit?, nil): "outside the rule's bound \(limit)"
        case (nil, nil): "the value breaks the rule"
        }
    }

    public static func == (lhs: ValidationFinding, rhs: ValidationFinding) -> Bool {
        lhs.code == rhs.code && lhs.path == rhs.path && lhs.severity == rhs.severity
            && lhs.limit == rhs.limit && lhs.actual == rhs.actual
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(path)
        hasher.combine(severity)
        hasher.combine(limit)
        hasher.combine(actual)
    }

    /// `severity code at path: reason (limit L, actual A)`.
    public var description: String {
        var text = "\(severity) \(code.rawValue)"
        if !path.isEmpty { text += " at \(path)" }
        if !reason.isEmpty { text += ": \(reason)" }
        switch (limit, actual) {
        case (let limit?, let actual?): text += " (limit \(limit), actual \(actual))"
        case (nil, let actual?): text += " (actual \(actual))"
        case (let limit?, nil): text += " (limit \(limit))"
        case (nil, nil): break
        }
        return text
    }
}
