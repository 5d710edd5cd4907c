import Foundation
import IMCodecConformance
import IMCodecTestSupport
import Testing

/// The bundled vector files follow their schema, cover what issue 5 asks
/// for, and are exactly what the scripts in scripts/ make.
@Suite struct VectorFileTests {
    static let directory = repositoryRoot + "/Vectors"

    @Test func everyBundledFileLoadsWithUniqueIds() throws {
        let files = try VectorLoader.loadDirectory(Self.directory)
        let cases = files.flatMap(\.cases)
        #expect(cases.count >= 400)
        #expect(Set(cases.map(\.id)).count == cases.count)
        let areas = Set(files.map(\.area))
        for area in ["elems", "events", "envelope", "batches", "frames", "limits", "malformed", "streaming"] {
            #expect(areas.contains(area), "no vector file of area \(area)")
        }
        for file in files {
            #expect(!file.derivation.isEmpty, "\(file.path) says nothing of how its cases were derived")
            #expect(file.path.hasPrefix(file.area + "/"), "\(file.path) is not in the folder of its area")
            #expect(!file.cases.isEmpty, "\(file.path) has no cases")
        }
        for operation in VectorCase.Operation.allCases {
            #expect(cases.contains { $0.operation == operation }, "no \(operation.rawValue) case")
        }
    }

