import IMCodec
import IMCodecNIO
import NIOCore
import NIOEmbedded
import Testing

/// The decoders and encoders in an EmbeddedChannel: every split of a stream,
/// errors, the end of the stream, and what the encoders write.
@Suite struct EmbeddedCodecTests {
    func payloadChannel(limits: DecodingLimits = .default) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addIMCodecPayloadHandlers(limits: limits)
        return channel
    }

    func readPayloads(_ channel: EmbeddedChannel) throws -> [FramePayload] {
        var payloads: [FramePayload] = []
        while let payload = try channel.readInbound(as: FramePayload.self) { payloads.append(payload) }
        return payloads
    }

    @Test func decodesTheStreamSplitInTwoAtEveryOffset() throws {
        let stream = Samples.stream()
        for offset in 0...stream.count {
            let channel = try payloadChannel()
            try channel.writeInbound(ByteBuffer(bytes: stream[..<offset]))
            try channel.writeInbound(ByteBuffer(bytes: stream[offset...]))
            #expect(try readPayloads(channel) == Samples.payloads, "split at \(offset)")
            #expect(try channel.finish().isClean)
        }
    }

    @Test func decodesTheStreamInThreeRandomPieces() throws {
        let stream = Samples.stream()
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let cuts = [
                Int.random(in: 0...stream.count, using: &generator),
                Int.random(in: 0...stream.count, using: &generator),
            ].sorted()
            let channel = try payloadChannel()
            for piece in [stream[..<cuts[0]], stream[cuts[0]..<cuts[1]], stream[cuts[1]...]] {
                try channel.writeInbound(ByteBuffer(bytes: piece))
            }
            #expect(try readPayloads(channel) == Samples.payloads, "cuts \(cuts)")
        }
    }

    @Test func firesTheChecksumErrorClosesAndDropsWhatFollows() throws {
        let channel = try payloadChannel()
        let before = Samples.stream(Array(Samples.payloads.prefix(2)))
        #expect {
            try channel.writeInbound(ByteBuffer(bytes: before + Samples.corruptFrame() + Samples.stream()))
        } throws: { ($0 as? IMCodecError)?.code == .frameChecksum }
        #expect(try readPayloads(channel) == Array(Samples.payloads.prefix(2)))
        #expect(!channel.isActive)
        // Bytes that still arrive are dropped, not decoded.
        _ = try? channel.writeInbound(ByteBuffer(bytes: Samples.stream()))
        #expect(try readPayloads(channel).isEmpty)
    }

    @Test func firesAPayloadErrorAndCloses() throws {
        // Field 1, length-delimited, declaring 5 bytes of which 1 follows:
        // a truncated payload inside a well-formed frame.
        let payload: [UInt8] = [0x0A, 0x05, 0x61]
        let frame = try FrameEncoder(policy: .disabled).encodeFrame(payload: payload, kind: .message)
        let channel = try payloadChannel()
        var caught: IMCodecError?
        do { try channel.writeInbound(ByteBuffer(bytes: frame)) } catch { caught = error as? IMCodecError }
        let error = try #require(caught)
        #expect(error.code.rawValue.hasPrefix("payload."))
        #expect(!channel.isActive)
    }

    @Test func firesTruncatedWhenTheStreamEndsInsideAFrame() throws {
        let stream = Samples.stream()
        let channel = try payloadChannel()
        try channel.writeInbound(ByteBuffer(bytes: stream.dropLast()))
        #expect(try readPayloads(channel) == Array(Samples.payloads.dropLast()))
        channel.pipeline.fireChannelInactive()
        #expect { try channel.throwIfErrorCaught() } throws: { ($0 as? IMCodecError)?.code == .frameTruncated }
    }

    @Test func endsCleanlyAtAFrameBoundary() throws {
        let channel = try payloadChannel()
        try channel.writeInbound(ByteBuffer(bytes: Samples.stream()))
        #expect(try readPayloads(channel) == Samples.payloads)
        #expect(try channel.finish().isClean)
    }

    @Test func refusesAnOversizedFrameBeforeItsBodyArrives() throws {
        var limits = DecodingLimits()
        limits.maxFrameBytes = 1_000
        let frame = try FrameEncoder(policy: .disabled).encode(Samples.payloads[1])
        let channel = try payloadChannel(limits: limits)
        #expect {
            try channel.writeInbound(ByteBuffer(bytes: frame.prefix(FrameHeader.maxEncodedLength)))
        } throws: { ($0 as? IMCodecError)?.code == .limitFrameSize }
        #expect(!channel.isActive)
    }

    @Test func frameDecoderPassesCheckedFramesOn() throws {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addIMCodecFrameHandlers()
        try channel.writeInbound(ByteBuffer(bytes: Samples.stream()))
        var frames: [Frame] = []
        while let frame = try channel.readInbound(as: Frame.self) { frames.append(frame) }
        #expect(frames.map { Array($0.payload) } == Samples.payloads.map { $0.serializedBytes() })
        #expect(frames.map(\.header.kind) == Samples.payloads.map(\.kind))
        // The large message was deflated on the wire and arrives inflated.
        #expect(frames[1].header.compression == .deflate)
    }

    @Test func uncheckedFrameDecoderPassesFramesWhoseChecksGiveWhatTheFrameDecoderGives() throws {
        let stream = Samples.stream()
        for offset in [0, 1, FrameHeader.maxEncodedLength, stream.count / 2, stream.count] {
            let channel = EmbeddedChannel(handler: ByteToMessageHandler(IMCodecUncheckedFrameDecoder()))
            try channel.writeInbound(ByteBuffer(bytes: stream[..<offset]))
            try channel.writeInbound(ByteBuffer(bytes: stream[offset...]))
            var frames: [UncheckedFrame] = []
            while let frame = try channel.readInbound(as: UncheckedFrame.self) { frames.append(frame) }
            #expect(frames.flatMap(\.bytes) == stream, "split at \(offset)")
            let checked = try frames.map { try FrameDecoder().decodeFrame($0.bytes) }
            #expect(checked.map { Array($0.payload) } == Samples.payloads.map { $0.serializedBytes() })
            // The large message's header says what it inflates to.
            #expect(frames[1].header.compression == .deflate)
            #expect(frames[1].header.payloadLength == Samples.payloads[1].serializedBytes().count)
            #expect(try channel.finish().isClean)
        }
    }

    @Test func uncheckedFrameDecoderLeavesABodyToItsCheckAndRefusesAHeaderAtOnce() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(IMCodecUncheckedFrameDecoder()))
        _ = try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        try channel.writeInbound(ByteBuffer(bytes: Samples.corruptFrame()))
        let damaged = try #require(try channel.readInbound(as: UncheckedFrame.self))
        #expect(throws: IMCodecError.self) { try FrameDecoder().decodeFrame(damaged.bytes) }
        #expect(channel.isActive)
        var limits = DecodingLimits()
        limits.maxFrameBytes = 1_000
        let refusing = EmbeddedChannel(handler: ByteToMessageHandler(IMCodecUncheckedFrameDecoder(limits: limits)))
        _ = try refusing.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        let frame = try FrameEncoder(policy: .disabled).encode(Samples.payloads[1])
        #expect {
            try refusing.writeInbound(ByteBuffer(bytes: frame.prefix(FrameHeader.maxEncodedLength)))
        } throws: { ($0 as? IMCodecError)?.code == .limitFrameSize }
        #expect(!refusing.isActive)
    }

    @Test func payloadEncoderFramesUnderItsPolicy() throws {
        for (policy, compressesLarge) in [(CompressionPolicy.default, true), (.disabled, false)] {
            let channel = EmbeddedChannel()
            try channel.pipeline.syncOperations.addIMCodecPayloadHandlers(policy: policy)
            for payload in Samples.payloads { try channel.writeOutbound(payload) }
            var written: [UInt8] = []
            while var buffer = try channel.readOutbound(as: ByteBuffer.self) {
                written += buffer.readBytes(length: buffer.readableBytes) ?? []
            }
            let reader = FrameReader()
            reader.append(written)
            var frames: [Frame] = []
            while let frame = try reader.next() { frames.append(frame) }
            try reader.finish()
            #expect(try frames.map { try FramePayload(decoding: $0) } == Samples.payloads)
            #expect(frames[0].header.compression == .none)
            #expect(frames[1].header.compression == (compressesLarge ? .deflate : .none))
        }
    }

    /// Writes the frames the frame decoder read from `Samples.stream()` to a
    /// channel with `encoder` and returns the bytes it wrote.
    func forward(through encoder: IMCodecFrameEncoder) throws -> [UInt8] {
        let inbound = EmbeddedChannel()
        try inbound.pipeline.syncOperations.addIMCodecFrameHandlers()
        try inbound.writeInbound(ByteBuffer(bytes: Samples.stream()))
        let outbound = EmbeddedChannel()
        try outbound.pipeline.syncOperations.addHandler(MessageToByteHandler(encoder))
        while let frame = try inbound.readInbound(as: Frame.self) { try outbound.writeOutbound(frame) }
        var written: [UInt8] = []
        while var buffer = try outbound.readOutbound(as: ByteBuffer.self) {
            written += buffer.readBytes(length: buffer.readableBytes) ?? []
        }
        return written
    }

    @Test func frameEncoderForwardsTheBytesTheFrameDecoderRead() throws {
        let stream = Samples.stream()
        // The large sample is deflated on the wire: forwarded, it stays so,
        // with the sender's body and checksum.
        #expect(stream != Samples.stream(policy: .disabled))
        #expect(try forward(through: IMCodecFrameEncoder()) == stream)
        #expect(IMCodecFrameEncoder().policy == nil)
    }

    @Test func frameEncoderFramesAgainUnderItsPolicyWhenAskedTo() throws {
        let encoder = IMCodecFrameEncoder(reframing: .disabled)
        #expect(try forward(through: encoder) == Samples.stream(policy: .disabled))
        #expect(encoder.policy == .disabled)
    }

    @Test func frameEncoderRefusesAFrameThePeersLimitsRefuse() throws {
        var limits = DecodingLimits.default
        limits.maxFrameBytes = 100
        let large = try FrameDecoder().decodeFrame(Samples.frame(Samples.payloads[1]))
        #expect(large.header.bodyLength > 100)
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(MessageToByteHandler(IMCodecFrameEncoder(limits: limits)))
        #expect {
            try channel.writeOutbound(large)
        } throws: { ($0 as? IMCodecError)?.code == .limitFrameSize }
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)
    }

    @Test func readsPayloadsFromAnAsyncSequenceOfByteBuffers() async throws {
        let stream = Samples.stream()
        let (chunks, continuation) = AsyncStream.makeStream(of: ByteBuffer.self)
        for start in stride(from: 0, to: stream.count, by: 7) {
            continuation.yield(ByteBuffer(bytes: stream[start..<min(start + 7, stream.count)]))
        }
        continuation.finish()
        var payloads: [FramePayload] = []
        for try await payload in chunks.framePayloads() { payloads.append(payload) }
        #expect(payloads == Samples.payloads)
    }
}
