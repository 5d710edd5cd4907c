/// One decoded frame at the byte level: its header, its payload bytes, and
/// the bytes it was read from.
///
/// The payload is the canonical protobuf encoding the header's
/// ``FrameHeader/kind`` names, already inflated and checked against the
/// header's checksum. For an uncompressed frame decoded from an array it
/// shares that array's storage instead of copying the bytes, so holding on to
/// the frame keeps the array alive.
///
/// ``bytes`` are the frame as it arrived, header and body unchanged: a relay
/// that has checked a frame (and decoded and validated its payload) forwards
/// those bytes rather than encoding the payload again, so every member
/// receives the same bytes, checksum and compression that the sender wrote,
/// and no encoder runs per message.
public struct Frame: Hashable, Sendable {
    /// The frame's header.
    public var header: FrameHeader
    /// The payload: the body itself, or the inflated body.
    public var payload: ArraySlice<UInt8>
    /// The frame's bytes as they were read, header and body: exactly
    /// ``FrameHeader/frameLength`` bytes that a reader with the limits this
    /// frame was checked against accepts again.
    ///
    /// They share the storage of the bytes the frame was decoded from when
    /// those were an array, and are not changed by changing ``header`` or
    /// ``payload``: forward them only for a frame you have not changed.
    public let bytes: ArraySlice<UInt8>

    /// Creates a frame from a decoded header and payload and the bytes they
    /// were decoded from.
    init(header: FrameHeader, payload: ArraySlice<UInt8>, bytes: ArraySlice<UInt8>) {
        self.header = header
        self.payload = payload
        self.bytes = bytes
    }

    /// Whether two frames have the same header and payload.
    ///
    /// Their ``bytes`` are not compared: two encoders can compress one payload
    /// into different bodies of the same length, and such frames hold the same
    /// thing.
    public static func == (lhs: Frame, rhs: Frame) -> Bool {
        lhs.header == rhs.header && lhs.payload == rhs.payload
    }

    /// Hashes the header and the payload, the parts that ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(header)
        hasher.combine(payload)
    }
}
