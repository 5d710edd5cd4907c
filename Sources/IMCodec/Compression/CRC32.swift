import CIMCodecCRC32

/// A running CRC-32 (the IEEE polynomial of zlib's `crc32`), the frame checksum.
///
/// Frames checksum the header bytes before the checksum field followed by the
/// payload; feeding both pieces through one value avoids joining them. The
/// sum is computed by carry-less multiplication where the processor has it:
/// zlib's table-driven `crc32` cost as much as a third of encoding an
/// uncompressed frame.
struct CRC32 {
    /// The checksum of everything fed so far.
    private(set) var value: UInt32 = 0

    /// Adds `bytes` to the checksum.
    ///
    /// - Parameter bytes: The next bytes of the checksummed sequence.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        // The length is a size_t, so payloads above 4 GiB would not be cut.
        value = imcodec_crc32(value, base.assumingMemoryBound(to: UInt8.self), bytes.count)
    }

    /// Returns the checksum of `first` followed by `second`: a frame's header
    /// and its payload.
    ///
    /// - Returns: The CRC-32 of their concatenation.
    static func checksum(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> UInt32 {
        var crc = CRC32()
        crc.update(first)
        crc.update(second)
        return crc.value
    }

    /// Returns the checksum of `pieces` fed in order.
    ///
    /// - Parameter pieces: The byte ranges to checksum, in order.
    /// - Returns: The CRC-32 of their concatenation.
    static func checksum(_ pieces: UnsafeRawBufferPointer...) -> UInt32 {
        var crc = CRC32()
        for piece in pieces { crc.update(piece) }
        return crc.value
    }
}
