import ArgumentParser
import Foundation
import IMCodec
import IMCodecValidation

/// `imcodec-devtools check-rule-table`: runs the validate vectors through
/// the library's rule engine with a rule table read from a file, for
/// `scripts/declarations/check_rule_mutations.py`.
struct CheckRuleTableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-rule-table",
        abstract: "Run validate vectors through the rule engine with a given rule table.",
        discussion: """
            Compiles --table (the JSON of scripts/codegen/generate_swift_rules.py --json), \
            validates the payload of every validate case of the vector files with it, the \
            limits' values the table's own for the case's profile, and prints the ids of \
            the cases whose findings differ from the expected ones as a JSON array.
            """
    )

    @Option(help: "The rule table, as JSON.")
    var table: String

    @Argument(help: "Vector files.")
    var vectors: [String]

    /// A finding as vectors and the engine give it.
    struct Finding: Hashable {
        var code: String
        var path: String
        var severity: String
        var limit: Int64
        var actual: Int64
    }

    func run() throws {
        // Compiled once for every case.
        let declarations = try CompiledDeclarations(json: String(contentsOfFile: table, encoding: .utf8))
        var failed: [String] = []
        for file in vectors {
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            // Vectors nest deeper than JSONSerialization reads (merger chains).
            let root = try JSONValue(parsing: Array(data), maxNesting: 5_000)
            for item in Self.member(root, "cases")?.elements ?? []
            where Self.member(item, "operation")?.text == "validate" {
                guard let id = Self.member(item, "id")?.text, let kind = Self.member(item, "kind")?.text,
                    let input = Self.member(item, "input"), let hex = Self.member(input, "payloadHex")?.text,
                    let expected = Self.member(item, "expected")
                else { throw ValidationError("\(file): a validate case without id, kind, payload or expectation") }
                let bytes = Self.bytes(hex: hex)
                // Validate vectors may nest past the default depth budget.
                var limits = DecodingLimits.default
                limits.maxDepth = Int.max / 16
                let payload: FramePayload
                switch kind {
                case "message": payload = .message(try Message(serializedBytes: bytes, limits: limits))
                case "batch": payload = .batch(try MessageBatch(serializedBytes: bytes, limits: limits))
                default: payload = .event(try Event(serializedBytes: bytes, limits: limits))
                }
                let findings = Validator.validate(
                    payload, declarations: declarations, profile: Self.member(input, "profile")?.text ?? "sdk-guide")
                var got = findings.map {
                    Finding(
                        code: $0.code.rawValue, path: $0.path.description, severity: $0.severity.rawValue,
                        limit: $0.limit ?? 0, actual: $0.actual ?? 0)
                }
                // An expected finding without limit or actual matches any.
                var matched = true
                for want in Self.member(expected, "findings")?.elements ?? [] {
                    let limit = Self.member(want, "limit")?.integer
                    let actual = Self.member(want, "actual")?.integer
                    let index = got.firstIndex {
                        $0.code == Self.member(want, "code")?.text ?? ""
                            && $0.path == Self.member(want, "path")?.text ?? ""
                            && $0.severity == Self.member(want, "severity")?.text ?? ""
                            && (limit == nil || limit == $0.limit) && (actual == nil || actual == $0.actual)
                    }
                    if let index { got.remove(at: index) } else { matched = false }
                }
                if !matched || !got.isEmpty { failed.append(id) }
            }
        }
        let json = try JSONSerialization.data(withJSONObject: failed)
        print(String(decoding: json, as: UTF8.self))
    }

    private static func member(_ value: JSONValue, _ key: String) -> JSONValue? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.value
    }

    private static func bytes(hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var high: UInt8?
        for character in hex.utf8 {
            let digit: UInt8
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = character - UInt8(ascii: "a") + 10
            default: continue
            }
            if let first = high {
                bytes.append(first << 4 | digit)
                high = nil
            } else {
                high = digit
            }
        }
        return bytes
    }
}

extension JSONValue {
    fileprivate var elements: [JSONValue] {
        if case .array(let elements) = self { return elements }
        return []
    }

    fileprivate var text: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    fileprivate var integer: Int64? {
        if case .number(let text) = self { return Int64(text) }
        return nil
    }
}
