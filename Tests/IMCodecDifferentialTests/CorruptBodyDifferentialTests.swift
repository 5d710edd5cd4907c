#if Zstd
    import CZstd
    import IMCodec
    import IMCodecConformance
    import IMCodecTestSupport
    import IMCodecTestee
    import Testing

    /// A corrupt compressed body gets the same code whatever room a reader
    /// gives its decompressor (`docs/spec/frame-format.md`, "Compression" and
    /// "zstd bodies"): the Swift library and the C reference decode into
    /// exactly the payload length, the Python testee's `zstandard` has no bound
    /// on its output, and all three must answer every byte-flipped frame alike.
    @Suite struct CorruptBodyDifferentialTests {
        /// What one reader made of a frame: a code, or `valid`.
        typealias Answer = String

        @Test func readersWithAnyRoomGiveTheSameCodeOnEveryByteFlippedBody() throws {
            let python = ProcessTestee(command: "'\(repositoryRoot)/testees/python/testee'")
            defer { _ = python.finish() }
            var compared = 0
            var codes: [Answer: Int] = [:]
            var differences: [String] = []
            // Frames where a reader with exactly the payload length hears
            // "destination too small" from libzstd and one with room to spare
            // "corruption": the readings the rule keeps apart.
            var roomDependent = 0
            // Frames whose zstd body the system's libzstd accepts and
            // zstandard's newer bundled libzstd refuses (frame-format.md,
            // "What zstd itself decides"): counted, not compared.
            var releaseDifferences = 0
            for (name, frame) in try Self.frames() {
                let header = try FrameDecoder().decodeFrame(frame).header
                let dictionary = header.dictionaryID.flatMap { PresetDictionary(id: $0) }
                for (position, mask) in Self.flips(bodyLength: header.bodyLength) {
                    var flipped = frame
                    flipped[header.encodedLength + position] ^= mask
                    let body = Array(flipped[header.encodedLength...])
                    let swift = Self.swiftAnswer(flipped)
                    let c = Self.cAnswer(flipped)
                    let fromPython = try Self.pythonAnswer(flipped, python)
                    codes[swift, default: 0] += 1
                    compared += 1
                    let place = "\(name), body byte \(position) ^ \(mask)"
                    if swift != c { differences.append("\(place): Swift \(swift), C \(c)") }
                    guard header.compression == .zstd else {
                        if fromPython != swift { differences.append("\(place): Swift \(swift), Python \(fromPython)") }
                        continue
                    }
                    let spare = Self.zstdVerdict(body, dictionary, room: header.payloadLength + (1 << 20))
                    // Only where the zstd header passes step 1 do the blocks,
                    // and so the room, decide the answer.
                    if Self.zstdHeaderPasses(body, dictionary, payloadLength: header.payloadLength)
                        && Self.zstdVerdict(body, dictionary, room: header.payloadLength, stable: true) == .outOfRoom
                        && spare == .corrupt
                    {
                        roomDependent += 1
                        if swift != "frame.zstd" || fromPython != "frame.zstd" {
                            differences.append(
                                "\(place): a corrupt block past the payload: Swift \(swift), Python \(fromPython)")
                        }
                    }
                    if fromPython != swift {
                        if fromPython == "frame.zstd" && spare == .decodes {
                            releaseDifferences += 1
                        } else {
                            differences.append("\(place): Swift \(swift), Python \(fromPython)")
                        }
                    }
                }
            }
            #expect(differences.isEmpty, "\(differences.count) differences: \(differences.prefix(5))")
            #expect(compared > 5_000)
            #expect(roomDependent >= 20, "only \(roomDependent) frames where the room decides libzstd's answer")
            #expect((codes["frame.zstd"] ?? 0) > 0 && (codes["frame.payload-length"] ?? 0) > 0)
            #expect((codes["frame.deflate"] ?? 0) > 0 && (codes["frame.checksum"] ?? 0) > 0)
            #expect(releaseDifferences * 20 < compared, "\(releaseDifferences) release differences")
            print(
                "corrupt bodies: \(compared) byte-flipped frames, the same code from Swift, C and Python on each "
                    + "(\(codes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))); "
                    + "\(roomDependent) where libzstd's answer depends on the room it is given; "
                    + "\(releaseDifferences) zstd bodies libzstd \(String(cString: ZSTD_versionString())) accepts "
                    + "and zstandard's refuses, not compared")
        }

        /// Frames of messages of several sizes: zstd without a dictionary,
        /// with a zstd dictionary and with a raw one, at two levels; deflate
        /// without and with a dictionary.
        static func frames() throws -> [(String, [UInt8])] {
            let texts = [
                "Lunch at 12:30? The usual place. Lunch at 12:30? The usual place, the usual table.",
                String(repeating: "See you at the corner, the one with the noodles. ", count: 6),
                (0..<40).map { "line \($0): review at \($0 % 24):\($0 % 60)" }.joined(separator: " "),
            ]
            let policies: [(String, CompressionPolicy)] = [
                ("zstd", .zstd(level: 3, dictionary: nil)),
                ("zstd level 19", .zstd(level: 19, dictionary: nil)),
                ("zstd dictionary 4", .zstd(level: 3, dictionary: .zstdMessages)),
                ("zstd dictionary 1", .zstd(level: 3, dictionary: .imMessages)),
                ("deflate", CompressionPolicy(threshold: 0, level: 6, dictionary: nil)),
                ("deflate dictionary 2", CompressionPolicy(threshold: 0, level: 6, dictionary: .imMessages2)),
            ]
            var frames: [(String, [UInt8])] = []
            for (index, text) in texts.enumerated() {
                let message = Message(from: "alice", to: "bob", elems: [.text(text)], msgID: "m\(index)")
                for (name, policy) in policies {
                    let frame = try FrameEncoder(policy: policy).encode(.message(message))
                    let compressed = try FrameDecoder().decodeFrame(frame).header.compression != .none
                    #expect(compressed, "\(name) stored message \(index)")
                    frames.append(("message \(index), \(name)", frame))
                }
            }
            return frames
        }

        /// Every body byte with four masks: its lowest and highest bit, all
        /// its bits, and one more that varies with the position.
        static func flips(bodyLength: Int) -> [(Int, UInt8)] {
            (0..<bodyLength).flatMap { position in
                [0x01, 0x80, 0xFF, UInt8(truncatingIfNeeded: 0x35 &* (position + 1)) | 0x02].map { (position, $0) }
            }
        }

        static func swiftAnswer(_ frame: [UInt8]) -> Answer {
            do {
                _ = try FrameDecoder().decode(frame)
                return "valid"
            } catch {
                return error.code.rawValue
            }
        }

        static func cAnswer(_ frame: [UInt8]) -> Answer {
            switch ReferenceC.decodeFrame(frame) {
            case .bytes: "valid"
            case .failure(let code, _): code
            case .unsupported: "unsupported"
            }
        }

        static func pythonAnswer(_ frame: [UInt8], _ testee: ProcessTestee) throws -> Answer {
            var request = TesteeRequest()
            request.caseID = "corrupt-body"
            var operation = TesteeDecodeFrameRequest()
            operation.frame = frame
            request.operation = .decodeFrame(operation)
            guard case .response(let response) = testee.respond(to: request, deadline: nil) else {
                throw TesteeGone()
            }
            switch response.result {
            case .frame: return "valid"
            case .failure(let failure): return failure.code
            default: return "other: \(String(describing: response.result))"
            }
        }

        struct TesteeGone: Error {}

        enum Verdict { case decodes, corrupt, outOfRoom, unfinished }

        /// Whether a zstd body's frame header passes step 1 of "zstd bodies"
        /// (whole, a window of at most 8 MiB, no dictionary id but the named
        /// dictionary's, no content size but the payload length), read here
        /// from the header's fields rather than from either reader's answer.
        static func zstdHeaderPasses(_ body: [UInt8], _ dictionary: PresetDictionary?, payloadLength: Int) -> Bool {
            var header = ZSTD_frameHeader()
            let status = body.withUnsafeBytes {
                ZSTD_getFrameHeader_advanced(&header, $0.baseAddress, $0.count, ZSTD_f_zstd1_magicless)
            }
            guard status == 0 else { return false }
            // A ZDICT dictionary's id: the 4 bytes after its magic, little-endian.
            var dictionaryID: UInt32 = 0
            if let bytes = dictionary?.bytes, bytes.starts(with: [0x37, 0xA4, 0x30, 0xEC]) {
                dictionaryID = (4..<8).reduce(0) { $0 | UInt32(bytes[$1]) << (8 * UInt32($1 - 4)) }
            }
            return header.windowSize <= 1 << 23
                && (header.dictID == 0 || header.dictID == dictionaryID)
                && (header.frameContentSize == UInt64.max || header.frameContentSize == UInt64(payloadLength))
        }

        /// What the system's libzstd says of a zstd body with `room` bytes of
        /// output: into a stable buffer of exactly that size, as the readers
        /// here decode, or through its own window buffer.
        static func zstdVerdict(
            _ body: [UInt8], _ dictionary: PresetDictionary?, room: Int, stable: Bool = false
        ) -> Verdict {
            guard let context = ZSTD_createDCtx() else { return .unfinished }
            defer { ZSTD_freeDCtx(context) }
            _ = ZSTD_DCtx_setParameter(context, imcodec_zstd_d_format(), Int32(ZSTD_f_zstd1_magicless.rawValue))
            if stable { _ = ZSTD_DCtx_setParameter(context, imcodec_zstd_d_stable_out_buffer(), 1) }
            if let dictionary {
                _ = dictionary.bytes.withUnsafeBytes { ZSTD_DCtx_loadDictionary(context, $0.baseAddress, $0.count) }
            }
            var output = [UInt8](repeating: 0, count: max(room, 1))
            return body.withUnsafeBytes { input in
                output.withUnsafeMutableBytes { out in
                    var inBuffer = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
                    var outBuffer = ZSTD_outBuffer(dst: out.baseAddress, size: room, pos: 0)
                    while true {
                        let before = (inBuffer.pos, outBuffer.pos)
                        let status = ZSTD_decompressStream(context, &outBuffer, &inBuffer)
                        if imcodec_zstd_is_dst_too_small(status) != 0 { return .outOfRoom }
                        if ZSTD_isError(status) != 0 { return .corrupt }
                        if status == 0 { return .decodes }
                        if before == (inBuffer.pos, outBuffer.pos) { return .unfinished }
                    }
                }
            }
        }
    }
#endif
