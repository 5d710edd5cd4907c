import CLibFuzzer
import IMCodec
import IMCodecTraffic

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A libFuzzer custom mutator for inputs made of frames: most mutations end
/// in frames whose lengths and checksum fit, so they reach the inflater and
/// the payload decoder.
///
/// Each call picks one of three mutations, from libFuzzer's seed:
///
/// - 1 in 8: libFuzzer's own mutation, left as it is, so the header, length
///   and checksum rejections stay covered;
/// - 3 in 8: libFuzzer's own mutation of the whole input, then every frame
///   repaired (``FrameRepair``): a mutated flag, dictionary id, deflate stream
///   or payload byte now gets past the checksum;
/// - 1 in 2: libFuzzer's mutation of one frame's *payload*, written back as a
///   frame with the right lengths and checksum, deflated again when the frame
///   was (a quarter of the time with another compression or dictionary):
///   payload mutations that reach the decoder through deflated frames too.
///
/// With `IMCODEC_FUZZ_MUTATOR=plain` in the environment every call is
/// libFuzzer's own mutation, left as it is, which is how the mutator's
/// effect is measured on the same binary.
public enum FrameMutator {
    /// Whether the environment turned the mutator off.
    static let isPlain: Bool = getenv("IMCODEC_FUZZ_MUTATOR").map { String(cString: $0) == "plain" } ?? false

    /// Mutates the input libFuzzer gives a custom mutator.
    ///
    /// - Parameters:
    ///   - data: The input, with room for `maxSize` bytes.
    ///   - size: The input's size.
    ///   - maxSize: The most bytes the result may have.
    ///   - seed: libFuzzer's random seed for this mutation.
    ///   - prefixLength: Bytes before the first frame that are not frame
    ///     bytes (FuzzStream's two chunk sizes).
    ///   - singleFrame: Whether the input holds one frame (FuzzFrame) or a
    ///     stream of them (FuzzStream).
    /// - Returns: The new size.
    public static func mutate(
        _ data: UnsafeMutablePointer<UInt8>,
        size: Int,
        maxSize: Int,
        seed: UInt32,
        prefixLength: Int,
        singleFrame: Bool
    ) -> Int {
        var random = SeededGenerator(seed: UInt64(seed))
        let choice = isPlain ? 0 : random.next() % 8
        if choice >= 4, size > prefixLength,
            let mutated = mutatePayload(
                Array(UnsafeBufferPointer(start: data, count: size)), maxSize: maxSize,
                prefixLength: prefixLength, singleFrame: singleFrame, random: &random)
        {
            return store(mutated, into: data)
        }
        let mutatedSize = LLVMFuzzerMutate(data, size, maxSize)
        guard choice >= 1, mutatedSize > prefixLength else { return mutatedSize }
        let input = Array(UnsafeBufferPointer(start: data, count: mutatedSize))
        let repaired =
            Array(input[0..<prefixLength]) + FrameRepair.repair(input[prefixLength...], singleFrame: singleFrame)
        // Repaired lengths can take a byte more than the stale ones did.
        return repaired.count <= maxSize ? store(repaired, into: data) : mutatedSize
    }

    /// Mutates the payload of one frame and writes the frame again; `nil`
    /// when no frame has a payload or the result would not fit.
    static func mutatePayload(
        _ input: [UInt8],
        maxSize: Int,
        prefixLength: Int,
        singleFrame: Bool,
        random: inout SeededGenerator
    ) -> [UInt8]? {
        let (frames, rest) = FrameRepair.split(input[prefixLength...], singleFrame: singleFrame)
        let candidates = frames.indices.filter { frames[$0].content != nil }
        guard !candidates.isEmpty else { return nil }
        let chosen = candidates[Int(random.next() % UInt64(candidates.count))]
        guard let content = frames[chosen].content else { return nil }
        let room = maxSize - (input.count - content.payload.count)
        guard room > 0 else { return nil }
        var payload = content.payload + [UInt8](repeating: 0, count: max(room - content.payload.count, 0))
        let payloadSize = payload.withUnsafeMutableBufferPointer { buffer in
            LLVMFuzzerMutate(buffer.baseAddress!, content.payload.count, buffer.count)
        }
        payload.removeSubrange(payloadSize...)

        var header = frames[chosen].header
        var zstdFrame: [UInt8]?
        if random.next() % 4 == 0 {
            let known = PresetDictionary.known
            switch random.next() % 4 {
            case 0: header = stored(like: header)
            case 1: header = deflated(like: header, dictionary: nil)
            case 2 where FrameCompression.zstd.isAvailable:
                // The library's own zstd frame of the mutated payload (stored
                // when zstd does not shrink it).
                let dictionary = random.next() % 2 == 0 ? nil : known[Int(random.next() % UInt64(known.count))]
                zstdFrame = try? FrameEncoder(
                    // Levels 1 and 3: a dictionary digested at 3 takes 0.5 ms,
                    // at 19 2.5 ms, on every such mutation.
                    policy: .zstd(level: random.next() % 2 == 0 ? 1 : 3, dictionary: dictionary, threshold: 0)
                ).encodeFrame(payload: payload, kind: header.kind)
            default:
                header = deflated(like: header, dictionary: known[Int(random.next() % UInt64(known.count))].id)
            }
        }
        var body: [UInt8] = []
        switch header.compression {
        case .none:
            body = payload
        case .deflate:
            let dictionary = header.dictionaryID.flatMap { PresetDictionary(id: $0) }?.bytes
            body = RawDeflate.deflate(payload, dictionary: dictionary, level: Int32(1 + random.next() % 9))
        case .zstd:
            // Not reached: a zstd frame's payload is not mutated (FrameRepair).
            return nil
        }
        var output = Array(input[0..<prefixLength])
        for index in frames.indices {
            if index == chosen, let zstdFrame {
                output += zstdFrame
                continue
            }
            output +=
                index == chosen
                ? FrameRepair.frame(header: header, body: body, payload: payload)
                : FrameRepair.repaired(frames[index])
        }
        output += rest
        return output.count <= maxSize ? output : nil
    }

    /// `header` with compression none and no dictionary.
    static func stored(like header: FrameHeader) -> FrameHeader {
        headerFromFlags(header.kind.rawValue, dictionaryID: nil)
    }

    /// `header` with compression deflate and `dictionary`.
    static func deflated(like header: FrameHeader, dictionary: UInt32?) -> FrameHeader {
        headerFromFlags(header.kind.rawValue | 0x04 | (dictionary == nil ? 0 : 0x10), dictionaryID: dictionary)
    }

    /// A header with these flags, read back through `FrameHeader.peek` (its
    /// initialiser is internal to the library); lengths and checksum are
    /// placeholders that ``FrameRepair/frame(header:body:payload:)`` rewrites.
    static func headerFromFlags(_ flags: UInt8, dictionaryID: UInt32?) -> FrameHeader {
        var bytes: [UInt8] = [FrameHeader.version, flags]
        if let dictionaryID { bytes.appendVarint(UInt64(dictionaryID)) }
        bytes += [0, 0, 0, 0, 0, 0]
        guard let header = try? FrameHeader.peek(bytes) else {
            preconditionFailure("flags 0x\(String(flags, radix: 16)) with dictionary \(dictionaryID ?? 0) do not read")
        }
        return header
    }

    /// Copies `bytes` into libFuzzer's buffer; the caller has checked they fit.
    static func store(_ bytes: [UInt8], into data: UnsafeMutablePointer<UInt8>) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            if let base = buffer.baseAddress { data.update(from: base, count: buffer.count) }
        }
        return bytes.count
    }
}
