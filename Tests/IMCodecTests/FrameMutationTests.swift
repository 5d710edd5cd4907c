import IMCodec
import IMCodecTestSupport
import Testing

/// A deterministic, structure-aware mutation run over frames and streams:
/// every input goes through the same checks the FuzzFrame and FuzzStream
/// targets run (agreement with the C reference, validation without a crash,
/// re-framing, chunked reading equal to whole reading).
@Suite struct FrameMutationTests {
    @Test func mutatedFramesAndStreamsKeepEveryFuzzProperty() throws {
        var generator = ValueGenerator(seed: 0xF4A3E, maxLayers: 1)
        let encoders = [
            FrameEncoder(policy: .disabled), FrameEncoder(),
            FrameEncoder(policy: CompressionPolicy(threshold: 0, level: 6, dictionary: .imMessages)),
        ]
        var seeds: [[UInt8]] = []
        for index in 0..<150 {
            let payload: FramePayload =
                index % 5 == 0
                ? .event(Event.arbitrary(using: &generator)) : .message(Message.arbitrary(using: &generator))
            seeds.append(try encoders[index % encoders.count].encode(payload))
        }
        var findings: [String] = []
        var inputs = 0
        for _ in 0..<100_000 {
            var bytes = seeds[generator.choice(seeds.count)]
            for _ in 0...generator.choice(2) {
                guard !bytes.isEmpty else { break }
                let position = generator.choice(bytes.count)
                switch generator.choice(6) {
                case 0: bytes[position] ^= 1 << UInt8(generator.choice(8))
                case 1: bytes[position] = UInt8(truncatingIfNeeded: generator.next())
                case 2: bytes.removeLast(bytes.count - position)
                case 3: bytes.insert(UInt8(truncatingIfNeeded: generator.next()), at: position)
                case 4: bytes.remove(at: position)
                default: bytes += seeds[generator.choice(seeds.count)]
                }
            }
            inputs += 1
            if let finding = FuzzChecks.frame(bytes) { findings.append("frame \(bytes): \(finding)") }
            let chunking: [UInt8] = [UInt8(generator.choice(64)), UInt8(generator.choice(256))]
            if inputs % 4 == 0, let finding = FuzzChecks.stream(chunking + bytes + seeds[0]) {
                findings.append("stream \(bytes): \(finding)")
            }
        }
        #expect(findings.isEmpty, "\(findings.count) findings: \(findings.prefix(2))")
        print("frame mutations: \(inputs) frames and \(inputs / 4) streams checked, \(findings.count) findings")
    }
}
