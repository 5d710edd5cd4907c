import CBenchmarkPeers
import Foundation
import IMCodec
import IMCodecOracle
import IMCodecTraffic
import SwiftProtobuf

/// How frames are compressed in a benchmark, for this library and the C
/// reference alike.
public enum FramePolicy: String, CaseIterable, Sendable {
    /// Never compress.
    case none
    /// The default policy: deflate level 6 from 256 bytes, no dictionary.
    case `default`
    /// Deflate level 6 with the shipped dictionary 2, from 0 bytes (the
    /// threshold a writer lowers to with a dictionary, docs/DICTIONARY.md).
    case dictionary
    /// zstd level 3 with the shipped zstd dictionary 4, from 0 bytes
    /// (`CompressionPolicy.zstd()`).
    case zstd

    /// This library's policy.
    public var policy: CompressionPolicy {
        switch self {
        case .none: .disabled
        case .default: .default
        case .dictionary: CompressionPolicy(threshold: 0, level: 6, dictionary: .imMessages2)
        case .zstd: .zstd(level: 3, dictionary: .zstdMessages, threshold: 0)
        }
    }

    /// The C reference's arguments: compression, threshold, level, dictionary id.
    var reference: (compression: Int32, threshold: UInt64, level: Int32, dictionary: UInt32) {
        switch self {
        case .none: (0, 0, 6, 0)
        case .default: (1, 256, 6, 0)
        case .dictionary: (1, 0, 6, 2)
        case .zstd: (2, 0, 3, 4)
        }
    }
}

/// One set of values, held the way each implementation holds it before it
/// encodes: this library's model, swift-protobuf's generated types and
/// protobuf-c's unpacked structures, with the canonical bytes they all encode
/// to.
public final class PreparedValues<Value: FrameContent, Oracle: SwiftProtobuf.Message> {
    /// This library's values.
    public let values: [Value]
    /// Their canonical encodings.
    public let payloads: [[UInt8]]
    /// The same values as swift-protobuf messages.
    public let oracle: [Oracle]
    /// The same values unpacked by protobuf-c.
    public let protobufC: [UnsafeMutableRawPointer]
    /// The frame kind number of `Value` (1 message, 2 batch).
    public let kind: Int32

    /// Prepares `values`; every implementation must encode them to the same bytes.
    public init(_ values: [Value]) {
        self.values = values
        payloads = values.map { $0.serializedBytes() }
        kind = Int32(Value.frameKind.rawValue)
        do {
            oracle = try payloads.map { try Oracle(serializedBytes: $0) }
        } catch {
            preconditionFailure("swift-protobuf refuses a corpus payload: \(error)")
        }
        let kind = self.kind
        protobufC = payloads.map { payload in
            guard let unpacked = payload.withUnsafeBufferPointer({ bench_pbc_unpack(kind, $0.baseAddress, $0.count) })
            else { preconditionFailure("protobuf-c refuses a corpus payload") }
            return unpacked
        }
    }

    deinit {
        for message in protobufC { bench_pbc_free(message) }
    }

    /// The number of values.
    public var count: Int { values.count }

    /// The total size of the canonical payloads.
    public var payloadBytes: Int { payloads.reduce(0) { $0 + $1.count } }

    /// Checks that swift-protobuf and protobuf-c encode every value to the
    /// canonical bytes.
    ///
    /// - Returns: A description of the first difference, or `nil`.
    public func checkAgreement() -> String? {
        for index in 0..<count {
            let fromOracle: [UInt8]
            do { fromOracle = try oracle[index].serializedBytes() } catch { return "swift-protobuf: \(error)" }
            if fromOracle != payloads[index] { return "swift-protobuf encodes value \(index) differently" }
            let size = bench_pbc_packed_size(protobufC[index])
            var packed = [UInt8](repeating: 0, count: size)
            _ = packed.withUnsafeMutableBufferPointer { bench_pbc_pack(protobufC[index], $0.baseAddress) }
            if packed != payloads[index] { return "protobuf-c encodes value \(index) differently" }
        }
        return nil
    }

    /// Frames every value with this library.
    ///
    /// - Throws: What the encoder throws for a value past the default limits.
    public func frames(_ policy: FramePolicy) throws(IMCodecError) -> [[UInt8]] {
        let encoder = FrameEncoder(policy: policy.policy)
        var frames: [[UInt8]] = []
        for value in values { frames.append(try encoder.encode(value)) }
        return frames
    }

