import IMCodec
import Testing

/// A decoded frame keeps the bytes it was read from, which a relay forwards
/// unchanged (`Frame.bytes`).
@Suite struct FrameBytesTests {
    /// The frames of `sampleStream()` (every kind, stored, deflated and
    /// deflated with a dictionary), each as its own array.
    func frames() throws -> [[UInt8]] {
        let (stream, _) = try sampleStream()
        let reader = FrameReader()
        reader.append(stream)
        var frames: [[UInt8]] = []
        var start = 0
        while try reader.next() != nil {
            frames.append(Array(stream[start..<reader.offset]))
            start = reader.offset
        }
        return frames
    }

    @Test func everyDecoderKeepsTheBytesItReadExactly() throws {
        let frames = try frames()
        #expect(Set(try frames.map { try FrameDecoder().decodeFrame($0).header.compression }).count >= 2)
        for bytes in frames {
            let fromArray = try FrameDecoder().decodeFrame(bytes)
            let fromPointer = try bytes.withUnsafeBytes { raw in try FrameDecoder().decodeFrame(raw) }
            #expect(Array(fromArray.bytes) == bytes)
            #expect(Array(fromPointer.bytes) == bytes)
            #expect(fromArray.bytes.count == fromArray.header.frameLength)
        }
    }

    @Test func aReaderKeepsEachFramesBytesWhateverTheSplit() throws {
        let frames = try frames()
        let stream = frames.flatMap { $0 }
        for cut in stride(from: 0, through: stream.count, by: 97) {
            let reader = FrameReader()
            var read: [[UInt8]] = []
            for piece in [stream[..<cut], stream[cut...]] {
                reader.append(piece)
                while let frame = try reader.next() { read.append(Array(frame.bytes)) }
            }
            try reader.finish()
            #expect(read == frames, "split at \(cut)")
        }
    }

    @Test func forwardedBytesDecodeToTheSameFrame() throws {
        for bytes in try frames() {
            let frame = try FrameDecoder().decodeFrame(bytes)
            let again = try FrameDecoder().decodeFrame(frame.bytes)
            #expect(again == frame)
            #expect(again.header.checksum == frame.header.checksum)
        }
    }
}
