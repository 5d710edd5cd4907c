#if Zstd
    import Foundation
    import IMCodec
    import IMCodecTestSupport
    import Testing

    /// A magicless zstd frame written by hand (RFC 8878): a frame header
    /// descriptor with no optional fields, a window descriptor, then blocks.
    /// `blocks` are (type, last, content) with type 0 raw (content is the
    /// data) or 1 RLE (content is the byte, repeated `repeat` times).
    func handZstd(window: UInt8 = 0x00, blocks: [(type: UInt8, last: Bool, content: [UInt8], repeat: Int)]) -> [UInt8] {
        var body: [UInt8] = [0x00, window]
        for block in blocks {
            let size = block.type == 1 ? block.repeat : block.content.count
            let header = UInt32(block.last ? 1 : 0) | UInt32(block.type) << 1 | UInt32(size) << 3
            body += [UInt8(header & 0xFF), UInt8(header >> 8 & 0xFF), UInt8(header >> 16 & 0xFF)]
            body += block.content
        }
        return body
    }

    /// A zstd frame (flags compression 2) around `body`, declaring `payloadLength`
    /// and checksummed over `payload`.
    func zstdFrame(body: [UInt8], payload: [UInt8], payloadLength: Int? = nil, dictionary: UInt8? = nil) -> [UInt8] {
        let declared = payloadLength ?? payload.count
        precondition(body.count < 128 && declared < 128, "one-byte varints only")
        let fields = (dictionary.map { [$0] } ?? []) + [UInt8(body.count), UInt8(declared)]
        return handFrame(flags: dictionary == nil ? 0x09 : 0x19, fields: fields, payload: payload, body: body)
    }

    struct ZstdFrameTests {
        let decoder = FrameDecoder()
        static let payload = Array("\u{0A}\u{02}m1\u{12}\u{05}alice".utf8)

        @Test func decodesAHandWrittenRawBlockFrame() throws {
            let body = handZstd(blocks: [(0, true, Self.payload, 0)])
            let frame = try decoder.decodeFrame(zstdFrame(body: body, payload: Self.payload))
            #expect(frame.header.compression == .zstd)
            #expect(Array(frame.payload) == Self.payload)
        }

        @Test func decodesHandWrittenRawAndRLEBlocks() throws {
            let payload = Self.payload + [UInt8](repeating: 0x61, count: 40)
            let body = handZstd(blocks: [(0, false, Self.payload, 0), (1, true, [0x61], 40)])
            #expect(Array(try decoder.decodeFrame(zstdFrame(body: body, payload: payload)).payload) == payload)
        }

        @Test func refusesAWindowPast8MiB() {
            // Window descriptor 0x68: exponent 13, window log 23, accepted; 0x70: window log 24.
            let accepted = handZstd(window: 0x68, blocks: [(0, true, Self.payload, 0)])
            #expect((try? decoder.decodeFrame(zstdFrame(body: accepted, payload: Self.payload))) != nil)
            let body = handZstd(window: 0x70, blocks: [(0, true, Self.payload, 0)])
            expectError(.frameZstdWindow) { () throws(IMCodecError) in
                _ = try decoder.decodeFrame(zstdFrame(body: body, payload: Self.payload))
            }
        }

        @Test func refusesMoreOrFewerBytesThanDeclared() {
            let body = handZstd(blocks: [(0, true, Self.payload, 0)])
            for declared in [Self.payload.count - 1, Self.payload.count + 1] {
                expectError(.framePayloadLength) { () throws(IMCodecError) in
                    _ = try decoder.decodeFrame(zstdFrame(body: body, payload: Self.payload, payloadLength: declared))
                }
            }
        }

        @Test func refusesABombByItsDeclaredSizeAndStopsAtTheDeclaredOne() {
            // 100 bytes declared, an RLE block of 120 000 in a 128 KiB window:
            // decoding stops at 100.
            let body = handZstd(window: 0x38, blocks: [(1, true, [0x61], 120_000)])
            expectError(.framePayloadLength) { () throws(IMCodecError) in
                _ = try decoder.decodeFrame(zstdFrame(body: body, payload: [], payloadLength: 100))
            }
        }

        @Test func refusesABlockPastItsMaximumFromItsHeader() {
            // The same RLE block in a 1 KiB window is past Block_Maximum_Size:
            // frame.zstd, though it would also pass the payload length.
            let body = handZstd(blocks: [(1, true, [0x61], 120_000)])
            expectError(.frameZstd) { () throws(IMCodecError) in
                _ = try decoder.decodeFrame(zstdFrame(body: body, payload: [], payloadLength: 100))
            }
        }

        @Test func refusesABodyThatEndsEarlyOrLate() {
            let unfinished = handZstd(blocks: [(0, false, Self.payload, 0)])
            expectError(.frameZstd) { () throws(IMCodecError) in
                _ = try decoder.decodeFrame(zstdFrame(body: unfinished, payload: Self.payload))
            }
            let trailing = handZstd(blocks: [(0, true, Self.payload, 0)]) + [0x00]
            expectError(.frameZstd) { () throws(IMCodecError) in
                _ = try decoder.decodeFrame(zstdFrame(body: trailing, payload: Self.payload))
            }
            // Block type 3 is reserved.
            let reserved = handZstd(blocks: [(3, true, Self.payload, 0)])
            expectError(.frameZstd) { () throws(IMCodecError) in
                _ = try decoder.decodeFrame(zstdFrame(body: reserved, payload: Self.payload))
            }
        }

        @Test func writesMagiclessFramesWithoutOptionalFieldsAndReadsThemBack() throws {
            let message = Message(
                msgID: "144115233834113432-1700000000-7791", sender: "user_31337", groupID: "@TGS#2FHJB3AQ7",
                elems: [.text(String(repeating: "今天下午三点开会，记得带电脑 👍 ", count: 8))])
            for dictionary in [nil] + PresetDictionary.known {
                for level in [1, 3, 19] {
                    let encoder = FrameEncoder(policy: .zstd(level: level, dictionary: dictionary))
                    let frame = try encoder.encode(message)
                    let header = try #require(try FrameHeader.peek(frame))
                    #expect(header.compression == .zstd)
                    #expect(header.dictionaryID == dictionary?.id)
                    // The frame header descriptor: no content size, not single
                    // segment, no checksum, no dictionary id.
                    #expect(frame[header.encodedLength] & 0b1110_0111 == 0)
                    #expect(try decoder.decode(Message.self, from: frame) == message)
                }
            }
        }

        @Test func aWrongDictionaryIsAnErrorNeverAnotherMessage() throws {
            let message = Message(msgID: "m1", sender: "alice", elems: [.text("see you at the usual place")])
            var frame = try FrameEncoder(policy: .zstd(dictionary: .zstdMessages)).encode(message)
            let header = try #require(try FrameHeader.peek(frame))
            // Name dictionary 3 instead of 4; the checksum covers the id, so
            // recompute it over the payload to isolate the dictionary.
            let payload = message.serializedBytes()
            frame[2] = 3
            let crc = referenceCRC32(Array(frame[0..<(header.encodedLength - 4)]) + payload)
            for index in 0..<4 {
                frame[header.encodedLength - 4 + index] = UInt8(truncatingIfNeeded: crc >> (8 * index))
            }
            do {
                _ = try decoder.decodeFrame(frame)
                Issue.record("a frame decoded with the wrong dictionary")
            } catch {
                #expect([.frameZstd, .framePayloadLength, .frameChecksum].contains(error.code))
            }
        }

        @Test func storesWhatZstdCannotShrink() throws {
            var random = SystemRandomNumberGenerator()
            let noise = (0..<600).map { _ in UInt8.random(in: 0...255, using: &random) }
            let frame = try FrameEncoder(policy: .zstd()).encodeFrame(payload: noise, kind: .message)
            #expect(try FrameHeader.peek(frame)?.compression == FrameCompression.none)
        }
    }
#endif
