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
        /// `payloadLength` bytes.
        ///
        /// - Parameters:
        ///   - body: The magicless zstd frame, exactly the frame's body.
        ///   - payloadLength: The payload length the header declares,
        ///     already checked against the limits.
        ///   - dictionary: The dictionary the header names, if any.
        /// - Returns: The payload.
        /// - Throws: `frame.zstd-window` for a window past 8 MiB;
        ///   `frame.payload-length` when the body would produce more than
        ///   `payloadLength` bytes (decoding stops there) or ends having
        ///   produced fewer; `frame.zstd` when it is corrupt, ends before its
        ///   last block, or ends before the body does.
        func decompress(
            _ body: UnsafeRawBufferPointer, payloadLength: Int, dictionary: PresetDictionary?
        ) throws(IMCodecError) -> [UInt8] {
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
                            dictionary: dictionary)
                    }
                }
                try done.get()
                return buffer.withUnsafeBytes { [UInt8](UnsafeRawBufferPointer(rebasing: $0[0..<payloadLength])) }
            }
            return try [UInt8](decompressedCount: payloadLength) { (output) throws(IMCodecError) in
                try decompress(body, into: output, dictionary: dictionary)
            }
        }

        /// Decompresses a frame body into `output`, which holds exactly the
        /// declared payload length.
        ///
        /// - Throws: The codes of ``decompress(_:payloadLength:dictionary:)``.
        func decompress(
            _ body: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, dictionary: PresetDictionary?
        ) throws(IMCodecError) {
            var status = ZSTD_DCtx_reset(context, ZSTD_reset_session_only)
            precondition(ZSTD_isError(status) == 0, "ZSTD_DCtx_reset failed")
            status = ZSTD_DCtx_refDDict(context, dictionary.map(digested))
            precondition(ZSTD_isError(status) == 0, "ZSTD_DCtx_refDDict failed")
            // zstd wants a non-null destination even for an empty payload.
            var scratch: UInt8 = 0
            try withUnsafeMutablePointer(to: &scratch) { (scratchPointer) throws(IMCodecError) in
                var input = ZSTD_inBuffer(src: body.baseAddress, size: body.count, pos: 0)
                var out = ZSTD_outBuffer(
                    dst: output.baseAddress ?? UnsafeMutableRawPointer(scratchPointer), size: output.count, pos: 0)
                while true {
                    let before = (input.pos, out.pos)
                    let remaining = ZSTD_decompressStream(context, &out, &input)
                    if ZSTD_isError(remaining) != 0 { throw Self.streamError(remaining, output.count) }
                    if remaining == 0 {
                        // The frame is complete: it must end with the body
                        // and have filled the payload.
                        guard input.pos == input.size else {
                            throw IMCodecError(
                                .frameZstd,
                                reason: "zstd frame ends \(input.size - input.pos) bytes before the end of the body")
                        }
                        guard out.pos == out.size else {
                            throw IMCodecError(
                                .framePayloadLength,
                                reason: "zstd frame decodes to \(out.pos) bytes, fewer than the declared \(out.size)")
                        }
                        return
                    }
                    if input.pos == input.size || before == (input.pos, out.pos) {
                        throw IMCodecError(.frameZstd, reason: "zstd frame ends before its last block")
                    }
                }
            }
        }

        private static func streamError(_ status: Int, _ payloadLength: Int) -> IMCodecError {
            if imcodec_zstd_is_dst_too_small(status) != 0 {
                return IMCodecError(
                    .framePayloadLength, reason: "zstd frame decodes to more than the declared \(payloadLength) bytes")
            }
            if imcodec_zstd_is_window_too_large(status) != 0 {
                return IMCodecError(
                    .frameZstdWindow, reason: "zstd frame declares a window larger than 2^\(ZstdFormat.maxWindowLog)")
            }
            return IMCodecError(
                .frameZstd, reason: "corrupt zstd frame (\(String(cString: ZSTD_getErrorName(status))))")
        }
    }
#endif
