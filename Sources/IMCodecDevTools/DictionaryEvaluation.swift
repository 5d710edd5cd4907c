import Foundation
import IMCodec

/// How well a dictionary compresses a set of payloads, framed as the library
/// frames them.
struct DictionaryEvaluation {
    /// The payload bytes.
    var payloadBytes = 0
    /// The frame bytes, headers included.
    var frameBytes = 0
    /// How many frames were compressed.
    var compressedFrames = 0
    /// Encoding time per frame, in microseconds.
    var microsecondsPerFrame = 0.0

    /// Frame bytes over payload bytes.
    var ratio: Double { Double(frameBytes) / Double(max(payloadBytes, 1)) }

    /// Frames every payload with `policy` and measures the result.
    ///
    /// - Parameters:
    ///   - payloads: The canonical payloads and their kinds.
    ///   - policy: The compression policy.
    /// - Throws: What decoding a payload or framing its value throws.
    init(payloads: [(bytes: [UInt8], kind: FrameKind)], policy: CompressionPolicy) throws(IMCodecError) {
        let encoder = FrameEncoder(policy: policy)
        // Decoded before the clock starts, so the time is the encoder's alone.
        var values: [FramePayload] = []
        for payload in payloads {
            let value = payload.bytes.withUnsafeBytes { raw in
                Result { () throws(IMCodecError) in try FramePayload(kind: payload.kind, serializedBytes: raw) }
            }
            try values.append(value.get())
        }
        var buffer: [UInt8] = []
        let start = Date()
        for (payload, value) in zip(payloads, values) {
            buffer.removeAll(keepingCapacity: true)
            let written = try encoder.encode(value, appendingTo: &buffer)
            payloadBytes += payload.bytes.count
            frameBytes += written
            if buffer[1] & 0x0C != 0 { compressedFrames += 1 }
        }
        microsecondsPerFrame = Date().timeIntervalSince(start) * 1e6 / Double(max(payloads.count, 1))
    }
}
