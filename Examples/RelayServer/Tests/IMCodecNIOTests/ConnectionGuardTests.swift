import IMCodec
import IMCodecNIO
import NIOCore
import NIOEmbedded
import NIOPosix
import Testing

/// The guards of IMCodecNIO in EmbeddedChannels (with the loop's clock
/// moved by hand) and over loopback: the partial-frame timeout, the shared
/// buffer budget, the outbound bound and its policies, the idle timeout.
@Suite struct ConnectionGuardTests {
    func decoderChannel(
        partialFrameTimeout: TimeAmount? = .seconds(1), budget: IMCodecBufferBudget? = nil
    ) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(
            ByteToMessageHandler(IMCodecPayloadDecoder(partialFrameTimeout: partialFrameTimeout, budget: budget)))
        _ = try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return channel
    }

    func caughtError(_ channel: EmbeddedChannel) -> Error? {
        do {
            try channel.throwIfErrorCaught()
            return nil
        } catch {
            return error
        }
    }

    let frame = Samples.frame(.message(Samples.message()))

    @Test func halfAFrameFollowedBySilenceFailsAtThePartialFrameTimeout() throws {
        let channel = try decoderChannel()
        try channel.writeInbound(ByteBuffer(bytes: frame.prefix(frame.count / 2)))
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(999))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect((caughtError(channel) as? IMCodecConnectionError)?.code == .partialFrameTimeout)
        #expect(!channel.isActive)
    }

    @Test func theTimeoutCountsFromAFramesFirstByteNotFromTheLastRead() throws {
        let channel = try decoderChannel()
        // A frame trickled in a byte every 100 ms never finishes in time,
        // though the connection is never silent.
        for byte in frame.prefix(10) {
            try channel.writeInbound(ByteBuffer(bytes: [byte]))
            channel.embeddedEventLoop.advanceTime(by: .milliseconds(100))
        }
        #expect((caughtError(channel) as? IMCodecConnectionError)?.code == .partialFrameTimeout)
        #expect(!channel.isActive)
    }

    @Test func wholeFramesNeverStartTheTimer() throws {
        let channel = try decoderChannel()
        for _ in 0..<20 {
            try channel.writeInbound(ByteBuffer(bytes: frame))
            channel.embeddedEventLoop.advanceTime(by: .milliseconds(400))
        }
        // And a frame that completes in time stops it.
        try channel.writeInbound(ByteBuffer(bytes: frame.prefix(5)))
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(900))
        try channel.writeInbound(ByteBuffer(bytes: frame.dropFirst(5)))
        channel.embeddedEventLoop.advanceTime(by: .seconds(5))
        #expect(channel.isActive)
        var count = 0
        while try channel.readInbound(as: FramePayload.self) != nil { count += 1 }
        #expect(count == 21)
    }

    @Test func noTimeoutWhenTurnedOff() throws {
        let channel = try decoderChannel(partialFrameTimeout: nil)
        try channel.writeInbound(ByteBuffer(bytes: frame.prefix(5)))
        channel.embeddedEventLoop.advanceTime(by: .hours(1))
        #expect(channel.isActive)
    }

    @Test func aSharedBudgetRefusesTheBytesThatWouldPassIt() throws {
        let budget = IMCodecBufferBudget(capacity: 5_000)
        // The start of a frame: its header and 2,900 of its 3,000 body bytes.
        let start = Samples.header(declaringBody: 3_000) + [UInt8](repeating: 0x5A, count: 2_900)
        let first = try decoderChannel(budget: budget)
        let second = try decoderChannel(budget: budget)
        try first.writeInbound(ByteBuffer(bytes: start))
        #expect(budget.reservedBytes == start.count)
        #expect(first.isActive)
        // The second's header alone fits; its body would pass the budget.
        try second.writeInbound(ByteBuffer(bytes: start.prefix(8)))
        #expect(second.isActive)
        #expect(throws: IMCodecConnectionError(.bufferLimit, reason: "")) {
            try second.writeInbound(ByteBuffer(bytes: start.dropFirst(8)))
        }
        #expect(!second.isActive)
        // Closing the first gives its reservation back, and a third fits.
        _ = try? first.finish()
        #expect(budget.reservedBytes == 0)
        let third = try decoderChannel(budget: budget)
        try third.writeInbound(ByteBuffer(bytes: start))
        #expect(third.isActive)
    }

    @Test func aHeaderThatDeclaresALargeFrameReservesOnlyTheBytesSent() throws {
        // 16 headers each declaring almost 4 MiB take 16 x 8 bytes of a
        // 64 MiB budget, not all of it.
        let budget = IMCodecBufferBudget(capacity: 64 << 20)
        let header = Samples.header(declaringBody: UInt32(DecodingLimits.default.maxFrameBytes - 64))
        var channels: [EmbeddedChannel] = []
        for _ in 0..<16 {
            let channel = try decoderChannel(budget: budget)
            try channel.writeInbound(ByteBuffer(bytes: header))
            channels.append(channel)
        }
        #expect(budget.reservedBytes == 16 * header.count)
        #expect(channels.allSatisfy { $0.isActive })
    }

    /// A 64 KiB frame fed one byte at a time: the decoder holds each byte
    /// once (its reservation is exactly the bytes fed after every byte: the
    /// handler's own buffer never grows and nothing is held twice), so the
    /// work is linear in the frame's length. (1 MiB passes the same way;
    /// fed through an EmbeddedChannel in a debug build it takes about 20 s
    /// beside the other suites, too long for every test run.)
    @Test func aLargeFrameFedOneByteAtATimeIsHeldOnceAndReadWhole() throws {
        let budget = IMCodecBufferBudget(capacity: 8 << 20)
        let large = Samples.frame(.message(Samples.message(textBytes: 64 << 10)))
        let channel = try feedOneByteAtATime(
            large, ByteToMessageHandler(IMCodecFrameDecoder(partialFrameTimeout: nil, budget: budget)), budget)
        let frame = try #require(try channel.readInbound(as: Frame.self))
        #expect(Array(frame.bytes) == large)
    }

    /// The same for the decoder that leaves bodies unchecked.
    @Test func aLargeFrameFedOneByteAtATimeIsHeldOnceAndPassedOnUnchecked() throws {
        let budget = IMCodecBufferBudget(capacity: 8 << 20)
        let large = Samples.frame(.message(Samples.message(textBytes: 64 << 10)))
        let channel = try feedOneByteAtATime(
            large, ByteToMessageHandler(IMCodecUncheckedFrameDecoder(partialFrameTimeout: nil, budget: budget)), budget)
        let frame = try #require(try channel.readInbound(as: UncheckedFrame.self))
        #expect(Array(frame.bytes) == large)
    }

    /// Feeds `frame` to `handler` one byte per read, expecting the budget
    /// to hold exactly the bytes fed after every byte but the last, and
    /// nothing after it.
    func feedOneByteAtATime(_ frame: [UInt8], _ handler: some ChannelHandler, _ budget: IMCodecBufferBudget) throws
        -> EmbeddedChannel
    {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(handler)
        var heldOnce = true
        var byte = ByteBuffer()
        for (index, value) in frame.enumerated() {
            byte.clear()
            byte.writeInteger(value)
            try channel.writeInbound(byte)
            if index + 1 < frame.count, budget.reservedBytes != index + 1 { heldOnce = false }
        }
        #expect(heldOnce)
        #expect(budget.reservedBytes == 0)
        return channel
    }

    @Test func aCompletedFrameGivesItsReservationBack() throws {
        let budget = IMCodecBufferBudget(capacity: 100_000)
        let large = Samples.frame(.message(Samples.message(textBytes: 20_000)))
        let channel = try decoderChannel(budget: budget)
        try channel.writeInbound(ByteBuffer(bytes: large.prefix(1_000)))
        #expect(budget.reservedBytes == 1_000)
        try channel.writeInbound(ByteBuffer(bytes: large.dropFirst(1_000)))
        #expect(budget.reservedBytes == 0)
        #expect(try channel.readInbound(as: FramePayload.self) != nil)
    }

    // MARK: The outbound bound

    func limitedChannel(_ policy: IMCodecOutboundLimitHandler.Policy) throws -> (
        EmbeddedChannel, IMCodecOutboundLimitHandler
    ) {
        let channel = EmbeddedChannel()
        let handler = IMCodecOutboundLimitHandler(maxQueuedBytes: 1_000, policy: policy)
        try channel.pipeline.syncOperations.addHandler(handler)
        _ = try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return (channel, handler)
    }

    @Test func aSlowPeerIsDisconnectedUnderTheDefaultPolicy() throws {
        let (channel, _) = try limitedChannel(.disconnect)
        try channel.writeOutbound(ByteBuffer(bytes: frame))
        channel.isWritable = false
        let write = channel.write(ByteBuffer(bytes: frame))
        #expect((caughtError(channel) as? IMCodecConnectionError)?.code == .slowConsumer)
        #expect(!channel.isActive)
        #expect(throws: IMCodecConnectionError(.slowConsumer, reason: "")) { try write.wait() }
    }

    @Test func framesForASlowPeerAreDroppedUnderTheDropPolicy() throws {
        let (channel, handler) = try limitedChannel(.drop)
        channel.isWritable = false
        let dropped = channel.writeAndFlush(ByteBuffer(bytes: frame))
        #expect(throws: IMCodecConnectionError(.slowConsumer, reason: "")) { try dropped.wait() }
        #expect(handler.droppedCount == 1)
        #expect(channel.isActive)
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)
        channel.isWritable = true
        try channel.writeOutbound(ByteBuffer(bytes: frame))
        #expect(try channel.readOutbound(as: ByteBuffer.self) == ByteBuffer(bytes: frame))
    }

    @Test func framesQueueUnderTheBackpressurePolicy() throws {
        let (channel, handler) = try limitedChannel(.backpressure)
        channel.isWritable = false
        try channel.writeOutbound(ByteBuffer(bytes: frame))
        #expect(try channel.readOutbound(as: ByteBuffer.self) == ByteBuffer(bytes: frame))
        #expect(handler.droppedCount == 0)
        #expect(channel.isActive)
    }

    @Test func aNeverReadingPeerIsDisconnectedOverLoopbackWithinTheBound() async throws {
        let bound = 64 << 10
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let accepted = Locked<[Channel]>([])
        let errors = Locked<[String]>([])
        let server = try await ServerBootstrap(group: group)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        IMCodecOutboundLimitHandler(maxQueuedBytes: bound, policy: .disconnect))
                    try channel.pipeline.syncOperations.addHandler(ErrorRecorder(errors: errors))
                    accepted.withLock { $0.append(channel) }
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let client = try await ClientBootstrap(group: group)
            .channelOption(.autoRead, value: false)
            .channelOption(.socketOption(.so_rcvbuf), value: 4_096)
            .connect(host: "127.0.0.1", port: server.localAddress?.port ?? 0).get()
        try await eventually("the accepted connection") { accepted.withLock { $0.count == 1 } }
        let peer = try #require(accepted.withLock { $0.first })
        // The initializer runs before the accepted channel is active.
        try await eventually("the accepted connection active") { peer.isActive }
        // Write 10 KB frames until the handler closes the peer, checking
        // what is queued before each write: never more than the bound and
        // one frame.
        let chunk = ByteBuffer(bytes: Samples.frame(.message(Samples.message(textBytes: 10_000))))
        var written = 0
        var largestQueue = 0
        while peer.isActive, written < 100_000 {
            guard
                let queued = try? await peer.eventLoop.submit({
                    try peer.syncOptions?.getOption(.bufferedWritableBytes) ?? 0
                }).get()
            else { break }
            largestQueue = max(largestQueue, queued)
            peer.writeAndFlush(chunk, promise: nil)
            written += 1
            if written % 50 == 0 { try await Task.sleep(for: .milliseconds(1)) }
        }
        try await peer.closeFuture.get()
        #expect(!peer.isActive)
        #expect(errors.withLock { $0 } == ["connection.slow-consumer"])
        #expect(largestQueue <= bound + chunk.readableBytes)
        try await client.close()
        try await server.close()
        try await group.shutdownGracefully()
    }

    // MARK: The idle timeout

    @Test func aConnectionThatSaysNothingIsClosedAtTheIdleTimeoutOverLoopback() async throws {
        // IdleStateHandler reads the real clock, so this runs on real sockets,
        // with margins wide enough for a loaded machine (one test of many
        // running at once on two cores): the talker's pauses are a thirtieth
        // of the timeout.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let errors = Locked<[String]>([])
        let server = try await ServerBootstrap(group: group)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addIMCodecIdleTimeout(.seconds(3))
                    try channel.pipeline.syncOperations.addHandler(ErrorRecorder(errors: errors))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let port = server.localAddress?.port ?? 0
        let started = ContinuousClock.now
        let silent = try await connectRawClient(port: port, group: group)
        let talker = try await connectRawClient(port: port, group: group)
        let silentClosed = Task {
            try await silent.closeFuture.get()
            return ContinuousClock.now - started
        }
        // The talker sends a byte every 100 ms for four seconds: never idle.
        for _ in 0..<40 {
            try await talker.send([1])
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(talker.isActive)
        let silentAfter = try await silentClosed.value
        #expect(silentAfter >= .seconds(3) && silentAfter < .milliseconds(4500))
        // Then it stops, and is closed in turn.
        try await talker.closeFuture.get()
        #expect(errors.withLock { $0 } == ["connection.idle-timeout", "connection.idle-timeout"])
        try await server.close()
        try await group.shutdownGracefully()
    }
}

/// Records the codes of the connection errors that reach the end of the
/// pipeline.
final class ErrorRecorder: ChannelInboundHandler {
    typealias InboundIn = NIOAny
    let errors: Locked<[String]>

    init(errors: Locked<[String]>) {
        self.errors = errors
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        let code =
            (error as? IMCodecConnectionError)?.code.rawValue ?? (error as? IMCodecError)?.code.rawValue ?? "\(error)"
        errors.withLock { $0.append(code) }
    }
}
