extension String {
    /// The string of `bytes` when they are valid UTF-8; `nil` otherwise.
    ///
    /// What the standard library's `String(validating:as:)` does, which only
    /// the 2024 Apple releases have (README, "Apple platforms"): the bytes are
    /// checked once, by the C check of the binary decoder, and the string is
    /// made as the binary decoder makes its strings, through the path the
    /// running release allows (``PortablePaths``).
    ///
    /// - Parameter bytes: The bytes, UTF-8 or not.
    package init?(validatingUTF8 bytes: some Collection<UInt8>) {
        guard !bytes.isEmpty else {
            self = ""
            return
        }
        let made = bytes.withContiguousStorageIfAvailable { try? WireReader.string(from: $0) }
        guard let string = made ?? Array(bytes).withUnsafeBufferPointer({ try? WireReader.string(from: $0) })
        else { return nil }
        self = string
    }
}
