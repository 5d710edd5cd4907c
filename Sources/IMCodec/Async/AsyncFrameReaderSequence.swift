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
/// throws the reader's first error (then ends), `frame.truncated` when the
/// source ends inside a frame, the source's own errors, and
/// `CancellationError` when the task is cancelled while more bytes are
/// needed: cancellation is checked before every chunk is requested and when
/// the source ends (sources such as `AsyncStream` end when their task is
/// cancelled).
public struct AsyncFrameReaderSequence<Base: AsyncSequence, Element>: AsyncSequence
where Base.Element: FrameStreamChunk {
    private let base: Base
    private let limits: DecodingLimits
    private let output: FrameReaderOutput<Element>

    private init(_ base: Base, limits: DecodingLimits, output: FrameReaderOutput<Element>) {
        self.base = base
        self.limits = limits
        self.output = output
    }

    /// Starts reading the stream; each iterator reads its own pass of `base`.
    ///
    /// - Returns: An iterator with a reader of its own.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), reader: FrameReader(limits: limits), output: output)
    }

    /// Reads the frames, or decodes the payloads, of one pass of the stream:
    /// what the reader holds first, otherwise the next chunk of the source.
    ///
    /// Not `Sendable`: it owns a ``FrameReader``. Iterate from one task.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var base: Base.AsyncIterator
        private let reader: FrameReader
        private let output: FrameReaderOutput<Element>
        private var isFinished = false

        init(base: Base.AsyncIterator, reader: FrameReader, output: FrameReaderOutput<Element>) {
            self.base = base
            self.reader = reader
            self.output = output
        }

        /// Returns the next element, waiting for as many chunks as it takes.
        ///
        /// - Returns: The next frame or payload, or `nil` once the stream has
        ///   ended at a frame boundary or after an error.
        /// - Throws: The codes of ``FrameReader/next()`` (frames) or
        ///   ``FrameReader/nextPayload()`` (payloads), `frame.truncated` when
        ///   the stream ends inside a frame, the source's errors, and
        ///   `CancellationError`.
        public mutating func next() async throws -> Element? {
            try await next(isolation: nil)
        }

        /// Returns the next element, waiting for as many chunks as it takes
        /// on the caller's actor.
        ///
        /// - Parameter actor: The actor the caller runs on.
        /// - Returns: The next frame or payload, or `nil` once the stream has
        ///   ended at a frame boundary or after an error.
        /// - Throws: The errors of ``next()``.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Element? {
            while !isFinished {
                do {
                    if let element = try output.next(reader) { return element }
                    try Task.checkCancellation()
                    guard let chunk = try await base.next(isolation: actor) else {
                        isFinished = true
                        // Sources such as AsyncStream end when their task is
                        // cancelled; that is not the end of the byte stream.
                        try Task.checkCancellation()
                        try reader.finish()
                        return nil
                    }
                    chunk.appendBytes(to: reader)
                } catch {
                    isFinished = true
                    throw error
                }
            }
            return nil
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
        self.init(base, limits: limits, output: .frames)
    }
}

extension AsyncFrameReaderSequence where Element == FramePayload {
    /// Creates the sequence of the payloads in a stream of chunks.
    ///
    /// - Parameters:
    ///   - base: The chunks of the stream, in order.
    ///   - limits: The limits to check every frame and payload against.
    public init(_ base: Base, limits: DecodingLimits = .default) {
        self.init(base, limits: limits, output: .payloads)
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

    /// The decoded messages, batches and events of this stream of byte chunks.
    ///
    /// - Parameter limits: The limits to check every frame and payload against.
    /// - Returns: A sequence of payloads; see ``AsyncPayloadSequence``.
    public func framePayloads(limits: DecodingLimits = .default) -> AsyncPayloadSequence<Self> {
        AsyncPayloadSequence(self, limits: limits)
    }
}
