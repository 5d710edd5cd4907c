import IMCodec

/// The two ways an iterator of the frame sequences is read: the one a
/// `for try await` loop takes where the standard library has
/// `next(isolation:)`, and the one of the releases before it (README, "Apple
/// platforms"). Linux has both, so the tests run both.
public enum AsyncPath: String, CaseIterable, Sendable {
    /// `next(isolation:)`: macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2.
    case isolation
    /// `next()`: every release.
    case portable
}

extension AsyncFrameReaderSequence {
    /// Every element, read through `path`, or the first error.
    ///
    /// - Parameter path: The iterator's method to call.
    /// - Returns: The elements, in order.
    /// - Throws: What the iterator throws.
    public func collect(via path: AsyncPath) async throws(IMCodecError) -> [Element] {
        var iterator = makeAsyncIterator()
        var elements: [Element] = []
        while let element = try await iterator.next(via: path) { elements.append(element) }
        return elements
    }
}

extension AsyncFrameReaderSequence.AsyncIterator {
    /// The next element, read through `path`.
    ///
    /// - Parameter path: The iterator's method to call.
    /// - Returns: The next element, or `nil` at the end.
    /// - Throws: What the iterator throws, an ``IMCodecError`` on both paths.
    public mutating func next(via path: AsyncPath) async throws(IMCodecError) -> Element? {
        switch path {
        case .isolation: try await next(isolation: nil)
        case .portable: try await next()
        }
    }
}

/// An asynchronous source of the given chunks, in order.
///
/// - Parameter chunks: The chunks.
/// - Returns: A stream that yields them and ends.
public func asyncChunkStream(_ chunks: [[UInt8]]) -> AsyncStream<[UInt8]> {
    AsyncStream { continuation in
        for chunk in chunks { continuation.yield(chunk) }
        continuation.finish()
    }
}