    /// Frames every value with the C reference.
    public func referenceFrames(_ policy: FramePolicy, codec: ReferenceCodec) -> [[UInt8]] {
        protobufC.map { message in
            var out: UnsafeMutablePointer<UInt8>?
            let length = codec.encodeFrame(kind: kind, message: message, policy: policy, into: &out)
            defer { bench_free(out) }
            return Array(UnsafeBufferPointer(start: out, count: length))
        }
    }

    /// Frames every value the naive way: a new zlib stream per frame, always compressing.
    public func naiveFrames() -> [[UInt8]] {
        payloads.map { payload in
            var out: UnsafeMutablePointer<UInt8>?
            let length = payload.withUnsafeBufferPointer { bench_naive_compress($0.baseAddress, $0.count, &out) }
            defer { bench_free(out) }
            return Array(UnsafeBufferPointer(start: out, count: length))
        }
    }
}

/// The C reference's reusable zlib streams.
public final class ReferenceCodec {
    let codec: OpaquePointer

    /// Creates the streams.
    public init() {
        guard let codec = bench_cref_new() else { preconditionFailure("out of memory") }
        self.codec = codec
    }

    deinit { bench_cref_free(codec) }

    /// Packs `message` with protobuf-c and frames it with the C reference.
    ///
    /// - Returns: The frame length; 0 on failure.
    @discardableResult
    public func encodeFrame(
        kind: Int32, message: UnsafeMutableRawPointer, policy: FramePolicy,
        into out: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>? = nil
    ) -> Int {
        let arguments = policy.reference
        return bench_cref_encode_frame(
            codec, kind, message, arguments.compression, arguments.threshold, arguments.level, arguments.dictionary, out
        )
    }

    /// Decodes a frame into protobuf-c structures with the C reference's
    /// checks and pre-scan, then releases them.
    ///
    /// - Returns: Whether the frame decoded.
    public func decodeFrame(_ frame: [UInt8]) -> Bool {
        frame.withUnsafeBufferPointer { bench_cref_decode_frame(codec, $0.baseAddress, $0.count) != 0 }
    }

    /// The C reference's public `imcodec_ref_decode_frame`, which answers the
    /// canonical re-encoding of the payload.
    ///
    /// - Returns: Whether the frame decoded.
    public func decodeFramePublic(_ frame: [UInt8]) -> Bool {
        frame.withUnsafeBufferPointer { bench_cref_decode_frame_public(codec, $0.baseAddress, $0.count) != 0 }
    }
}

/// libzstd alone, set up as the frame format uses it (magicless, no content
/// size, checksum or dictionary id, the dictionary digested once), with a
/// buffer it reuses: what a zstd frame costs beyond its payload's encoding
/// and its frame.
public final class ZstdAlone {
    let zstd: OpaquePointer
    var buffer = [UInt8](repeating: 0, count: 1 << 20)

    /// Creates the compressor and decompressor at `level` with `dictionary`.
    public init(level: Int, dictionary: PresetDictionary) {
        guard
            let zstd = dictionary.bytes.withUnsafeBufferPointer({
                bench_zstd_new(Int32(level), $0.baseAddress, $0.count)
            })
        else { preconditionFailure("libzstd refused its parameters") }
        self.zstd = zstd
    }

    deinit { bench_zstd_free(zstd) }

    /// Compresses `payload` into a body one byte shorter than it, as the
    /// frame encoder does.
    ///
    /// - Returns: The body's length, 0 when it does not fit.
    public func compress(_ payload: [UInt8]) -> Int {
        let capacity = max(payload.count - 1, 0)
        return buffer.withUnsafeMutableBufferPointer { out in
            payload.withUnsafeBufferPointer {
                bench_zstd_compress(zstd, $0.baseAddress, $0.count, out.baseAddress, capacity)
            }
        }
    }

    /// Decompresses a body into the buffer.
    ///
    /// - Returns: The payload's length, 0 on failure.
    public func decompress(_ body: ArraySlice<UInt8>, payloadLength: Int) -> Int {
        buffer.withUnsafeMutableBufferPointer { out in
            body.withUnsafeBufferPointer {
                bench_zstd_decompress(zstd, $0.baseAddress, $0.count, out.baseAddress, payloadLength)
            }
        }
    }
}

