/// A chunk of a byte stream, as an asynchronous source delivers it: what
/// ``AsyncFrameSequence`` and ``AsyncPayloadSequence`` read frames from.
///
/// Arrays and array slices of bytes conform; IMCodecNIO adds SwiftNIO's
/// `ByteBuffer`. Conform another chunk type by handing its bytes to the
/// reader, without copying them where the reader can keep a reference.
public protocol FrameStreamChunk {
    /// Appends the chunk's bytes to a frame reader.
    ///
    /// - Parameter reader: The reader of the stream the chunk belongs to.
    func appendBytes(to reader: FrameReader)
}

extension Array: FrameStreamChunk where Element == UInt8 {
    /// Appends the array to `reader`, which reads frames inside it in place.
    ///
    /// - Parameter reader: The reader of the stream the chunk belongs to.
    public func appendBytes(to reader: FrameReader) {
        reader.append(self)
    }
}

extension ArraySlice: FrameStreamChunk where Element == UInt8 {
    /// Appends the slice to `reader`, which reads frames inside it in place.
    ///
    /// - Parameter reader: The reader of the stream the chunk belongs to.
    public func appendBytes(to reader: FrameReader) {
        reader.append(self)
    }
}
