import CZlib

#if LibDeflate
    import CLibDeflate
#endif

/// A raw-deflate compressor whose state is reused across frames.
///
/// Without a preset dictionary, and at levels 1 to 9, it uses libdeflate
/// when the package is built with the `LibDeflate` trait: its whole-buffer
/// compressor writes the same format (any inflater reads it) in about a
/// third less time than zlib for the same bytes on IM payloads
/// (`docs/PERFORMANCE-INVESTIGATIONS.md`, "libdeflate"). libdeflate has no preset
/// dictionary, so every dictionary frame, level 0, and builds without the
/// trait use zlib.
///
/// The `z_stream` lives at a fixed heap address for the object's lifetime
/// (zlib keeps a pointer back to it), is reset between frames with
/// `deflateReset` rather than rebuilt, and is freed in `deinit`. One instance
/// belongs to one ``FrameEncoder`` and is not shared between threads.
final class Deflater {
    private let stream: UnsafeMutablePointer<z_stream>
    #if LibDeflate
        /// libdeflate's compressor at the same level, or `nil` at level 0.
        private let whole: OpaquePointer?
    #endif

    /// Creates a compressor.
    ///
    /// - Parameter level: The zlib level, 0...9.
    init(level: Int) {
        precondition((0...9).contains(level), "zlib levels are 0...9")
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // windowBits -15: raw deflate, no zlib or gzip wrapper (the frame has
        // its own checksum). memLevel 8 is zlib's default; the measured ratio
        // is the same at 9, and single messages never fill its buffers.
        let status = imcodec_deflateInit2(stream, Int32(level), Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY)
        precondition(status == Z_OK, "deflateInit2 failed with \(status): out of memory")
        #if LibDeflate
            if level > 0 {
                guard let compressor = libdeflate_alloc_compressor(Int32(level)) else {
                    preconditionFailure("libdeflate_alloc_compressor: out of memory")
                }
                whole = compressor
            } else {
                whole = nil
            }
        #endif
    }

    deinit {
        #if LibDeflate
            if let whole { libdeflate_free_compressor(whole) }
        #endif
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Deflates `input` into `output` if the result fits.
    ///
    /// The frame format keeps a deflated body only when it is smaller than the
    /// payload, so the caller passes an output buffer one byte shorter than
    /// the payload and compression stops as soon as it is full.
    ///
    /// - Parameters:
    ///   - input: The bytes to compress.
    ///   - dictionary: Preset dictionary bytes to prime the stream with, if any.
    ///   - output: Where the raw deflate stream is written.
    /// - Returns: The number of bytes written, or `nil` when the complete
    ///   stream does not fit in `output`.
    func deflate(
        _ input: UnsafeRawBufferPointer,
        dictionary: [UInt8]?,
        into output: UnsafeMutableRawBufferPointer
    ) -> Int? {
        guard let outputBase = output.baseAddress, !output.isEmpty,
            let inputCount = UInt32(exactly: input.count),
            let outputCount = UInt32(exactly: output.count)
        else { return nil }
        #if LibDeflate
            if dictionary == nil, let whole {
                // 0 when the stream does not fit: not smaller.
                let written = libdeflate_deflate_compress(
                    whole, input.baseAddress, input.count, outputBase, output.count)
                return written == 0 ? nil : written
            }
        #endif
        var status = deflateReset(stream)
        precondition(status == Z_OK, "deflateReset failed with \(status)")
        if let dictionary {
            status = dictionary.withUnsafeBytes { raw in
                deflateSetDictionary(stream, raw.baseAddress?.assumingMemoryBound(to: Bytef.self), UInt32(raw.count))
            }
            precondition(status == Z_OK, "deflateSetDictionary failed with \(status)")
        }
        // zlib never writes through next_in; the const is missing from its API.
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = inputCount
        stream.pointee.next_out = outputBase.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = outputCount
        status = CZlib.deflate(stream, Z_FINISH)
        defer {
            stream.pointee.next_in = nil
            stream.pointee.next_out = nil
        }
        switch status {
        case Z_STREAM_END:
            return output.count - Int(stream.pointee.avail_out)
        case Z_OK, Z_BUF_ERROR:
            // The output filled up before the stream ended: not smaller.
            return nil
        default:
            preconditionFailure("deflate failed with \(status)")
        }
    }
}
