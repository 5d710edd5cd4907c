/// A frame as ``FrameReader/nextUnchecked()`` splits it off a stream: its
/// header read and checked, its body not yet.
///
/// The header has passed checks 1 to 4 of `docs/spec/frame-format.md`
/// (version, kind, compression, reserved bits, varints, dictionary) and the
/// reader's ``DecodingLimits``, so ``header`` states how large the frame
/// and its payload are, and ``bytes`` holds the frame whole. Nothing of the
/// body is checked: it is not inflated, its lengths and checksum are not
/// compared, so the frame may still be damaged.
///
/// For a server that checks costly frames somewhere other than where it
/// reads them (a thread pool beside an event loop): splitting a stream this
/// way costs no inflating, ``FrameHeader/payloadLength`` says before any
/// work how many bytes the payload will inflate to, and
/// `FrameDecoder.decodeFrame(frame.bytes)` does the rest of the checks, in
/// the format's order, wherever it runs. A body that does not inflate to
/// exactly the declared length fails there (`frame.payload-length`), so the
/// declared length cannot understate the work.
public struct UncheckedFrame: Hashable, Sendable {
    /// The frame's header, checked against the reader's limits.
    public let header: FrameHeader
    /// The frame's bytes, header included: from ``FrameReader``, exactly
    /// ``FrameHeader/frameLength`` of them; from a WebSocket message
    /// (IMCodecNIO's handler), the whole message's, which the check refuses
    /// (`frame.trailing-bytes`) when they are more than the frame.
    public let bytes: ArraySlice<UInt8>

    /// A frame whose header passed checks 1 to 4 and the limits.
    ///
    /// - Parameters:
    ///   - header: The checked header.
    ///   - bytes: The frame's bytes.
    package init(header: FrameHeader, bytes: ArraySlice<UInt8>) {
        self.header = header
        self.bytes = bytes
    }
}
