import Foundation
import IMCodecTestSupport
import Testing

@testable import IMCodec

/// A raw deflate stream of stored blocks, written by hand (RFC 1951 §3.2.4):
/// each block is a header byte (BFINAL, BTYPE 00), LEN and NLEN, then LEN
/// bytes. `final: false` leaves the stream without its final block.
func storedDeflate(_ blocks: [[UInt8]], final: Bool = true) -> [UInt8] {
    var stream: [UInt8] = []
    for (index, block) in blocks.enumerated() {
        let isFinal = final && index == blocks.count - 1
        let length = UInt16(block.count)
        stream.append(isFinal ? 1 : 0)
        stream += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
        stream += block
    }
    return stream
}

/// Asserts that `body` throws an ``IMCodecError`` with `code` at the root path.
func expectError(
    _ code: IMCodecError.Code, path: String = "", sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws(IMCodecError) -> Void
) {
    do {
        try body()
        Issue.record("expected \(code), got success", sourceLocation: sourceLocation)
    } catch {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        #expect(error.path.description == path, "\(error)", sourceLocation: sourceLocation)
    }
}

@Suite struct FrameFormatTests {
    let decoder = FrameDecoder()

    @Test func writesTheDocumentedLayoutForAStoredFrame() throws {
        let payload: [UInt8] = [0x0A, 0x02, 0x68, 0x69]
        let frame = try FrameEncoder().encodeFrame(payload: payload, kind: .message)
        #expect(frame == handFrame(flags: 0x01, fields: [0x04], payload: payload))
        #expect(frame.count == 7 + payload.count)
    }

    @Test func writesTheDocumentedLayoutForACompressedFrameWithADictionary() throws {
        let payload = Array(String(repeating: "hello imcodec ", count: 40).utf8)
        let policy = CompressionPolicy(threshold: 0, dictionary: .imMessages)
        let frame = try FrameEncoder(policy: policy).encodeFrame(payload: payload, kind: .event)
        // flags: kind 3, compression 1 (bits 2-3), dictionary bit 4.
        #expect(frame[0] == 0x01)
        #expect(frame[1] == 0x03 | 0x04 | 0x10)
        #expect(frame[2] == 0x01)
        let header = try #require(try FrameHeader.peek(frame))
        #expect(header.dictionaryID == 1)
        #expect(header.payloadLength == payload.count)
        #expect(header.bodyLength < payload.count)
        let lengths = varintBytes(UInt64(header.bodyLength)) + varintBytes(UInt64(payload.count))
        let checksumAt = 3 + lengths.count
        #expect(Array(frame[3..<checksumAt]) == lengths)
        let checksum = frame[checksumAt..<(checksumAt + 4)].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        #expect(checksum == referenceCRC32(Array(frame[0..<checksumAt]) + payload))
        #expect(header.encodedLength == checksumAt + 4)
        #expect(frame.count == header.frameLength)
    }

    @Test(arguments: FrameKind.allCases)
    func roundTripsEveryKindStoredAndCompressed(kind: FrameKind) throws {
        for policy in [CompressionPolicy.disabled, .default, CompressionPolicy(threshold: 0, dictionary: .imMessages)] {
            let encoder = FrameEncoder(policy: policy)
            for size in [0, 1, 2, 3, 100, 255, 256, 1_000, 70_000] {
                let payload = (0..<size).map { UInt8(truncatingIfNeeded: $0 % 37 + $0 / 1_000) }
                let decoded = try decoder.decodeFrame(encoder.encodeFrame(payload: payload, kind: kind))
                #expect(decoded.header.kind == kind)
                #expect(Array(decoded.payload) == payload)
                #expect(decoded.header.payloadLength == size)
            }
        }
    }

    @Test func acceptsAnEmptyStoredPayload() throws {
        let frame = handFrame(flags: 0x02, fields: [0x00], payload: [])
        let decoded = try decoder.decodeFrame(frame)
        #expect(decoded.payload.isEmpty)
        #expect(decoded.header.kind == .batch)
    }

    @Test func acceptsAnEmptyCompressedPayload() throws {
        let body: [UInt8] = [0x03, 0x00]  // a final fixed-Huffman block holding only end-of-block
        let frame = handFrame(flags: 0x05, fields: [0x02, 0x00], payload: [], body: body)
        #expect(try decoder.decodeFrame(frame).payload.isEmpty)
    }

