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
/// By default the first error is final: every later call to ``next()`` or
/// ``finish()`` throws the same error and appended bytes are dropped. A
/// reader created with `skippingDamagedFrames:` goes on past a frame whose
/// header was read intact but whose body is damaged (it does not inflate,
/// does not match its checksum or, for ``nextPayload()``, does not decode):
/// it hands that frame's error to the closure and reads the next frame,
/// which starts where the header said the damaged one ends. An error in a
/// header, a frame the limits refuse and a stream that ends inside a frame
/// stay final, because the format has no marker to find the next frame by
/// (`docs/spec/frame-format.md`, "Reading on after a damaged
/// frame"). Every error the reader throws or reports says which
/// frame it is about (``IMCodecError/frameIndex``) and where that frame
/// starts (``IMCodecError/frameOffset``).
///
/// A reader is not `Sendable`: it owns a zlib stream. Use one per stream.
public final class FrameReader {
    /// The limits every frame and payload is checked against.
    public var limits: DecodingLimits { decoder.limits }
    /// The number of stream bytes in the frames read so far, returned or
    /// skipped: where the next frame starts.
    public private(set) var offset = 0
    /// The number of frames ``next()`` and ``nextPayload()`` have returned so
    /// far.
    public internal(set) var frameCount = 0
    /// The number of damaged frames skipped so far; always 0 unless the
    /// reader was created with `skippingDamagedFrames:`.
    public internal(set) var skippedFrameCount = 0

    private let decoder: FrameDecoder
    /// Where damaged frames are reported when they are skipped; `nil` when the
    /// first error ends the stream.
    private let skippedFrameHandler: ((IMCodecError) -> Void)?
    /// Where the frame last read starts, for the errors of its payload.
    private var lastFrameOffset = 0
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

    /// How many bytes the reader holds for the frame it is putting together:
    /// the bytes of it received so far (not its declared length, which a
    /// peer may state without sending), 0 at a frame boundary. After
    /// ``next()`` has returned `nil`, this is what the reader keeps until
    /// more bytes come.
    package var reservedByteCount: Int { partial.count + input.count }

    /// Creates a reader for one stream, which stops at the first error.
    ///
    /// - Parameter limits: The limits to check frames and payloads against.
    public init(limits: DecodingLimits = .default) {
        decoder = FrameDecoder(limits: limits)
        skippedFrameHandler = nil
    }

