import Foundation
import IMCodecTestSupport
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

    func testTheBombStreamIsValidDeflate() throws {
        let (unit, stream) = DeflateBomb.zeros(mebibytes: 3)
        let payload = try stream.withUnsafeBytes { try Inflater().inflate($0, payloadLength: 3 << 20, dictionary: nil) }
        XCTAssertEqual(payload.count, 3 << 20)
        XCTAssertTrue(payload.allSatisfy { $0 == 0 })
        print("bomb unit: \(unit.count) bytes of deflate → 1 MiB of zeros")
    }

    func rejectsAFrameClaimingFourGibibytesBeforeAllocating() throws {
        let body = DeflateBomb.zeros(mebibytes: 1).unit + [0x03, 0x00]
        let frame = DeflateBomb.frame(body: body, declaring: 1 << 32 - 1)
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
        let (unit, bomb) = DeflateBomb.zeros(mebibytes: 1024)
        print("1 GiB bomb: \(bomb.count) bytes of body")
        let decoder = FrameDecoder()
        // Declared honestly: refused from the header.
        XCTAssertThrowsError(try decoder.decodeFrame(DeflateBomb.frame(body: bomb, declaring: 1 << 30))) { error in
            XCTAssertEqual((error as? IMCodecError)?.code, .limitInflatedSize)
        }
        // Declaring the most the limits allow: inflation stops when the
        // 16 MiB payload is full and the stream still has more.
        let limit = UInt64(DecodingLimits.default.maxInflatedBytes)
        XCTAssertThrowsError(try decoder.decodeFrame(DeflateBomb.frame(body: bomb, declaring: limit))) { error in
            XCTAssertEqual((error as? IMCodecError)?.code, .framePayloadLength)
        }
        // Declaring little: stops after that little.
        XCTAssertThrowsError(try decoder.decodeFrame(DeflateBomb.frame(body: bomb, declaring: 1_000))) { error in
            XCTAssertEqual((error as? IMCodecError)?.code, .framePayloadLength)
        }
        // A 1 KB body (one unit: 1 MiB of zeros) claiming 1 GB.
        let small = unit + [0x03, 0x00]
        XCTAssertThrowsError(try decoder.decodeFrame(DeflateBomb.frame(body: small, declaring: 1_000_000_000))) {
            error in
            XCTAssertEqual((error as? IMCodecError)?.code, .limitInflatedSize)
        }
        // The same body declaring 250 KB (its ratio limit): stops there.
        let ratioLimit = UInt64(small.count * DecodingLimits.default.maxInflateRatio)
        XCTAssertThrowsError(try decoder.decodeFrame(DeflateBomb.frame(body: small, declaring: ratioLimit))) { error in
            XCTAssertEqual((error as? IMCodecError)?.code, .framePayloadLength)
        }
        // Fed to a stream reader in 64 KiB chunks.
        let reader = FrameReader()
        let frame = DeflateBomb.frame(body: bomb, declaring: limit)
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