    @Test func acceptsHandWrittenStoredDeflateBlocks() throws {
        let payload = Array("stored deflate blocks".utf8)
        let body = storedDeflate([Array(payload[0..<6]), Array(payload[6...])])
        let frame = handFrame(
            flags: 0x05, fields: varintBytes(UInt64(body.count)) + varintBytes(UInt64(payload.count)),
            payload: payload, body: body)
        #expect(Array(try decoder.decodeFrame(frame).payload) == payload)
    }

    @Test func storedPayloadSharesTheInputStorage() throws {
        let frame = handFrame(flags: 0x01, fields: [0x03], payload: [1, 2, 3])
        let decoded = try decoder.decodeFrame(frame)
        frame.withUnsafeBufferPointer { input in
            decoded.payload.withUnsafeBufferPointer { payload in
                #expect(payload.baseAddress == input.baseAddress! + 7)
            }
        }
    }

    // MARK: Check 1: version and flags

    @Test func rejectsAnUnknownVersion() {
        for version: UInt8 in [0x00, 0x02, 0xFF] {
            expectError(.frameVersion) { () throws(IMCodecError) in
                _ = try decoder.decodeFrame(handFrame(version: version, flags: 0x01, fields: [0], payload: []))
            }
        }
    }

    @Test func rejectsKindZero() {
        expectError(.frameKind) { () throws(IMCodecError) in
            _ = try decoder.decodeFrame(handFrame(flags: 0x00, fields: [0], payload: []))
        }
    }

    @Test func rejectsUndefinedCompression() {
        for flags: UInt8 in [0x0D, 0x0E, 0x1F] {
            expectError(.frameCompression) { () throws(IMCodecError) in
                _ = try decoder.decodeFrame(handFrame(flags: flags, fields: [0, 0], payload: []))
            }
        }
    }

    @Test func rejectsEveryReservedBit() {
        for bit in 5..<8 {
            expectError(.frameReservedBits) { () throws(IMCodecError) in
                _ = try decoder.decodeFrame(handFrame(flags: 0x01 | 1 << UInt8(bit), fields: [0], payload: []))
            }
        }
    }

    @Test func checksVersionThenKindThenCompressionThenReservedBits() {
        expectError(.frameVersion) { () throws(IMCodecError) in
            _ = try decoder.decodeFrame(handFrame(version: 2, flags: 0xEC, fields: [0], payload: []))
        }
        expectError(.frameKind) { () throws(IMCodecError) in
            _ = try decoder.decodeFrame(handFrame(flags: 0xEC, fields: [0], payload: []))
        }
        expectError(.frameCompression) { () throws(IMCodecError) in
            _ = try decoder.decodeFrame(handFrame(flags: 0xED, fields: [0], payload: []))
        }
    }

    @Test func rejectsInputShorterThanTwoBytesAsTruncatedWhateverItHolds() {
        for input: [UInt8] in [[], [0x01], [0x02]] {
            expectError(.frameTruncated) { () throws(IMCodecError) in _ = try decoder.decodeFrame(input) }
        }
    }

    // MARK: Check 2: header varints and the dictionary

    @Test func rejectsADictionaryOnAnUncompressedFrameAfterReadingItsId() {
        expectError(.frameDictionary) { () throws(IMCodecError) in
            _ = try decoder.decodeFrame(handFrame(flags: 0x11, fields: [0x01, 0x00], payload: []))
        }
        // The id varint is read first, so its own problems come first.
        expectError(.frameTruncated) { () throws(IMCodecError) in _ = try decoder.decodeFrame([0x01, 0x11]) }
        expectError(.frameVarint) { () throws(IMCodecError) in
            _ = try decoder.decodeFrame(handFrame(flags: 0x11, fields: [0x81, 0x00, 0x00], payload: []))
        }
    }

    @Test func rejectsDictionaryIdZeroAndUnknownIds() {
        for id: UInt64 in [0, 5, 1 << 32 - 1] {
            expectError(.frameDictionary) { () throws(IMCodecError) in
                _ = try decoder.decodeFrame(handFrame(flags: 0x15, fields: varintBytes(id) + [0, 0], payload: []))
            }
        }
    }

