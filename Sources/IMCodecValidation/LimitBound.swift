/// A limit's value as the rule engine reads it: what one property of
/// ``ValidationLimits`` holds, or what a rule table declares for a profile.
enum LimitBound: Sendable {
    /// The profile does not have the rule: nothing is checked.
    case none
    /// A number.
    case number(Int)
    /// A flag that is set.
    case flag
    /// A string (a prefix).
    case string(String)
    /// A set of strings.
    case strings(Set<String>)
    /// A set of numbers.
    case numbers(Set<Int32>)
    /// A range of numbers, bounds included.
    case range(ClosedRange<Int32>)
    /// A number per key.
    case perKey([String: Int])
}
