import IMCodec

/// One frame found in a fuzz input, as written: its lengths and checksum may
/// be stale after a mutation.
public struct FramePiece {
    /// The header as read; only its kind, compression and dictionary are
    /// trusted.
    public var header: FrameHeader
    /// The header's bytes, checksum included.
    public var headerBytes: ArraySlice<UInt8>
    /// The bytes taken as the body.
    public var body: ArraySlice<UInt8>
    /// The payload the body holds and how many body bytes hold it; `nil` for
    /// a deflated body that does not inflate.
    public var content: (payload: [UInt8], bodyUsed: Int)?

    /// The frame as it was written.
    public var original: [UInt8] { Array(headerBytes) + Array(body) }
}

/// Recomputes the lengths and the checksum of mutated frames
/// (`docs/spec/frame-format.md`), so a mutation of a payload or of a deflate
/// stream reaches the inflater and the payload decoder instead of stopping at
/// `frame.checksum`, `frame.truncated` or `frame.trailing-bytes`.
///
/// The header is read with the library's `FrameHeader.peek`, so only inputs
/// the decoder would get past checks 1 and 2 with are repaired; lengths are
/// rewritten as minimal varints and the checksum is zlib's CRC-32.
public enum FrameRepair {
    /// How far from a stale body length a stream's next frame is looked for.
    static let boundarySearch = 16

    /// Splits `bytes` into the frames they start with.
    ///
    /// - Parameters:
    ///   - bytes: Frames written back to back, possibly mutated.
    ///   - singleFrame: Whether `bytes` hold one frame (everything after its
    ///     header is its body) or a stream (a body ends at its declared
    ///     length, or near it where the next frame starts).
    /// - Returns: The frames, and whatever follows the last one whose header
    ///   reads.
    public static func split(
        _ bytes: ArraySlice<UInt8>,
        singleFrame: Bool
    ) -> (frames: [FramePiece], rest: ArraySlice<UInt8>) {
        var frames: [FramePiece] = []
        var rest = bytes
        while !rest.isEmpty, let header = try? FrameHeader.peek(rest) {
            let headerLength = header.encodedLength
            let available = rest.count - headerLength
            let bodyLength = singleFrame ? available : streamBodyLength(rest, header: header)
            let bodyStart = rest.startIndex + headerLength
            let body = rest[bodyStart..<(bodyStart + bodyLength)]
            var content: (payload: [UInt8], bodyUsed: Int)?
            switch header.compression {
            case .none:
                content = (Array(body), body.count)
            case .deflate:
                let dictionary = header.dictionaryID.flatMap { PresetDictionary(id: $0) }?.bytes
                content = RawDeflate.inflate(body, dictionary: dictionary)
                    .map { (payload: $0.payload, bodyUsed: $0.consumed) }
            case .zstd:
                // A zstd body is kept as it is: the mutator leaves its
                // payload alone and repairs only the frame around it.
                content = nil
            }
            frames.append(
                FramePiece(
                    header: header, headerBytes: rest[rest.startIndex..<bodyStart], body: body, content: content))
            rest = rest[(bodyStart + bodyLength)...]
            if singleFrame { break }
        }
        return (frames, rest)
    }

    /// Writes a frame whose lengths and checksum fit its body and payload.
    ///
    /// - Parameters:
    ///   - header: Supplies the kind, compression and dictionary id.
    ///   - body: The body: the payload itself, or a raw deflate stream of it.
    ///   - payload: The payload the body holds.
    /// - Returns: The frame.
    public static func frame(header: FrameHeader, body: some Collection<UInt8>, payload: [UInt8]) -> [UInt8] {
        var prefix: [UInt8] = [FrameHeader.version, header.flags]
        if let id = header.dictionaryID { prefix.appendVarint(UInt64(id)) }
        prefix.appendVarint(UInt64(UInt32(truncatingIfNeeded: body.count)))
        if header.compression == .deflate { prefix.appendVarint(UInt64(UInt32(truncatingIfNeeded: payload.count))) }
        let checksum = RawDeflate.crc32(prefix, payload)
        var frame = prefix
        for shift in stride(from: UInt32(0), to: 32, by: 8) {
            frame.append(UInt8(truncatingIfNeeded: checksum >> shift))
        }
        frame.append(contentsOf: body)
        return frame
    }

    /// The frame `piece` repaired: body and payload lengths that fit, a body
    /// cut after the end of its deflate stream, and the right checksum; a
    /// deflated body that does not inflate is left as it was.
    ///
    /// - Parameter piece: A frame from ``split(_:singleFrame:)``.
    /// - Returns: The frame's bytes.
    public static func repaired(_ piece: FramePiece) -> [UInt8] {
        guard let content = piece.content else { return piece.original }
        return frame(header: piece.header, body: piece.body.prefix(content.bodyUsed), payload: content.payload)
    }

    /// Repairs every frame of `bytes` (see ``repaired(_:)``); bytes after the
    /// last readable header are kept as they are.
    ///
    /// - Parameters:
    ///   - bytes: Frames written back to back, possibly mutated.
    ///   - singleFrame: Whether `bytes` hold one frame or a stream.
    /// - Returns: The repaired bytes.
    public static func repair(_ bytes: ArraySlice<UInt8>, singleFrame: Bool) -> [UInt8] {
        let (frames, rest) = split(bytes, singleFrame: singleFrame)
        var output: [UInt8] = []
        for piece in frames { output += repaired(piece) }
        output += rest
        return output
    }

    /// The body length of a frame in a stream: the declared one when the next
    /// frame starts there, else the nearest length within ``boundarySearch``
    /// where one does (a mutation inserted or erased body bytes), else the
    /// declared one; a declared length past the end takes everything.
    static func streamBodyLength(_ bytes: ArraySlice<UInt8>, header: FrameHeader) -> Int {
        let headerLength = header.encodedLength
        let available = bytes.count - headerLength
        guard header.bodyLength < available else { return available }
        func endsThere(_ length: Int) -> Bool {
            guard (0...available).contains(length) else { return false }
            if length == available { return true }
            let next = bytes.startIndex + headerLength + length
            return (try? FrameHeader.peek(bytes[next...])) != nil
        }
        for distance in 0...boundarySearch {
            if endsThere(header.bodyLength - distance) { return header.bodyLength - distance }
            if endsThere(header.bodyLength + distance) { return header.bodyLength + distance }
        }
        return header.bodyLength
    }
}
