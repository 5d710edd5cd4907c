/// The messages, batches and events of an asynchronous byte stream of frames,
/// decoded as the chunks arrive.
///
/// The payload counterpart of ``AsyncFrameSequence``: the same reading,
/// limits and ending, with each frame's payload decoded into a
/// ``FramePayload``.
///
/// ```swift
/// for try await payload in chunks.framePayloads() {
///     if case .message(let message) = payload { show(message) }
/// }
/// ```
public struct AsyncPayloadSequence<Base: AsyncSequence>: AsyncSequence where Base.Element: FrameStreamChunk {
    /// A decoded message, batch or event.
    public typealias Element = FramePayload

    private let base: Base
    private let limits: DecodingLimits

    /// Creates the sequence of the payloads in a stream of chunks.
    ///
    /// - Parameters:
    ///   - base: The chunks of the stream, in order.
    ///   - limits: The limits to check every frame and payload against.
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

    /// Reads and decodes the frames of one pass of the stream.
    ///
    /// Not `Sendable`: it owns a ``FrameReader``. Iterate from one task.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var stream: ChunkedFrameStream<Base.AsyncIterator>

        init(base: Base.AsyncIterator, reader: FrameReader) {
            stream = ChunkedFrameStream(base: base, reader: reader)
        }

        /// Returns the next payload, waiting for as many chunks as it takes.
        ///
        /// - Returns: The next payload, or `nil` once the stream has ended at
        ///   a frame boundary or after an error.
        /// - Throws: The codes of ``FrameReader/nextPayload()``,
        ///   `frame.truncated` when the stream ends inside a frame, the
        ///   source's errors, and `CancellationError`.
        public mutating func next() async throws -> FramePayload? {
            try await stream.next(isolation: nil) { reader throws(IMCodecError) in try reader.nextPayload() }
        }

        /// Returns the next payload, waiting for as many chunks as it takes on
        /// the caller's actor.
        ///
        /// - Parameter actor: The actor the caller runs on.
        /// - Returns: The next payload, or `nil` once the stream has ended at
        ///   a frame boundary or after an error.
        /// - Throws: The errors of ``next()``.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> FramePayload? {
            try await stream.next(isolation: actor) { reader throws(IMCodecError) in try reader.nextPayload() }
        }
    }
}

extension AsyncPayloadSequence: Sendable where Base: Sendable {}
