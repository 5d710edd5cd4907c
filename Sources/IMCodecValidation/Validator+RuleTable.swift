import IMCodec

extension Validator {
    /// Validates a payload with another rule table than the library's, its
    /// limits' values the table's own for a profile: how a developer tool
    /// shows that the engine executes the table it is given (a table made
    /// from a changed copy of `Schemas/` changes the findings).
    ///
    /// - Parameters:
    ///   - payload: The value to validate.
    ///   - declarations: A rule table in the JSON form of
    ///     `scripts/codegen/generate_swift_rules.py --json`.
    ///   - profile: A profile name of the table (`sdk-guide`, `seed`, `current`).
    /// - Returns: Every finding, as ``validate(_:limits:)-(FramePayload,_)`` reports them.
    /// - Throws: A description of why the table does not compile.
    package static func validate(
        _ payload: FramePayload, declarations: String, profile: String
    ) throws -> [ValidationFinding] {
        let table = try RuleTable(json: declarations)
        let name = ValidationLimits.profilesByName[profile]?.name ?? profile
        let run = ValidationRun(limits: ValidationLimits(), table: table, profile: name)
        switch payload {
        case .message(let message): run.validate(message: message)
        case .batch(let batch): run.validate(batch: batch)
        case .event(let event): run.validate(event: event)
        }
        return run.findings
    }
}
