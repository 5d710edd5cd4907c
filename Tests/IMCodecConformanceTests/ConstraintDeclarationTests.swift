import Foundation
import IMCodec
import IMCodecConformance
import IMCodecTestSupport
import IMCodecValidation
import Testing

/// The limits are declared once, in `Schemas/`: changing one declaration and
/// regenerating moves the Swift tables, the C tables, the docs and the
/// boundary vectors together, and nothing else.
@Suite struct ConstraintDeclarationTests {
    /// Runs a script of `scripts/` with python3 and the given environment.
    private static func python(_ script: String, _ arguments: [String], environment: [String: String]) throws
        -> Int32
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", repositoryRoot + "/scripts/" + script] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    private static func text(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    /// The cases of a vector file by id.
    private static func cases(_ path: String) throws -> [String: VectorCase] {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let file = try VectorLoader.load(bytes, path: path)
        return Dictionary(file.cases.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The lines of `new` that are not lines of `old`.
    private static func addedLines(_ old: String, _ new: String) -> [String] {
        let before = Set(old.split(separator: "\n", omittingEmptySubsequences: false))
        return new.split(separator: "\n", omittingEmptySubsequences: false).filter { !before.contains($0) }.map(
            String.init)
    }

    /// A new scratch folder holding a copy of `Schemas/`, for a test to change and regenerate from.
    private static func scratchWithSchemas() throws -> String {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "imcodec-constraints-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: repositoryRoot + "/Schemas", toPath: scratch + "/Schemas")
        return scratch
    }

    @Test func oneChangedDeclarationMovesTheTablesTheDocsAndTheVectorsTogether() throws {
        let declared = ValidationLimits.sdkGuide.maxGroupNameBytes ?? 0
        let changed = declared + 7
        let scratch = try Self.scratchWithSchemas()
        defer { try? FileManager.default.removeItem(atPath: scratch) }

        // The sdk-guide value of maxGroupNameBytes, in the copy.
        let model = scratch + "/Schemas/imcodec/v1/model.proto"
        var schema = try Self.text(model)
        let name = try #require(schema.range(of: #"name: "maxGroupNameBytes""#))
        let declaration = try #require(
            schema.range(of: "sdk_guide: {number: \(declared)}", range: name.upperBound..<schema.endIndex))
        schema.replaceSubrange(declaration, with: "sdk_guide: {number: \(changed)}")
        try schema.write(toFile: model, atomically: true, encoding: .utf8)

        let environment = ["IMCODEC_SCHEMAS": scratch + "/Schemas", "IMCODEC_VECTORS_DIR": scratch + "/Vectors"]
        #expect(try Self.python("codegen/generate_constraints.py", [scratch + "/out"], environment: environment) == 0)
        #expect(try Self.python("vectors/make_validation_vectors.py", [], environment: environment) == 0)

        // Swift: the sdk-guide default moves; the current profile keeps its own number.
        let swiftFile = "/Sources/IMCodecValidation/Generated/ValidationLimits.swift"
        let swiftAdded = Self.addedLines(
            try Self.text(repositoryRoot + swiftFile), try Self.text(scratch + "/out" + swiftFile))
        #expect(swiftAdded.contains("    public var maxGroupNameBytes: Int? = \(changed)"))
        #expect(swiftAdded.contains("        limits.maxGroupNameBytes = \(declared)"))
        #expect(
            swiftAdded.allSatisfy { $0.contains("maxGroupNameBytes") || $0.contains("group name") }, "\(swiftAdded)")

        // C: the sdk-guide table moves, the current table does not.
        let cFile = "/Sources/IMCodecReference/Generated/constraints.c"
        let cAdded = Self.addedLines(try Self.text(repositoryRoot + cFile), try Self.text(scratch + "/out" + cFile))
        #expect(cAdded == ["    .has_max_group_name_bytes = 1, .max_group_name_bytes = \(changed),"])
        let cTables = try Self.text(scratch + "/out" + cFile)
        let current = try #require(cTables.range(of: "imcodec_ref_validation_current = {"))
        #expect(cTables[current.upperBound...].contains(".max_group_name_bytes = \(declared),"))

        // Docs: the G3 row of docs/spec/limits.md, the one table of the limits; the
        // finding code table beside it (docs/spec/error-and-finding-codes.md) does not move.
        let limitsAdded = Self.addedLines(
            try Self.text(repositoryRoot + "/docs/spec/limits.md"), try Self.text(scratch + "/out/docs/spec/limits.md"))
        #expect(limitsAdded.count == 1)
        #expect(
            limitsAdded.first?.hasPrefix(
                "| G3 | `maxGroupNameBytes` | `limit.group.name-bytes` | \(changed) | \(declared) |") == true)
        let codesDoc = "/docs/spec/error-and-finding-codes.md"
        #expect(try Self.text(scratch + "/out" + codesDoc) == Self.text(repositoryRoot + codesDoc))

