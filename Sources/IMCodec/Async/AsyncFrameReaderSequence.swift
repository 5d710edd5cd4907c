/// The frames of an asynchronous byte stream, read as its chunks arrive.
///
/// An ``AsyncFrameReaderSequence`` of ``Frame``: `chunks.frames()` makes one.
///
/// ```swift
/// for try await frame in chunks.frames(limits: .default) {
///     forward(frame)
/// }
/// ```
public typealias AsyncFrameSequence<Base: AsyncSequence> = AsyncFrameReaderSequence<Base, Frame>
where Base.Element: FrameStreamChunk

/// The messages, batches and events of an asynchronous byte stream of frames,
/// decoded as the chunks arrive.
///
/// An ``AsyncFrameReaderSequence`` of ``FramePayload``: the same reading,
/// limits and ending as ``AsyncFrameSequence``, with each frame's payload
/// decoded. `chunks.framePayloads()` makes one.
///
/// ```swift
/// for try await payload in chunks.framePayloads() {
///     if case .message(let message) = payload { show(message) }
/// }
/// ```
public typealias AsyncPayloadSequence<Base: AsyncSequence> = AsyncFrameReaderSequence<Base, FramePayload>
where Base.Element: FrameStreamChunk

/// The frames, or the decoded payloads, of an asynchronous byte stream, read
/// as its chunks arrive: ``AsyncFrameSequence`` and ``AsyncPayloadSequence``.
///
/// Wraps any `AsyncSequence` of byte chunks (a file read in pieces, a socket,
/// a NIO channel's inbound stream) and yields each frame, or its payload,
/// once its last byte has arrived, whatever the chunk boundaries. A
/// ``FrameReader`` does the reading, so the same limits apply and memory
/// stays bounded by the largest frame they allow.
///
/// Iteration ends with `nil` when the source ends at a frame boundary. It
/// throws ``IMCodecError`` alone (then ends): the reader's first error,
/// `frame.truncated` when the source ends inside a frame, `stream.source`
/// holding the source's own error, and `stream.cancelled` when the task is
/// cancelled while more bytes are needed: cancellation is checked before
/// every chunk is requested and when the source ends (sources such as
/// `AsyncStream` end when their task is cancelled). Every error says which
/// frame it is about (``IMCodecError/frameIndex``,
/// ``IMCodecError/frameOffset``), and the iterator's methods declare
/// `throws(IMCodecError)`, so a loop over ``AsyncIterator/next()`` catches an
/// ``IMCodecError`` with no cast on every platform the package supports
/// (see ``AsyncIterator/next()``). A sequence
/// made with `skippingDamagedFrames:` reports a frame whose header is sound
/// but whose body (or, for payloads, whose payload) is not, and goes on with
/// the next frame, as ``FrameReader/init(limits:skippingDamagedFrames:)``
/// does.
///
/// ```swift
/// for try await payload in chunks.framePayloads(skippingDamagedFrames: { error in
///     log("skipped frame \(error.frameIndex!) at byte \(error.frameOffset!): \(error.code)")
/// }) {
///     show(payload)
/// }
/// ```
///
/// Its iterator has both reading methods of `AsyncIteratorProtocol`:
/// `next(isolation:)` where the standard library has it (macOS 15, iOS 18,
/// tvOS 18, watchOS 11, visionOS 2) and `next()` on earlier releases.
public struct AsyncFrameReaderSequence<Base: AsyncSequence, Element>: AsyncSequence
where Base.Element: FrameStreamChunk {
    private let base: Base
    private let limits: DecodingLimits
    private let output: FrameReaderOutput<Element>
    private let skippedFrameHandler: (@Sendable (IMCodecError) -> Void)?

    private init(
        _ base: Base, limits: DecodingLimits, output: FrameReaderOutput<Element>,
        skippedFrameHandler: (@Sendable (IMCodecError) -> Void)?
    ) {
        self.base = base
        self.limits = limits
        self.output = output
        self.skippedFrameHandler = skippedFrameHandler
    }

    /// Starts reading the stream; each iterator reads its own pass of `base`.
    ///
    /// - Returns: An iterator with a reader of its own.
    public func makeAsyncIterator() -> AsyncIterator {
        let reader =
            if let skippedFrameHandler {
                FrameReader(limits: limits, skippingDamagedFrames: skippedFrameHandler)
            } else {
                FrameReader(limits: limits)
            }
        return AsyncIterator(base: base.makeAsyncIterator(), reader: reader, output: output)
    }

    /// Reads the frames, or decodes the payloads, of one pass of the stream:
    /// what the reader holds first, otherwise the next chunk of the source.
    ///
    /// Not `Sendable`: it owns a ``FrameReader``. Iterate from one task.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var base: Base.AsyncIterator
        /// Internal rather than private: the tests count what it holds and
        /// copies while the source is read.
        let reader: FrameReader
        private let output: FrameReaderOutput<Element>
        private var isFinished = false

        init(base: Base.AsyncIterator, reader: FrameReader, output: FrameReaderOutput<Element>) {
            self.base = base
            self.reader = reader
            self.output = output
        }

        /// Returns the next element, waiting for as many chunks as it takes.
        ///
        /// The path of releases before `next(isolation:)`: it reads the
        /// source with its `next()`. A `for try await` loop calls
        /// ``next(isolation:)`` instead where the standard library has it.
        /// Called directly, in a `while let` loop, it throws ``IMCodecError``
        /// alone on every platform, so the `catch` of the loop reads the
        /// error's ``IMCodecError/frameIndex`` without a cast:
        ///
        /// ```swift
        /// var payloads = chunks.framePayloads().makeAsyncIterator()
        /// do {
        ///     while let payload = try await payloads.next() { show(payload) }
        /// } catch {
        ///     print("frame \(error.frameIndex ?? -1): \(error.code)")
        /// }
        /// ```
        ///
        /// - Returns: The next frame or payload, or `nil` once the stream has
        ///   ended at a frame boundary or after an error.
        /// - Throws: The codes of ``FrameReader/next()`` (frames) or
        ///   ``FrameReader/nextPayload()`` (payloads), `frame.truncated` when
        ///   the stream ends inside a frame, `stream.source` when the source
        ///   throws and `stream.cancelled` when the task is cancelled (the
        ///   source's error or the `CancellationError` as the error's
        ///   ``IMCodecError/underlyingError``).
        public mutating func next() async throws(IMCodecError) -> Element? {
            while !isFinished {
                do throws(IMCodecError) {
                    if let element = try readyElement() { return element }
                    let chunk: Base.Element?
                    do {
                        chunk = try await base.next()
                    } catch {
                        throw sourceError(error)
                    }
                    try receive(chunk)
                } catch {
                    isFinished = true
                    throw error
                }
            }
            return nil
        }

        /// Returns the next element, waiting for as many chunks as it takes
        /// on the caller's actor.
        ///
        /// Reads the source with its `next(isolation:)`, so a source
        /// isolated to the caller's actor is not left to be read elsewhere.
        ///
        /// - Parameter actor: The actor the caller runs on.
        /// - Returns: The next frame or payload, or `nil` once the stream has
        ///   ended at a frame boundary or after an error.
        /// - Throws: The errors of ``next()``, all ``IMCodecError``.
        @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(IMCodecError) -> Element? {
            while !isFinished {
                do throws(IMCodecError) {
                    if let element = try readyElement() { return element }
                    let chunk: Base.Element?
                    do {
                        chunk = try await base.next(isolation: actor)
                    } catch {
                        throw sourceError(error)
                    }
                    try receive(chunk)
                } catch {
                    isFinished = true
                    throw error
                }
            }
            return nil
        }

        /// The element the reader holds, or `nil` when it needs the next
        /// chunk, which may be asked for only while the task is not cancelled.
        private func readyElement() throws(IMCodecError) -> Element? {
            if let element = try output.next(reader) { return element }
            try checkCancellation()
            return nil
        }

        /// Hands the source's next chunk to the reader or, when the source
        /// has ended, checks that the stream did too.
        private mutating func receive(_ chunk: Base.Element?) throws(IMCodecError) {
            guard let chunk else {
                isFinished = true
                // Sources such as AsyncStream end when their task is
                // cancelled; that is not the end of the byte stream.
                try checkCancellation()
                try reader.finish()
                return
            }
            chunk.appendBytes(to: reader)
        }

        /// `stream.cancelled` when the task is cancelled.
        private func checkCancellation() throws(IMCodecError) {
            do {
                try Task.checkCancellation()
            } catch {
                throw IMCodecError(
                    .streamCancelled, reason: "the task was cancelled while the stream needed more bytes"
                ).inFrame(reader.frameCount + reader.skippedFrameCount, at: reader.offset).caused(by: error)
            }
        }

        /// `stream.source`, holding what the source threw; a
        /// `CancellationError` from the source is `stream.cancelled`.
        private func sourceError(_ error: any Error) -> IMCodecError {
            let wrapped =
                error is CancellationError
                ? IMCodecError(.streamCancelled, reason: "the source of chunks was cancelled")
                : IMCodecError(.streamSource, reason: "the source of chunks threw: \(error)")
            return wrapped.inFrame(reader.frameCount + reader.skippedFrameCount, at: reader.offset).caused(by: error)
        }
    }
}

