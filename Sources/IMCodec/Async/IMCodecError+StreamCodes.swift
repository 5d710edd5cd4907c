extension IMCodecError.Code {
    // MARK: Asynchronous frame sequences (AsyncFrameReaderSequence)

    /// The task iterating an asynchronous frame or payload sequence was
    /// cancelled while the sequence needed more bytes; the error's
    /// ``IMCodecError/underlyingError`` is the `CancellationError`. Swift's
    /// own, not the format's.
    public static let streamCancelled = Self("stream.cancelled")
    /// The source of chunks of an asynchronous frame or payload sequence
    /// threw; the error's ``IMCodecError/underlyingError`` is what it threw.
    /// Swift's own, not the format's.
    public static let streamSource = Self("stream.source")
}
