#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The framing of the testee protocol: every request and response is a
/// 4-byte little-endian length followed by that many bytes of the serialized
/// message.
public enum TesteeFraming {
    /// The largest message either side accepts. Vector inputs are far
    /// smaller; a length above this means the stream is out of step.
    public static let maxMessageBytes = 1 << 30

    /// The 4-byte length prefix of a message of `count` bytes.
    public static func prefix(_ count: Int) -> [UInt8] {
        precondition(count <= maxMessageBytes, "a testee message is at most 1 GiB")
        let length = UInt32(count)
        return [UInt8(length & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length >> 16 & 0xFF), UInt8(length >> 24)]
    }

    /// The length a 4-byte prefix announces.
    public static func length(_ prefix: some Collection<UInt8>) -> Int {
        var length = 0
        for (index, byte) in prefix.prefix(4).enumerated() { length |= Int(byte) << (8 * index) }
        return length
    }

    /// Reads exactly `count` bytes from a blocking descriptor.
    ///
    /// - Returns: The bytes; fewer when the input ends first (empty at a
    ///   clean end of input).
    static func readBlocking(_ fd: Int32, count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let result = bytes.withUnsafeMutableBytes { buffer in
                read(fd, buffer.baseAddress! + filled, count - filled)
            }
            if result > 0 {
                filled += result
            } else if result < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        bytes.removeLast(count - filled)
        return bytes
    }

    /// Writes all of `bytes` to a blocking descriptor.
    ///
    /// - Returns: Whether every byte was written.
    static func writeBlocking(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                write(fd, buffer.baseAddress! + written, bytes.count - written)
            }
            if result > 0 {
                written += result
            } else if result < 0 && errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }
}
