import CZlib
import Foundation
import XCTest

@testable import IMCodec

/// Decompression bombs and lying headers: memory must stay bounded by the
/// limits whatever a frame claims.
///
/// Peak memory is measured as the maximum resident set size (`ru_maxrss`)
/// of a process that does nothing else: ``testBombsStayUnder64MiBInAFreshProcess()``
/// runs ``testDecodingBombs()`` alone in a child copy of the test binary and
/// reads the child's own `ru_maxrss` (``ChildProcess/measuringLauncher``
/// explains why a launcher sits in between). Measured inside this process
/// the number would mean little: `ru_maxrss` is a high-water mark of the whole
/// process, which other tests may have raised before.
final class FrameBombTests: XCTestCase {
    /// Set in the child process that measures ``testDecodingBombs()``.
    static let childVariable = "IMCODEC_BOMB_CHILD"

    /// The peak resident set size of this process so far, in bytes.
    static func peakRSS() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss * 1024  // kilobytes on Linux
    }

    func testBombsStayUnder64MiBInAFreshProcess() throws {
        let child = try ChildProcess.run(
            executable: ChildProcess.currentExecutable,
            arguments: ["IMCodecTests.FrameBombTests/testDecodingBombs"],
            environment: [Self.childVariable: "1"], measuringMemory: true)
        XCTAssertEqual(child.status, 0, child.standardError)
        XCTAssertTrue(child.standardOutput.contains("Executed 1 test, with 0 failures"), child.standardOutput)
        for line in child.standardOutput.split(separator: "\n") where line.hasPrefix("bomb child:") { print(line) }
        print("bomb decoding in a fresh test process: peak RSS \(child.maxRSS >> 20) MiB (\(child.maxRSS) bytes)")
        XCTAssertLessThan(child.maxRSS, 64 << 20)
    }

    /// Decodes a frame claiming 4 GiB and a 1 GiB bomb in several ways; run
    /// alone in a child process by ``testBombsStayUnder64MiBInAFreshProcess()``.
    func testDecodingBombs() throws {
        let peakBefore = Self.peakRSS()
        try rejectsAFrameClaimingFourGibibytesBeforeAllocating()
        try stopsAGibibyteBombAtTheLimits()
        if ProcessInfo.processInfo.environment[Self.childVariable] != nil {
            print("bomb child: peak RSS \(peakBefore >> 20) MiB before decoding, \(Self.peakRSS() >> 20) MiB after")
        }
    }

    /// A raw deflate stream of `mebibytes` MiB of zeros, built from one
    /// compressed MiB repeated: each copy is a self-contained run of blocks
    /// (it starts with a literal and its matches reach back one byte), ends
    /// byte-aligned after `Z_SYNC_FLUSH`'s empty stored block, and the stream
    /// is closed by an empty final fixed block. Deflating a GiB of zeros
    /// itself would take seconds.
    static func zeroBomb(mebibytes: Int) -> (unit: [UInt8], stream: [UInt8]) {
        let unit = syncFlushedZeros(count: 1 << 20)
        var stream: [UInt8] = []
        stream.reserveCapacity(unit.count * mebibytes + 2)
        for _ in 0..<mebibytes { stream += unit }
        stream += [0x03, 0x00]
        return (unit, stream)
    }

    /// A deflate frame with this body and declared payload length.
    static func frame(body: [UInt8], declaring payloadLength: UInt64) -> [UInt8] {
        handFrame(
            flags: 0x05, fields: varintBytes(UInt64(body.count)) + varintBytes(payloadLength), payload: [], body: body)
    }

    func testTheBombStreamIsValidDeflate() throws {
        let (unit, stream) = Self.zeroBomb(mebibytes: 3)
        let payload = try stream.withUnsafeBytes { try Inflater().inflate($0, payloadLength: 3 << 20, dictionary: nil) }
        XCTAssertEqual(payload.count, 3 << 20)
        XCTAssertTrue(payload.allSatisfy { $0 == 0 })
        print("bomb unit: \(unit.count) bytes of deflate → 1 MiB of zeros")
    }

    func rejectsAFrameClaimingFourGibibytesBeforeAllocating() throws {
        let body = Self.zeroBomb(mebibytes: 1).unit + [0x03, 0x00]
        let frame = Self.frame(body: body, declaring: 1 << 32 - 1)
        let decoder = FrameDecoder()
        for _ in 0..<100 {
            XCTAssertThrowsError(try decoder.decodeFrame(frame)) { error in
                XCTAssertEqual((error as? IMCodecError)?.code, .limitInflatedSize)
            }
        }
        // The stream reader refuses it from the header alone.
        let reader = FrameReader()
        reader.append(Array(frame.prefix(13)))  // exactly the header
        XCTAssertThrowsError(try reader.next()) { error in
            XCTAssertEqual((error as? IMCodecError)?.code, .limitInflatedSize)
        }
    }

    func stopsAGibibyteBombAtTheLimits() throws {
        // About 1 MB of deflate that inflates to 1 GiB of zeros.
        let (unit, bomb) = Self.zeroBomb(mebibytes: 1024)
        print("1 GiB bomb: \(bomb.count) bytes of body")
        let decoder = FrameDecoder()
        // Declared honestly: refused from the header.
        XCTAssertThrowsError(try decoder.decodeFrame(Self.frame(body: bomb, declaring: 1 << 30))) { error in
            XCTAssertEqual((error as? IMCodecError)?.code, .limitInflatedSize)
        }
        // Declaring the most the limits allow: inflation stops when the
        // 16 MiB payload is full and the stream still has more.
        let limit = UInt64(DecodingLimits.default.maxInflatedBytes)
        XCTAssertThrowsError(try decoder.decodeFrame(Self.frame(body: bomb, declaring: limit))) { error in
            XCTAssertEqual((error as? IMCodecError)?.code, .framePayloadLength)
        }
        // Declaring little: stops after that little.
        XCTAssertThrowsError(try decoder.decodeFrame(Self.frame(body: bomb, declaring: 1_000))) { error in
            XCTAssertEqual((error as? IMCodecError)?.code, .framePayloadLength)
        }
        // A 1 KB body (one unit: 1 MiB of zeros) claiming 1 GB.
        let small = unit + [0x03, 0x00]
        XCTAssertThrowsError(try decoder.decodeFrame(Self.frame(body: small, declaring: 1_000_000_000))) { error in
            XCTAssertEqual((error as? IMCodecError)?.code, .limitInflatedSize)
        }
        // The same body declaring 250 KB (its ratio limit): stops there.
        let ratioLimit = UInt64(small.count * DecodingLimits.default.maxInflateRatio)
        XCTAssertThrowsError(try decoder.decodeFrame(Self.frame(body: small, declaring: ratioLimit))) { error in
            XCTAssertEqual((error as? IMCodecError)?.code, .framePayloadLength)
        }
        // Fed to a stream reader in 64 KiB chunks.
        let reader = FrameReader()
        let frame = Self.frame(body: bomb, declaring: limit)
        var failure: IMCodecError?
        var position = 0
        while position < frame.count, failure == nil {
            reader.append(frame[position..<min(frame.count, position + 65_536)])
            position += 65_536
            do throws(IMCodecError) { _ = try reader.next() } catch { failure = error }
        }
        XCTAssertEqual(failure?.code, .framePayloadLength)
    }
}

