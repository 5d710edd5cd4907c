/// Sizes of protobuf wire encodings, shared by the generated size functions.
@usableFromInline package enum WireFormat {
    /// The number of bytes of `value` as a varint (1 to 10).
    @inlinable @inline(__always)
    package static func varintSize(_ value: UInt64) -> Int {
        // One byte per started group of 7 significant bits; 0 takes one byte.
        let bits = 64 &- (value | 1).leadingZeroBitCount
        return (bits &+ 6) / 7
    }

    /// The number of bytes of a length prefix plus the `count` bytes it covers.
    @inlinable @inline(__always)
    package static func lengthDelimitedSize(_ count: Int) -> Int {
        varintSize(UInt64(truncatingIfNeeded: count)) &+ count
    }

    /// The number of bytes of an `int32` as a varint: negative values take 10.
    @inlinable @inline(__always)
    package static func int32Size(_ value: Int32) -> Int {
        varintSize(UInt64(bitPattern: Int64(value)))
    }
}