    @Test func rejectsVaryingMalformedVarintsInEveryField() {
        let malformed: [[UInt8]] = [
            [0x80, 0x00],  // not minimal
            [0xFF, 0x80, 0x00],  // not minimal
            [0x80, 0x80, 0x80, 0x80, 0x10],  // 2^32
            [0xFF, 0xFF, 0xFF, 0xFF, 0x1F],  // above 2^32 - 1
            [0x80, 0x80, 0x80, 0x80, 0x80, 0x00],  // 6 bytes
        ]
        for bad in malformed {
            let cases: [(UInt8, [UInt8])] = [
                (0x01, bad),  // body length
                (0x05, [0x00] + bad),  // payload length
                (0x15, bad + [0x00, 0x00]),  // dictionary id
            ]
            for (flags, fields) in cases {
                expectError(.frameVarint) { () throws(IMCodecError) in
                    _ = try decoder.decodeFrame(handFrame(flags: flags, fields: fields, payload: []))
                }
            }
        }
    }

    @Test func acceptsTheLargestVarint() throws {
        let fields: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0x0F]
        let header = try #require(try FrameHeader.peek(handFrame(flags: 0x01, fields: fields, payload: [])))
        #expect(header.bodyLength == 0xFFFF_FFFF)
        #expect(header.encodedLength == 11)
    }

    @Test func treatsAVarintCutShortAsTruncated() {
        expectError(.frameTruncated) { () throws(IMCodecError) in _ = try decoder.decodeFrame([0x01, 0x01, 0x80]) }
        expectError(.frameTruncated) { () throws(IMCodecError) in
            _ = try decoder.decodeFrame([0x01, 0x01, 0x80, 0x80, 0x80, 0x80])
        }
    }

    // MARK: Check 3: limits, before the body is there

    @Test func checksTheFrameSizeLimitAtNAndNPlusOne() throws {
        var limits = DecodingLimits()
        limits.maxFrameBytes = 100
        let decoder = FrameDecoder(limits: limits)
        let atLimit = handFrame(flags: 0x01, fields: varintBytes(100), payload: Array(repeating: 7, count: 100))
        #expect(try decoder.decodeFrame(atLimit).payload.count == 100)
        // Only the header of the larger frame is given: the limit comes first.
        let header = Array(handFrame(flags: 0x01, fields: varintBytes(101), payload: [])[0..<7])
        do {
            _ = try decoder.decodeFrame(header)
            Issue.record("accepted a frame above the limit")
        } catch {
            #expect(error.code == .limitFrameSize)
            #expect(error.limit == 100)
            #expect(error.observed == 101)
        }
    }

    @Test func checksTheInflatedSizeLimitAtNAndNPlusOne() throws {
        var limits = DecodingLimits()
        limits.maxInflatedBytes = 1_000
        let decoder = FrameDecoder(limits: limits)
        let payload = [UInt8](repeating: 0x61, count: 1_000)
        let frame = try FrameEncoder(policy: .init(threshold: 0)).encodeFrame(payload: payload, kind: .message)
        #expect(try decoder.decodeFrame(frame).payload.count == 1_000)
        expectError(.limitInflatedSize) { () throws(IMCodecError) in
            _ = try decoder.decodeFrame(handFrame(flags: 0x05, fields: [0x10] + varintBytes(1_001), payload: []))
        }
    }

    @Test func checksTheInflateRatioLimitAtNAndNPlusOne() throws {
        var limits = DecodingLimits()
        limits.maxInflateRatio = 10
        let decoder = FrameDecoder(limits: limits)
        let payload = [UInt8](repeating: 0, count: 40)
        let body = storedDeflate([payload])  // 45 bytes; ratio below 1
        let ok = handFrame(flags: 0x05, fields: varintBytes(UInt64(body.count)) + [40], payload: payload, body: body)
        #expect(try decoder.decodeFrame(ok).payload.count == 40)
        // A 4-byte body may declare 40 bytes (it then fails to inflate), not 41.
        expectError(.frameDeflate) { () throws(IMCodecError) in
            _ = try decoder.decodeFrame(handFrame(flags: 0x05, fields: [4, 40], payload: [], body: [0, 0, 0, 0]))
        }
        do {
            _ = try decoder.decodeFrame(handFrame(flags: 0x05, fields: [4, 41], payload: [], body: [0, 0, 0, 0]))
            Issue.record("accepted a ratio above the limit")
        } catch {
            #expect(error.code == .limitInflateRatio)
            #expect(error.limit == 10)
            #expect(error.observed == 11)
        }
    }

    @Test func checksLimitsInOrderFrameSizeInflatedSizeRatio() {
        var limits = DecodingLimits()
        limits.maxFrameBytes = 10
        limits.maxInflatedBytes = 10
        limits.maxInflateRatio = 1
        let decoder = FrameDecoder(limits: limits)
        expectError(.limitFrameSize) { () throws(IMCodecError) in
            _ = try decoder.decodeFrame(handFrame(flags: 0x05, fields: [11, 100], payload: []))
        }
        expectError(.limitInflatedSize) { () throws(IMCodecError) in
            _ = try decoder.decodeFrame(handFrame(flags: 0x05, fields: [2, 100], payload: []))
        }
        expectError(.limitInflateRatio) { () throws(IMCodecError) in
            _ = try decoder.decodeFrame(handFrame(flags: 0x05, fields: [2, 3], payload: []))
        }
    }

    @Test func appliesTheInflatedSizeLimitOnlyToCompressedFrames() throws {
        var limits = DecodingLimits()
        limits.maxInflatedBytes = 1
        let stored = handFrame(flags: 0x01, fields: [3], payload: [1, 2, 3])
        #expect(try FrameDecoder(limits: limits).decodeFrame(stored).payload.count == 3)
    }

    // MARK: Checks 4 to 6: body, inflation, checksum

    @Test func rejectsABodyCutShortAsTruncated() {
        let frame = handFrame(flags: 0x01, fields: [3], payload: [1, 2, 3])
        expectError(.frameTruncated) { () throws(IMCodecError) in _ = try decoder.decodeFrame(Array(frame.dropLast())) }
    }

    @Test func rejectsACorruptDeflateStream() {
        // BTYPE 11 is reserved in deflate.
        expectError(.frameDeflate) { () throws(IMCodecError) in
            _ = try decoder.decodeFrame(handFrame(flags: 0x05, fields: [1, 1], payload: [0], body: [0x07]))
        }
        // Stored block whose NLEN is not the complement of LEN.
        expectError(.frameDeflate) { () throws(IMCodecError) in
            _ = try decoder.decodeFrame(
                handFrame(flags: 0x05, fields: [6, 1], payload: [9], body: [0x01, 1, 0, 0, 0, 9]))
        }
    }

    @Test func rejectsADeflateStreamWithoutItsFinalBlock() {
        let payload: [UInt8] = [1, 2, 3]
        let body = storedDeflate([payload], final: false)
        expectError(.frameDeflate) { () throws(IMCodecError) in
            _ = try decoder.decodeFrame(
                handFrame(flags: 0x05, fields: [UInt8(body.count), 3], payload: payload, body: body))
        }
        // The same stream declaring more payload than it has.
        expectError(.frameDeflate) { () throws(IMCodecError) in
            _ = try decoder.decodeFrame(
                handFrame(flags: 0x05, fields: [UInt8(body.count), 4], payload: payload, body: body))
        }
    }

    @Test func rejectsADeflateStreamThatEndsBeforeTheBody() {
        let payload: [UInt8] = [1, 2, 3]
        let body = storedDeflate([payload]) + [0x00]
        expectError(.frameDeflate) { () throws(IMCodecError) in
            _ = try decoder.decodeFrame(
                handFrame(flags: 0x05, fields: [UInt8(body.count), 3], payload: payload, body: body))
        }
    }

    @Test func rejectsADeflateStreamThatInflatesToMoreThanDeclared() {
        let payload: [UInt8] = [1, 2, 3, 4]
        let body = storedDeflate([payload])
        expectError(.framePayloadLength) { () throws(IMCodecError) in
            _ = try decoder.decodeFrame(
                handFrame(flags: 0x05, fields: [UInt8(body.count), 3], payload: Array(payload[0..<3]), body: body))
        }
        // Declaring zero bytes of a stream that has one.
        expectError(.framePayloadLength) { () throws(IMCodecError) in
            _ = try decoder.decodeFrame(
                handFrame(flags: 0x05, fields: [6, 0], payload: [], body: storedDeflate([[7]])))
        }
    }

    @Test func rejectsADeflateStreamThatInflatesToFewerThanDeclared() {
        let payload: [UInt8] = [1, 2, 3]
        let body = storedDeflate([payload])
        expectError(.framePayloadLength) { () throws(IMCodecError) in
            _ = try decoder.decodeFrame(
                handFrame(flags: 0x05, fields: [UInt8(body.count), 4], payload: payload, body: body))
        }
    }

    @Test func rejectsADictionaryStreamReadWithoutItsDictionary() throws {
        let dictionary = PresetDictionary.imMessages.bytes
        let payload = Array(repeating: dictionary, count: 300 / dictionary.count + 1).flatMap { $0 }
        let frame = try FrameEncoder(policy: .init(threshold: 0, dictionary: .imMessages))
            .encodeFrame(payload: payload, kind: .message)
        // Clearing the dictionary bit and dropping the id: the stream refers
        // back into a dictionary the reader does not have.
        let header = try #require(try FrameHeader.peek(frame))
        try #require(header.dictionaryID == 1)
        let body = Array(frame[header.encodedLength...])
        let stripped = handFrame(
            flags: 0x05, fields: varintBytes(UInt64(body.count)) + varintBytes(UInt64(payload.count)),
            payload: payload, body: body)
        expectError(.frameDeflate) { () throws(IMCodecError) in _ = try decoder.decodeFrame(stripped) }
    }

    @Test func rejectsAChecksumMismatchInHeaderOrPayload() throws {
        let payload: [UInt8] = [1, 2, 3]
        let good = handFrame(flags: 0x01, fields: [3], payload: payload)
        var badChecksum = good
        badChecksum[3] ^= 0x01
        expectError(.frameChecksum) { () throws(IMCodecError) in _ = try decoder.decodeFrame(badChecksum) }
        var badPayload = good
        badPayload[8] ^= 0x80
        expectError(.frameChecksum) { () throws(IMCodecError) in _ = try decoder.decodeFrame(badPayload) }
        // A frame whose kind was changed and whose payload still decodes.
        var otherKind = good
        otherKind[1] = 0x02
        expectError(.frameChecksum) { () throws(IMCodecError) in _ = try decoder.decodeFrame(otherKind) }
    }

    @Test func rejectsTrailingBytesAfterAFrameCheckedLast() {
        let frame = handFrame(flags: 0x01, fields: [3], payload: [1, 2, 3])
        expectError(.frameTrailingBytes) { () throws(IMCodecError) in _ = try decoder.decodeFrame(frame + [0]) }
        // A bad checksum is reported before the trailing bytes.
        var bad = frame
        bad[3] ^= 1
        expectError(.frameChecksum) { () throws(IMCodecError) in _ = try decoder.decodeFrame(bad + [0]) }
    }

    @Test func rawBufferDecodingMatchesArrayDecoding() throws {
        let encoder = FrameEncoder()
        for size in [0, 10, 300, 5_000] {
            let payload = (0..<size).map { UInt8(truncatingIfNeeded: $0 % 11) }
            let frame = try encoder.encodeFrame(payload: payload, kind: .event)
            let viaRaw = try frame.withUnsafeBytes { raw in
                Result { () throws(IMCodecError) in try decoder.decodeFrame(raw) }
            }.get()
            #expect(viaRaw == (try decoder.decodeFrame(frame)))
        }
    }

    // MARK: Documentation

    /// The `Self("…")` codes declared in the Swift files of `folders`.
    static func declaredCodes(in folders: [String], root: URL) throws -> [String] {
        var codes: [String] = []
        for folder in folders {
            let errors = root.appendingPathComponent(folder)
            for file in try FileManager.default.contentsOfDirectory(atPath: errors.path) where file.hasSuffix(".swift")
            {
                let source = try String(contentsOf: errors.appendingPathComponent(file), encoding: .utf8)
                for line in source.split(separator: "\n") where line.contains("static let") && line.contains("Self(\"")
                {
                    codes += line.split(separator: "\"").dropFirst().prefix(1).map(String.init)
                }
            }
        }
        return codes
    }

    @Test func errorsDocumentsListEveryErrorCode() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        // The library's codes are the format's: the specification has a row for each.
        let spec = try String(
            contentsOf: root.appendingPathComponent("docs/spec/error-and-finding-codes.md"), encoding: .utf8)
        let codes = try Self.declaredCodes(
            in: ["Sources/IMCodec/Errors", "Sources/IMCodecREST", "Sources/IMCodecValidation"], root: root)
        #expect(codes.count >= 40)
        #expect(codes.contains("frame.checksum") && codes.contains("rest.type") && codes.contains("validation.failed"))
        for code in codes {
            #expect(spec.contains("| `\(code)` |"), "docs/spec/error-and-finding-codes.md has no row for \(code)")
        }
        // The command's own codes about its input are the tool's: its DocC article has a row for each.
        let article = try String(
            contentsOf: root.appendingPathComponent("Sources/IMCodec/IMCodec.docc/HandlingErrors.md"), encoding: .utf8)
        let commandCodes = try Self.declaredCodes(in: ["Sources/IMCodecCLI"], root: root)
        #expect(commandCodes.contains("input.missing") && commandCodes.contains("usage.negative"))
        for code in commandCodes {
            #expect(article.contains("| `\(code)` |"), "HandlingErrors.md has no row for \(code)")
        }
    }
}
