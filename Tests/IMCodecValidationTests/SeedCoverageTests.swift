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
    @Test(.enabled(if: SeedCoverage.seedsFolder(root: repositoryRoot) != nil, SeedInventory.absentSeeds))
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

    /// docs/spec/seed-inventory.md: every row has a disposition that names
    /// things that exist, or a reason.
    @Test func everyInventoryRowHasADisposition() throws {
        let names = try RepositoryNames.load(root: repositoryRoot)
        let inventory = try SeedInventory(
            text: String(contentsOfFile: "\(repositoryRoot)/\(SeedInventory.path)", encoding: .utf8))
        #expect(inventory.rows.count > 500)
        let problems = inventory.problems(names: names)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// Where the seeds are at hand, every line that declares a field, a
    /// parameter or an enum value, or states a rule, has a row of the
    /// inventory, and every row names a line of its seed. Where they are
    /// not, the test says so: it is skipped with the reason, never passed.
    @Test(.enabled(if: SeedCoverage.seedsFolder(root: repositoryRoot) != nil, SeedInventory.absentSeeds))
    func everyFieldAndRuleLineOfTheSeedsHasAnInventoryRow() throws {
        let folder = try #require(SeedCoverage.seedsFolder(root: repositoryRoot))
        let inventory = try SeedInventory(
            text: String(contentsOfFile: "\(repositoryRoot)/\(SeedInventory.path)", encoding: .utf8))
        var checked = 0
        for file in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() where file.hasSuffix(".txt") {
            let seed = try String(contentsOfFile: "\(folder)/\(file)", encoding: .utf8)
            let prefix = String(file.prefix(3))
            let lines = try SeedInventory.statements(in: seed)
            checked += lines.count
            let missing = lines.filter { !inventory.lines.contains("\(prefix):\($0)") }
            #expect(missing.isEmpty, "\(file): no inventory row for lines \(missing)")
            let count = seed.split(separator: "\n", omittingEmptySubsequences: false).count
            let beyond = inventory.rows.filter { $0.file == prefix && !(1...count).contains($0.line) }
            #expect(beyond.isEmpty, "\(file): rows past the end of the seed: \(beyond.map(\.line))")
        }
        #expect(checked > 500)
    }

    /// The inventory's checks fail on planted bad rows, one problem each; the
    /// detector lists the planted seed lines of every kind and no others.
    @Test func plantedInventoryProblemsAreReported() throws {
        let names = try RepositoryNames.load(root: repositoryRoot)
        let good = "| 004:1 | field | a | `GroupInfo.add_opt`, `rule.private-group.add-opt`; a note |"
        #expect(SeedInventory(text: good).problems(names: names).isEmpty)
        let planted: [(String, String)] = [
            ("unknown field", "| 004:1 | field | a | `GroupInfo.add_option` |"),
            ("unknown code", "| 004:1 | rule | a | `rule.no-such` |"),
            ("no disposition", "| 004:1 | rule | a | |"),
            ("short reason", "| 004:1 | rule | a | Reason: no. |"),
            ("prose only", "| 004:1 | rule | a | carried somewhere |"),
            ("cell count", "| 004:1 | rule | a |"),
        ]
        for (label, row) in planted {
            #expect(SeedInventory(text: row).problems(names: names).count == 1, "\(label)")
        }
        let seed = [
            "@property(nonatomic,strong) NSString * group;", " *  @param succ  Success callback",
            " *  @param filter     Group member role filter", "  TIM_GROUP_TIPS_TYPE_INVITE = 0x01,",
            "The name cannot exceed 30 bytes.", "an unremarkable line", " *  用户备注(备注最大96字节)",
            "| timestamp | The start timestamp |", "| Parameter | Description |", " *  @prarm forceUpdate 强制从后台拉取",
            "- (void)onReConnFailed:(int)code err:(NSString*)err;", "- (void)onForceOffline;",
            "msgKey & authKey | Message identifiers", "成员 说明", "type 变更类型", "", "type outside a table",
            "        case TIM_GROUP_TIPS_TYPE_KICKED:", "        default:", "message.needReadReceipt = YES;",
            "**Permission description:**", "- **Private group:** any member can modify the group name.",
            "**Prototype:**", "- **Private group:** any member can modify the group name.",
            "The ID is 0 for an apply request.", "@optional",
        ].joined(separator: "\n")
        #expect(try SeedInventory.statements(in: seed) == [1, 3, 4, 5, 7, 8, 10, 11, 13, 15, 18, 20, 22, 25])
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

/// docs/spec/seed-inventory.md: the seed lines that declare a field or state
/// a rule, each with its disposition.
struct SeedInventory {
    static let path = "docs/spec/seed-inventory.md"
    static let absentSeeds: Comment =
        "The seeds are not at ../shared/seeds (beside the repository) or in IMCODEC_SEEDS: the line-by-line check of docs/spec/seed-inventory.md against them is skipped."

    struct Row {
        var tableLine: Int
        var file: String
        var line: Int
        var cells: [String]
    }

    let rows: [Row]
    /// `file:line` of every row.
    let lines: Set<String>

    init(text: String) {
        rows = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            guard line.range(of: #"^\| 00\d:\d+ \|"#, options: .regularExpression) != nil else { return nil }
            let cells = Array(
                line.split(separator: "|", omittingEmptySubsequences: false).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }.dropFirst().dropLast())
            let seed = cells[0].split(separator: ":")
            return Row(tableLine: index + 1, file: String(seed[0]), line: Int(seed[1]) ?? 0, cells: cells)
        }
        lines = Set(rows.map { "\($0.file):\($0.line)" })
    }

    /// Every problem of every row, one line each: the wrong number of cells,
    /// no disposition, a reason too short to say anything, prose without a
    /// name, or a name that does not exist.
    func problems(names: RepositoryNames) -> [String] {
        var problems: [String] = []
        for row in rows {
            let at = "line \(row.tableLine)"
            guard row.cells.count == 4 else {
                problems.append("\(at): \(row.cells.count) cells, not 4")
                continue
            }
            let disposition = row.cells[3]
            if disposition.hasPrefix("Reason: ") {
                if disposition.count < 40 { problems.append("\(at): the reason says too little") }
                continue
            }
            let tokens = SeedCoverage.backticked(disposition)
            if tokens.isEmpty {
                problems.append("\(at): no disposition (a schema name, a code, or a reason)")
                continue
            }
            for token in tokens where !Self.exists(token, names: names) {
                problems.append("\(at): no type, field, code or row \(token)")
            }
        }
        return problems
    }

    static func exists(_ token: String, names: RepositoryNames) -> Bool {
        if names.codes.contains(token) || names.rows.contains(token) { return true }
        let parts = token.split(separator: ".").map(String.init)
        guard let fields = names.fields[parts[0]] else { return false }
        return parts.count == 1 || (parts.count == 2 && fields.contains(parts[1]))
    }

    private static let callbacks: Set<String> = ["succ", "fail", "progress"]
    /// The cells of a table's header row that no `---` row follows.
    private static let headerCells: Set<String> = ["Parameter", "Property", "Description", "参数", "成员", "说明"]
    /// The words before "说明" in the headers of 001's tables without pipes.
    private static let plainHeaders: Set<String> = ["参数", "成员", "Key Value"]
    // NSRegularExpression reads the rule words: case-insensitive, with \b
    // around the English ones.
    private static let ruleWordsPattern = [
        #"\b(limit|limits|limited|unlimited|must|only|cannot|can not|up to|at most|maximum|minimum|not support|exceed"#
            + #"|exceeds|valid at|valid for|valid when|should|need to|needs to|no need|needed|necessary|require|requires"#
            + #"|required|default(?!:)|defaults|do not|does not|don't|not available|unavailable|recommend|recommended"#
            + #"|not allowed|at least|no more than|less than|more than|never|ignored|but not|permission to|received by"#
            + #"|supports|supported|too many|too large|contain|contains|contained|containing|field|indicates|specifies"#
            + #"|bytes|seconds|pixels)\b"#,
        #"\b\d[\d,]*\s*(KB|MB|px|minutes?|hours?|days?|members|messages)\b"#,
        #"\b(is|are|be|to|enter)\s+`?(0|false|true|YES|nil)`?(?=[\s.,;)]|$)"#,
        #"\b(before|after) (login|logging in|initSdk|initializing|establishing|sending)\b"#,
        #"\b(key|value)\s*(is of|是)\s"#,
        #"\b(type|values?)\s*:\s*\w+(,\s*(and\s+)?\w+){2,}"#,
        #"\(\w+( & \w+)+\)"#,
        #"\bTrigger:"#,
        "必须|只能|只有|只做|只用|只在|仅|不能|无法|最大|最多|不超过|上限|限制|不支持|有效",
        #"需要|需先|才能|默认|建议|不会|不可|不允许|必填|不得|务必|至少|超过|以内|禁止|不返回|收到|字段|多个|按照|导致失败|触发时机:\S"#,
    ].joined(separator: "|")
    private static let constantName = "[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+"
    // An enum constant (`TIM_GROUP_TIPS_TYPE_INVITE`; case-sensitive) at the
    // start of a line, after `case`, as a call's argument, in backticks, or
    // with its number (`ERR_IMSDK_KICKED_BY_OTHERS: 6208`).
    private static let constantPattern = [
        #"^\s*(?:[-*]|//)?\s*`?\#(constantName)`?(?:[\s:,=]|$)"#, #"^\s*case\s+\#(constantName)\s*:"#,
        #"\w:\s*\#(constantName)\b"#, #"`\#(constantName)`"#, #"\b\#(constantName):\s*\d+"#,
    ].joined(separator: "|")
    // Sample code that sets or reads a property (`message.needReadReceipt =
    // YES;`, `NSString *title = mergerElem.title;`), or a key of a JSON
    // object.
    private static let samplePattern =
        #"^\s*(?:[\w<>* ]+?\s\*?\s*\w+\s*=\s*)?(?!self\.)\w+(?:\.\w+)+\s*(?:=\s*[^=;][^;]*)?;"#
        + #"|\{\s*\\?"\w+\\?"\s*:"#

    /// The lines of a seed (1-based) that declare a field, a parameter or an
    /// enum value, or state a rule: the kinds docs/spec/seed-inventory.md
    /// defines.
    static func statements(in seed: String) throws -> [Int] {
        let ruleWords = try NSRegularExpression(pattern: ruleWordsPattern, options: [.caseInsensitive])
        let constant = try NSRegularExpression(pattern: constantPattern)
        let sample = try NSRegularExpression(pattern: samplePattern)
        let property = #/@property\b/#
        let parameter = #/@p(?:aram|rarm)\s+(\w+)/#
        let tableName = #/^\s*\|?\s*`?([a-z][A-Za-z0-9_]*)`?\s*\|/#
        let enumValue = #/^\s*[A-Z][A-Za-z0-9_]*\s*=\s*(0x[0-9a-fA-F]+|-?\d+)\s*,?\s*(//.*)?$/#
        let statusWithValue = #/^[A-Za-z]+_[A-Za-z_]+\d+\S/#
        let separator = #/\s*\|?\s*:?-{3}/#
        let declaration = #/\s*[-+]\s*\([^)]*\)\s*\w+:.*;\s*/#
        let argument = #/:\s*\([^)]*\)\s*(\w+)/#
        let lines = seed.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var found: [Int] = []
        // Inside a sample's `@interface …Impl`, a table of 001 without
        // pipes, a "Permission description" block.
        var inSample = false
        var inPlainTable = false
        var inPermissions = false
        for (index, text) in lines.enumerated() {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            let range = NSRange(text.startIndex..., in: text)
            if trimmed.hasPrefix("@interface") {
                inSample = (trimmed.split(whereSeparator: { " :<(".contains($0) }).dropFirst().first ?? "")
                    .hasSuffix("Impl")
            } else if trimmed.hasPrefix("@end") {
                inSample = false
            }
            let cells = trimmed.trimmingCharacters(in: CharacterSet(charactersIn: "|"))
                .split(separator: "|", omittingEmptySubsequences: false).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
            let words = trimmed.split(whereSeparator: { $0 == " " || $0 == "|" })
            let isPlainHeader = words.last == "说明" && plainHeaders.contains(words.dropLast().joined(separator: " "))
            let next = index + 1 < lines.count ? lines[index + 1] : ""
            let isHeader =
                isPlainHeader
                || (trimmed.contains("|")
                    && (next.prefixMatch(of: separator) != nil || cells.allSatisfy(headerCells.contains)))
            if isHeader {
                inPlainTable = isPlainHeader
            } else if trimmed.isEmpty {
                inPlainTable = false
            }
            if trimmed == "**Permission description:**" {
                inPermissions = true
                continue
            }
            if trimmed.hasPrefix("#") || trimmed.hasPrefix("```")
                || (trimmed.hasPrefix("**") && trimmed.hasSuffix(":**"))
            {
                inPermissions = false
            }
            // Declarations: properties, parameters (documented, in a table
            // row, or undocumented arguments of a method), enum values.
            if text.contains(property) {
                found.append(index + 1)
                continue
            }
            if let match = text.firstMatch(of: parameter) {
                if !callbacks.contains(String(match.output.1)) {
                    found.append(index + 1)
                    continue
                }
            } else if text.wholeMatch(of: enumValue) != nil || text.prefixMatch(of: statusWithValue) != nil {
                found.append(index + 1)
                continue
            } else if let match = text.prefixMatch(of: tableName), !callbacks.contains(String(match.output.1)) {
                found.append(index + 1)
                continue
            }
            let isPipeRow =
                trimmed.contains("|") && !trimmed.contains("||") && trimmed.prefixMatch(of: separator) == nil
            if !isHeader && (isPipeRow || (inPlainTable && !trimmed.isEmpty)) {
                let first = isPipeRow ? cells.first ?? "" : String(trimmed.split(separator: " ").first ?? "")
                if !callbacks.contains(first) {
                    found.append(index + 1)
                    continue
                }
            }
            if !inSample, text.wholeMatch(of: declaration) != nil,
                text.matches(of: argument).contains(where: { !callbacks.contains(String($0.output.1)) }),
                !documented(lines, above: index)
            {
                found.append(index + 1)
                continue
            }
            let isRule =
                (inPermissions && !trimmed.isEmpty && trimmed != ">" && !trimmed.hasPrefix("For more information"))
                || ruleWords.firstMatch(in: text, range: range) != nil
            if isRule || constant.firstMatch(in: text, range: range) != nil
                || sample.firstMatch(in: text, range: range) != nil
            {
                found.append(index + 1)
            }
        }
        return found
    }

    /// Whether the comment right above line `index` (0-based, blank lines
    /// between them allowed) documents a parameter.
    private static func documented(_ lines: [String], above index: Int) -> Bool {
        var end = index - 1
        while end >= 0 && lines[end].trimmingCharacters(in: .whitespaces).isEmpty { end -= 1 }
        guard end >= 0, lines[end].trimmingCharacters(in: .whitespaces).hasSuffix("*/") else { return false }
        var start = end
        while start > 0 && !lines[start].contains("/*") { start -= 1 }
        return lines[start...end].contains { $0.contains(#/@p(?:aram|rarm)\s/#) }
    }
}
