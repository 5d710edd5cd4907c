import CZlib

/// zlib's raw deflate (no zlib or gzip wrapper, as frame bodies are) and its
/// CRC-32, for mutators that rebuild frames.
///
/// These are zlib itself, not the library's ``IMCodec`` code paths, so a
/// mutator built on them cannot share a bug with the decoder under test.
public enum RawDeflate {
    /// The largest payload a repair inflates; a body that inflates to more is
    /// left as it is (the decoder still sees it, just never with a good
    /// checksum).
    public static let maxInflatedBytes = 1 << 20

    /// Inflates the raw deflate stream at the start of `body`.
    ///
    /// - Parameters:
    ///   - body: A frame body: a raw deflate stream, possibly followed by
    ///     bytes it does not use.
    ///   - dictionary: The preset dictionary to prime the stream with.
    ///   - limit: The most output accepted.
    /// - Returns: The inflated bytes and the number of body bytes the stream
    ///   used, or `nil` when the stream is corrupt, never ends within `body`,
    ///   or would produce more than `limit` bytes.
    public static func inflate(
        _ body: ArraySlice<UInt8>,
        dictionary: [UInt8]?,
        limit: Int = maxInflatedBytes
    ) -> (payload: [UInt8], consumed: Int)? {
        // An empty body holds no end-of-stream block.
        guard !body.isEmpty, let inputCount = UInt32(exactly: body.count) else { return nil }
        var stream = z_stream()
        guard imcodec_inflateInit2(&stream, -15) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        if let dictionary {
            let status = dictionary.withUnsafeBytes { raw in
                inflateSetDictionary(&stream, raw.baseAddress?.assumingMemoryBound(to: Bytef.self), UInt32(raw.count))
            }
            guard status == Z_OK else { return nil }
        }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        return body.withUnsafeBytes { input -> (payload: [UInt8], consumed: Int)? in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
            stream.avail_in = inputCount
            while true {
                let (status, produced) = chunk.withUnsafeMutableBytes { out -> (Int32, Int) in
                    stream.next_out = out.baseAddress?.assumingMemoryBound(to: Bytef.self)
                    stream.avail_out = UInt32(out.count)
                    let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return (status, out.count - Int(stream.avail_out))
                }
                guard output.count + produced <= limit else { return nil }
                output.append(contentsOf: chunk[0..<produced])
                switch status {
                case Z_STREAM_END:
                    return (output, body.count - Int(stream.avail_in))
                case Z_OK where produced > 0 || stream.avail_in > 0:
                    continue
                default:
                    return nil
                }
            }
        }
    }

    /// Deflates `payload` into a raw deflate stream.
    ///
    /// - Parameters:
    ///   - payload: The bytes to compress.
    ///   - dictionary: The preset dictionary to prime the stream with.
    ///   - level: The zlib level, 0...9.
    /// - Returns: The raw deflate stream.
    public static func deflate(_ payload: [UInt8], dictionary: [UInt8]?, level: Int32) -> [UInt8] {
        var stream = z_stream()
        let status = imcodec_deflateInit2(&stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY)
        precondition(status == Z_OK, "deflateInit2 failed with \(status)")
        defer { deflateEnd(&stream) }
        if let dictionary {
            let status = dictionary.withUnsafeBytes { raw in
                deflateSetDictionary(&stream, raw.baseAddress?.assumingMemoryBound(to: Bytef.self), UInt32(raw.count))
            }
            precondition(status == Z_OK, "deflateSetDictionary failed with \(status)")
        }
        let bound = Int(deflateBound(&stream, UInt(payload.count)))
        var output = [UInt8](repeating: 0, count: bound)
        var input = payload
        let written = input.withUnsafeMutableBytes { inRaw in
            output.withUnsafeMutableBytes { outRaw -> Int in
                // A null next_in is allowed with nothing to read (an empty payload).
                stream.next_in = inRaw.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.avail_in = UInt32(inRaw.count)
                stream.next_out = outRaw.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = UInt32(outRaw.count)
                let status = CZlib.deflate(&stream, Z_FINISH)
                precondition(status == Z_STREAM_END, "deflate into deflateBound bytes failed with \(status)")
                return outRaw.count - Int(stream.avail_out)
            }
        }
        return Array(output[0..<written])
    }

    /// zlib's CRC-32 of `pieces` in order: the frame checksum.
    ///
    /// - Parameter pieces: The byte ranges to checksum, in order.
    /// - Returns: The CRC-32 of their concatenation.
    public static func crc32(_ pieces: [UInt8]...) -> UInt32 {
        var crc: UInt = 0
        for piece in pieces {
            crc = piece.withUnsafeBytes { raw in
                guard let base = raw.baseAddress, !raw.isEmpty else { return crc }
                return crc32_z(crc, base.assumingMemoryBound(to: Bytef.self), raw.count)
            }
        }
        return UInt32(truncatingIfNeeded: crc)
    }
}
