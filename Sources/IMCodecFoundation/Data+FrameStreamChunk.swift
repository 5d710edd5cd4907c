import IMCodec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Data: FrameStreamChunk {
    /// Appends the data's bytes to `reader`, copying them once.
    ///
    /// This makes any asynchronous sequence of `Data` (an `AsyncStream<Data>`,
    /// the chunks of a file or a socket read with Foundation) a source of
    /// `AsyncFrameSequence` and `AsyncPayloadSequence`:
    ///
    /// ```swift
    /// for try await payload in dataChunks.framePayloads() { ... }
    /// ```
    ///
    /// - Parameter reader: The reader of the stream the chunk belongs to.
    public func appendBytes(to reader: FrameReader) {
        withUnsafeBytes { reader.append($0) }
    }
}

extension FrameReader {
    /// Appends the next chunk of the stream, held in `Data`, copying it once.
    ///
    /// - Parameter data: The bytes that arrived; any length, split anywhere.
    public func append(_ data: Data) {
        data.withUnsafeBytes { append($0) }
    }
}
