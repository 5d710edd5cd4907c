import Foundation
import IMCodecTraffic
import Testing

@testable import IMCodec

@Suite struct CompressionTests {
    let decoder = FrameDecoder()

    func header(_ frame: [UInt8]) throws -> FrameHeader {
        try #require(try FrameHeader.peek(frame))
    }

    /// Text that deflate shrinks.
    func compressible(_ count: Int) -> [UInt8] {
        Array(String(repeating: "你好，世界 hello 👋 ", count: count / 20 + 1).utf8.prefix(count))
    }

    @Test func storesPayloadsBelowTheThresholdAndCompressesFromIt() throws {
        let encoder = FrameEncoder()
        #expect(try header(encoder.encodeFrame(payload: compressible(255), kind: .message)).compression == .none)
        #expect(try header(encoder.encodeFrame(payload: compressible(256), kind: .message)).compression == .deflate)
    }

    @Test func storesAPayloadThatDeflateDoesNotShrink() throws {
        var random = SeededGenerator(seed: 42)
        let noise = (0..<4_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        let frame = try FrameEncoder(policy: .init(threshold: 0)).encodeFrame(payload: noise, kind: .message)
        #expect(try header(frame).compression == .none)
        #expect(frame.count == noise.count + 2 + 2 + 4)
    }

    @Test func neverMakesAFrameLargerThanItsPayloadPlusAStoredHeader() throws {
        var random = SeededGenerator(seed: 7)
        let encoders = [
            FrameEncoder(), FrameEncoder(policy: .init(threshold: 0, level: 9)),
            FrameEncoder(policy: .init(threshold: 0, dictionary: .imMessages)),
        ]
        for index in 0..<600 {
            let size = Int.random(in: 0...3_000, using: &random)
            let payload: [UInt8] =
                index % 2 == 0
                ? (0..<size).map { _ in UInt8.random(in: 0...255, using: &random) }
                : compressible(size)
            for encoder in encoders {
                let frame = try encoder.encodeFrame(payload: payload, kind: .batch)
                let stored = FrameHeader(
                    kind: .batch, compression: .none, dictionaryID: nil, bodyLength: size,
                    payloadLength: size, checksum: 0)
                #expect(frame.count <= stored.frameLength)
                #expect(Array(try decoder.decodeFrame(frame).payload) == payload)
            }
        }
    }

    @Test func disabledPolicyStoresEverything() throws {
        let frame = try FrameEncoder(policy: .disabled).encodeFrame(payload: compressible(100_000), kind: .event)
        #expect(try header(frame).compression == .none)
    }

    @Test func namesTheDictionaryOnlyOnCompressedFrames() throws {
        let encoder = FrameEncoder(policy: .init(dictionary: .imMessages))
        let small = try header(encoder.encodeFrame(payload: compressible(100), kind: .message))
        #expect(small.compression == .none)
        #expect(small.dictionaryID == nil)
        let large = try header(encoder.encodeFrame(payload: compressible(1_000), kind: .message))
        #expect(large.compression == .deflate)
        #expect(large.dictionaryID == 1)
    }

    @Test(arguments: [1, 6, 9])
    func everyLevelRoundTrips(level: Int) throws {
        let payload = compressible(5_000)
        let frame = try FrameEncoder(policy: .init(threshold: 0, level: level)).encodeFrame(
            payload: payload, kind: .message)
        #expect(try header(frame).compression == .deflate)
        #expect(Array(try decoder.decodeFrame(frame).payload) == payload)
    }

    @Test func reusedStreamsGiveTheSameBytesAsFreshOnes() throws {
        let reused = FrameEncoder(policy: .init(threshold: 0, dictionary: .imMessages))
        let payloads = (0..<20).map { compressible(300 + 97 * $0) }
        for payload in payloads {
            let fresh = try FrameEncoder(policy: reused.policy).encodeFrame(payload: payload, kind: .message)
            #expect(try reused.encodeFrame(payload: payload, kind: .message) == fresh)
        }
    }

    @Test func aDecoderRecoversAfterACorruptStream() throws {
        let encoder = FrameEncoder(policy: .init(threshold: 0, dictionary: .imMessages))
        let good = try encoder.encodeFrame(payload: compressible(2_000), kind: .message)
        var corrupt = good
        corrupt[corrupt.count / 2] ^= 0x55
        for _ in 0..<3 {
            #expect(throws: IMCodecError.self) { try decoder.decodeFrame(corrupt) }
            #expect(Array(try decoder.decodeFrame(good).payload) == compressible(2_000))
        }
    }

    @Test func theDictionaryShrinksRealisticMessages() throws {
        var message = Message(
            msgID: "144115000123456789-1700000000-12345", sender: "user_10293", receiver: "user_48210",
            timestamp: 1_700_000_123, seq: 42, random: 7)
        message.elems = [
            Elem(
                kind: .image(
                    ImageElem(
                        uuid: "5e4a2f7e-4dde-4dee-b0dd-21d5e56be592", format: .jpg,
                        levels: [
                            ImageLevel(
                                type: .original, uuid: "5e4a2f7e-4dde-4dee-b0dd-21d5e56be592", size: 1_234_567,
                                width: 1080, height: 1920,
                                url:
                                    "https://cos.ap-shanghai.myqcloud.com/image/1400123456/5e4a2f7e-4dde-4dee-b0dd-21d5e56be592.jpg"
                            )
                        ])))
        ]
        let payload = message.serializedBytes()
        let plain = try FrameEncoder(policy: .init(threshold: 0)).encode(message)
        let primed = try FrameEncoder(policy: .init(threshold: 0, dictionary: .imMessages)).encode(message)
        print("image message: payload \(payload.count) B, deflate \(plain.count) B, with dictionary \(primed.count) B")
        #expect(primed.count < plain.count)
        #expect(try decoder.decode(Message.self, from: primed) == message)
    }

    @Test func theEmbeddedDictionariesAreTheShippedFiles() throws {
        let folder = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Schemas/dictionaries")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".bin") }
        #expect(files.sorted() == ["1.bin", "2.bin", "3.bin", "4.bin"])
        let shippedDictionaries: [(UInt32, PresetDictionary, Int)] = [
            (1, .imMessages, 8_192), (2, .imMessages2, 8_192), (3, .zstdMessagesSmall, 8_192),
            (4, .zstdMessages, 32_768),
        ]
        for (id, dictionary, size) in shippedDictionaries {
            let shipped = [UInt8](try Data(contentsOf: folder.appendingPathComponent("\(id).bin")))
            #expect(dictionary.bytes == shipped, "dictionary \(id)")
            #expect(shipped.count == size)
            #expect(PresetDictionary(id: id) == dictionary)
        }
        // ZDICT's format: the zstd dictionary magic, then the dictionary's own id.
        for dictionary in [PresetDictionary.zstdMessagesSmall, .zstdMessages] {
            #expect(Array(dictionary.bytes.prefix(4)) == [0x37, 0xA4, 0x30, 0xEC])
        }
        #expect(PresetDictionary.imMessages.bytes != PresetDictionary.imMessages2.bytes)
        #expect(PresetDictionary.known == [.imMessages, .imMessages2, .zstdMessagesSmall, .zstdMessages])
        #expect(PresetDictionary(id: 0) == nil)
        #expect(PresetDictionary(id: 5) == nil)
    }

    @Test func everyShippedDictionaryRoundTrips() throws {
        let message = Message(
            msgID: "144115233834113432-1700000000-7791", sender: "user_31337", groupID: "@TGS#2FHJB3AQ7",
            elems: [.text("今天下午三点开会，记得带电脑 👍")])
        let decoder = FrameDecoder()
        for dictionary in PresetDictionary.known {
            let frame = try FrameEncoder(policy: .init(threshold: 0, dictionary: dictionary)).encode(message)
            #expect(try FrameHeader.peek(frame)?.dictionaryID == dictionary.id)
            #expect(try decoder.decode(Message.self, from: frame) == message)
        }
    }
}
