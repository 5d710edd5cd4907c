import Foundation

/// A vector file that does not follow the schema of `Vectors/README.md`.
public struct VectorLoadError: Error, CustomStringConvertible, Sendable {
    /// The file, relative to the vectors directory.
    public var file: String
    /// The case id, when the problem is inside a case.
    public var caseID: String?
    public var reason: String

    public var description: String {
        if let caseID { return "\(file): case \(caseID): \(reason)" }
        return "\(file): \(reason)"
    }
}

/// Reads and checks vector files.
///
/// Every rule of the schema is checked when a file is loaded, so a malformed
/// vector is reported as such instead of as a failure of the implementation
/// under test: known members only, ids unique across all files, every flag a
/// case names explained by its file, hex that is hex, and the members each
/// operation needs.
public enum VectorLoader {
    /// Loads every `*.json` file under `directory`, recursively, in path order.
    ///
    /// - Parameter directory: The vectors directory.
    /// - Returns: The files, with their cases in file order.
    /// - Throws: ``VectorLoadError`` for the first file or case that breaks the
    ///   schema, or when two cases share an id.
    public static func loadDirectory(_ directory: String) throws -> [VectorFile] {
        let root = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw VectorLoadError(file: directory, reason: "no such directory")
        }
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
            throw VectorLoadError(file: directory, reason: "cannot list the directory")
        }
        var paths: [String] = []
        for case let url as URL in enumerator where url.pathExtension == "json" {
            let full = url.standardizedFileURL.path
            paths.append(String(full.dropFirst(root.path.count).drop(while: { $0 == "/" })))
        }
        paths.sort()
        var files: [VectorFile] = []
        var seen: [String: String] = [:]
        for path in paths {
            let data = try Data(contentsOf: root.appendingPathComponent(path))
            let file = try load([UInt8](data), path: path)
            for vector in file.cases {
                if let other = seen[vector.id] {
                    throw VectorLoadError(file: path, caseID: vector.id, reason: "id already used in \(other)")
                }
                seen[vector.id] = path
            }
            files.append(file)
        }
        guard !files.isEmpty else { throw VectorLoadError(file: directory, reason: "no vector files") }
        return files
    }

    /// Parses one vector file.
    ///
    /// - Parameters:
    ///   - bytes: The file's UTF-8 text.
    ///   - path: The file's path relative to the vectors directory, for
    ///     messages and reports.
    /// - Returns: The file.
    /// - Throws: ``VectorLoadError`` when the file breaks the schema.
    public static func load(_ bytes: [UInt8], path: String) throws(VectorLoadError) -> VectorFile {
        let document: VectorJSON
        do {
            document = try VectorJSON(parsing: bytes)
        } catch {
            throw VectorLoadError(file: path, reason: error.description)
        }
        let reader = ObjectReader(document, file: path, caseID: nil, context: "the file")
        try reader.allow(["format", "version", "area", "title", "description", "derivation", "flags", "cases"])
        guard try reader.string("format") == VectorFile.format else {
            throw VectorLoadError(file: path, reason: "format is not \(VectorFile.format)")
        }
        guard try reader.int("version") == VectorFile.version else {
            throw VectorLoadError(file: path, reason: "version is not \(VectorFile.version)")
        }
        var flags: [String: String] = [:]
        for (name, value) in try reader.object("flags") {
            guard let text = value.stringValue, !text.isEmpty else {
                throw VectorLoadError(file: path, reason: "flag \(name) has no explanation")
            }
            flags[name] = text
        }
        var cases: [VectorCase] = []
        var ids: Set<String> = []
        for value in try reader.array("cases") {
            let vector = try parseCase(value, file: path)
            guard ids.insert(vector.id).inserted else {
                throw VectorLoadError(file: path, caseID: vector.id, reason: "id used twice in the file")
            }
            for flag in vector.flags where flags[flag] == nil {
                throw VectorLoadError(file: path, caseID: vector.id, reason: "flag \(flag) is not explained in flags")
            }
            cases.append(vector)
        }
        let derivation = try reader.string("derivation")
        guard !derivation.isEmpty else { throw VectorLoadError(file: path, reason: "derivation is empty") }
        return VectorFile(
            path: path, area: try reader.string("area"), title: try reader.string("title"),
            description: try reader.string("description"), derivation: derivation, flags: flags, cases: cases)
    }

    static func parseCase(_ value: VectorJSON, file: String) throws(VectorLoadError) -> VectorCase {
        let id = value["id"]?.stringValue
        let reader = ObjectReader(value, file: file, caseID: id, context: "the case")
        try reader.allow(["id", "comment", "flags", "operation", "result", "kind", "limits", "input", "expected"])
        guard let id, !id.isEmpty, !id.contains(where: { $0 == " " || $0 == "#" }) else {
            throw reader.error("a case needs an id without spaces or #")
        }
        guard let operation = VectorCase.Operation(rawValue: try reader.string("operation")) else {
            throw reader.error("unknown operation")
        }
        guard let result = VectorCase.Result(rawValue: try reader.string("result")) else {
            throw reader.error("result must be valid or invalid")
        }
        var kind: VectorCase.Kind?
        if let name = try reader.optionalString("kind") {
            guard let parsed = VectorCase.Kind(rawValue: name) else { throw reader.error("unknown kind \(name)") }
            kind = parsed
        }
        var limits: [String: Int] = [:]
        if reader.has("limits") {
            for (name, limit) in try reader.object("limits") {
                guard VectorFile.limitNames.contains(name) else { throw reader.error("unknown limit \(name)") }
                guard let number = limit.intValue, number >= 1, number <= Int(UInt32.max) else {
                    throw reader.error("limit \(name) must be an integer in 1...2^32-1")
                }
                limits[name] = number
            }
        }
        var flags: [String] = []
        if reader.has("flags") {
            for flag in try reader.array("flags") {
                guard let name = flag.stringValue else { throw reader.error("flags must be strings") }
                flags.append(name)
            }
        }
        let input = try parseInput(try reader.member("input"), reader: reader)
        let expected = try parseExpected(try reader.member("expected"), reader: reader)
        let vector = VectorCase(
            id: id, comment: try reader.string("comment"), flags: flags, operation: operation, result: result,
            kind: kind, limits: limits, input: input, expected: expected)
        try checkShape(vector, reader: reader)
        return vector
    }

    static func parseInput(_ value: VectorJSON, reader parent: ObjectReader) throws(VectorLoadError)
        -> VectorCase.Input
    {
        let reader = parent.nested(value, context: "input")
        try reader.allow([
            "json", "jsonText", "payloadHex", "frameHex", "chunksHex", "policy", "profile", "rest", "restText",
        ])
        var input = VectorCase.Input()
        input.json = reader.has("json") ? try reader.member("json") : nil
        input.jsonText = try reader.optionalString("jsonText")
        input.payload = try reader.optionalHex("payloadHex")
        input.frame = try reader.optionalHex("frameHex")
        if reader.has("chunksHex") {
            var chunks: [[UInt8]] = []
            for chunk in try reader.array("chunksHex") {
                guard let text = chunk.stringValue, let bytes = Hex.decode(text) else {
                    throw reader.error("chunksHex must hold hex strings")
                }
                chunks.append(bytes)
            }
            input.chunks = chunks
        }
        if reader.has("policy") {
            let policy = reader.nested(try reader.member("policy"), context: "input.policy")
            try policy.allow(["compression", "threshold", "level", "dictionaryId"])
            input.policy = VectorCase.FramePolicy(
                compression: try policy.int("compression"), threshold: try policy.optionalInt("threshold") ?? 0,
                level: try policy.optionalInt("level") ?? 0, dictionaryID: try policy.optionalInt("dictionaryId") ?? 0)
        }
        input.profile = try reader.optionalString("profile")
        input.rest = reader.has("rest") ? try reader.member("rest") : nil
        input.restText = try reader.optionalString("restText")
        return input
    }

    static func parseFrame(_ value: VectorJSON, reader parent: ObjectReader, context: String) throws(VectorLoadError)
        -> VectorCase.ExpectedFrame
    {
        let reader = parent.nested(value, context: context)
        try reader.allow(["kind", "compression", "dictionaryId", "payloadHex"])
        guard let kind = VectorCase.Kind(rawValue: try reader.string("kind")) else {
            throw reader.error("unknown frame kind")
        }
        guard let payload = try reader.optionalHex("payloadHex") else { throw reader.error("payloadHex is missing") }
        return VectorCase.ExpectedFrame(
            kind: kind, compression: try reader.int("compression"),
            dictionaryID: try reader.optionalInt("dictionaryId") ?? 0, payload: payload)
    }

    static func parseExpected(_ value: VectorJSON, reader parent: ObjectReader) throws(VectorLoadError)
        -> VectorCase.Expected
    {
        let reader = parent.nested(value, context: "expected")
        try reader.allow(["payloadHex", "json", "error", "frame", "frames", "incompleteTail", "findings", "rest"])
        var expected = VectorCase.Expected()
        expected.payload = try reader.optionalHex("payloadHex")
        expected.json = reader.has("json") ? try reader.member("json") : nil
        if reader.has("error"), try reader.member("error") != .null {
            let error = reader.nested(try reader.member("error"), context: "expected.error")
            try error.allow(["code", "path"])
            expected.error = VectorCase.ExpectedError(code: try error.string("code"), path: try error.string("path"))
        }
        if reader.has("frame") {
            expected.frame = try parseFrame(try reader.member("frame"), reader: reader, context: "expected.frame")
        }
        if reader.has("frames") {
            var frames: [VectorCase.ExpectedFrame] = []
            for frame in try reader.array("frames") {
                frames.append(try parseFrame(frame, reader: reader, context: "expected.frames[]"))
            }
            expected.frames = frames
        }
        if reader.has("incompleteTail") {
            guard let flag = try reader.member("incompleteTail").boolValue else {
                throw reader.error("incompleteTail must be true or false")
            }
            expected.incompleteTail = flag
        }
        if reader.has("findings") {
            var findings: [VectorCase.ExpectedFinding] = []
            for finding in try reader.array("findings") {
                let item = reader.nested(finding, context: "expected.findings[]")
                try item.allow(["code", "path", "severity", "limit", "actual"])
                findings.append(
                    VectorCase.ExpectedFinding(
                        code: try item.string("code"), path: try item.string("path"),
                        severity: try item.optionalString("severity"),
                        limit: try item.optionalInt("limit").map(Int64.init),
                        actual: try item.optionalInt("actual").map(Int64.init)))
            }
            expected.findings = findings
        }
        expected.rest = reader.has("rest") ? try reader.member("rest") : nil
        return expected
    }

    /// The members each operation and result need.
    static func checkShape(_ vector: VectorCase, reader: ObjectReader) throws(VectorLoadError) {
        let input = vector.input
        let expected = vector.expected
        if vector.result == .invalid, vector.operation != .validate, vector.operation != .restValidate,
            vector.operation != .decodeStream, expected.error == nil
        {
            throw reader.error("an invalid case needs expected.error")
        }
        switch vector.operation {
        case .payload:
            guard vector.kind != nil else { throw reader.error("a payload case needs a kind") }
            guard input.json != nil || input.jsonText != nil || input.payload != nil else {
                throw reader.error("a payload case needs input json, jsonText or payloadHex")
            }
            if vector.result == .valid, expected.payload == nil || expected.json == nil {
                throw reader.error("a valid payload case needs expected payloadHex and json")
            }
        case .decodeFrame:
            guard input.frame != nil else { throw reader.error("a decode-frame case needs input frameHex") }
            if vector.result == .valid, expected.frame == nil {
                throw reader.error("a valid decode-frame case needs expected.frame")
            }
        case .encodeFrame:
            guard vector.kind != nil, input.payload != nil, input.policy != nil else {
                throw reader.error("an encode-frame case needs kind, input payloadHex and policy")
            }
            let valid = vector.result == .valid
            guard valid == (expected.frame != nil), valid == (expected.error == nil) else {
                throw reader.error("an encode-frame case expects a frame when valid and an error when invalid")
            }
        case .decodeStream:
            guard input.chunks != nil, expected.frames != nil else {
                throw reader.error("a decode-stream case needs input chunksHex and expected frames")
            }
            if (vector.result == .invalid) != (expected.error != nil) {
                throw reader.error("a decode-stream case is invalid exactly when it expects an error")
            }
        case .validate:
            guard vector.kind != nil, input.payload != nil, input.profile != nil, expected.findings != nil else {
                throw reader.error("a validate case needs kind, input payloadHex and profile, expected findings")
            }
        case .restImport:
            guard vector.kind != nil, input.rest != nil || input.restText != nil else {
                throw reader.error("a rest-import case needs kind and input rest or restText")
            }
            if vector.result == .valid, expected.payload == nil || expected.rest == nil {
                throw reader.error("a valid rest-import case needs expected payloadHex and rest")
            }
        case .restExport:
            guard vector.kind != nil, input.payload != nil else {
                throw reader.error("a rest-export case needs kind and input payloadHex")
            }
            if vector.result == .valid, expected.rest == nil {
                throw reader.error("a valid rest-export case needs expected rest")
            }
        case .restValidate:
            guard input.rest != nil || input.restText != nil, input.profile != nil, expected.findings != nil else {
                throw reader.error("a rest-validate case needs input rest or restText and profile, expected findings")
            }
        }
    }
}

