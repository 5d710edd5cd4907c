import Foundation
import IMCodec
import IMCodecTestSupport
import IMCodecValidation
import Testing

/// The `imcodec` executable, run as a user runs it: arguments, standard
/// input, standard output and error, exit status.
@Suite struct CLITests {
    /// The `imcodec` binary, built beside the test binary.
    static let binary = URL(fileURLWithPath: ChildProcess.currentExecutable)
        .deletingLastPathComponent().appendingPathComponent("imcodec").path

    static let textMessage =
        #"{"msgId":"144115000123-1700000000-42","sender":"alice","receiver":"bob","timestamp":"1700000000","elems":[{"text":{"text":"你好，世界 👋 hello"}}]}"#

    func imcodec(_ arguments: String..., input: [UInt8] = []) throws -> ChildProcess.Result {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build the imcodec product first")
        return try ChildProcess.run(executable: Self.binary, arguments: arguments, input: input)
    }

    func imcodec(_ arguments: String..., text: String) throws -> ChildProcess.Result {
        try ChildProcess.run(executable: Self.binary, arguments: arguments, input: Array(text.utf8))
    }

    /// A temporary file holding `bytes`, removed at the end of the test.
    func file(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("imcodec-cli-\(UUID().uuidString)")
            .path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func reportSetsADifferentialRunBelowTheMatrix() throws {
        let differential = #"""
            {"format": "imcodec-differential-report", "version": 1, "reference": "library", "seed": 7,
             "requests": 10, "seconds": 1.5, "casesFile": "found.json",
             "pairs": [{"name": "js", "checks": 9, "disagreements": 2, "checksPerSecond": 6.0, "skipped": 1}],
             "groups": [{"implementation": "js", "signature": "decode_payload payload runtime-error", "count": 2,
                         "listedReason": null, "minimal": "decode_payload kind 1 payload 0a00",
                         "reference": "payload 0a00", "other": "runtime-error", "referenceIsOddOneOut": false,
                         "shrinkAttempts": 3}]}
            """#
        let path = try file(Array(differential.utf8))
        let html = path + ".html"
        defer { try? FileManager.default.removeItem(atPath: html) }
        let report = try imcodec("report", "--html", html, path)
        #expect(report.status == 0, "\(report.standardError)")
        #expect(report.standardOutput.contains("js: 9 checks, 2 disagreements, 6 checks/s, 1 requests not sent"))
        #expect(
            report.standardOutput.contains(
                "[1] js: differential decode_payload payload runtime-error  × 2 (NOT LISTED)"))
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains("<td class=\"checks\">9</td><td class=\"disagreements\">2</td>"))
        #expect(page.contains("<b>not listed</b>"))
        // The cases file, relative to the working directory, linked from the page's folder.
        let link = try #require(page.range(of: #"<a href="[^"]*found\.json">"#, options: .regularExpression))
        let href = String(page[link].dropFirst(9).dropLast(2))
        let linked = URL(fileURLWithPath: html).deletingLastPathComponent().appendingPathComponent(href)
        #expect(linked.standardizedFileURL.path == URL(fileURLWithPath: "found.json").standardizedFileURL.path)
        // Counts that disagree with the groups are refused, naming the file.
        let wrong = try file(Array(differential.replacingOccurrences(of: "\"count\": 2", with: "\"count\": 1").utf8))
        let refused = try imcodec("report", wrong)
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("is not a differential report"))
    }

    @Test func encodeThenDecodePrintsTheSameMessage() throws {
        let encoded = try imcodec("encode", text: Self.textMessage + "\n")
        #expect(encoded.status == 0, "\(encoded.standardError)")
        let decoded = try imcodec("decode", input: encoded.standardOutputBytes)
        #expect(decoded.status == 0, "\(decoded.standardError)")
        #expect(decoded.standardOutput == Self.textMessage + "\n")
        #expect(decoded.standardError.isEmpty)
    }

    @Test func encodeWritesAFrameTheLibraryReads() throws {
        let encoded = try imcodec("encode", "--threshold", "0", "--dictionary", "1", text: Self.textMessage)
        let payload = try FrameDecoder().decode(encoded.standardOutputBytes)
        #expect(payload == .message(try Message(jsonString: Self.textMessage)))
        let header = try #require(try FrameHeader.peek(encoded.standardOutputBytes))
        #expect(header.compression == .deflate)
        #expect(header.dictionaryID == 1)
    }

    @Test func encodeNoneStoresAndEncodeKindSetsTheKind() throws {
        let encoded = try imcodec(
            "encode", "--compression", "none", "--kind", "event", text: #"{"recall":{"msgId":"m1"}}"#)
        let header = try #require(try FrameHeader.peek(encoded.standardOutputBytes))
        #expect(header.kind == .event)
        #expect(header.compression == .none)
    }

    @Test func decodesAStreamAsOneJSONDocumentPerLine() throws {
        let documents = [Self.textMessage, #"{"msgId":"2","elems":[{"face":{"index":3}}]}"#, #"{"msgId":"3"}"#]
        let encoded = try imcodec(
            "encode", "--lines", "--threshold", "0", "--no-validate", text: documents.joined(separator: "\n") + "\n\n")
        #expect(encoded.status == 0, "\(encoded.standardError)")
        let decoded = try imcodec("decode", try file(encoded.standardOutputBytes))
        #expect(decoded.standardOutput == documents.map { $0 + "\n" }.joined())
    }

    @Test func inspectShowsEveryHeaderFieldAndTheValue() throws {
        let encoded = try imcodec("encode", "--threshold", "0", "--dictionary", "1", text: Self.textMessage)
        let header = try #require(try FrameHeader.peek(encoded.standardOutputBytes))
        let inspected = try imcodec("inspect", input: encoded.standardOutputBytes)
        #expect(inspected.status == 0, "\(inspected.standardError)")
        let lines = inspected.standardOutput
        for expected in [
            "frame 0 at byte 0", "version         1", "flags           0x15", "kind            message",
            "compression     deflate", "dictionary      1", "body length     \(header.bodyLength)",
            "payload length  \(header.payloadLength)", "checksum        0x",
            "header size     \(header.encodedLength) bytes",
            "frame size      \(header.frameLength) bytes", "ratio           0.", "integrity       ok",
            #""msgId": "144115000123-1700000000-42""#,
        ] {
            #expect(lines.contains(expected), "missing \(expected) in\n\(lines)")
        }
    }

    @Test func invalidJSONExitsOneWithCodeAndPath() throws {
        let result = try imcodec("encode", text: #"{"elems":[{"text":{"text":7}}]}"#)
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("error: json.type at elems[0].text.text: "), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }

    @Test func encodeRefusesAMessageThatBreaksADocumentedLimit() throws {
        // 31 bytes of group name in a group tips elem: one past the sdk-guide profile's 30.
        let tips =
            #"{"groupId":"g","elems":[{"groupTips":{"type":"GROUP_TIPS_TYPE_INFO_CHANGE","#
            + #""groupChangeList":[{"type":"GROUP_INFO_CHANGE_TYPE_NAME","value":"0123456789012345678901234567890"}]}}]}"#
        let refused = try imcodec("encode", "--output", "-", text: tips)
        #expect(refused.status == 1)
        #expect(
            refused.standardError.hasPrefix(
                "error: validation.failed at elems[0].groupTips.groupChangeList[0].value: "),
            "\(refused.standardError)")
        #expect(refused.standardOutput.isEmpty)
        let unchecked = try imcodec("encode", "--no-validate", "--output", "-", text: tips)
        #expect(unchecked.status == 0, "\(unchecked.standardError)")
        #expect(try FrameDecoder().decode(unchecked.standardOutputBytes) == .message(try Message(jsonString: tips)))
    }

    @Test func encodeRefusesWhatReadersWithItsLimitsWouldRefuse() throws {
        let three = #"{"receiver":"b","elems":[{"text":{"text":"a"}},{"text":{"text":"b"}},{"text":{"text":"c"}}]}"#
        let elems = try imcodec("encode", "--max-elems", "2", "--output", "-", text: three)
        #expect(elems.status == 1)
        #expect(elems.standardError.hasPrefix("error: limit.elems at elems[2]: "), "\(elems.standardError)")
        #expect(elems.standardOutput.isEmpty)
        let size = try imcodec(
            "encode", "--compression", "none", "--max-frame-bytes", "10", "--output", "-", text: three)
        #expect(size.status == 1)
        #expect(size.standardError.hasPrefix("error: limit.frame-size at (root): "), "\(size.standardError)")
        // Its frame, read by a reader with the same limits.
        let written = try imcodec("encode", "--max-elems", "3", "--output", "-", text: three)
        #expect(written.status == 0, "\(written.standardError)")
        let read = try imcodec("decode", "--max-elems", "3", input: written.standardOutputBytes)
        #expect(read.status == 0, "\(read.standardError)")
        #expect(try imcodec("decode", "--max-elems", "2", input: written.standardOutputBytes).status == 1)
    }

    @Test func aNegativeLimitIsAUsageError() throws {
        let result = try imcodec("encode", "--max-depth=-1", "--output", "-", text: Self.textMessage)
        #expect(result.status == 64)
        #expect(result.standardError.contains("--max-depth must be 0 or more"), "\(result.standardError)")
    }

    @Test func aDocumentPastTheSizeLimitIsRefusedWhileReading() throws {
        let whole = try imcodec("encode", "--max-document-bytes", "40", "--output", "-", text: Self.textMessage)
        #expect(whole.status == 1)
        #expect(whole.standardError.hasPrefix("error: limit.document-size at (root): "), "\(whole.standardError)")
        let lines = try imcodec(
            "encode", "--lines", "--max-document-bytes", "200", "--output", "-",
            text: Self.textMessage + "\n" + #"{"msgId":""# + String(repeating: "x", count: 300) + #""}"# + "\n")
        #expect(lines.status == 1)
        #expect(lines.standardError.hasPrefix("error: limit.document-size at (root): "), "\(lines.standardError)")
        #expect(lines.standardError.hasSuffix("[line 2]\n"), "\(lines.standardError)")
    }

    @Test func aMillionElemsDocumentIsRefusedKeepingOnlyWhatTheLimitsLetThrough() throws {
        let elem = #"{"text":{"text":"hello"}}"#
        let document = Array(
            (#"{"sender":"a","elems":["# + Array(repeating: elem, count: 1_000_000).joined(separator: ",") + "]}").utf8)
        let result = try ChildProcess.run(
            executable: Self.binary, arguments: ["encode", "--output", "-", try file(document)], measuringMemory: true)
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("error: limit.elems at elems[1000]: "), "\(result.standardError)")
        print(
            "imcodec encode of a \(document.count >> 20) MiB document of 1,000,000 elems: peak RSS \(result.maxRSS >> 20) MiB"
        )
        // The document itself, read once, and the 10,001 entries kept.
        #expect(result.maxRSS < 2 * document.count + (64 << 20))
    }

    @Test func encodeValidatesAgainstTheChosenProfile() throws {
        // A 200-byte introduction: past the sdk-guide profile's 120 bytes, within current's 240.
        let intro = String(repeating: "x", count: 200)
        let tips =
            #"{"groupId":"g","elems":[{"groupTips":{"type":"GROUP_TIPS_TYPE_INFO_CHANGE","#
            + #""groupChangeList":[{"type":"GROUP_INFO_CHANGE_TYPE_INTRODUCTION","value":""# + intro + #""}]}}]}"#
        #expect(try imcodec("encode", "--output", "-", text: tips).status == 1)
        #expect(try imcodec("encode", "--profile", "current", "--output", "-", text: tips).status == 0)
        // sdk-guide by its name, and by `seed`, its earlier name.
        #expect(try imcodec("encode", "--profile", "sdk-guide", "--output", "-", text: tips).status == 1)
        #expect(try imcodec("encode", "--profile", "seed", "--output", "-", text: tips).status == 1)
    }

    @Test func anInvalidLineIsReportedWithItsLineNumber() throws {
        let result = try imcodec("encode", "--lines", text: Self.textMessage + "\n\n" + #"{"msgId":}"# + "\n")
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("error: json.syntax at (root): "), "\(result.standardError)")
        #expect(result.standardError.hasSuffix("[line 3]\n"), "\(result.standardError)")
    }

    @Test func aCorruptFrameExitsOneWithItsCode() throws {
        var frame = try imcodec("encode", text: Self.textMessage).standardOutputBytes
        frame[frame.count - 1] ^= 0x01
        let decoded = try imcodec("decode", input: frame)
        #expect(decoded.status == 1)
        #expect(decoded.standardError.hasPrefix("error: frame.checksum at (root): "), "\(decoded.standardError)")
        let inspected = try imcodec("inspect", input: frame)
        #expect(inspected.status == 1)
        #expect(inspected.standardOutput.contains("integrity       failed: frame.checksum"))
        #expect(inspected.standardError.hasPrefix("error: frame.checksum at (root): "))
    }

    @Test func aStreamCutShortExitsOneAfterTheWholeFrames() throws {
        let frames = try imcodec("encode", "--lines", text: Self.textMessage + "\n" + Self.textMessage)
            .standardOutputBytes
        let decoded = try imcodec("decode", input: Array(frames.dropLast(3)))
        #expect(decoded.status == 1)
        #expect(decoded.standardOutput == Self.textMessage + "\n")
        #expect(decoded.standardError.hasPrefix("error: frame.truncated at (root): "))
    }

    @Test(arguments: [
        ["encode", "--level", "0"], ["encode", "--level", "10"], ["encode", "--threshold", "-1"],
        ["encode", "--dictionary", "5"], ["encode", "--kind", "letter"], ["encode", "--compression", "always"],
        ["decode", "--no-such-option"], ["frobnicate"],
    ])
    func usageErrorsExitSixtyFour(arguments: [String]) throws {
        let result = try ChildProcess.run(executable: Self.binary, arguments: arguments)
        #expect(result.status == 64, "\(arguments): \(result.standardError)")
        #expect(result.standardError.contains("Error: "))
    }

    @Test(arguments: [["--help"], ["encode", "--help"], ["decode", "--help"], ["inspect", "--help"]])
    func helpShowsExamplesAndExitsZero(arguments: [String]) throws {
        let result = try ChildProcess.run(executable: Self.binary, arguments: arguments)
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("Examples:"))
    }

    /// The warning policy is in the help: every warning code of the one list,
    /// and --strict as the way to fail on them.
    @Test func validateHelpNamesEveryWarningCodeAndStrict() throws {
        let result = try ChildProcess.run(executable: Self.binary, arguments: ["validate", "--help"])
        #expect(result.status == 0)
        let help = result.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let warnings = FindingCode.validatorCodes.filter { $0.severity == .warning }
        #expect(warnings.count >= 5)
        for code in warnings {
            #expect(help.contains(code.rawValue), "validate --help does not name the warning \(code)")
        }
        for code in FindingCode.validatorCodes where code.severity == .error {
            #expect(!help.contains(code.rawValue + ","), "validate --help lists the error \(code) as a warning")
        }
        #expect(help.contains("--strict fails on them too"))
    }

    /// Warnings alone exit 0; with --strict they exit 1; an error exits 1 either way.
    @Test func strictFailsOnWarningsOnly() throws {
        let warning = #"{"msgId":"m","receiver":"bob","priority":9,"elems":[{"text":{"text":"hi"}}]}"#
        let error = #"{"msgId":"m","elems":[{"text":{"text":"hi"}}]}"#
        let warned = try imcodec("validate", "-", text: warning)
        #expect(warned.status == 0, "\(warned.standardOutput)")
        #expect(warned.standardOutput.contains("enum.unknown-value"))
        #expect(try imcodec("validate", "--strict", "-", text: warning).status == 1)
        #expect(try imcodec("validate", "-", text: error).status == 1)
        #expect(try imcodec("validate", "--strict", "-", text: error).status == 1)
    }

    @Test func decodingABombPeaksUnder64MiB() throws {
        let bomb = DeflateBomb.zeros(mebibytes: 1024).stream
        let frame = DeflateBomb.frame(body: bomb, declaring: UInt64(DecodingLimits.default.maxInflatedBytes))
        let result = try ChildProcess.run(
            executable: Self.binary, arguments: ["decode", try file(frame)], measuringMemory: true)
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("error: frame.payload-length at (root): "), "\(result.standardError)")
        print("imcodec decode of a 1 GiB bomb declaring 16 MiB: peak RSS \(result.maxRSS >> 20) MiB")
        #expect(result.maxRSS < 64 << 20)
    }

    // MARK: Input problems: each a documented code (Sources/IMCodec/IMCodec.docc/HandlingErrors.md), its
    // exit status, the file named, and a hint.

    /// The standard error of a run that failed with `code`, checked for the
    /// status, the code, the file's name and a hint.
    @discardableResult
    func expectInputProblem(
        _ result: ChildProcess.Result, code: String, status: Int32, naming file: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> String {
        let error = result.standardError
        #expect(result.status == status, "\(error)", sourceLocation: sourceLocation)
        #expect(error.hasPrefix("error: \(code) at "), "\(error)", sourceLocation: sourceLocation)
        #expect(error.contains(file), "the message does not name \(file): \(error)", sourceLocation: sourceLocation)
        #expect(error.contains("\nhint: "), "no hint: \(error)", sourceLocation: sourceLocation)
        #expect(!error.contains("Usage:"), "\(error)", sourceLocation: sourceLocation)
        #expect(result.standardOutput.isEmpty, sourceLocation: sourceLocation)
        return error
    }

    @Test(arguments: ["encode", "decode", "inspect"])
    func aMissingFileExitsTwo(command: String) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("imcodec-cli-no-such-\(UUID())").path
        let result = try imcodec(command, path)
        expectInputProblem(result, code: "input.missing", status: 2, naming: path)
    }

    @Test(arguments: ["encode", "decode", "inspect"])
    func aDirectoryExitsTwo(command: String) throws {
        let directory = FileManager.default.temporaryDirectory.path
        let result = try imcodec(command, directory)
        let error = expectInputProblem(result, code: "input.directory", status: 2, naming: directory)
        #expect(!error.contains("NSCocoaErrorDomain"))
    }

    @Test func anUnreadableFileExitsTwoWithTheSystemsReason() throws {
        // Opens, then every read at offset 0 fails with EIO: unreadable even for root.
        let result = try imcodec("decode", "/proc/self/mem")
        let error = expectInputProblem(result, code: "input.unreadable", status: 2, naming: "/proc/self/mem")
        #expect(error.contains("Input/output error"), "\(error)")
    }

    @Test(arguments: ["encode", "decode", "inspect"])
    func anEmptyFileExitsOne(command: String) throws {
        let path = try file([])
        expectInputProblem(try imcodec(command, path), code: "input.empty", status: 1, naming: path)
    }

    @Test(arguments: ["decode", "inspect"])
    func aJSONFileGivenAsFramesNamesEncode(command: String) throws {
        let path = try file(Array(Self.textMessage.utf8))
        let error = expectInputProblem(try imcodec(command, path), code: "input.not-frames", status: 1, naming: path)
        #expect(error.contains("is JSON, not frames"), "\(error)")
        #expect(error.contains("'imcodec encode \(path)'"), "\(error)")
    }

    @Test func aJPEGGivenAsFramesIsNamed() throws {
        let path = try file([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00])
        let error = expectInputProblem(try imcodec("decode", path), code: "input.not-frames", status: 1, naming: path)
        #expect(error.contains("is a JPEG image, not frames"), "\(error)")
    }

    @Test func anUnknownFieldSuggestsTheFieldMeant() throws {
        let path = try file(Array(#"{"msgID":"m1","receiver":"bob"}"#.utf8))
        let error = expectInputProblem(
            try imcodec("encode", "--output", "-", path), code: "json.unknown-field", status: 1, naming: path)
        #expect(error.contains("hint: did you mean msgId?"), "\(error)")
    }

    @Test func anUnknownEnumNameListsTheEnumsValues() throws {
        let path = try file(Array(#"{"receiver":"bob","elems":[{"image":{"format":"JPEG"}}]}"#.utf8))
        let result = try imcodec("encode", "--output", "-", path)
        #expect(result.status == 1)
        let error = result.standardError
        #expect(error.hasPrefix("error: json.value at elems[0].image.format: "), "\(error)")
        #expect(error.contains("JPEG is not a value of ImageFormat"), "\(error)")
        #expect(error.contains("IMAGE_FORMAT_JPG, IMAGE_FORMAT_GIF, IMAGE_FORMAT_PNG"), "\(error)")
        #expect(error.contains(path), "\(error)")
    }

    @Test(arguments: [
        ["encode", "--threshold", "-5"], ["encode", "--threshold=-5"], ["decode", "--max-depth", "-1"],
        ["inspect", "--max-frame-bytes", "-1"],
    ])
    func aNegativeNumberIsAUsageErrorWithItsCode(arguments: [String]) throws {
        let result = try ChildProcess.run(executable: Self.binary, arguments: arguments + ["-"])
        #expect(result.status == 64, "\(arguments): \(result.standardError)")
        #expect(result.standardError.contains("usage.negative: --"), "\(result.standardError)")
        #expect(result.standardError.contains("must be 0 or more, not -"), "\(result.standardError)")
    }

    @Test func decodeToRESTNamesTheFrameThatCannotBeExported() throws {
        let ok = try imcodec("encode", text: #"{"sender":"a","receiver":"b","elems":[{"text":{"text":"hi"}}]}"#)
        let withID = try imcodec(
            "encode", text: #"{"msgId":"m1","sender":"a","receiver":"b","elems":[{"text":{"text":"hi"}}]}"#)
        let one = try file(withID.standardOutputBytes)
        let single = try imcodec("decode", "--to", "restapi", one)
        #expect(single.status == 1)
        #expect(single.standardError.hasPrefix("error: rest.unrepresentable at msgId: "), "\(single.standardError)")
        #expect(single.standardError.hasSuffix("[\(one), frame 0 at byte 0]\n"), "\(single.standardError)")
        let two = try file(ok.standardOutputBytes + withID.standardOutputBytes)
        let second = try imcodec("decode", "--to", "restapi", two)
        #expect(second.status == 1)
        #expect(second.standardOutput.contains(#""MsgBody""#))
        #expect(
            second.standardError.hasSuffix("[\(two), frame 1 at byte \(ok.standardOutputBytes.count)]\n"),
            "\(second.standardError)")
    }

    /// F1 and G2 on the relationship-chain and group kinds of Event: a
    /// 97-byte remark (32 CJK characters and a letter) and a group profile
    /// with one member more than its maximum, in a JSON file and in frames.
    @Test func validateReportsARemarkPastNinetySixBytesAndMembersPastTheMaximum() throws {
        let remark = String(repeating: "字", count: 32) + "a"
        #expect(remark.utf8.count == 97)
        let request = #"{"friendRequest":{"identifier":"user_dave","remark":"\#(remark)"}}"#
        let profiles =
            #"{"groupProfiles":{"groups":[{"group":"@TGS#2C5SZEAEF","groupType":"Public","maxMemberNum":200,"memberNum":201}]}}"#
        let json = try file(Array("[\(request),\(profiles)]".utf8))
        let result = try imcodec("validate", "--kind", "event", "--format", "json", json)
        #expect(result.status == 1, "\(result.standardError)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutputBytes)) as? [String: Any])
        let files = try #require(report["files"] as? [[String: Any]])
        let findings = try #require(files.first?["findings"] as? [[String: Any]])
        #expect(findings.count == 2)
        let summary = findings.map { finding in
            ["code", "path", "limit", "actual"].map { "\(finding[$0] ?? "")" }.joined(separator: " ")
        }
        #expect(
            summary == [
                "limit.friend.remark-bytes [0].friendRequest.remark 96 97",
                "limit.group.member-num [1].groupProfiles.groups[0].memberNum 200 201",
            ])

        // The same two events as a stream of event frames: paths without the
        // array index, each finding naming its frame.
        var frames: [UInt8] = []
        for event in [request, profiles] {
            let encoded = try imcodec("encode", "--kind", "event", "--no-validate", text: event)
            #expect(encoded.status == 0, "\(encoded.standardError)")
            frames += encoded.standardOutputBytes
        }
        let stream = try file(frames)
        let text = try imcodec("validate", stream)
        #expect(text.status == 1)
        let lines = text.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(text.standardOutput)")
        #expect(
            lines.first?.hasPrefix("\(stream), frame 0: error limit.friend.remark-bytes at friendRequest.remark:")
                == true)
        #expect(
            lines.dropFirst().first?.hasPrefix(
                "\(stream), frame 1: error limit.group.member-num at groupProfiles.groups[0].memberNum:") == true)
        #expect(lines.last == "1 file: 2 errors, 0 warnings")
    }

    @Test func versionPrintsTheReleaseAndFrameFormat() throws {
        let result = try ChildProcess.run(executable: Self.binary, arguments: ["--version"])
        #expect(result.status == 0)
        #expect(result.standardOutput == "0.1.0 (frame format 1)\n")
    }
}