    /// Creates a reader for one stream that skips damaged frames, reporting
    /// each.
    ///
    /// A frame is damaged when its header was read intact and passed the
    /// limits but its body was not sound: `frame.deflate`, `frame.zstd`,
    /// `frame.zstd-window`, `frame.zstd-unavailable`, `frame.payload-length`
    /// or `frame.checksum`, and for ``nextPayload()`` also the `payload.*`
    /// and `limit.*` codes of its payload. Such a frame is passed over, its
    /// error (with ``IMCodecError/frameIndex`` and
    /// ``IMCodecError/frameOffset``) is handed to `report`, and reading goes
    /// on with the next frame. Any other error still ends the stream.
    ///
    /// - Parameters:
    ///   - limits: The limits to check frames and payloads against.
    ///   - report: Called once for every skipped frame, in stream order,
    ///     before the reader goes on.
    public init(limits: DecodingLimits = .default, skippingDamagedFrames report: @escaping (IMCodecError) -> Void) {
        decoder = FrameDecoder(limits: limits)
        skippedFrameHandler = report
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
    ///   "need more", and bytes after a frame start the next one. The error
    ///   says which frame (``IMCodecError/frameIndex``,
    ///   ``IMCodecError/frameOffset``). After an error, every call throws it
    ///   again. A reader that skips damaged frames reports the errors of
    ///   their bodies instead of throwing them.
    public func next() throws(IMCodecError) -> Frame? {
        guard let frame = try nextFrame() else { return nil }
        frameCount += 1
        return frame
    }

    /// Returns the next whole frame with its header checked and its body
    /// not, or `nil` when more bytes are needed.
    ///
    /// The stream is split as ``next()`` splits it, and the header checked
    /// as ``next()`` checks it, against the same ``limits``; the body is
    /// neither inflated nor checked: `FrameDecoder.decodeFrame(_:)` of the
    /// frame's bytes does that, wherever the caller runs it (an
    /// ``UncheckedFrame`` is `Sendable`). The frame counts as read.
    ///
    /// - Returns: The next frame, its body unchecked, or `nil` when the
    ///   appended bytes end before it does.
    /// - Throws: The errors of a header and of the limits, which are final
    ///   as in ``next()``, saying which frame.
    public func nextUnchecked() throws(IMCodecError) -> UncheckedFrame? {
        if let failure { throw failure }
        let read: Read
        do throws(IMCodecError) {
            read = try partial.isEmpty ? readFromInput(checkingBody: false) : completePartial(checkingBody: false)
        } catch {
            throw fail(with: error.inFrame(frameCount + skippedFrameCount, at: offset))
        }
        guard case .unchecked(let frame) = read else { return nil }
        lastFrameOffset = offset
        offset += frame.header.frameLength
        frameCount += 1
        return frame
    }

    /// Reads the next frame, skipping damaged ones when the reader does so,
    /// without counting it as returned.
    func nextFrame() throws(IMCodecError) -> Frame? {
        if let failure { throw failure }
        while true {
            let index = frameCount + skippedFrameCount
            let read: Read
            do throws(IMCodecError) {
                read = try partial.isEmpty ? readFromInput(checkingBody: true) : completePartial(checkingBody: true)
            } catch {
                throw fail(with: error.inFrame(index, at: offset))
            }
            switch read {
            case .needMore, .unchecked:
                return nil
            case .frame(let frame):
                lastFrameOffset = offset
                offset += frame.header.frameLength
                return frame
            case .damaged(let error, let length):
                let located = error.inFrame(index, at: offset)
                offset += length
                try skipOrFail(located)
            }
        }
    }

    /// Reports a damaged frame and counts it as skipped when the reader skips
    /// damaged frames; otherwise makes its error final.
    ///
    /// - Parameter error: The frame's error, saying which frame.
    /// - Throws: `error`, when the reader does not skip.
    func skipOrFail(_ error: IMCodecError) throws(IMCodecError) {
        guard let skippedFrameHandler else { throw fail(with: error) }
        skippedFrameCount += 1
        skippedFrameHandler(error)
    }

    /// The errors of the payload of the frame ``nextFrame()`` returned last,
    /// saying which frame.
    func payloadError(_ error: IMCodecError) -> IMCodecError {
        error.inFrame(frameCount + skippedFrameCount, at: lastFrameOffset)
    }

    /// What reading at the current position gave.
    private enum Read {
        /// The appended bytes end before the next frame does.
        case needMore
        /// A sound frame.
        case frame(Frame)
        /// A whole frame whose body was not looked at.
        case unchecked(UncheckedFrame)
        /// A frame whose header is sound but whose body is not, `length`
        /// bytes long in all, already consumed.
        case damaged(IMCodecError, length: Int)
    }

    /// Copies bytes of the incomplete frame into `partial`.
    private func keep(_ bytes: ArraySlice<UInt8>) {
        partial.append(contentsOf: bytes)
        copiedByteCount += bytes.count
    }

    /// Makes `error` final: drops every buffered byte and every later call
    /// throws it.
    ///
    /// - Returns: `error`, to be thrown.
    @discardableResult
    func fail(with error: IMCodecError) -> IMCodecError {
        failure = error
        input = []
        partial = []
        partialHeader = nil
        return error
    }

    /// Checks that the stream ended at a frame boundary.
    ///
    /// Call it after the last chunk, once ``next()`` has returned `nil`.
    ///
    /// - Throws: `frame.truncated` when the stream ends inside a frame, saying
    ///   which frame, or the error ``next()`` threw earlier.
    public func finish() throws(IMCodecError) {
        if let failure { throw failure }
        guard isAtFrameBoundary else {
            let error = IMCodecError(
                .frameTruncated,
                reason: "stream ends \(partial.count + input.count) bytes into a frame at offset \(offset)")
            throw fail(with: error.inFrame(frameCount + skippedFrameCount, at: offset))
        }
    }

    /// Reads a frame straight from `input`, or moves its start to `partial`.
    ///
    /// - Parameter checkingBody: Whether the body is checked and inflated,
    ///   or the frame returned as ``Read/unchecked(_:)``.
    /// - Throws: The errors of a header and of the limits; those of a body
    ///   come back as ``Read/damaged(_:length:)``, the frame consumed.
    private func readFromInput(checkingBody: Bool) throws(IMCodecError) -> Read {
        guard let header = try FrameHeader.peek(input) else {
            keep(input)
            input = []
            return .needMore
        }
        try header.checkLimits(decoder.limits)
        guard input.count >= header.frameLength else {
            partial.reserveCapacity(header.frameLength)
            keep(input)
            partialHeader = header
            input = []
            return .needMore
        }
        let frameBytes = input.prefix(header.frameLength)
        input = input.dropFirst(header.frameLength)
        return body(frameBytes, header, checking: checkingBody)
    }

    /// Checks 5 and 6 of a whole frame whose header passed checks 1 to 4,
    /// when `checking`.
    private func body(_ frameBytes: ArraySlice<UInt8>, _ header: FrameHeader, checking: Bool) -> Read {
        guard checking else { return .unchecked(UncheckedFrame(header: header, bytes: frameBytes)) }
        do throws(IMCodecError) {
            return .frame(try decoder.decodeFrame(frameBytes, header: header))
        } catch {
            return .damaged(error, length: header.frameLength)
        }
    }

    /// Moves bytes from `input` to `partial` until it holds a whole frame.
    ///
    /// - Parameter checkingBody: As for ``readFromInput(checkingBody:)``.
    /// - Throws: The errors of a header and of the limits.
    private func completePartial(checkingBody: Bool) throws(IMCodecError) -> Read {
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
                return .needMore
            }
            try peeked.checkLimits(decoder.limits)
            header = peeked
            partialHeader = peeked
            partial.reserveCapacity(header.frameLength)
        }
        let needed = min(header.frameLength - partial.count, input.count)
        keep(input.prefix(needed))
        input = input.dropFirst(needed)
        guard partial.count == header.frameLength else { return .needMore }
        let frameBytes = partial
        partial = []
        partialHeader = nil
        return body(frameBytes[...], header, checking: checkingBody)
    }
}

@available(*, unavailable, message: "a FrameReader owns a zlib stream; use one per stream")
extension FrameReader: Sendable {}
