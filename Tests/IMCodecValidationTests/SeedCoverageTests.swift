import Foundation
import IMCodecTestSupport
import Testing

/// docs/spec/seed-coverage.md: every row names things that exist, and,
/// where the seeds are at hand, every declaration and section of a seed
/// lies in a row.
@Suite struct SeedCoverageTests {
    static let table = "docs/spec/seed-coverage.md"

    @Test func everyRowNamesThingsThatExist() throws {
        let text = try String(contentsOfFile: "\(repositoryRoot)/\(Self.table)", encoding: .utf8)
        let names = try RepositoryNames.load(root: repositoryRoot)
        let coverage = SeedCoverage(text: text)
        #expect(coverage.rows.count > 100)
        #expect(Set(coverage.rows.map(\.file)) == ["000", "001", "002", "003", "004"])
        let problems = coverage.problems(names: names)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// The seeds are not part of the repository; where they are beside it
    /// (or in `IMCODEC_SEEDS`), every declaration and heading must lie in a
    /// row of its file.
    @Test(.enabled(if: SeedCoverage.seedsFolder(root: repositoryRoot) != nil))
    func everyDeclarationAndSectionOfTheSeedsHasARow() throws {
        let folder = try #require(SeedCoverage.seedsFolder(root: repositoryRoot))
        let text = try String(contentsOfFile: "\(repositoryRoot)/\(Self.table)", encoding: .utf8)
        let coverage = SeedCoverage(text: text)
        var checked = 0
        for file in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() where file.hasSuffix(".txt") {
            let seed = try String(contentsOfFile: "\(folder)/\(file)", encoding: .utf8)
            let missing = coverage.uncovered(seed: seed, file: String(file.prefix(3)))
            checked += SeedCoverage.landmarks(in: seed).count
            #expect(missing.isEmpty, "\(file): no row holds \(missing)")
        }
        #expect(checked > 100)
    }

    /// The checks fail on planted bad rows, one problem each.
    @Test func plantedBadRowsAreReported() throws {
        let names = try RepositoryNames.load(root: repositoryRoot)
        let good =
            "| 004:1-9 | a | `GroupInfo`, `GroupInfo.add_opt` | G21, `rule.private-group.add-opt` | "
            + "`Vectors/events/group-profiles.json`, `Vectors/limits/validation-rules.json#validate.rule.batch` | |"
        #expect(SeedCoverage(text: good).problems(names: names).isEmpty)
        let missing = "no-such"
        let planted: [(String, String)] = [
            ("unknown type", "| 004:1 | a | `GroupInfoo` | – | `Vectors/events/group-profiles.json` | |"),
            ("unknown field", "| 004:1 | a | `GroupInfo.add_option` | – | `Vectors/events/group-profiles.json` | |"),
            ("unknown row", "| 004:1 | a | `GroupInfo` | G99 | `Vectors/events/group-profiles.json` | |"),
            ("unknown code", "| 004:1 | a | `GroupInfo` | `rule.no-such` | `Vectors/events/group-profiles.json` | |"),
            ("missing vector file", "| 004:1 | a | `GroupInfo` | – | `Vectors/events/\(missing).json` | |"),
            ("missing case", "| 004:1 | a | `GroupInfo` | – | `Vectors/events/group-profiles.json#event.no-such` | |"),
            ("no vectors", "| 004:1 | a | `GroupInfo` | – | – | |"),
            ("no reason", "| 004:1 | a | – | – | – | |"),
            ("bad seed", "| 007:1 | a | `GroupInfo` | – | `Vectors/events/group-profiles.json` | |"),
            ("cell count", "| 004:1 | a | `GroupInfo` | – |"),
        ]
        for (label, row) in planted {
            let problems = SeedCoverage(text: row).problems(names: names)
            #expect(problems.count == 1, "\(label): \(problems)")
        }
        let seed = "## Heading\n\n@interface TIMGroupThing : NSObject\n@interface TIMGroupManager : NSObject\n"
        #expect(
            SeedCoverage(text: "| 004:1-2 | a | – | – | – | Out of scope: planted. |").uncovered(
                seed: seed, file: "004") == [3])
    }
}

