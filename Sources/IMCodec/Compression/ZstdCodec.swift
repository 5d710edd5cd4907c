#if Zstd
    import CZstd

    /// The zstd parameters of the frame format (`docs/spec/frame-format.md`,
    /// "zstd bodies"), shared by ``ZstdCompressor`` and ``ZstdDecompressor``.
    enum ZstdFormat {
        /// The largest window a reader accepts: 2^23 bytes (8 MiB). Writers
        /// at levels 1 to 19 never need more (zstd's own tables stop there
        /// below level 20), and the window shrinks to fit small payloads.
        static let maxWindowLog: Int32 = 23
        /// The zstd levels a policy may choose: 1 (fastest) to 19, the
        /// levels whose window stays within ``maxWindowLog``.
        static let levels: ClosedRange<Int> = 1...19
    }

    /// A zstd compressor whose context is reused across frames, with the
    /// dictionary digested once into a `ZSTD_CDict`.
    ///
    /// Frames are magicless (`ZSTD_f_zstd1_magicless`) and carry neither the
    /// content size, nor a checksum, nor the dictionary id: the frame header
    /// holds all three. One instance belongs to one ``FrameEncoder`` and is
    /// not shared between threads.
    final class ZstdCompressor {
        private let context: OpaquePointer
        private let dictionary: OpaquePointer?

        /// Creates a compressor.
        ///
        /// - Parameters:
        ///   - level: The zstd level, within ``ZstdFormat/levels``.
        ///   - dictionary: The dictionary bytes to digest, if any: a zstd
        ///     dictionary (ZDICT's format) or raw content.
        init(level: Int, dictionary: [UInt8]?) {
            precondition(ZstdFormat.levels.contains(level), "zstd levels are 1...19")
            guard let context = ZSTD_createCCtx() else { preconditionFailure("ZSTD_createCCtx: out of memory") }
            self.context = context
            Self.set(context, ZSTD_c_compressionLevel, Int32(level))
            Self.set(context, imcodec_zstd_c_format(), Int32(ZSTD_f_zstd1_magicless.rawValue))
            Self.set(context, ZSTD_c_contentSizeFlag, 0)
            Self.set(context, ZSTD_c_checksumFlag, 0)
            Self.set(context, ZSTD_c_dictIDFlag, 0)
            if let dictionary {
                let digested = dictionary.withUnsafeBytes { raw in
                    ZSTD_createCDict(raw.baseAddress, raw.count, Int32(level))
                }
                guard let digested else { preconditionFailure("ZSTD_createCDict: out of memory or bad dictionary") }
                self.dictionary = digested
                let status = ZSTD_CCtx_refCDict(context, digested)
                precondition(ZSTD_isError(status) == 0, "ZSTD_CCtx_refCDict failed")
            } else {
                self.dictionary = nil
            }
        }

        deinit {
            ZSTD_freeCCtx(context)
            if let dictionary { ZSTD_freeCDict(dictionary) }
        }

        private static func set(_ context: OpaquePointer, _ parameter: ZSTD_cParameter, _ value: Int32) {
            let status = ZSTD_CCtx_setParameter(context, parameter, value)
            precondition(ZSTD_isError(status) == 0, "ZSTD_CCtx_setParameter(\(parameter)) failed")
        }

        /// Compresses `input` into `output` if the result fits.
        ///
        /// - Parameters:
        ///   - input: The payload.
        ///   - output: Where the zstd frame is written; one byte shorter than
        ///     the payload, since only a smaller body is kept.
        /// - Returns: The number of bytes written, or `nil` when the frame
        ///   does not fit in `output`.
        func compress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Int? {
            guard let outputBase = output.baseAddress, !output.isEmpty else { return nil }
            let written = ZSTD_compress2(context, outputBase, output.count, input.baseAddress, input.count)
            if ZSTD_isError(written) != 0 {
                // The only failure that depends on the input: no room.
                precondition(
                    imcodec_zstd_is_dst_too_small(written) != 0,
                    "ZSTD_compress2 failed: \(String(cString: ZSTD_getErrorName(written)))")
                return nil
            }
            return written
        }
    }

    /// A zstd decompressor whose context is reused across frames, with each
    /// dictionary digested once into a `ZSTD_DDict`.
    ///
    /// It decodes straight into a buffer of the declared payload length
    /// (`ZSTD_d_stableOutBuffer`), so it allocates no window of its own:
    /// memory is bounded by the payload length, which the header check
    /// bounded by the limits, whatever window the body declares. Windows past
    /// ``ZstdFormat/maxWindowLog`` are refused all the same, so that a frame a
    /// reader here accepts is one a streaming reader elsewhere can decode in
    /// bounded memory.
    final class ZstdDecompressor {
        private let context: OpaquePointer
        private var dictionaries: [UInt32: OpaquePointer] = [:]
        /// Where payloads of up to ``scratchLimit`` bytes are decompressed
        /// before they are copied into an array of their own.
        private var scratch: [UInt8] = []
        /// The largest payload decompressed through ``scratch``, which keeps
        /// the memory the decompressor holds between frames small.
        private static let scratchLimit = 64 * 1_024

        /// Creates a decompressor.
        init() {
            guard let context = ZSTD_createDCtx() else { preconditionFailure("ZSTD_createDCtx: out of memory") }
            self.context = context
            Self.set(context, imcodec_zstd_d_format(), Int32(ZSTD_f_zstd1_magicless.rawValue))
            Self.set(context, ZSTD_d_windowLogMax, ZstdFormat.maxWindowLog)
            Self.set(context, imcodec_zstd_d_stable_out_buffer(), 1)
        }

        deinit {
            ZSTD_freeDCtx(context)
            for dictionary in dictionaries.values { ZSTD_freeDDict(dictionary) }
        }

        private static func set(_ context: OpaquePointer, _ parameter: ZSTD_dParameter, _ value: Int32) {
            let status = ZSTD_DCtx_setParameter(context, parameter, value)
            precondition(ZSTD_isError(status) == 0, "ZSTD_DCtx_setParameter(\(parameter)) failed")
        }

        private func digested(_ dictionary: PresetDictionary) -> OpaquePointer {
            if let known = dictionaries[dictionary.id] { return known }
            let digested = dictionary.bytes.withUnsafeBytes { raw in ZSTD_createDDict(raw.baseAddress, raw.count) }
            guard let digested else { preconditionFailure("ZSTD_createDDict: out of memory or bad dictionary") }
            dictionaries[dictionary.id] = digested
            return digested
        }

        /// Decompresses a frame body into a new array of exactly
        /// `payloadLength` bytes, judging it as `docs/spec/frame-format.md`
        /// ("zstd bodies") says: the zstd frame header first, then the blocks
        /// in order, a compressed block judged whole whatever room is left.
        ///
        /// - Parameters:
        ///   - body: The magicless zstd frame, exactly the frame's body.
        ///   - payloadLength: The payload length the header declares,
        ///     already checked against the limits.
        ///   - dictionary: The dictionary the header names, if any.
        /// - Returns: The payload.
        /// - Throws: `frame.zstd-window` for a window past 8 MiB;
        ///   `frame.payload-length` for a content size other than
        ///   `payloadLength`, a sound block that takes the output past it
        ///   (decoding stops there), or a frame that ends having produced
        ///   fewer; `frame.zstd` when the frame is corrupt (a corrupt
        ///   compressed block whatever it would have written), ends before its
        ///   last block, or ends before the body does.
        func decompress(
            _ body: UnsafeRawBufferPointer, payloadLength: Int, dictionary: PresetDictionary?
        ) throws(IMCodecError) -> [UInt8] {
            let digestedDictionary = dictionary.map(digested)
            let header = try Self.frameHeader(body, payloadLength: payloadLength, dictionary: digestedDictionary)
            if payloadLength <= Self.scratchLimit {
                // Decompressed into the scratch and copied out: an array made
                // from a buffer is allocated by the standard library's own
                // specialised code, while `[UInt8](unsafeUninitializedCapacity:)`,
                // inlined here, looks up the array storage's metadata in the
                // runtime's locked cache on every call (about 370
                // instructions, more than copying a typical payload).
                if scratch.count < payloadLength {
                    let grown = Swift.min(Swift.max(payloadLength, 2 * scratch.count), Self.scratchLimit)
                    scratch = [UInt8](repeating: 0, count: grown)
                }
                // Moved out while zstd writes into it, so that no access to
                // the property stays open across the call.
                var buffer = scratch
                scratch = []
                defer { scratch = buffer }
                let done = buffer.withUnsafeMutableBytes { raw in
                    Result { () throws(IMCodecError) in
                        try decompress(
                            body, into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<payloadLength]),
                            dictionary: digestedDictionary, header: header)
                    }
                }
                try done.get()
                return buffer.withUnsafeBytes { [UInt8](UnsafeRawBufferPointer(rebasing: $0[0..<payloadLength])) }
            }
            return try [UInt8](decompressedCount: payloadLength) { (output) throws(IMCodecError) in
                try decompress(body, into: output, dictionary: digestedDictionary, header: header)
            }
        }

        /// Decompresses a frame body into `output`, which holds exactly the
        /// declared payload length, judged as
        /// ``decompress(_:payloadLength:dictionary:)`` judges it.
        ///
        /// - Throws: The codes of ``decompress(_:payloadLength:dictionary:)``.
        func decompress(
            _ body: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, dictionary: PresetDictionary?
        ) throws(IMCodecError) {
            let digestedDictionary = dictionary.map(digested)
            let header = try Self.frameHeader(body, payloadLength: output.count, dictionary: digestedDictionary)
            try decompress(body, into: output, dictionary: digestedDictionary, header: header)
        }

        /// Step 1, the zstd frame header, judged whole before any block:
        /// input that ends inside it or a reserved bit (`frame.zstd`), the
        /// window (`frame.zstd-window`; a single-segment frame's window is its
        /// content size), a dictionary id other than the named dictionary's
        /// (`frame.zstd`), a content size other than the payload length
        /// (`frame.payload-length`).
        private static func frameHeader(
            _ body: UnsafeRawBufferPointer, payloadLength: Int, dictionary: OpaquePointer?
        ) throws(IMCodecError) -> ZSTD_frameHeader {
            var header = ZSTD_frameHeader()
            let status = ZSTD_getFrameHeader_advanced(&header, body.baseAddress, body.count, ZSTD_f_zstd1_magicless)
            let windowTooLarge = IMCodecError(
                .frameZstdWindow, reason: "zstd frame declares a window larger than 2^\(ZstdFormat.maxWindowLog)")
            if imcodec_zstd_is_window_too_large(status) != 0 { throw windowTooLarge }
            if ZSTD_isError(status) != 0 { throw streamError(status) }
            guard status == 0 else {
                throw IMCodecError(.frameZstd, reason: "the body ends inside the zstd frame header")
            }
            if header.windowSize > 1 << ZstdFormat.maxWindowLog { throw windowTooLarge }
            let expectedID = dictionary.map { ZSTD_getDictID_fromDDict($0) } ?? 0
            if header.dictID != 0 && header.dictID != expectedID {
                throw IMCodecError(.frameZstd, reason: "zstd frame names dictionary id \(header.dictID)")
            }
            if header.frameContentSize != Self.unknownContentSize && header.frameContentSize != UInt64(payloadLength) {
                throw IMCodecError(
                    .framePayloadLength,
                    reason: "zstd frame's content size is \(header.frameContentSize), not the declared \(payloadLength)"
                )
            }
            return header
        }

        /// `ZSTD_CONTENTSIZE_UNKNOWN`, a macro Swift cannot import.
        private static let unknownContentSize = UInt64.max

        private func decompress(
            _ body: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, dictionary: OpaquePointer?,
            header: ZSTD_frameHeader
        ) throws(IMCodecError) {
            // A frame with a content size (writers leave it out) is decoded
            // block by block: given one, libzstd may decode the whole frame
            // in one pass, which skips its block-size checks.
            if header.frameContentSize != Self.unknownContentSize {
                return try decompressByBlock(body, into: output, dictionary: dictionary, header: header)
            }
            // Otherwise in one pass into exactly the payload, which gives the
            // rule's answer unless zstd runs out of room: then whether the
            // block was sound is judged block by block, with room to spare.
            reset(dictionary)
            // zstd wants a non-null destination even for an empty payload.
            var scratch: UInt8 = 0
            let outOfRoom = try withUnsafeMutablePointer(to: &scratch) { (scratchPointer) throws(IMCodecError) in
                var input = ZSTD_inBuffer(src: body.baseAddress, size: body.count, pos: 0)
                var out = ZSTD_outBuffer(
                    dst: output.baseAddress ?? UnsafeMutableRawPointer(scratchPointer), size: output.count, pos: 0)
                while true {
                    let before = (input.pos, out.pos)
                    let remaining = ZSTD_decompressStream(context, &out, &input)
                    if imcodec_zstd_is_dst_too_small(remaining) != 0 { return true }
                    if ZSTD_isError(remaining) != 0 { throw Self.streamError(remaining) }
                    if remaining == 0 {
                        // The frame is complete: it must end with the body
                        // and have filled the payload.
                        try Self.checkEnd(input.size - input.pos, produced: out.pos, payloadLength: out.size)
                        return false
                    }
                    if input.pos == input.size || before == (input.pos, out.pos) {
                        throw IMCodecError(.frameZstd, reason: "zstd frame ends before its last block")
                    }
                }
            }
            if outOfRoom { try decompressByBlock(body, into: output, dictionary: dictionary, header: header) }
        }

        /// After the last block: nothing left in the body (`frame.zstd`),
        /// exactly the payload (`frame.payload-length`).
        private static func checkEnd(_ left: Int, produced: Int, payloadLength: Int) throws(IMCodecError) {
            guard left == 0 else {
                throw IMCodecError(.frameZstd, reason: "zstd frame ends \(left) bytes before the end of the body")
            }
            guard produced == payloadLength else {
                throw IMCodecError(
                    .framePayloadLength,
                    reason: "zstd frame decodes to \(produced) bytes, not the declared \(payloadLength)")
            }
        }

        private func reset(_ dictionary: OpaquePointer?) {
            var status = ZSTD_DCtx_reset(context, ZSTD_reset_session_only)
            precondition(ZSTD_isError(status) == 0, "ZSTD_DCtx_reset failed")
            status = ZSTD_DCtx_refDDict(context, dictionary)
            precondition(ZSTD_isError(status) == 0, "ZSTD_DCtx_refDDict failed")
        }

        /// Steps 2 and 3 block by block, the rule itself: each block's header
        /// is read here and the block given to zstd whole, with room for a
        /// whole block past the payload length, so that whether a compressed
        /// block is corrupt never depends on the room left (`frame.zstd`,
        /// whatever it would have written), and a sound block that goes past
        /// the payload length is `frame.payload-length`. Memory: the payload
        /// length and one block (at most 128 KiB), for a frame already found
        /// broken or one with a content size.
        private func decompressByBlock(
            _ body: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, dictionary: OpaquePointer?,
            header: ZSTD_frameHeader
        ) throws(IMCodecError) {
            let payloadLength = output.count
            let blockMax = Int(header.blockSizeMax)
            let room = UnsafeMutableRawBufferPointer.allocate(byteCount: payloadLength + blockMax + 1, alignment: 1)
            defer { room.deallocate() }
            reset(dictionary)
            var out = ZSTD_outBuffer(dst: room.baseAddress, size: payloadLength + blockMax, pos: 0)
            // The header alone first, so that zstd never decodes in one pass.
            var position = try feed(body, from: 0, to: Int(header.headerSize), &out)
            var last = false
            while !last {
                guard body.count - position >= 3 else {
                    throw IMCodecError(.frameZstd, reason: "the body ends inside a zstd block header")
                }
                let block = Int(body[position]) | Int(body[position + 1]) << 8 | Int(body[position + 2]) << 16
                let type = block >> 1 & 3
                let size = block >> 3
                let stored = type == 1 ? 1 : size
                let available = Swift.min(stored, body.count - position - 3)
                last = block & 1 == 1
                if type == 3 { throw IMCodecError(.frameZstd, reason: "a zstd block of the reserved type 3") }
                if size > blockMax {
                    throw IMCodecError(
                        .frameZstd, reason: "a zstd block of \(size) bytes, past its maximum of \(blockMax)")
                }
                // A raw block is copied as its bytes arrive.
                if type == 0 && out.pos + available > payloadLength { throw Self.tooLong(payloadLength) }
                if available < stored { throw IMCodecError(.frameZstd, reason: "the body ends inside a zstd block") }
                if type == 1 && out.pos + size > payloadLength { throw Self.tooLong(payloadLength) }
                position = try feed(body, from: position, to: position + 3 + stored, &out)
                if out.pos > payloadLength { throw Self.tooLong(payloadLength) }
            }
            if header.checksumFlag != 0 {
                guard body.count - position >= 4 else {
                    throw IMCodecError(.frameZstd, reason: "the body ends inside the zstd content checksum")
                }
                position = try feed(body, from: position, to: position + 4, &out)
            }
            try Self.checkEnd(body.count - position, produced: out.pos, payloadLength: payloadLength)
            output.copyMemory(from: UnsafeRawBufferPointer(rebasing: room[0..<payloadLength]))
        }

        /// Gives `body[start..<end]` to zstd; returns where it stopped (before
        /// `end` only when the zstd frame ended there).
        private func feed(
            _ body: UnsafeRawBufferPointer, from start: Int, to end: Int, _ out: inout ZSTD_outBuffer
        ) throws(IMCodecError) -> Int {
            var input = ZSTD_inBuffer(src: body.baseAddress, size: end, pos: start)
            while input.pos < input.size {
                let before = input.pos
                let status = ZSTD_decompressStream(context, &out, &input)
                if ZSTD_isError(status) != 0 { throw Self.streamError(status) }
                if input.pos == before { break }
            }
            return input.pos
        }

        private static func tooLong(_ payloadLength: Int) -> IMCodecError {
            IMCodecError(
                .framePayloadLength, reason: "zstd frame decodes to more than the declared \(payloadLength) bytes")
        }

        private static func streamError(_ status: Int) -> IMCodecError {
            IMCodecError(.frameZstd, reason: "corrupt zstd frame (\(String(cString: ZSTD_getErrorName(status))))")
        }
    }
#endif