extension AsyncFrameReaderSequence: Sendable where Base: Sendable {}

extension AsyncFrameReaderSequence where Element == Frame {
    /// Creates the sequence of the frames in a stream of chunks.
    ///
    /// - Parameters:
    ///   - base: The chunks of the stream, in order.
    ///   - limits: The limits to check every frame against.
    public init(_ base: Base, limits: DecodingLimits = .default) {
        self.init(base, limits: limits, output: .frames, skippedFrameHandler: nil)
    }

    /// Creates the sequence of the frames in a stream of chunks that skips
    /// the frames whose bodies are damaged, reporting each.
    ///
    /// - Parameters:
    ///   - base: The chunks of the stream, in order.
    ///   - limits: The limits to check every frame against.
    ///   - report: Called once for every skipped frame with its error, which
    ///     says which frame.
    public init(
        _ base: Base, limits: DecodingLimits = .default,
        skippingDamagedFrames report: @escaping @Sendable (IMCodecError) -> Void
    ) {
        self.init(base, limits: limits, output: .frames, skippedFrameHandler: report)
    }
}

extension AsyncFrameReaderSequence where Element == FramePayload {
    /// Creates the sequence of the payloads in a stream of chunks.
    ///
    /// - Parameters:
    ///   - base: The chunks of the stream, in order.
    ///   - limits: The limits to check every frame and payload against.
    public init(_ base: Base, limits: DecodingLimits = .default) {
        self.init(base, limits: limits, output: .payloads, skippedFrameHandler: nil)
    }

