extension [UInt8] {
    /// Appends the minimal unsigned LEB128 varint of `value`.
    ///
    /// The bytes are written by ``WireWriter/writeVarint(_:)``, the one varint
    /// writer of the package: protobuf fields, frame header lengths and the
    /// test and fuzz generators all write varints through it.
    ///
    /// - Parameter value: The value; 1 to 10 bytes are appended.
    @inlinable
    package mutating func appendVarint(_ value: UInt64) {
        let start = count
        append(contentsOf: repeatElement(0, count: WireFormat.varintSize(value)))
        withUnsafeMutableBytes { bytes in
            var writer = WireWriter(UnsafeMutableRawBufferPointer(rebasing: bytes[start...]))
            writer.writeVarint(value)
            assert(writer.isFull, "a varint of another length than varintSize")
        }
    }
}
