/// What a frame holds and, for a message frame, where the message goes: read
/// without decoding the payload (``FrameDecoder/peekEnvelope(_:fields:)-([UInt8],_)``).
public struct FrameEnvelope: Hashable, Sendable {
    /// The frame's header: kind, compression, dictionary, lengths, checksum.
    public var header: FrameHeader
    /// The routing fields of the message a message frame holds; `nil` for
    /// batch and event frames, whose payloads are not read.
    public var message: MessageEnvelope?

    /// What the payload holds: a message, a batch or an event.
    public var kind: FrameKind { header.kind }

    /// Creates an envelope from its parts.
    ///
    /// - Parameters:
    ///   - header: The frame's header.
    ///   - message: The message's envelope, for a message frame.
    public init(header: FrameHeader, message: MessageEnvelope?) {
        self.header = header
        self.message = message
    }
}

extension FrameDecoder {
    /// Reads what a frame holds and, for a message frame, the routing fields
    /// of its message (``MessageEnvelope``), without decoding the message.
    ///
    /// The frame is checked as ``decode(_:)-([UInt8])`` checks it: the
    /// header, the limits, the body (inflated into a buffer this decoder
    /// keeps, for a compressed frame) and the checksum over the whole
    /// payload, so a corrupted frame fails here as it fails to decode. The
    /// message's top-level fields are then read as the decoder reads them;
    /// its elems and other nested values are stepped over. A stored frame
    /// costs no allocation beyond the strings of `fields` that are longer
    /// than 15 UTF-8 bytes.
    ///
    /// ```swift
    /// let envelope = try decoder.peekEnvelope(frame, fields: .destination)
    /// guard envelope.kind == .message, let message = envelope.message else { return }
    /// route(frame, to: message.isGroup ? message.groupID : message.receiver)
    /// ```
    ///
    /// - Parameters:
    ///   - bytes: Exactly one frame.
    ///   - fields: The string fields of the message to read.
    /// - Returns: The header and, for a message frame, the message's envelope.
    /// - Throws: The frame codes of ``decodeFrame(_:)-([UInt8])`` in the same
    ///   order, then the codes of ``MessageEnvelope/init(serializedBytes:fields:limits:)-(UnsafeRawBufferPointer,_,_)``
    ///   with this decoder's limits.
    public func peekEnvelope(_ bytes: UnsafeRawBufferPointer, fields: MessageEnvelope.Fields = .all)
        throws(IMCodecError) -> FrameEnvelope
    {
        var envelope = FrameEnvelope(header: try frameHeader(of: bytes), message: nil)
        try peekPayload(bytes, into: &envelope, fields: fields)
        return envelope
    }

    /// Reads what a frame holds and, for a message frame, the routing fields
    /// of its message, without decoding the message.
    ///
    /// - Parameters:
    ///   - bytes: Exactly one frame.
    ///   - fields: The string fields of the message to read.
    /// - Returns: The header and, for a message frame, the message's envelope.
    /// - Throws: The codes of ``peekEnvelope(_:fields:)-(UnsafeRawBufferPointer,_)``.
    public func peekEnvelope(_ bytes: [UInt8], fields: MessageEnvelope.Fields = .all) throws(IMCodecError)
        -> FrameEnvelope
    {
        try peekEnvelope(bytes[...], fields: fields)
    }

    /// Reads what a frame held in an array slice holds and, for a message
    /// frame, the routing fields of its message, without decoding the message.
    ///
    /// - Parameters:
    ///   - bytes: Exactly one frame.
    ///   - fields: The string fields of the message to read.
    /// - Returns: The header and, for a message frame, the message's envelope.
    /// - Throws: The codes of ``peekEnvelope(_:fields:)-(UnsafeRawBufferPointer,_)``.
    public func peekEnvelope(_ bytes: ArraySlice<UInt8>, fields: MessageEnvelope.Fields = .all) throws(IMCodecError)
        -> FrameEnvelope
    {
        // Read straight into the envelope returned: going through a
        // `Result` copied it, its strings retained and released.
        let header = try bytes.withUnsafeBytes { raw in
            Result { () throws(IMCodecError) in try frameHeader(of: raw) }
        }.get()
        var envelope = FrameEnvelope(header: header, message: nil)
        var failure: IMCodecError?
        bytes.withUnsafeBytes { raw in
            do throws(IMCodecError) {
                try peekPayload(raw, into: &envelope, fields: fields)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return envelope
    }

    /// Checks 5 and 6 of a frame whose header `envelope` holds, then the
    /// trailing bytes, and reads a message frame's envelope into `envelope`.
    private func peekPayload(
        _ bytes: UnsafeRawBufferPointer, into envelope: inout FrameEnvelope, fields: MessageEnvelope.Fields
    ) throws(IMCodecError) {
        let header = envelope.header
        let frame = UnsafeRawBufferPointer(rebasing: bytes[0..<header.frameLength])
        try withCheckedPayload(frame, header) { (payload) throws(IMCodecError) in
            guard bytes.count == header.frameLength else { throw Self.trailingBytes(bytes.count, header) }
            guard header.kind == .message else { return }
            var message = MessageEnvelope()
            var reader = WireReader(payload)
            try Message._peekEnvelope(from: &reader, into: &message, fields: fields, DecodeContext(limits: limits))
            envelope.message = message
        }
    }
}
