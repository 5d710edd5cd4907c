import CZlib

/// A zlib raw-inflate decompressor whose stream is reused across frames.
///
/// The `z_stream` lives at a fixed heap address for the object's lifetime
/// (zlib keeps a pointer back to it), is reset between frames with
/// `inflateReset`, and is freed in `deinit`. One instance belongs to one
/// ``FrameDecoder`` and is not shared between threads.
final class Inflater {
    private let stream: UnsafeMutablePointer<z_stream>

    /// Creates a decompressor.
    init() {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = imcodec_inflateInit2(stream, -15)
        precondition(status == Z_OK, "inflateInit2 failed with \(status): out of memory")
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Inflates a frame body into a new array of exactly `payloadLength` bytes.
    ///
    /// Memory is bounded by `payloadLength`, which the caller has checked
    /// against the decoding limits: the output is allocated once, never
    /// grown, and inflation stops as soon as it is full. A stream that would
    /// go on past that point is detected by asking zlib for one byte more into
    /// a one-byte scratch buffer, so it is rejected without being inflated.
    ///
    /// - Parameters:
    ///   - body: The raw deflate stream, exactly the frame's body.
    ///   - payloadLength: The payload length the header declares.
    ///   - dictionary: Preset dictionary bytes the writer primed its stream
    ///     with, if any.
    /// - Returns: The inflated payload.
    /// - Throws: `frame.deflate` when the stream is corrupt, ends early, or
    ///   ends before the body does; `frame.payload-length` when it would
    ///   produce more than `payloadLength` bytes or ends having produced fewer.
    func inflate(
        _ body: UnsafeRawBufferPointer,
        payloadLength: Int,
        dictionary: [UInt8]?
    ) throws(IMCodecError) -> [UInt8] {
        try [UInt8](decompressedCount: payloadLength) { (output) throws(IMCodecError) in
            try inflate(body, into: output, dictionary: dictionary)
        }
    }

    /// Inflates a frame body into `output`, which holds exactly the
    /// declared payload length.
    ///
    /// - Throws: The codes of ``inflate(_:payloadLength:dictionary:)``.
    func inflate(
        _ body: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer,
        dictionary: [UInt8]?
    ) throws(IMCodecError) {
        // Header lengths are varints of at most 2^32 - 1, so these always fit.
        guard let inputCount = UInt32(exactly: body.count), let outputCount = UInt32(exactly: output.count) else {
            throw IMCodecError(.frameDeflate, reason: "body or payload longer than 2^32 - 1 bytes")
        }
        var status = inflateReset(stream)
        precondition(status == Z_OK, "inflateReset failed with \(status)")
        if let dictionary {
            status = dictionary.withUnsafeBytes { raw in
                inflateSetDictionary(stream, raw.baseAddress?.assumingMemoryBound(to: Bytef.self), UInt32(raw.count))
            }
            precondition(status == Z_OK, "inflateSetDictionary failed with \(status)")
        }
        defer {
            stream.pointee.next_in = nil
            stream.pointee.next_out = nil
        }
        // zlib refuses a null next_out even with avail_out 0 (an empty
        // payload), and the overrun probe needs one byte: both use this.
        var scratch: UInt8 = 0
        try withUnsafeMutablePointer(to: &scratch) { (scratchPointer) throws(IMCodecError) in
            stream.pointee.next_in = UnsafeMutablePointer(
                mutating: body.baseAddress?.assumingMemoryBound(to: Bytef.self))
            stream.pointee.avail_in = inputCount
            stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self) ?? scratchPointer
            stream.pointee.avail_out = outputCount

            while stream.pointee.avail_out > 0 {
                let status = CZlib.inflate(stream, Z_NO_FLUSH)
                switch status {
                case Z_STREAM_END:
                    try checkEnd(producedAll: stream.pointee.avail_out == 0)
                    return
                case Z_OK, Z_BUF_ERROR:
                    // zlib returns when the input is used up or the output is
                    // full; with room left that means the stream ended early.
                    if stream.pointee.avail_out > 0 && (stream.pointee.avail_in == 0 || status == Z_BUF_ERROR) {
                        throw IMCodecError(.frameDeflate, reason: "deflate stream ends before its end-of-stream block")
                    }
                default:
                    throw Self.streamError(status)
                }
            }

            // The payload is complete; the stream must end here, with no more output.
            stream.pointee.next_out = scratchPointer
            stream.pointee.avail_out = 1
            let status = CZlib.inflate(stream, Z_NO_FLUSH)
            if stream.pointee.avail_out == 0 {
                throw IMCodecError(
                    .framePayloadLength,
                    reason: "deflate stream inflates to more than the declared \(output.count) bytes")
            }
            switch status {
            case Z_STREAM_END:
                try checkEnd(producedAll: true)
            case Z_OK, Z_BUF_ERROR:
                throw IMCodecError(.frameDeflate, reason: "deflate stream ends before its end-of-stream block")
            default:
                throw Self.streamError(status)
            }
        }
    }

    /// Checks a stream that reached its end-of-stream block.
    private func checkEnd(producedAll: Bool) throws(IMCodecError) {
        if stream.pointee.avail_in != 0 {
            throw IMCodecError(
                .frameDeflate,
                reason: "deflate stream ends \(stream.pointee.avail_in) bytes before the end of the body")
        }
        if !producedAll {
            throw IMCodecError(
                .framePayloadLength,
                reason: "deflate stream inflates to \(stream.pointee.total_out) bytes, fewer than declared")
        }
    }

    private static func streamError(_ status: Int32) -> IMCodecError {
        switch status {
        case Z_DATA_ERROR, Z_NEED_DICT:
            return IMCodecError(.frameDeflate, reason: "corrupt deflate stream (zlib status \(status))")
        default:
            // Z_STREAM_ERROR is a misuse of the stream and Z_MEM_ERROR the
            // machine running out of memory: neither depends on the input.
            preconditionFailure("inflate failed with \(status)")
        }
    }
}
