import IMCodec
import IMCodecNIO
import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing

/// IMCodecWebSocketHandler in an EmbeddedChannel behind NIOWebSocket's own
/// decoder: one frame per binary message, split anywhere across reads or
/// across fragments, and the close code and reason of everything else.
@Suite struct WebSocketHandlerTests {
    /// A server channel: NIOWebSocket's frame decoder (as the upgrader adds
    /// it) and the payload handler; outbound WebSocket frames are read as
    /// values.
    func serverChannel(
        limits: DecodingLimits = .default, partialFrameTimeout: TimeAmount? = .seconds(30),
        budget: IMCodecBufferBudget? = nil
    ) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(
            ByteToMessageHandler(
                WebSocketFrameDecoder(maxFrameSize: limits.maxFrameBytes + FrameHeader.maxEncodedLength)))
        try channel.pipeline.syncOperations.addHandler(
            IMCodecWebSocketPayloadHandler(limits: limits, partialFrameTimeout: partialFrameTimeout, budget: budget))
        _ = try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return channel
    }

    /// The wire bytes a client sends for these WebSocket frames, masked.
    func wire(_ frames: [(opcode: WebSocketOpcode, fin: Bool, data: [UInt8])], masked: Bool = true) throws -> [UInt8] {
        let client = EmbeddedChannel()
        try client.pipeline.syncOperations.addHandler(WebSocketFrameEncoder())
        for frame in frames {
            try client.writeOutbound(
                WebSocketFrame(
                    fin: frame.fin, opcode: frame.opcode, maskKey: masked ? [1, 2, 3, 4] : nil,
                    data: ByteBuffer(bytes: frame.data)))
        }
        var bytes: [UInt8] = []
        while var buffer = try client.readOutbound(as: ByteBuffer.self) {
            bytes += buffer.readBytes(length: buffer.readableBytes) ?? []
        }
        return bytes
    }

    func message(_ frame: [UInt8]) throws -> [UInt8] { try wire([(.binary, true, frame)]) }

    func payloads(_ channel: EmbeddedChannel) throws -> [FramePayload] {
        var payloads: [FramePayload] = []
        while let payload = try channel.readInbound(as: FramePayload.self) { payloads.append(payload) }
        return payloads
    }

    /// The close frame the handler sent: its code and reason.
    func closeFrame(_ channel: EmbeddedChannel) throws -> (code: UInt16, reason: String)? {
        while let frame = try channel.readOutbound(as: WebSocketFrame.self) {
            guard frame.opcode == .connectionClose else { continue }
            var data = frame.unmaskedData
            guard let code = data.readInteger(as: UInt16.self) else { return nil }
            return (code, data.readString(length: data.readableBytes) ?? "")
        }
        return nil
    }

    /// Feeds `bytes`, expecting the handler to fire an error.
    func failingRead(_ channel: EmbeddedChannel, _ bytes: [UInt8]) -> Error? {
        do {
            try channel.writeInbound(ByteBuffer(bytes: bytes))
            return nil
        } catch {
            return error
        }
    }

    let sample = Samples.frame(.message(Samples.message(seq: 7)))

    @Test func readsAMessageSplitAtEveryByteAcrossReads() throws {
        let bytes = try message(sample)
        for cut in 0...bytes.count {
            let channel = try serverChannel()
            try channel.writeInbound(ByteBuffer(bytes: bytes[..<cut]))
            try channel.writeInbound(ByteBuffer(bytes: bytes[cut...]))
            #expect(try payloads(channel) == [.message(Samples.message(seq: 7))], "split at \(cut)")
        }
    }

    @Test func readsAFragmentedMessageWhateverWhereTheFragmentsBreak() throws {
        for cut in 0...sample.count {
            for second in [cut, (cut + sample.count) / 2] {
                let channel = try serverChannel()
                try channel.writeInbound(
                    ByteBuffer(
                        bytes: try wire([
                            (.binary, false, Array(sample[..<cut])),
                            (.continuation, false, Array(sample[cut..<second])),
                            (.continuation, true, Array(sample[second...])),
                        ])))
                #expect(try payloads(channel) == [.message(Samples.message(seq: 7))], "cuts \(cut), \(second)")
            }
        }
    }

    @Test func readsMessagesBackToBackInOneRead() throws {
        let channel = try serverChannel()
        let payloads = Samples.payloads
        try channel.writeInbound(ByteBuffer(bytes: try payloads.flatMap { try message(Samples.frame($0)) }))
        #expect(try self.payloads(channel) == payloads)
    }

    /// Each broken message: the close code and reason it gets, and the
    /// IMCodecError code fired.
    @Test(arguments: [
        ("a frame that does not fill its message", 1007, "frame.trailing-bytes"),
        ("a frame that overruns its message", 1007, "frame.truncated"),
        ("two frames in one message", 1007, "frame.trailing-bytes"),
        ("an empty message", 1007, "frame.truncated"),
        ("a bad checksum", 1007, "frame.checksum"),
        ("bytes that are no frame", 1007, "frame.version"),
        ("a header declaring more than the limit", 1009, "limit.frame-size"),
    ])
    func closesABrokenMessageWithItsCode(what: String, code: Int, reason: String) throws {
        let frame: [UInt8] =
            switch what {
            case "a frame that does not fill its message": sample + [0]
            case "a frame that overruns its message": Array(sample.dropLast())
            case "two frames in one message": sample + sample
            case "an empty message": []
            case "a bad checksum": Samples.corruptFrame()
            case "bytes that are no frame": Array("GET / HTTP/1.1\r\n\r\n".utf8)
            default: Samples.header(declaringBody: UInt32(DecodingLimits.default.maxFrameBytes + 1))
            }
        let channel = try serverChannel()
        let error = failingRead(channel, try message(frame))
        #expect((error as? IMCodecError)?.code.rawValue == reason, "\(what)")
        let close = try closeFrame(channel)
        #expect(close?.code == UInt16(code), "\(what)")
        #expect(close?.reason == reason, "\(what)")
        #expect(try payloads(channel).isEmpty)
        // What comes after is dropped; the socket closes when the peer
        // answers the close, or two seconds later.
        try channel.writeInbound(ByteBuffer(bytes: try message(sample)))
        #expect(try payloads(channel).isEmpty)
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        #expect(!channel.isActive)
    }

    /// A server channel whose handler passes frames on with their bodies
    /// unchecked.
    func uncheckedChannel() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(
            ByteToMessageHandler(
                WebSocketFrameDecoder(
                    maxFrameSize: DecodingLimits.default.maxFrameBytes + FrameHeader.maxEncodedLength)))
        try channel.pipeline.syncOperations.addHandler(IMCodecWebSocketUncheckedFrameHandler())
        _ = try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return channel
    }

    @Test func passesFramesOnUncheckedWholeOrFragmented() throws {
        let large = Samples.frame(Samples.payloads[1], with: FrameEncoder())
        for wire in [
            try message(sample) + message(large),
            try wire([(.binary, false, Array(sample.prefix(3))), (.continuation, true, Array(sample.dropFirst(3)))])
                + message(large),
        ] {
            let channel = try uncheckedChannel()
            try channel.writeInbound(ByteBuffer(bytes: wire))
            let first = try #require(try channel.readInbound(as: UncheckedFrame.self))
            let second = try #require(try channel.readInbound(as: UncheckedFrame.self))
            #expect(first.bytes == sample[...])
            #expect(second.bytes == large[...])
            #expect(second.header.payloadLength == Samples.payloads[1].serializedBytes().count)
            #expect(
                try FramePayload(decoding: FrameDecoder().decodeFrame(first.bytes)) == .message(Samples.message(seq: 7))
            )
        }
    }

    @Test func leavesWhatFollowsAFrameToItsCheckAndClosesAShortMessage() throws {
        // A message with a byte after its frame: passed on whole, and its
        // check refuses it.
        let channel = try uncheckedChannel()
        try channel.writeInbound(ByteBuffer(bytes: try message(sample + [0])))
        let long = try #require(try channel.readInbound(as: UncheckedFrame.self))
        #expect(long.bytes == (sample + [0])[...])
        #expect { try FrameDecoder().decodeFrame(long.bytes) } throws: {
            ($0 as? IMCodecError)?.code == .frameTrailingBytes
        }
        // A message shorter than its frame: closed at once, 1007.
        let short = try uncheckedChannel()
        let error = failingRead(short, try message(Array(sample.dropLast())))
        #expect((error as? IMCodecError)?.code == .frameTruncated)
        #expect(try closeFrame(short)?.code == 1007)
    }

    @Test func closesATextMessageWith1003() throws {
        let channel = try serverChannel()
        let error = failingRead(channel, try wire([(.text, true, Array("hello".utf8))]))
        #expect((error as? IMCodecConnectionError)?.code == .textMessage)
        let close = try closeFrame(channel)
        #expect(close?.code == 1003)
        #expect(close?.reason == "connection.websocket-text")
    }

    @Test func closesAWebSocketFrameLongerThanTheLimitsAllowWith1009() throws {
        var limits = DecodingLimits.default
        limits.maxFrameBytes = 1_000
        let channel = try serverChannel(limits: limits)
        let error = failingRead(channel, try message(Array(repeating: 0, count: 1_100)))
        #expect((error as? IMCodecError)?.code == .limitFrameSize)
        let close = try closeFrame(channel)
        #expect(close?.code == 1009)
        #expect(close?.reason == "limit.frame-size")
    }

    @Test func closesProtocolBreachesWith1002() throws {
        let cases: [(String, [UInt8])] = [
            ("unmasked", try wire([(.binary, true, sample)], masked: false)),
            ("a continuation with nothing to continue", try wire([(.continuation, true, sample)])),
            ("a new message inside a fragmented one", try wire([(.binary, false, [1]), (.binary, true, sample)])),
        ]
        for (what, bytes) in cases {
            let channel = try serverChannel()
            let error = failingRead(channel, bytes)
            #expect((error as? IMCodecConnectionError)?.code == .webSocketProtocol, "\(what)")
            let close = try closeFrame(channel)
            #expect(close?.code == 1002, "\(what)")
            #expect(close?.reason == "connection.websocket-protocol", "\(what)")
        }
    }

    @Test func answersPingsAndCloses() throws {
        let channel = try serverChannel()
        try channel.writeInbound(ByteBuffer(bytes: try wire([(.ping, true, [9, 8, 7])])))
        let pong = try #require(try channel.readOutbound(as: WebSocketFrame.self))
        #expect(pong.opcode == .pong)
        #expect(pong.maskKey == nil)
        #expect(Array(buffer: pong.unmaskedData) == [9, 8, 7])
        var close: [UInt8] = [0x03, 0xE8]  // 1000
        close += Array("bye".utf8)
        try channel.writeInbound(ByteBuffer(bytes: try wire([(.connectionClose, true, close)])))
        let answer = try closeFrame(channel)
        #expect(answer?.code == 1000)
        #expect(!channel.isActive)
    }

    @Test func aFragmentedMessageMustFinishWithinThePartialFrameTimeout() throws {
        let channel = try serverChannel(partialFrameTimeout: .seconds(5))
        try channel.writeInbound(ByteBuffer(bytes: try wire([(.binary, false, Array(sample.prefix(10)))])))
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(4_999))
        #expect(try closeFrame(channel) == nil)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        let close = try closeFrame(channel)
        #expect(close?.code == 1008)
        #expect(close?.reason == "connection.partial-frame-timeout")
        #expect(throws: IMCodecConnectionError(.partialFrameTimeout, reason: "")) { try channel.throwIfErrorCaught() }
    }

    @Test func aMessageThatWouldPassTheBufferBudgetIsClosedWith1013() throws {
        let budget = IMCodecBufferBudget(capacity: 1_000)
        let large = Samples.frame(.message(Samples.message(textBytes: 2_000)))
        let channel = try serverChannel(budget: budget)
        // The first fragment fits; the bytes of the second would pass.
        try channel.writeInbound(ByteBuffer(bytes: try wire([(.binary, false, Array(large.prefix(100)))])))
        #expect(budget.reservedBytes == 100)
        let error = failingRead(
            channel, try wire([(.continuation, false, Array(large.dropFirst(100).prefix(1_000)))]))
        #expect((error as? IMCodecConnectionError)?.code == .bufferLimit)
        let close = try closeFrame(channel)
        #expect(close?.code == 1013)
        #expect(close?.reason == "connection.buffer-limit")
        #expect(budget.reservedBytes == 0)
        // A message within the budget is reserved while it arrives, and
        // given back when it is complete.
        let other = try serverChannel(budget: IMCodecBufferBudget(capacity: 4_000))
        try other.writeInbound(ByteBuffer(bytes: try wire([(.binary, false, Array(large.prefix(100)))])))
        try other.writeInbound(ByteBuffer(bytes: try wire([(.continuation, true, Array(large.dropFirst(100)))])))
        #expect(try payloads(other).count == 1)
    }

    @Test func anUnfinishedWebSocketFrameCountsAgainstTheBudgetAndTheTimeout() throws {
        let budget = IMCodecBufferBudget(capacity: 1_000_000)
        let large = Samples.frame(.message(Samples.message(textBytes: 2_000)))
        let channel = try serverChannel(partialFrameTimeout: .seconds(5), budget: budget)
        // One WebSocket frame holding the whole imcodec frame, sent but for
        // its last 10 bytes: NIOWebSocket's decoder holds it all.
        let bytes = try message(large)
        try channel.writeInbound(ByteBuffer(bytes: bytes.dropLast(10)))
        #expect(budget.reservedBytes == bytes.count - 10)
        #expect(budget.reservedWebSocketFrameBytes == bytes.count - 10)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(4_999))
        #expect(try closeFrame(channel) == nil)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        let close = try closeFrame(channel)
        #expect(close?.code == 1008)
        #expect(close?.reason == "connection.partial-frame-timeout")
        // The bytes stay in NIOWebSocket's decoder, and reserved, until the
        // socket has closed: after the close handshake, or two seconds.
        #expect(budget.reservedBytes == bytes.count - 10)
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        #expect(!channel.isActive)
        #expect(budget.reservedBytes == 0)
        // Past the budget, the same bytes close the socket with 1013.
        let small = IMCodecBufferBudget(capacity: 1_000)
        let other = try serverChannel(budget: small)
        let error = failingRead(other, Array(bytes.dropLast(10)))
        #expect((error as? IMCodecConnectionError)?.code == .bufferLimit)
        #expect(try closeFrame(other)?.code == 1013)
        #expect(small.reservedBytes == 0)
    }

    /// A 64 KiB frame in one WebSocket message fed one byte at a time: the
    /// bytes NIOWebSocket's decoder holds are exactly those fed after every
    /// byte (each held once), and the message is read whole. (1 MiB passes
    /// the same way, in about 40 s of a debug build beside the other
    /// suites: too long for every test run.)
    @Test func aLargeMessageFedOneByteAtATimeIsHeldOnceAndReadWhole() throws {
        let budget = IMCodecBufferBudget(capacity: 8 << 20)
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(
            ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: 4 << 20)))
        try channel.pipeline.syncOperations.addHandler(
            IMCodecWebSocketFrameHandler(partialFrameTimeout: nil, budget: budget))
        let large = Samples.frame(.message(Samples.message(textBytes: 64 << 10)))
        let bytes = try message(large)
        var heldOnce = true
        var byte = ByteBuffer()
        for (index, value) in bytes.enumerated() {
            byte.clear()
            byte.writeInteger(value)
            try channel.writeInbound(byte)
            if index + 1 < bytes.count, budget.reservedWebSocketFrameBytes != index + 1 { heldOnce = false }
        }
        #expect(heldOnce)
        let frame = try #require(try channel.readInbound(as: Frame.self))
        #expect(Array(frame.bytes) == large)
        #expect(budget.reservedBytes == 0)
    }

    @Test func anUnfinishedWebSocketFrameFinishedInTimeIsPassedOn() throws {
        let budget = IMCodecBufferBudget(capacity: 1_000_000)
        let channel = try serverChannel(partialFrameTimeout: .seconds(5), budget: budget)
        let bytes = try message(sample)
        for byte in bytes {
            try channel.writeInbound(ByteBuffer(bytes: [byte]))
            channel.embeddedEventLoop.advanceTime(by: .milliseconds(10))
        }
        #expect(try payloads(channel).count == 1)
        #expect(budget.reservedBytes == 0)
        channel.embeddedEventLoop.advanceTime(by: .seconds(10))
        #expect(try closeFrame(channel) == nil)
    }

    @Test func sendsEachFrameOfABufferAsItsOwnBinaryMessage() throws {
        let channel = try serverChannel()
        let frames = Samples.payloads.map { Samples.frame($0) }
        try channel.writeOutbound(ByteBuffer(bytes: frames.flatMap { $0 }))
        var sent: [[UInt8]] = []
        while let frame = try channel.readOutbound(as: WebSocketFrame.self) {
            #expect(frame.opcode == .binary && frame.fin && frame.maskKey == nil)
            sent.append(Array(buffer: frame.unmaskedData))
        }
        #expect(sent == frames)
    }
}

extension Array where Element == UInt8 {
    init(buffer: ByteBuffer) {
        self = buffer.getBytes(at: buffer.readerIndex, length: buffer.readableBytes) ?? []
    }
}
