/// One decoded frame at the byte level: its header and its payload bytes.
///
/// The payload is the canonical protobuf encoding the header's
/// ``FrameHeader/kind`` names, already inflated and checked against the
/// header's checksum. For an uncompressed frame decoded from an array it
/// shares that array's storage instead of copying the bytes, so holding on to
/// the frame keeps the array alive.
public struct Frame: Hashable, Sendable {
    /// The frame's header.
    public var header: FrameHeader
    /// The payload: the body itself, or the inflated body.
    public var payload: ArraySlice<UInt8>

    /// Creates a frame from a decoded header and payload.
    init(header: FrameHeader, payload: ArraySlice<UInt8>) {
        self.header = header
        self.payload = payload
    }
}
