import CZlib

/// A running CRC-32 (the IEEE polynomial of zlib's `crc32`), the frame checksum.
///
/// Frames checksum the header bytes before the checksum field followed by the
/// payload; feeding both pieces through one value avoids joining them.
struct CRC32 {
    /// The checksum of everything fed so far.
    private(set) var value: UInt32 = 0

    /// Adds `bytes` to the checksum.
    ///
    /// - Parameter bytes: The next bytes of the checksummed sequence.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        // crc32_z takes a size_t length, so payloads above 4 GiB would not be cut.
        value = UInt32(truncatingIfNeeded: crc32_z(UInt(value), base.assumingMemoryBound(to: Bytef.self), bytes.count))
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
