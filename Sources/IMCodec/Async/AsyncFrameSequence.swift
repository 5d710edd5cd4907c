/// The frames of an asynchronous byte stream, read as its chunks arrive.
///
/// Wraps any `AsyncSequence` of byte chunks (a file read in pieces, a socket,
/// a NIO channel's inbound stream) and yields each frame once its last byte
/// has arrived, whatever the chunk boundaries. A ``FrameReader`` does the
/// reading, so the same limits apply and memory stays bounded by the
/// largest frame they allow.
///
/// ```swift
/// for try await frame in chunks.frames(limits: .default) {
///     forward(frame)
/// }
/// ```
///
/// Iteration ends with `nil` when the source ends at a frame boundary. It
/// throws the reader's first error (then ends), `frame.truncated` when the
/// source ends inside a frame, the source's own errors, and
/// `CancellationError` when the task is cancelled while more bytes are
/// needed: cancellation is checked before every chunk is requested and when
/// the source ends (sources such as `AsyncStream` end when their task is
/// cancelled).
public struct AsyncFrameSequence<Base: AsyncSequence>: AsyncSequence where Base.Element: FrameStreamChunk {
    /// A frame: its checked header and inflated payload.
    public typealias Element = Frame

    private let base: Base
    private let limits: DecodingLimits

    /// Creates the sequence of the frames in a stream of chunks.
    ///
    /// - Parameters:
    ///   - base: The chunks of the stream, in order.
    ///   - limits: The limits to check every frame against.
    public init(_ base: Base, limits: DecodingLimits = .default) {
        self.base = base
        self.limits = limits
    }

    /// Starts reading the stream; each iterator reads its own pass of `base`.
    ///
    /// - Returns: An iterator with a reader of its own.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), reader: FrameReader(limits: limits))
    }

    /// Reads the frames of one pass of the stream.
    ///
    /// Not `Sendable`: it owns a ``FrameReader``. Iterate from one task.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var stream: ChunkedFrameStream<Base.AsyncIterator>

        init(base: Base.AsyncIterator, reader: FrameReader) {
            stream = ChunkedFrameStream(base: base, reader: reader)
        }

        /// Returns the next frame, waiting for as many chunks as it takes.
        ///
        /// - Returns: The next frame, or `nil` once the stream has ended at
        ///   a frame boundary or after an error.
        /// - Throws: The codes of ``FrameReader/next()``, `frame.truncated`
        ///   when the stream ends inside a frame, the source's errors, and
        ///   `CancellationError`.
        public mutating func next() async throws -> Frame? {
            try await stream.next(isolation: nil) { reader throws(IMCodecError) in try reader.next() }
        }

        /// Returns the next frame, waiting for as many chunks as it takes on
        /// the caller's actor.
        ///
        /// - Parameter actor: The actor the caller runs on.
        /// - Returns: The next frame, or `nil` once the stream has ended at
        ///   a frame boundary or after an error.
        /// - Throws: The errors of ``next()``.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Frame? {
            try await stream.next(isolation: actor) { reader throws(IMCodecError) in try reader.next() }
        }
    }
}

extension AsyncFrameSequence: Sendable where Base: Sendable {}

/// The loop both asynchronous sequences share: read what the reader holds,
/// otherwise ask the source for a chunk.
struct ChunkedFrameStream<Base: AsyncIteratorProtocol> where Base.Element: FrameStreamChunk {
    private var base: Base
    private let reader: FrameReader
    private var isFinished = false

    init(base: Base, reader: FrameReader) {
        self.base = base
        self.reader = reader
    }

    mutating func next<Output>(
        isolation actor: isolated (any Actor)?,
        read: (FrameReader) throws(IMCodecError) -> Output?
    ) async throws -> Output? {
        while !isFinished {
            do {
                if let output = try read(reader) { return output }
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