/// Deflates `count` zeros with zlib directly and ends with `Z_SYNC_FLUSH`,
/// leaving the output byte-aligned and the stream open.
func syncFlushedZeros(count: Int) -> [UInt8] {
    var stream = z_stream()
    precondition(imcodec_deflateInit2(&stream, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) == Z_OK)
    defer { deflateEnd(&stream) }
    var input = [UInt8](repeating: 0, count: count)
    var output = [UInt8](repeating: 0, count: count)
    let written = input.withUnsafeMutableBufferPointer { inputBuffer in
        output.withUnsafeMutableBufferPointer { outputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = UInt32(count)
            stream.next_out = outputBuffer.baseAddress
            stream.avail_out = UInt32(count)
            precondition(deflate(&stream, Z_SYNC_FLUSH) == Z_OK && stream.avail_in == 0)
            return count - Int(stream.avail_out)
        }
    }
    return Array(output[0..<written])
}

/// Runs a program to completion with files for its standard streams, and
/// reports its exit status, output and peak resident set size.
enum ChildProcess {
    struct Result {
        var status: Int32
        var standardOutput: String
        var standardError: String
        var standardOutputBytes: [UInt8]
        /// The child's `ru_maxrss` from `wait4`, in bytes.
        var maxRSS: Int
    }

    struct SpawnError: Error, CustomStringConvertible {
        var description: String
    }

    /// The executable of this process.
    static var currentExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Forks, executes the program named in its arguments, waits, and writes
    /// the child's `ru_maxrss` (KiB) to the file `IMCODEC_RSS_FILE` names.
    ///
    /// Linux carries the high-water mark of the memory a process had before
    /// `exec` into its `ru_maxrss`, so a child spawned straight from this
    /// (large) test process would report this process's peak. A small Python
    /// process in between forks the program from its own small memory.
    static let measuringLauncher = """
        import os, sys
        pid = os.fork()
        if pid == 0:
            os.execv(sys.argv[1], sys.argv[1:])
        _, status, usage = os.wait4(pid, 0)
        with open(os.environ["IMCODEC_RSS_FILE"], "w") as f:
            f.write(str(usage.ru_maxrss))
        sys.exit(os.waitstatus_to_exitcode(status) & 0xFF)
        """

    /// Runs `executable` with `arguments`, `input` on its standard input, and
    /// `environment` added to this process's environment. With
    /// `measuringMemory`, the result's `maxRSS` is the program's own peak
    /// (see ``measuringLauncher``); without, it is not meaningful.
    static func run(
        executable: String, arguments: [String], input: [UInt8] = [], environment: [String: String] = [:],
        measuringMemory: Bool = false
    ) throws -> Result {
        if measuringMemory {
            let rssFile = FileManager.default.temporaryDirectory
                .appendingPathComponent("imcodec-rss-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: rssFile) }
            var result = try run(
                executable: "/usr/bin/env", arguments: ["python3", "-c", measuringLauncher, executable] + arguments,
                input: input, environment: environment.merging(["IMCODEC_RSS_FILE": rssFile]) { $1 })
            let kibibytes = try String(contentsOfFile: rssFile, encoding: .utf8)
            result.maxRSS = (Int(kibibytes) ?? Int.max / 2048) * 1024
            return result
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("imcodec-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let paths = ["in", "out", "err"].map { directory.appendingPathComponent($0).path }
        try Data(input).write(to: URL(fileURLWithPath: paths[0]))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, paths[0], O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, paths[1], O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, paths[2], O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { $1 }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else { throw SpawnError(description: "posix_spawn \(executable): \(spawned)") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
        let output = try Data(contentsOf: URL(fileURLWithPath: paths[1]))
        let error = try Data(contentsOf: URL(fileURLWithPath: paths[2]))
        // WIFEXITED / WEXITSTATUS, which Swift cannot import as macros.
        let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Result(
            status: exitStatus,
            standardOutput: String(decoding: output, as: UTF8.self),
            standardError: String(decoding: error, as: UTF8.self),
            standardOutputBytes: [UInt8](output),
            maxRSS: usage.ru_maxrss * 1024)
    }
}