/// The names a coverage row may use: schema types and their fields, the
/// rows and codes of the docs, the vector files and their case ids.
struct RepositoryNames {
    var fields: [String: Set<String>] = [:]
    var rows: Set<String> = []
    var codes: Set<String> = []
    let root: String

    static func load(root: String) throws -> RepositoryNames {
        var names = RepositoryNames(root: root)
        let schemas = "\(root)/Schemas/imcodec/v1"
        let declaration = try NSRegularExpression(
            pattern: #"^(message|enum) (\w+) \{$(.*?)^\}"#,
            options: [
                .anchorsMatchLines, .dotMatchesLineSeparators,
            ])
        let field = try NSRegularExpression(
            pattern: #"^\s*(?:repeated |optional )?[\w.]+ (\w+) = \d+"#,
            options: [
                .anchorsMatchLines
            ])
        for file in try FileManager.default.contentsOfDirectory(atPath: schemas) where file.hasSuffix(".proto") {
            let text = try String(contentsOfFile: "\(schemas)/\(file)", encoding: .utf8) as NSString
            for match in declaration.matches(in: text as String, range: NSRange(location: 0, length: text.length)) {
                let body = text.substring(with: match.range(at: 3))
                let bodyRange = NSRange(location: 0, length: (body as NSString).length)
                names.fields[text.substring(with: match.range(at: 2))] = Set(
                    field.matches(in: body, range: bodyRange).map {
                        (body as NSString).substring(with: $0.range(at: 1))
                    })
            }
        }
        let limits = try String(contentsOfFile: "\(root)/docs/spec/limits.md", encoding: .utf8)
        for line in limits.split(separator: "\n") where line.hasPrefix("| ") {
            let first = line.dropFirst(2).prefix { $0 != " " }
            if first.range(of: #"^[MGFCD]\d+$"#, options: .regularExpression) != nil {
                names.rows.insert(String(first))
            }
            names.codes.formUnion(SeedCoverage.backticked(String(line)))
        }
        let data = try Data(
            contentsOf: URL(fileURLWithPath: "\(root)/Schemas/imcodec/constraints/v1/finding_codes.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let codes = try #require(json["codes"] as? [[String: Any]])
        names.codes.formUnion(codes.compactMap { $0["code"] as? String })
        return names
    }

    /// The case ids of a vector file (each case's `"id"` member, as the
    /// vector writer prints it), or nil when it does not exist.
    func caseIDs(of path: String) -> Set<String>? {
        guard path.hasSuffix(".json"), let text = try? String(contentsOfFile: "\(root)/\(path)", encoding: .utf8)
        else { return nil }
        let id = #/\n\s*"id": "([^"]+)"/#
        return Set(text.matches(of: id).map { String($0.output.1) })
    }
}

/// The rows of the coverage table and their checks.
struct SeedCoverage {
    struct Row {
        var line: Int
        var cells: [String]
        var file: String { String(cells.first?.prefix(3) ?? "") }
        /// The seed lines the row covers.
        var lines: ClosedRange<Int>? {
            let parts = cells[0].dropFirst(4).split(separator: "-").compactMap { Int($0) }
            guard cells[0].range(of: #"^00[0-4]:\d+(-\d+)?$"#, options: .regularExpression) != nil,
                let first = parts.first, let last = parts.last, first <= last
            else { return nil }
            return first...last
        }
    }

    let rows: [Row]

    init(text: String) {
        rows = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            guard line.hasPrefix("| "), !line.hasPrefix("| seed |"), !line.hasPrefix("| file |") else { return nil }
            var cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            cells = Array(cells.dropFirst().dropLast())
            guard cells.first?.range(of: #"^\d{3}:"#, options: .regularExpression) != nil else { return nil }
            return Row(line: index + 1, cells: cells)
        }
    }

    /// Every problem of every row, one line each.
    func problems(names: RepositoryNames) -> [String] {
        var problems: [String] = []
        for row in rows {
            let at = "line \(row.line)"
            guard row.cells.count == 6 else {
                problems.append("\(at): \(row.cells.count) cells, not 6")
                continue
            }
            if row.lines == nil { problems.append("\(at): \(row.cells[0]) is not file:line or file:first-last") }
            let types = Self.backticked(row.cells[2])
            for name in types {
                let parts = name.split(separator: ".").map(String.init)
                guard let fields = names.fields[parts[0]] else {
                    problems.append("\(at): no schema type \(parts[0])")
                    continue
                }
                if parts.count == 2 && !fields.contains(parts[1]) {
                    problems.append("\(at): \(parts[0]) has no field \(parts[1])")
                }
            }
            for token in row.cells[3].split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) })
            where token != "–" && !token.hasPrefix("`") && !names.rows.contains(token) {
                problems.append("\(at): no limits.md row \(token)")
            }
            for code in Self.backticked(row.cells[3]) where !names.codes.contains(code) {
                problems.append("\(at): no code or limit \(code)")
            }
            let vectors = Self.backticked(row.cells[4])
            for reference in vectors {
                let parts = reference.split(separator: "#", maxSplits: 1).map(String.init)
                guard let ids = names.caseIDs(of: parts[0]) else {
                    problems.append("\(at): no vector file \(parts[0])")
                    continue
                }
                if parts.count == 2 && !ids.contains(parts[1]) { problems.append("\(at): no case \(reference)") }
            }
            if types.isEmpty && !(row.cells[5].hasPrefix("Out of scope: ") && row.cells[5].count > 20) {
                problems.append("\(at): no schema type and no reason why it is out of scope")
            }
            if !types.isEmpty && vectors.isEmpty { problems.append("\(at): a schema type without vectors") }
        }
        return problems
    }

