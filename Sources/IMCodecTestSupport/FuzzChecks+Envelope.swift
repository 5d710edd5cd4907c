import IMCodec

extension FuzzChecks {
    /// The top-level fields of a message whose string content the envelope
    /// peek reads and checks (UTF-8), by their paths.
    static let envelopeStrings: Set<String> = ["msgId", "sender", "receiver", "groupId"]

    /// The top-level fields that hold messages: an error at such a field's
    /// path may come from its own length (read by the peek) or from inside
    /// the message (not read), so the error alone cannot say which.
    static let nestedMessageFields: Set<String> = ["elems", "offlinePushInfo"]

    /// Whether the decoder's `error` lies in bytes the envelope peek reads:
    /// a top-level tag, varint, length or group, a routed string's UTF-8, or
    /// a repeated field's count; never the nesting depth of a field's
    /// message. `nil` when the error's path cannot tell.
    public static func peekReads(_ error: IMCodecError) -> Bool? {
        let components = error.path.components
        guard let first = components.first else { return true }
        guard case .field(let field) = first, components.count <= 2 else { return false }
        // The depth of a nested message is found by entering it, which the
        // peek never does.
        if error.code == .limitDepth { return false }
        let code = error.code.rawValue
        if code.hasPrefix("limit.") { return components.count == 2 }
        if nestedMessageFields.contains(field) { return nil }
        if code == IMCodecError.Code.payloadUTF8.rawValue {
            return components.count == 1 && envelopeStrings.contains(field)
        }
        return true
    }

    /// The envelope peek against the decoder on one payload: a payload that
    /// decodes has the decoded message's envelope; one the peek refuses, the
    /// decoder refuses; and where the decoder's error lies in bytes the peek
    /// reads, the peek fails with the same code and path.
    ///
    /// - Parameters:
    ///   - input: The payload.
    ///   - decoded: What `Message(serializedBytes:limits:)` made of it.
    ///   - limits: The limits both read with.
    public static func envelopeDifference(
        _ input: UnsafeRawBufferPointer, decoded: Result<IMCodec.Message, IMCodecError>,
        limits: DecodingLimits = .default
    ) -> String? {
        let peeked: Result<MessageEnvelope, IMCodecError>
        do throws(IMCodecError) {
            peeked = .success(try MessageEnvelope(serializedBytes: input, limits: limits))
        } catch {
            peeked = .failure(error)
        }
        return envelopeDifference(peeked, decoded: decoded)
    }

    /// A peek's result against the decoder's, as ``envelopeDifference(_:decoded:limits:)`` compares them.
    public static func envelopeDifference(
        _ peeked: Result<MessageEnvelope, IMCodecError>, decoded: Result<IMCodec.Message, IMCodecError>
    ) -> String? {
        switch (decoded, peeked) {
        case (.success(let message), .success(let envelope)):
            return MessageEnvelope(message) == envelope ? nil : "the envelope differs from the decoded message's"
        case (.success, .failure(let error)):
            return "the envelope peek refuses with \(error.code) at \(error.path) a payload that decodes"
        case (.failure(let error), .success):
            return peekReads(error) == true
                ? "the envelope peek accepts what the decoder refuses with \(error.code) at \(error.path)" : nil
        case (.failure(let error), .failure(let peekError)):
            guard peekReads(error) == true else { return nil }
            return error.code == peekError.code && error.path == peekError.path
                ? nil
                : "the decoder refuses with \(error.code) at \(error.path), the envelope peek with \(peekError.code) at \(peekError.path)"
        }
    }

    /// The envelope peek of a frame against its decoding: the frame's own
    /// checks fail alike, and a message frame's payload is read as
    /// ``envelopeDifference(_:decoded:limits:)`` says.
    ///
    /// - Parameters:
    ///   - input: The frame.
    ///   - decoded: What `FrameDecoder.decode(_:)` made of it.
    ///   - limits: The limits both read with.
    public static func frameEnvelopeDifference(
        _ input: [UInt8], decoded: Result<FramePayload, IMCodecError>, limits: DecodingLimits = .default
    ) -> String? {
        let decoder = FrameDecoder(limits: limits)
        let peeked: Result<FrameEnvelope, IMCodecError>
        do throws(IMCodecError) {
            peeked = .success(try decoder.peekEnvelope(input))
        } catch {
            peeked = .failure(error)
        }
        // The frame's own checks come before the payload is read.
        let frameCodes: Set<IMCodecError.Code> = [.limitFrameSize, .limitInflatedSize, .limitInflateRatio]
        if case .failure(let error) = decoded,
            error.code.rawValue.hasPrefix("frame.") || frameCodes.contains(error.code)
        {
            guard case .failure(let peekError) = peeked, peekError.code == error.code else {
                return "the decoder refuses the frame with \(error.code), the envelope peek does not"
            }
            return nil
        }
        if case .failure(let error) = peeked, error.code.rawValue.hasPrefix("frame.") || frameCodes.contains(error.code)
        {
            return "the envelope peek refuses with \(error.code) a frame the decoder reads"
        }
        // The frame checked out both ways: its payload is in hand.
        guard let frame = try? decoder.decodeFrame(input) else { return "the frame does not decode a second time" }
        guard frame.header.kind == .message else {
            if case .success(let envelope) = peeked, envelope.message == nil, envelope.header == frame.header {
                return nil
            }
            return "the envelope of a \(frame.header.kind) frame is not its header alone"
        }
        let message: Result<IMCodec.Message, IMCodecError> =
            switch decoded {
            case .success(.message(let message)): .success(message)
            case .success: .failure(IMCodecError(.frameKind, reason: "not a message"))
            case .failure(let error): .failure(error)
            }
        switch peeked {
        case .success(let envelope):
            guard envelope.header == frame.header, let messageEnvelope = envelope.message else {
                return "the envelope of a message frame lacks its header or its message"
            }
            return envelopeDifference(.success(messageEnvelope), decoded: message)
        case .failure(let error):
            return envelopeDifference(.failure(error), decoded: message)
        }
    }
}
