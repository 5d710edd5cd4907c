extension FrameHeader {
    /// The frame check sequence (`docs/spec/frame-format.md`): the CRC-32 of the
    /// header bytes before the checksum followed by the payload, the
    /// decoded bytes whatever the compression.
    ///
    /// Every frame the library writes or reads is checksummed here, so the
    /// encoders and the decoder cannot disagree on what the checksum covers.
    /// (The fuzz mutators keep zlib's `crc32`, independent of this code.)
    ///
    /// - Parameters:
    ///   - prefix: The header bytes before the checksum.
    ///   - payload: The payload.
    /// - Returns: The checksum.
    static func checksum(prefix: UnsafeRawBufferPointer, payload: UnsafeRawBufferPointer) -> UInt32 {
        CRC32.checksum(prefix, payload)
    }

    /// Check 6 of the frame format: the stored checksum against the one of
    /// the frame's header prefix and payload.
    ///
    /// - Parameters:
    ///   - prefix: The header bytes before the checksum.
    ///   - payload: The payload: the body of a stored frame, the inflated
    ///     body of a compressed one.
    /// - Throws: `frame.checksum` when they differ.
    func verifyChecksum(prefix: UnsafeRawBufferPointer, payload: UnsafeRawBufferPointer) throws(IMCodecError) {
        let computed = Self.checksum(prefix: prefix, payload: payload)
        guard computed == checksum else {
            throw IMCodecError(
                .frameChecksum,
                reason: "checksum mismatch: stored \(Self.hex(checksum)), computed \(Self.hex(computed))")
        }
    }

    /// Check 6 of the frame format for a payload held in an array.
    ///
    /// - Throws: `frame.checksum`, as ``verifyChecksum(prefix:payload:)-(_,UnsafeRawBufferPointer)``.
    func verifyChecksum(prefix: UnsafeRawBufferPointer, payload: [UInt8]) throws(IMCodecError) {
        try payload.withUnsafeBytes { raw in
            Result { () throws(IMCodecError) in try verifyChecksum(prefix: prefix, payload: raw) }
        }.get()
    }

    /// Fills in the checksum field of a frame whose header bytes before the
    /// checksum are already in place.
    ///
    /// - Parameters:
    ///   - frame: Starts with the header prefix, then 4 bytes for the
    ///     checksum.
    ///   - prefixLength: The length of the header prefix.
    ///   - payload: The payload the frame carries.
    static func writeChecksum(
        into frame: UnsafeMutableRawBufferPointer, prefixLength: Int, payload: UnsafeRawBufferPointer
    ) {
        precondition(frame.count >= prefixLength + 4, "no room for the checksum")
        let value = checksum(prefix: UnsafeRawBufferPointer(rebasing: frame[0..<prefixLength]), payload: payload)
        frame.storeBytes(of: value.littleEndian, toByteOffset: prefixLength, as: UInt32.self)
    }

    /// Appends the header with the checksum of `payload`: everything of a
    /// frame but its body.
    ///
    /// The lengths written are this header's; ``checksum`` is not read.
    ///
    /// - Parameters:
    ///   - payload: The payload the frame carries.
    ///   - buffer: Where the header is appended.
    func append(checksumming payload: UnsafeRawBufferPointer, to buffer: inout [UInt8]) {
        let start = buffer.count
        writePrefix(to: &buffer)
        let prefixLength = buffer.count - start
        buffer.append(contentsOf: repeatElement(0, count: 4))
        buffer.withUnsafeMutableBytes { bytes in
            Self.writeChecksum(
                into: UnsafeMutableRawBufferPointer(rebasing: bytes[start...]), prefixLength: prefixLength,
                payload: payload)
        }
    }

    /// `value` as `0x` and 8 hexadecimal digits.
    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}