    @Test func everyElemAndEventKindHasItsFile() throws {
        let files = Set(try VectorLoader.loadDirectory(Self.directory).map(\.path))
        let elems = [
            "text", "custom", "image", "sound", "video", "file", "location", "face", "merger", "group-tips",
            "group-system", "sns-system", "profile-system",
        ]
        for elem in elems { #expect(files.contains("elems/\(elem).json"), "no vector file for the \(elem) elem") }
        for event in ["read-receipt", "recall", "modification", "connection", "user-status"] {
            #expect(files.contains("events/\(event).json"), "no vector file for the \(event) event")
        }
    }

    @Test func everyFrameErrorCodeOfTheFormatIsExpectedSomewhere() throws {
        let cases = try VectorLoader.loadDirectory(Self.directory).flatMap(\.cases)
        let codes = Set(cases.compactMap { $0.expected.error?.code })
        let documented = [
            "frame.truncated", "frame.version", "frame.kind", "frame.compression", "frame.reserved-bits",
            "frame.dictionary", "frame.varint", "frame.deflate", "frame.zstd", "frame.zstd-window",
            "frame.payload-length",
            "frame.checksum",
            "frame.trailing-bytes", "limit.frame-size", "limit.inflated-size", "limit.inflate-ratio",
            "payload.truncated", "payload.varint", "payload.tag", "payload.group", "payload.length", "payload.utf8",
            "limit.depth", "limit.elems", "limit.repeated", "limit.batch-messages", "json.syntax", "json.type",
            "json.value", "json.unknown-field", "json.duplicate-field",
        ]
        #expect(documented.filter { !codes.contains($0) } == [], "documented codes no vector expects")
    }

    /// Every vector a document names as the evidence of a rule exists: a
    /// backticked name with a vector id's first component (`frame.zstd.long`,
    /// `encode.payload-does-not-decode*`) is an error or finding code, a case
    /// id, or a pattern with `*` that matches at least one case.
    @Test func everyVectorTheDocumentsNameExists() throws {
        let ids = Set(try VectorLoader.loadDirectory(Self.directory).flatMap(\.cases).map(\.id))
        let codesPage = try String(
            contentsOfFile: repositoryRoot + "/docs/spec/error-and-finding-codes.md", encoding: .utf8)
        let codes = Set(codesPage.matches(of: /\| `([a-z0-9.-]+)` \|/).map { String($0.1) })
        let prefixes: Set<Substring> = [
            "frame", "payload", "json", "encode", "encode-limit", "limit", "validate", "elem", "event", "envelope",
            "batch", "rest", "stream",
        ]
        var named = 0
        var missing: [String] = []
        for document in try Self.documents() {
            let text = try String(contentsOfFile: repositoryRoot + "/" + document, encoding: .utf8)
            for match in text.matches(of: /`([a-z0-9-]+(?:\.[a-z0-9*-]+)+)`/) {
                let name = String(match.1)
                guard let first = name.split(separator: ".").first, prefixes.contains(first),
                    name.wholeMatch(of: /.*\.(json|proto|c|h|js|mjs|md|py|swift)/) == nil
                else { continue }
                // `json.loads` and its kind are Python's, named in the traps.
                if first == "json" && !name.contains("-") && !codes.contains(name) { continue }
                named += 1
                if codes.contains(name) || ids.contains(name) { continue }
                if name.contains("*") {
                    let pattern = try Regex(
                        "^"
                            + name.split(separator: "*", omittingEmptySubsequences: false)
                            .map { NSRegularExpression.escapedPattern(for: String($0)) }.joined(separator: ".*") + "$")
                    if ids.contains(where: { $0.wholeMatch(of: pattern) != nil }) { continue }
                }
                missing.append("\(document): \(name)")
            }
        }
        #expect(missing.isEmpty, "named but no code or vector: \(missing)")
        #expect(named > 200)
    }

    /// The documents that name vectors: the specification, the vector and
    /// testee READMEs and the DocC articles.
    static func documents() throws -> [String] {
        let fileManager = FileManager.default
        var documents = ["README.md", "Vectors/README.md", "js/README.md"]
        for folder in ["docs/spec", "testees", "Sources"] {
            let enumerator = fileManager.enumerator(atPath: repositoryRoot + "/" + folder)
            while let path = enumerator?.nextObject() as? String {
                // The migration notes name former ids on purpose.
                guard path.hasSuffix(".md"), !path.contains("Generated"), !path.hasSuffix("Migration.md") else {
                    continue
                }
                documents.append(folder + "/" + path)
            }
        }
        return documents.sorted()
    }

    @Test func committedVectorsAreExactlyWhatTheScriptsMake() throws {
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("imcodec-vectors-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [Self.vectorPython, repositoryRoot + "/scripts/vectors/make_vectors.py"]
        var environment = ProcessInfo.processInfo.environment
        environment["IMCODEC_VECTORS_DIR"] = scratch.path
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(Self.vectorPython) scripts/vectors/make_vectors.py failed")

        let made = try Self.jsonFiles(under: scratch.path)
        let committed = try Self.jsonFiles(under: Self.directory)
        #expect(made.sorted() == committed.sorted(), "the scripts make other files than Vectors/ holds")
        for path in made {
            let fresh = try Data(contentsOf: scratch.appendingPathComponent(path))
            let stored = try Data(contentsOf: URL(fileURLWithPath: Self.directory).appendingPathComponent(path))
            #expect(
                fresh == stored,
                "Vectors/\(path) differs from what the scripts make; run scripts/vectors/make_vectors.py")
        }
    }

    /// The Python that runs the vector scripts: `IMCODEC_PYTHON` when set,
    /// else the Python testee's virtual environment (`.build/python-testee`,
    /// with the pinned zstandard the zstd vectors are made with), which is
    /// made here, as `.ci/run` and testees/python/README.md make it, when it
    /// does not exist yet, so `swift test` needs nothing set up first.
    static let vectorPython: String = {
        if let chosen = ProcessInfo.processInfo.environment["IMCODEC_PYTHON"], !chosen.isEmpty { return chosen }
        let venv = repositoryRoot + "/.build/python-testee"
        let python = venv + "/bin/python"
        if !FileManager.default.isExecutableFile(atPath: python) {
            let requirements = repositoryRoot + "/testees/python/requirements.txt"
            let made =
                runQuietly(["python3", "-m", "venv", venv])
                && runQuietly([python, "-m", "pip", "install", "--quiet", "-r", requirements])
            if !made { return "python3" }
        }
        return python
    }()

    /// Runs a command with its output discarded; whether it exited 0.
    static func runQuietly(_ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    static func jsonFiles(under root: String) throws -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".json") }
    }

    // MARK: The loader refuses malformed files

    static func file(cases: String, flags: String = "{}") -> [UInt8] {
        Array(
            """
            {"format": "imcodec-vectors", "version": 1, "area": "x", "title": "t", "description": "d",
             "derivation": "by hand", "flags": \(flags), "cases": [\(cases)]}
            """.utf8)
    }

    static let goodCase = """
        {"id": "a.b", "comment": "c", "flags": [], "operation": "payload", "result": "valid", "kind": "message",
         "input": {"payloadHex": "0a0161"}, "expected": {"payloadHex": "0a0161", "json": {"msgId": "a"}}}
        """

    @Test func loaderAcceptsAMinimalFile() throws {
        let file = try VectorLoader.load(Self.file(cases: Self.goodCase), path: "x/min.json")
        #expect(file.cases.count == 1)
        #expect(file.cases[0].expected.payload == [0x0A, 0x01, 0x61])
    }

    @Test(arguments: [
        ("unknown member", goodCase.replacingOccurrences(of: "\"comment\"", with: "\"remark\": 1, \"comment\"")),
        ("flag not explained", goodCase.replacingOccurrences(of: "\"flags\": []", with: "\"flags\": [\"Odd\"]")),
        ("bad hex", goodCase.replacingOccurrences(of: "\"0a0161\"}, \"expected\"", with: "\"0a01g1\"}, \"expected\"")),
        (
            "unknown operation",
            goodCase.replacingOccurrences(of: "\"payload\", \"result\"", with: "\"parse\", \"result\"")
        ),
        ("valid without json", goodCase.replacingOccurrences(of: ", \"json\": {\"msgId\": \"a\"}", with: "")),
        ("invalid without error", goodCase.replacingOccurrences(of: "\"valid\"", with: "\"invalid\"")),
        ("id with a space", goodCase.replacingOccurrences(of: "\"a.b\"", with: "\"a b\"")),
        ("two cases, one id", goodCase + ", " + goodCase),
    ])
    func loaderRejects(_ problem: String, _ cases: String) {
        #expect(throws: VectorLoadError.self, "\(problem)") {
            try VectorLoader.load(Self.file(cases: cases), path: "x/bad.json")
        }
    }

    @Test func loaderRejectsDuplicateIdsAcrossFiles() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("imcodec-dup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("x"), withIntermediateDirectories: true)
        try Data(Self.file(cases: Self.goodCase)).write(to: root.appendingPathComponent("x/one.json"))
        try Data(Self.file(cases: Self.goodCase)).write(to: root.appendingPathComponent("x/two.json"))
        #expect(throws: VectorLoadError.self) { try VectorLoader.loadDirectory(root.path) }
    }
}
