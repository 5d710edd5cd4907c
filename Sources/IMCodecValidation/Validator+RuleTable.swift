import IMCodec

/// A rule table compiled once from the JSON form of
/// `scripts/codegen/generate_swift_rules.py --json`, for
/// ``Validator/validate(_:declarations:profile:)``: a developer tool that
/// validates many values with one table compiles it once.
package struct CompiledDeclarations: Sendable {
    let table: RuleTable

    /// Compiles a table.
    ///
    /// - Parameter json: The table's text.
    /// - Throws: A description of why the table does not compile.
    package init(json: String) throws {
        table = try RuleTable(json: json)
    }
}

extension Validator {
    /// Validates a payload with another rule table than the library's, its
    /// limits' values the table's own for a profile: how a developer tool
    /// shows that the engine executes the table it is given (a table made
    /// from a changed copy of `Schemas/` changes the findings).
    ///
    /// - Parameters:
    ///   - payload: The value to validate.
    ///   - declarations: A compiled rule table.
    ///   - profile: A profile name of the table (`sdk-guide`, `seed`, `current`).
    /// - Returns: Every finding, as ``validate(_:limits:)-(FramePayload,_)`` reports them.
    package static func validate(
        _ payload: FramePayload, declarations: CompiledDeclarations, profile: String
    ) -> [ValidationFinding] {
        let name = ValidationLimits.profilesByName[profile]?.name ?? profile
        return withUnsafePointer(to: ValidationLimits()) { limits in
            let run = ValidationRun(limits: limits, table: declarations.table, profile: name)
            run.validate(payload: payload)
            return run.findings
        }
    }
}
