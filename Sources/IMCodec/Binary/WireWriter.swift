/// Appends protobuf wire encodings into memory reserved up front.
///
/// The canonical encoder computes the exact size first, reserves it once and
/// then writes without bounds checks in release builds; debug builds check
/// every write against the reservation.
@usableFromInline package struct WireWriter {
    @usableFromInline var position: UnsafeMutableRawPointer
    @usableFromInline let end: UnsafeMutableRawPointer

    /// Creates a writer over `buffer`, which must be exactly as large as what
    /// will be written.
    @inlinable package init(_ buffer: UnsafeMutableRawBufferPointer) {
        // An empty buffer may have no base address; nothing is written then.
        let base = buffer.baseAddress ?? UnsafeMutableRawPointer(bitPattern: 0x10)!
        position = base
        end = base + buffer.count
    }

    /// Whether every reserved byte has been written.
    @inlinable package var isFull: Bool { position == end }

    /// Writes one byte.
    @inlinable @inline(__always)
    package mutating func writeByte(_ byte: UInt8) {
        assert(position < end, "write past the computed size")
        position.storeBytes(of: byte, as: UInt8.self)
        position += 1
    }

    /// Writes a varint.
    @inlinable @inline(__always)
    package mutating func writeVarint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            writeByte(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        writeByte(UInt8(truncatingIfNeeded: v))
    }

    /// Writes a length or count as a varint.
    @inlinable @inline(__always)
    package mutating func writeLength(_ value: Int) {
        writeVarint(UInt64(truncatingIfNeeded: value))
    }

    /// Writes an `int32` as a varint, sign-extending negatives to 64 bits.
    @inlinable @inline(__always)
    package mutating func writeInt32(_ value: Int32) {
        writeVarint(UInt64(bitPattern: Int64(value)))
    }

    /// Writes 8 bytes little-endian.
    @inlinable @inline(__always)
    package mutating func writeFixed64(_ value: UInt64) {
        assert(end - position >= 8, "write past the computed size")
        position.storeBytes(of: value.littleEndian, as: UInt64.self)
        position += 8
    }

    /// Writes raw bytes.
    @inlinable
    package mutating func writeBytes(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        assert(end - position >= bytes.count, "write past the computed size")
        position.copyMemory(from: base, byteCount: bytes.count)
        position += bytes.count
    }

    /// Writes raw bytes.
    @inlinable
    package mutating func writeBytes(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { writeBytes($0) }
    }

    /// Writes a length-prefixed byte string.
    @inlinable
    package mutating func writeLengthDelimited(_ bytes: [UInt8]) {
        writeLength(bytes.count)
        writeBytes(bytes)
    }

    /// Writes a length-prefixed UTF-8 string.
    @inlinable
    package mutating func writeLengthDelimited(_ string: String) {
        // Native strings are contiguous UTF-8 and are read in place; the
        // fallback only serves strings bridged from another representation.
        let written: Void? = string.utf8.withContiguousStorageIfAvailable { utf8 in
            writeLength(utf8.count)
            writeBytes(UnsafeRawBufferPointer(utf8))
        }
        if written == nil { writeNonContiguous(string) }
    }

    /// Writes a length-prefixed string whose UTF-8 is not stored contiguously.
    @usableFromInline
    mutating func writeNonContiguous(_ string: String) {
        writeLength(string.utf8.count)
        for byte in string.utf8 { writeByte(byte) }
    }
}
