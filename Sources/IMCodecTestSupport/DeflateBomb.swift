import CZlib

/// Decompression bombs: deflate streams that inflate to far more than they
/// hold, and frames that carry them, for the tests that memory stays bounded
/// by the limits whatever a frame claims.
public enum DeflateBomb {
    /// A raw deflate stream of `mebibytes` MiB of zeros, built from one
    /// compressed MiB repeated: each copy is a self-contained run of blocks
    /// (it starts with a literal and its matches reach back one byte), ends
    /// byte-aligned after `Z_SYNC_FLUSH`'s empty stored block, and the stream
    /// is closed by an empty final fixed block. Deflating a GiB of zeros
    /// itself would take seconds.
    ///
    /// - Parameter mebibytes: How many MiB of zeros the stream inflates to.
    /// - Returns: The compressed MiB and the whole stream.
    public static func zeros(mebibytes: Int) -> (unit: [UInt8], stream: [UInt8]) {
        let unit = syncFlushedZeros(count: 1 << 20)
        var stream: [UInt8] = []
        stream.reserveCapacity(unit.count * mebibytes + 2)
        for _ in 0..<mebibytes { stream += unit }
        stream += [0x03, 0x00]
        return (unit, stream)
    }

    /// A deflate frame with this body and declared payload length.
    ///
    /// - Parameters:
    ///   - body: The frame's deflated body.
    ///   - payloadLength: The payload length its header declares.
    /// - Returns: The frame, with the checksum of an empty payload.
    public static func frame(body: [UInt8], declaring payloadLength: UInt64) -> [UInt8] {
        handFrame(
            flags: 0x05, fields: varintBytes(UInt64(body.count)) + varintBytes(payloadLength), payload: [], body: body)
    }
}

/// Deflates `count` zeros with zlib directly and ends with `Z_SYNC_FLUSH`,
/// leaving the output byte-aligned and the stream open.
private func syncFlushedZeros(count: Int) -> [UInt8] {
    var stream = z_stream()
    precondition(imcodec_deflateInit2(&stream, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) == Z_OK)
    defer { deflateEnd(&stream) }
    var input = [UInt8](repeating: 0, count: count)
    var output = [UInt8](repeating: 0, count: count)
    let written = input.withUnsafeMutableBufferPointer { inputBuffer in
        output.withUnsafeMutableBufferPointer { outputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = UInt32(count)
            stream.next_out = outputBuffer.baseAddress
            stream.avail_out = UInt32(count)
            precondition(deflate(&stream, Z_SYNC_FLUSH) == Z_OK && stream.avail_in == 0)
            return count - Int(stream.avail_out)
        }
    }
    return Array(output[0..<written])
}
