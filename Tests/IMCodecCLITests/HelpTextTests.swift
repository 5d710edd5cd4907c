import Foundation
import IMCodec
import IMCodecTestSupport
import IMCodecValidation
import Testing

/// Every help text the `imcodec` tool prints names the compressions, preset
/// dictionaries and profiles the code has, all of them and no others, and
/// the tool's defaults and messages are the library's.
@Suite struct HelpTextTests {
    static let binary = CLITests.binary

    /// Every command whose help the tool prints.
    static let commands: [[String]] = [
        [], ["encode"], ["decode"], ["inspect"], ["validate"], ["conformance"], ["report"], ["differential"],
        ["testee"],
    ]

    /// Compressions that exist in the world and not in the frame format: a
    /// help that names one is stale (or names a library, which the help
    /// leaves to the documentation).
    static let foreignCompressions = ["zlib", "gzip", "brotli", "lz4", "snappy", "lzma", "xz", "bzip2"]

    /// The compressions the code has besides none.
    static let compressions = FrameCompression.allCases.filter { $0 != .none }.map(\.description)

    /// The ids of the dictionaries the repository ships, read from
    /// `Schemas/dictionaries/<id>.bin`, not from the library's list.
    static let shippedDictionaries: Set<Int> = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path + "/Schemas/dictionaries")) ?? []
        return Set(names.compactMap { $0.hasSuffix(".bin") ? Int($0.dropLast(4)) : nil })
    }()

    /// The help of one command, as `imcodec COMMAND --help` prints it.
    static func help(_ command: [String]) throws -> String {
        let result = try ChildProcess.run(executable: binary, arguments: command + ["--help"])
        #expect(result.status == 0, "\(command) --help: \(result.standardError)")
        return result.standardOutput
    }

    /// What is stale in a help text: a foreign compression, a missing one
    /// (in the commands that describe compression), a dictionary the
    /// repository does not ship, a list of dictionaries that leaves one
    /// out, a profile left out, a line ending in a backslash.
    static func staleness(of help: String, command: [String]) -> [String] {
        var found: [String] = []
        // An example's command may go on on the next line; prose may not
        // (a backslash meant to join the source's lines, printed).
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasSuffix("\\") && !trimmed.hasPrefix("imcodec ") {
                found.append("a line ends in a backslash: \(line)")
            }
        }
        let text = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let words = Set(text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init))
        for name in foreignCompressions where words.contains(name) {
            found.append("names \(name), which frames do not have")
        }
        if command == [] || command == ["encode"] {
            for name in compressions where !words.contains(name) {
                found.append("leaves out the compression \(name)")
            }
        }
        found += dictionaryStaleness(of: text)
        if command == ["encode"] || command == ["validate"] {
            for profile in ValidationLimits.profileNames where !text.contains(profile) {
                found.append("leaves out the profile \(profile)")
            }
        }
        return found
    }

    /// Every number after "dictionary": one id must be shipped; a list of
    /// them (`1, 2 or 3`, `1 to 4`) must be every shipped id.
    static func dictionaryStaleness(of text: String) -> [String] {
        var found: [String] = []
        let pattern = /dictionar(?:y|ies)\s*\(?(\d+(?:(?:,\s*|\s+or\s+|\s+and\s+|\s+to\s+)\d+)*)/.ignoresCase()
        for match in text.matches(of: pattern) {
            let phrase = String(match.output.1)
            var ids: Set<Int> = []
            let parts = phrase.split(separator: " to ").map { $0.split { !$0.isNumber }.compactMap { Int($0) } }
            for (index, numbers) in parts.enumerated() {
                ids.formUnion(numbers)
                if index > 0, let low = parts[index - 1].last, let high = numbers.first, low <= high {
                    ids.formUnion(low...high)
                }
            }
            for id in ids.subtracting(shippedDictionaries).sorted() {
                found.append("names dictionary \(id), which is not shipped: \(match.output.0)")
            }
            if ids.count > 1 && ids != shippedDictionaries {
                found.append(
                    "lists dictionaries \(ids.sorted()), not all of \(shippedDictionaries.sorted()): \(phrase)")
            }
        }
        return found
    }

    @Test func theRepositoryShipsDictionaries() {
        #expect(Self.shippedDictionaries.count >= 4)
        #expect(Set(PresetDictionary.known.map { Int($0.id) }) == Self.shippedDictionaries)
    }

    @Test(arguments: commands)
    func helpNamesExactlyWhatTheCodeHas(command: [String]) throws {
        let help = try Self.help(command)
        #expect(Self.staleness(of: help, command: command) == [], "imcodec \(command) --help")
    }

    /// The check finds the stale lines the tool once printed, planted in
    /// today's help texts.
    @Test func theCheckFindsPlantedStaleLines() throws {
        let root = try Self.help([])
        let encode = try Self.help(["encode"])
        let report = try Self.help(["report"])
        #expect(Self.staleness(of: root, command: []) == [])
        let zlibOnly = root.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            .replacingOccurrences(of: "compressed with deflate or zstd", with: "compressed with zlib")
        #expect(zlibOnly != root.split(whereSeparator: \.isWhitespace).joined(separator: " "))
        #expect(
            Self.staleness(of: zlibOnly, command: []).sorted() == [
                "leaves out the compression deflate", "leaves out the compression zstd",
                "names zlib, which frames do not have",
            ])
        let twoDictionaries = encode + "\n  --dictionary 1 or 2 primes deflate with a shipped IM dictionary.\n"
        #expect(Self.staleness(of: twoDictionaries, command: ["encode"]).count == 1)
        let fifth = encode + "\n  Dictionary 5 is for zstd.\n"
        #expect(Self.staleness(of: fifth, command: ["encode"]).count == 1)
        let continued = report + "  Reads the JSON reports of conformance runs ('imcodec conformance \\\n"
        #expect(Self.staleness(of: continued, command: ["report"]).count == 1)
        let oneProfile = encode.replacingOccurrences(of: "current", with: "newest")
        #expect(Self.staleness(of: oneProfile, command: ["encode"]) == ["leaves out the profile current"])
    }

    /// `encode --compression zstd` writes the frames of the library's
    /// `CompressionPolicy.zstd()`: its dictionary and threshold, not a
    /// default of its own.
    @Test func encodeZstdWritesTheLibrarysZstdFrames() throws {
        guard FrameCompression.zstd.isAvailable else { return }
        let result = try ChildProcess.run(
            executable: Self.binary, arguments: ["encode", "--compression", "zstd"],
            input: Array(CLITests.textMessage.utf8))
        #expect(result.status == 0, "\(result.standardError)")
        let message = try Message(jsonString: CLITests.textMessage)
        #expect(result.standardOutputBytes == (try FrameEncoder(policy: .zstd()).encode(message)))
        let header = try #require(try FrameHeader.peek(result.standardOutputBytes))
        #expect(header.compression == .zstd)
        #expect(header.dictionaryID == 4)
        let none = try ChildProcess.run(
            executable: Self.binary, arguments: ["encode", "--compression", "zstd", "--dictionary", "none"],
            input: Array(CLITests.textMessage.utf8))
        #expect(try FrameHeader.peek(none.standardOutputBytes)?.dictionaryID == nil)
    }

    /// `encode --lines` is all or nothing, as its help says.
    @Test func encodeLinesWritesNothingWhenALineFails() throws {
        let result = try ChildProcess.run(
            executable: Self.binary, arguments: ["encode", "--lines", "--output", "-"],
            input: Array((CLITests.textMessage + "\n{\"sender\": 5}\n").utf8))
        #expect(result.status == 1)
        #expect(result.standardOutputBytes.isEmpty)
        #expect(result.standardError.contains("[line 2]"), "\(result.standardError)")
        #expect(try Self.help(["encode"]).contains("no frame is written"))
    }

    /// A missing file is reported in the same words by every command that
    /// reads one.
    @Test func everyCommandReportsAMissingFileAlike() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("imcodec-no-such-\(UUID())").path
        var firstLines: Set<String> = []
        for command in [["decode"], ["inspect"], ["encode", "--output", "-"], ["report"]] {
            let result = try ChildProcess.run(executable: Self.binary, arguments: command + [missing])
            #expect(result.status == 2, "\(command): \(result.standardError)")
            firstLines.insert(String(result.standardError.split(separator: "\n").first ?? ""))
        }
        #expect(firstLines == ["error: input.missing at (root): cannot read '\(missing)': no such file"])
    }

    /// `decode`, `inspect` and `validate` name a broken frame of a stream
    /// alike: `frame N at byte B`.
    @Test func decodeInspectAndValidateNameABrokenFrameAlike() throws {
        let encoder = FrameEncoder()
        let first = try encoder.encode(try Message(jsonString: CLITests.textMessage))
        var second = first
        second[second.count - 1] ^= 0xFF
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("imcodec-broken-\(UUID())").path
        try Data(first + second).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let expected = "[\(path), frame 1 at byte \(first.count)]"
        for command in ["decode", "inspect", "validate"] {
            let result = try ChildProcess.run(executable: Self.binary, arguments: [command, path])
            #expect(result.status != 0)
            #expect(result.standardError.contains("error: frame.checksum"), "\(command): \(result.standardError)")
            #expect(result.standardError.contains(expected), "\(command): \(result.standardError)")
        }
    }
}
