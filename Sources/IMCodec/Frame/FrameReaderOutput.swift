/// What a stream's reader yields: its checked frames (``FrameReader/next()``),
/// its frames with their bodies unchecked (``FrameReader/nextUnchecked()``)
/// or their decoded payloads (``FrameReader/nextPayload()``).
///
/// The one difference between the forms of the readers
/// built on ``FrameReader``: the asynchronous sequences
/// (``AsyncFrameSequence``, ``AsyncPayloadSequence``) and IMCodecNIO's
/// decoders are each one generic type over it.
package struct FrameReaderOutput<Element>: Sendable {
    /// Returns the reader's next element, or `nil` when it needs more bytes.
    package let next: @Sendable (FrameReader) throws(IMCodecError) -> Element?
}

extension FrameReaderOutput where Element == Frame {
    /// The reader's frames, checked and inflated.
    package static var frames: Self {
        Self { reader throws(IMCodecError) in try reader.next() }
    }
}

extension FrameReaderOutput where Element == FramePayload {
    /// The messages, batches and events the reader's frames carry.
    package static var payloads: Self {
        Self { reader throws(IMCodecError) in try reader.nextPayload() }
    }
}

extension FrameReaderOutput where Element == UncheckedFrame {
    /// The reader's frames, their headers checked, their bodies not.
    package static var uncheckedFrames: Self {
        Self { reader throws(IMCodecError) in try reader.nextUnchecked() }
    }
}
