import IMCodec

/// The stable code of a validation finding, such as `limit.group.name-bytes`.
///
/// Codes are dotted lowercase strings shared by every implementation of the
/// format, listed once in `Schemas/imcodec/constraints/v1/finding_codes.json`
/// with their severity, their meaning and the docs/spec/limits.md rows they
/// enforce; the static members of this type (one per code, generated from
/// that list) and the table of docs/spec/error-and-finding-codes.md are made
/// from it. The first component says what kind of rule was broken:
///
/// - `limit.*`: a size or count is above its limit; the finding carries the
///   limit and the observed value.
/// - `range.*`: a number is outside its physical range.
/// - `format.*`: a string does not have the documented shape.
/// - `rule.*`: fields contradict each other (a field set where the
///   documentation says it never is, or missing where it always is).
/// - `enum.*`: a value outside the documented set; always a warning, since
///   newer data may use values this schema does not name.
/// - `code.*`: a result code the documents do not name; a warning, for the
///   same reason.
///
/// New codes may be added in later releases, so switch over codes with a
/// `default`.
public struct FindingCode: Hashable, Sendable, CustomStringConvertible {
    /// The code's string form, such as `limit.group.name-bytes`.
    public let rawValue: String

    /// Creates a code from its string form.
    ///
    /// - Parameter rawValue: The dotted lowercase code.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The code's string form.
    public var description: String { rawValue }
}

extension FindingCode {
    /// The severity the validator gives findings of this code: ``ValidationFinding/Severity/warning``
    /// for every `enum.*` code, for `code.undocumented` and for `rule.image.large-size` and
    /// `rule.image.thumbnail-size`, ``ValidationFinding/Severity/error`` for
    /// every other code.
    public var severity: ValidationFinding.Severity {
        Self.warnings.contains(self) ? .warning : .error
    }
}
