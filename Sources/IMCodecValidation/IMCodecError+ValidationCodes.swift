import IMCodec

extension IMCodecError.Code {
    // MARK: Validation codes (docs/spec/error-and-finding-codes.md)

    /// A value was validated before encoding and has an error finding. The
    /// error's path, limit and observed value are the first error finding's,
    /// and its reason starts with the finding's code (`limit.group.name-bytes: …`).
    public static let validationFailed = Self("validation.failed")
}

extension IMCodecError {
    /// Creates the `validation.failed` error for a validation finding.
    ///
    /// - Parameters:
    ///   - finding: The finding, usually the first error of a validation.
    ///   - file: The source file, for debugging.
    ///   - line: The source line, for debugging.
    public init(validationFailure finding: ValidationFinding, file: String = #fileID, line: UInt = #line) {
        self.init(
            .validationFailed,
            path: finding.path,
            reason: finding.reason.isEmpty ? finding.code.rawValue : "\(finding.code.rawValue): \(finding.reason)",
            limit: finding.limit,
            observed: finding.actual,
            file: file,
            line: line)
    }
}