/// The peers' single calls, so benchmarks and checks share them.
public enum Peer {
    /// protobuf-c: size, allocate, pack, release.
    public static func protobufCEncode(_ message: UnsafeMutableRawPointer) -> Int {
        bench_pbc_encode(message)
    }

    /// protobuf-c: unpack and release.
    public static func protobufCDecode(_ payload: [UInt8], kind: Int32) -> Bool {
        payload.withUnsafeBufferPointer { bench_pbc_decode(kind, $0.baseAddress, $0.count) != 0 }
    }

    /// Naive zlib: a new stream, always compressing, around this library's payload.
    public static func naiveEncode<Value: WireMessage>(_ value: Value) -> Int {
        let payload = value.serializedBytes()
        return payload.withUnsafeBufferPointer { bench_naive_compress($0.baseAddress, $0.count, nil) }
    }

    /// Naive zlib: a new stream to inflate, then this library's decoder.
    public static func naiveDecode<Value: WireMessage>(_ frame: [UInt8], as type: Value.Type) throws -> Value {
        var length = 0
        guard let payload = frame.withUnsafeBufferPointer({ bench_naive_uncompress($0.baseAddress, $0.count, &length) })
        else { throw IMCodecError(.frameDeflate, reason: "naive frame does not inflate") }
        defer { bench_free(payload) }
        return try Value(serializedBytes: UnsafeRawBufferPointer(start: payload, count: length))
    }

    /// swift-protobuf: the payload of one of this library's frames, read in place.
    public static func oracleDecode<Oracle: SwiftProtobuf.Message>(_ payload: ArraySlice<UInt8>, as type: Oracle.Type)
        throws -> Oracle
    {
        try payload.withUnsafeBytes { raw in
            let data = Data(
                bytesNoCopy: UnsafeMutableRawPointer(mutating: raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!),
                count: raw.count, deallocator: .none)
            return try Oracle(serializedBytes: data)
        }
    }

    /// The C reference's streaming reader over `stream`, fed `chunk` bytes at a time.
    ///
    /// - Returns: The number of frames, or -1 on an error.
    public static func referenceReadStream(_ stream: [UInt8], chunk: Int) -> Int {
        stream.withUnsafeBufferPointer { bench_cref_read_stream($0.baseAddress, $0.count, chunk) }
    }
}

/// The C reference's streaming reader over one stream.
public final class ReferenceStreamReader {
    let reader: UnsafeMutableRawPointer

    /// Creates a reader with the default limits.
    public init() {
        guard let reader = bench_cref_reader_new() else { preconditionFailure("out of memory") }
        self.reader = reader
    }

    deinit { bench_cref_reader_free(reader) }

    /// Feeds `bytes`, `chunk` bytes at a time, reading every frame they complete.
    ///
    /// - Returns: The number of frames, or -1 on an error.
    public func read(_ bytes: UnsafeRawBufferPointer, chunk: Int) -> Int {
        bench_cref_reader_read(reader, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, chunk)
    }
}

/// Everything the benchmarks run on, prepared once.
public final class Workload {
    /// The corpus.
    public let corpus: Corpus
    /// The traffic.
    public let messages: PreparedValues<IMCodec.Message, Imcodec_V1_Message>
    /// The 300-message merger.
    public let merger: PreparedValues<IMCodec.Message, Imcodec_V1_Message>
    /// The 20-message history pages.
    public let batches: PreparedValues<MessageBatch, Imcodec_V1_MessageBatch>

    /// Prepares the default corpus.
    public init(seed: UInt64 = Corpus.defaultSeed) {
        corpus = Corpus(seed: seed)
        messages = PreparedValues(corpus.messages)
        merger = PreparedValues([corpus.merger])
        batches = PreparedValues(corpus.batches)
    }

    /// A stream of at least `bytes` bytes: the traffic's frames under the
    /// default policy, repeated.
    public func stream(bytes: Int) throws(IMCodecError) -> [UInt8] {
        let frames = try messages.frames(.default)
        var stream: [UInt8] = []
        stream.reserveCapacity(bytes + 65_536)
        while stream.count < bytes {
            for frame in frames { stream.append(contentsOf: frame) }
        }
        return stream
    }
}