    /// The lines of `seed` (a file of `file`) that are declarations or
    /// headings and lie in no row of that file.
    func uncovered(seed: String, file: String) -> [Int] {
        let ranges = rows.filter { $0.file == file }.compactMap(\.lines)
        return Self.landmarks(in: seed).filter { line in !ranges.contains { $0.contains(line) } }
    }

    /// The lines that must be in a row: headings, and declarations of
    /// interfaces, protocols and enums other than managers' method lists and
    /// sample implementations.
    static func landmarks(in seed: String) -> [Int] {
        seed.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            let text = line.trimmingCharacters(in: .whitespaces)
            let isHeading = text.hasPrefix("#")
            let isDeclaration = text.hasPrefix("@interface") || text.hasPrefix("@protocol") || text.contains("NS_ENUM(")
            let name = text.split(whereSeparator: { " :<(".contains($0) }).dropFirst().first ?? ""
            let isMethodList = name.hasSuffix("Manager") || name.hasSuffix("Impl")
            return isHeading || (isDeclaration && !isMethodList) ? index + 1 : nil
        }
    }

    /// The folder of the seeds: `IMCODEC_SEEDS`, or `shared/seeds` beside the
    /// repository or its parent.
    static func seedsFolder(root: String) -> String? {
        let candidates = [
            ProcessInfo.processInfo.environment["IMCODEC_SEEDS"], "\(root)/../shared/seeds",
            "\(root)/../../shared/seeds",
        ].compactMap { $0 }
        return candidates.first { folder in
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            return ["000_", "001_", "002_", "003_", "004_"].allSatisfy { prefix in
                files.contains { $0.hasPrefix(prefix) }
            }
        }
    }

    /// The `backticked` tokens of a cell.
    static func backticked(_ cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().compactMap { index, part in
            index % 2 == 1 ? String(part) : nil
        }
    }
}
