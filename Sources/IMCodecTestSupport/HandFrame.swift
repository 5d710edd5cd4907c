// Frames written byte by byte from the frame format document, for tests
// that must not build their expectations with the code under test.

/// CRC-32 (IEEE, reflected, as zlib's `crc32`) computed bit by bit, so the
/// tests do not check zlib's checksum against itself.
///
/// - Parameter bytes: The bytes to checksum.
/// - Returns: Their CRC-32.
public func referenceCRC32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
    }
    return ~crc
}

/// The minimal LEB128 bytes of `value`.
///
/// - Parameter value: The number.
/// - Returns: Its varint bytes, least significant group first.
public func varintBytes(_ value: UInt64) -> [UInt8] {
    var rest = value
    var bytes: [UInt8] = []
    while rest >= 0x80 {
        bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
        rest >>= 7
    }
    bytes.append(UInt8(rest))
    return bytes
}

/// Builds a frame byte by byte, as the format document lays it out, with a
/// correct checksum unless one is given.
///
/// - Parameters:
///   - version: The version byte.
///   - flags: The flags byte.
///   - fields: The header bytes between the flags and the checksum.
///   - payload: What the checksum covers after the header.
///   - body: The body; the payload when omitted.
///   - checksum: The checksum to write instead of the correct one.
/// - Returns: The frame's bytes.
public func handFrame(
    version: UInt8 = 1, flags: UInt8, fields: [UInt8], payload: [UInt8], body: [UInt8]? = nil,
    checksum: UInt32? = nil
) -> [UInt8] {
    let prefix = [version, flags] + fields
    let crc = checksum ?? referenceCRC32(prefix + payload)
    return prefix + [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: crc >> UInt32($0)) } + (body ?? payload)
}