/// Reads the members of one JSON object of a vector file, reporting problems
/// with the file and case they are in.
struct ObjectReader {
    let members: [(key: String, value: VectorJSON)]
    let isObject: Bool
    let file: String
    let caseID: String?
    let context: String

    init(_ value: VectorJSON, file: String, caseID: String?, context: String) {
        if case .object(let members) = value {
            self.members = members
            isObject = true
        } else {
            members = []
            isObject = false
        }
        self.file = file
        self.caseID = caseID
        self.context = context
    }

    func nested(_ value: VectorJSON, context: String) -> ObjectReader {
        ObjectReader(value, file: file, caseID: caseID, context: context)
    }

    func error(_ reason: String) -> VectorLoadError {
        VectorLoadError(file: file, caseID: caseID, reason: "\(context): \(reason)")
    }

    func allow(_ names: Set<String>) throws(VectorLoadError) {
        guard isObject else { throw error("must be an object") }
        var seen: Set<String> = []
        for member in members {
            guard names.contains(member.key) else { throw error("unknown member \(member.key)") }
            guard seen.insert(member.key).inserted else { throw error("member \(member.key) appears twice") }
        }
    }

    func has(_ name: String) -> Bool { members.contains { $0.key == name } }

    func member(_ name: String) throws(VectorLoadError) -> VectorJSON {
        guard let value = members.first(where: { $0.key == name })?.value else { throw error("\(name) is missing") }
        return value
    }

    func string(_ name: String) throws(VectorLoadError) -> String {
        guard let text = try member(name).stringValue else { throw error("\(name) must be a string") }
        return text
    }

    func optionalString(_ name: String) throws(VectorLoadError) -> String? {
        has(name) ? try string(name) : nil
    }

    func int(_ name: String) throws(VectorLoadError) -> Int {
        guard let number = try member(name).intValue else { throw error("\(name) must be an integer") }
        return number
    }

    func optionalInt(_ name: String) throws(VectorLoadError) -> Int? {
        has(name) ? try int(name) : nil
    }

    func optionalHex(_ name: String) throws(VectorLoadError) -> [UInt8]? {
        guard has(name) else { return nil }
        guard let bytes = Hex.decode(try string(name)) else { throw error("\(name) is not hex") }
        return bytes
    }

    func array(_ name: String) throws(VectorLoadError) -> [VectorJSON] {
        guard let values = try member(name).arrayValue else { throw error("\(name) must be an array") }
        return values
    }

    func object(_ name: String) throws(VectorLoadError) -> [(key: String, value: VectorJSON)] {
        guard case .object(let members) = try member(name) else { throw error("\(name) must be an object") }
        return members
    }
}
