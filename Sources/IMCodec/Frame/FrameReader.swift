/// Reads frames from a stream of bytes that arrive in chunks split anywhere.
///
/// Append each chunk as it arrives with ``append(_:)-([UInt8])``, then call
/// ``next()`` until it returns `nil`, which means "need more bytes". At the
/// end of the stream, ``finish()`` tells a clean end from one inside a frame.
///
/// ```swift
/// let reader = FrameReader()
/// for chunk in chunks {
///     reader.append(chunk)
///     while let frame = try reader.next() { handle(frame) }
/// }
/// try reader.finish()
/// ```
///
/// Frames that lie whole inside an appended chunk are decoded where they are,
/// without copying the chunk; only the bytes of the one frame that a chunk
/// leaves incomplete are kept, in a buffer reserved at that frame's size once
/// its header has been read and checked against the ``limits``. So memory is
/// bounded by the largest frame the limits allow, however long the stream.
/// Append again only after ``next()`` has returned `nil`; bytes still unread
/// when a chunk is appended have to be joined to it by a copy.
///
/// The first error is final: the reader cannot tell where the next frame
/// would start, so every later call to ``next()`` or ``finish()`` throws the
/// same error and appended bytes are dropped.
///
/// A reader is not `Sendable`: it owns a zlib stream. Use one per stream.
public final class FrameReader {
    /// The limits every frame and payload is checked against.
    public var limits: DecodingLimits { decoder.limits }
    /// The number of stream bytes in the frames ``next()`` has returned so
    /// far: where the next frame starts.
    public private(set) var offset = 0
    /// The number of frames ``next()`` has returned so far.
    public private(set) var frameCount = 0

    private let decoder: FrameDecoder
    /// Appended bytes not yet read, usually a slice of the caller's chunk.
    private var input: ArraySlice<UInt8> = []
    /// The start of the one frame that `input` left incomplete.
    private var partial: [UInt8] = []
    /// The header of the frame in `partial`, once `partial` holds it.
    private var partialHeader: FrameHeader?
    private var failure: IMCodecError?
    /// How many bytes have been copied into `partial` so far: the part of the
    /// stream that was not decoded where it arrived.
    private(set) var copiedByteCount = 0

    /// How many appended bytes are held for frames not yet returned.
    var bufferedByteCount: Int { partial.count + input.count }

    /// How many bytes the reader holds or has reserved for the frame it is
    /// putting together: the declared length of that frame once its header
    /// is in (its buffer is reserved at that size), the bytes of its
    /// incomplete header before, 0 at a frame boundary. After ``next()`` has
    /// returned `nil`, this is what the reader keeps until more bytes come.
    package var reservedByteCount: Int {
        max(partialHeader?.frameLength ?? 0, partial.count) + input.count
    }

    /// Creates a reader for one stream.
    ///
    /// - Parameter limits: The limits to check frames and payloads against.
    public init(limits: DecodingLimits = .default) {
        decoder = FrameDecoder(limits: limits)
    }

    /// Whether the reader holds no bytes of an unfinished frame.
    public var isAtFrameBoundary: Bool { input.isEmpty && partial.isEmpty }

    /// Appends the next chunk of the stream.
    ///
    /// - Parameter chunk: The bytes that arrived; any length, split anywhere.
    public func append(_ chunk: [UInt8]) {
        append(chunk[...])
    }

    /// Appends the next chunk of the stream.
    ///
    /// - Parameter chunk: The bytes that arrived; any length, split anywhere.
    ///   Frames read from it share its storage.
    public func append(_ chunk: ArraySlice<UInt8>) {
        guard failure == nil, !chunk.isEmpty else { return }
        if input.isEmpty {
            input = chunk
        } else {
            input.append(contentsOf: chunk)
        }
    }

    /// Appends the next chunk of the stream, copying it.
    ///
    /// - Parameter chunk: The bytes that arrived; any length, split anywhere.
    public func append(_ chunk: UnsafeRawBufferPointer) {
        append(Array(chunk)[...])
    }

    /// Returns the next complete frame, or `nil` when more bytes are needed.
    ///
    /// - Returns: The next frame, checked and inflated, or `nil` when the
    ///   appended bytes end before it does.
    /// - Throws: The codes of ``FrameDecoder/decodeFrame(_:)-([UInt8])`` except
    ///   `frame.truncated` and `frame.trailing-bytes`: a frame cut short is
    ///   "need more", and bytes after a frame start the next one. After an
    ///   error, every call throws it again.
    public func next() throws(IMCodecError) -> Frame? {
        if let failure { throw failure }
        do throws(IMCodecError) {
            guard let frame = try partial.isEmpty ? readFromInput() : completePartial() else { return nil }
            offset += frame.header.frameLength
            frameCount += 1
            return frame
        } catch {
            fail(with: error)
            throw error
        }
    }

    /// Copies bytes of the incomplete frame into `partial`.
    private func keep(_ bytes: ArraySlice<UInt8>) {
        partial.append(contentsOf: bytes)
        copiedByteCount += bytes.count
    }

    /// Makes `error` final: drops every buffered byte and every later call
    /// throws it.
    func fail(with error: IMCodecError) {
        failure = error
        input = []
        partial = []
        partialHeader = nil
    }

    /// Checks that the stream ended at a frame boundary.
    ///
    /// Call it after the last chunk, once ``next()`` has returned `nil`.
    ///
    /// - Throws: `frame.truncated` when the stream ends inside a frame, or the
    ///   error ``next()`` threw earlier.
    public func finish() throws(IMCodecError) {
        if let failure { throw failure }
        guard isAtFrameBoundary else {
            let error = IMCodecError(
                .frameTruncated,
                reason: "stream ends \(partial.count + input.count) bytes into a frame at offset \(offset)")
            fail(with: error)
            throw error
        }
    }

    /// Reads a frame straight from `input`, or moves its start to `partial`.
    private func readFromInput() throws(IMCodecError) -> Frame? {
        guard let header = try FrameHeader.peek(input) else {
            keep(input)
            input = []
            return nil
        }
        try header.checkLimits(decoder.limits)
        guard input.count >= header.frameLength else {
            partial.reserveCapacity(header.frameLength)
            keep(input)
            partialHeader = header
            input = []
            return nil
        }
        let frame = try decoder.decodeFrame(input.prefix(header.frameLength), header: header)
        input = input.dropFirst(header.frameLength)
        return frame
    }

    /// Moves bytes from `input` to `partial` until it holds a whole frame.
    private func completePartial() throws(IMCodecError) -> Frame? {
        let header: FrameHeader
        if let partialHeader {
            header = partialHeader
        } else {
            // The header is incomplete: look at it with just enough of the
            // input appended to complete any header, without consuming it.
            var probe = partial
            probe.append(contentsOf: input.prefix(FrameHeader.maxEncodedLength - partial.count))
            guard let peeked = try FrameHeader.peek(probe) else {
                keep(input)
                input = []
                return nil
            }
            try peeked.checkLimits(decoder.limits)
            header = peeked
            partialHeader = peeked
            partial.reserveCapacity(header.frameLength)
        }
        let needed = min(header.frameLength - partial.count, input.count)
        keep(input.prefix(needed))
        input = input.dropFirst(needed)
        guard partial.count == header.frameLength else { return nil }
        let frameBytes = partial
        partial = []
        partialHeader = nil
        return try decoder.decodeFrame(frameBytes[...], header: header)
    }
}

@available(*, unavailable, message: "a FrameReader owns a zlib stream; use one per stream")
extension FrameReader: Sendable {}
