extension [UInt8] {
    /// An array of exactly `count` bytes, all of them written by `fill`, or
    /// the error `fill` throws: how a decompressor makes a payload of the
    /// length a frame header declares.
    ///
    /// - Parameters:
    ///   - count: The number of bytes.
    ///   - fill: Writes every byte of the buffer it is given, or throws.
    init(
        decompressedCount count: Int, by fill: (UnsafeMutableRawBufferPointer) throws(IMCodecError) -> Void
    ) throws(IMCodecError) {
        var failure: IMCodecError?
        self.init(unsafeUninitializedCapacity: count) { buffer, initializedCount in
            do throws(IMCodecError) {
                try fill(UnsafeMutableRawBufferPointer(buffer))
                initializedCount = count
            } catch {
                failure = error
                initializedCount = 0
            }
        }
        if let failure { throw failure }
    }
}