    /// Creates the sequence of the payloads in a stream of chunks that skips
    /// the frames whose bodies or payloads are damaged, reporting each.
    ///
    /// - Parameters:
    ///   - base: The chunks of the stream, in order.
    ///   - limits: The limits to check every frame and payload against.
    ///   - report: Called once for every skipped frame with its error, which
    ///     says which frame.
    public init(
        _ base: Base, limits: DecodingLimits = .default,
        skippingDamagedFrames report: @escaping @Sendable (IMCodecError) -> Void
    ) {
        self.init(base, limits: limits, output: .payloads, skippedFrameHandler: report)
    }
}

extension AsyncSequence where Element: FrameStreamChunk {
    /// The frames of this stream of byte chunks.
    ///
    /// - Parameter limits: The limits to check every frame against.
    /// - Returns: A sequence of frames; see ``AsyncFrameSequence``.
    public func frames(limits: DecodingLimits = .default) -> AsyncFrameSequence<Self> {
        AsyncFrameSequence(self, limits: limits)
    }

    /// The frames of this stream of byte chunks, skipping those whose bodies
    /// are damaged.
    ///
    /// - Parameters:
    ///   - limits: The limits to check every frame against.
    ///   - report: Called once for every skipped frame with its error, which
    ///     says which frame (``IMCodecError/frameIndex``) and where it starts
    ///     (``IMCodecError/frameOffset``).
    /// - Returns: A sequence of frames; see ``AsyncFrameSequence``.
    public func frames(
        limits: DecodingLimits = .default, skippingDamagedFrames report: @escaping @Sendable (IMCodecError) -> Void
    ) -> AsyncFrameSequence<Self> {
        AsyncFrameSequence(self, limits: limits, skippingDamagedFrames: report)
    }

    /// The decoded messages, batches and events of this stream of byte chunks.
    ///
    /// - Parameter limits: The limits to check every frame and payload against.
    /// - Returns: A sequence of payloads; see ``AsyncPayloadSequence``.
    public func framePayloads(limits: DecodingLimits = .default) -> AsyncPayloadSequence<Self> {
        AsyncPayloadSequence(self, limits: limits)
    }

    /// The decoded messages, batches and events of this stream of byte
    /// chunks, skipping the frames whose bodies or payloads are damaged.
    ///
    /// - Parameters:
    ///   - limits: The limits to check every frame and payload against.
    ///   - report: Called once for every skipped frame with its error, which
    ///     says which frame (``IMCodecError/frameIndex``) and where it starts
    ///     (``IMCodecError/frameOffset``).
    /// - Returns: A sequence of payloads; see ``AsyncPayloadSequence``.
    public func framePayloads(
        limits: DecodingLimits = .default, skippingDamagedFrames report: @escaping @Sendable (IMCodecError) -> Void
    ) -> AsyncPayloadSequence<Self> {
        AsyncPayloadSequence(self, limits: limits, skippingDamagedFrames: report)
    }
}