        // Vectors: the sdk-guide boundary cases sit at the new number; no other case changes.
        let committed = try Self.cases(repositoryRoot + "/Vectors/limits/validation-sdk-guide.json")
        let made = try Self.cases(scratch + "/Vectors/limits/validation-sdk-guide.json")
        #expect(Set(committed.keys) == Set(made.keys))
        let past = try #require(made["validate.sdk-guide.group-tips-group-name.n-plus-1"])
        let finding = try #require(past.expected.findings?.first)
        #expect(finding.limit == Int64(changed))
        #expect(finding.actual == Int64(changed + 1))
        let moved = made.keys.filter { made[$0] != committed[$0] }.sorted()
        #expect(
            !moved.isEmpty && moved.allSatisfy { $0.contains("group-name") || $0.contains("group-profile-name") },
            "\(moved)")
        #expect(
            try Self.cases(scratch + "/Vectors/limits/validation-current.json")
                == Self.cases(repositoryRoot + "/Vectors/limits/validation-current.json"))
    }

    @Test func findingCodesAreListedOnceAndMoveTheTableAndTheSwiftDocumentationTogether() throws {
        let scratch = try Self.scratchWithSchemas()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let list = scratch + "/Schemas/imcodec/constraints/v1/finding_codes.json"
        let original = try Self.text(list)
        let environment = ["IMCODEC_SCHEMAS": scratch + "/Schemas"]

        // A new meaning for one code changes one line of each: its row of the table and its Swift documentation.
        let meaning = #""meaning": "A group name is longer than `maxGroupNameBytes`, planted.""#
        let name = try #require(original.range(of: #""code": "limit.group.name-bytes""#))
        let line = try #require(
            original.range(
                of: #""meaning": "[^\n]*"#, options: .regularExpression, range: name.upperBound..<original.endIndex))
        try original.replacingCharacters(in: line, with: meaning + ",").write(
            toFile: list, atomically: true, encoding: .utf8)
        #expect(try Self.python("codegen/generate_constraints.py", [scratch + "/out"], environment: environment) == 0)
        let swiftFile = "/Sources/IMCodecValidation/Generated/FindingCodes.swift"
        let expected = [
            "/docs/spec/error-and-finding-codes.md":
                "| `limit.group.name-bytes` | error | A group name is longer than `maxGroupNameBytes`, planted. | G3, G10 |",
            swiftFile: "    /// A group name is longer than ``ValidationLimits/maxGroupNameBytes``, planted (G3, G10).",
        ]
        for (file, line) in expected {
            let added = Self.addedLines(try Self.text(repositoryRoot + file), try Self.text(scratch + "/out" + file))
            #expect(added == [line], "\(file)")
        }

        // A code a declaration in the schema names must be in the list: without it nothing is generated.
        let entry = try #require(
            original.range(of: #"\{\s*"code": "limit.group.name-bytes"[^}]*\},\s*"#, options: .regularExpression))
        try original.replacingCharacters(in: entry, with: "").write(toFile: list, atomically: true, encoding: .utf8)
        #expect(
            try Self.python("codegen/generate_constraints.py", [scratch + "/missing"], environment: environment) != 0)
        #expect(!FileManager.default.fileExists(atPath: scratch + "/missing" + swiftFile))
    }

    @Test func limitsDocumentNamesEveryRow() throws {
        let text = try Self.text(repositoryRoot + "/docs/spec/limits.md")
        let rows =
            (1...18).map { "M\($0)" } + (1...17).map { "G\($0)" } + (1...9).map { "F\($0)" } + (1...5).map { "C\($0)" }
            + (1...9).map { "D\($0)" }
        for row in rows {
            #expect(text.contains("\n| \(row) |"), "docs/spec/limits.md has no row \(row)")
        }
        #expect(!text.contains("../"), "docs/spec/limits.md points outside the repository")
    }
}
