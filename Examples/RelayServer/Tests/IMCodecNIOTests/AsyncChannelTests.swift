import IMCodec
import IMCodecNIO
import NIOCore
import NIOPosix
import Testing

/// The asynchronous sequences over a NIOAsyncChannel's inbound stream on a
/// real socket: a slow consumer keeps the server's buffered bytes bounded.
@Suite(.serialized) struct AsyncChannelTests {
    @Test func aSlowConsumerOfFramesHoldsTheSocketBack() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let bytesRead = Locked(0)
        let server = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteCounter(count: bytesRead))
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(
                        wrappingChannelSynchronously: channel,
                        configuration: .init(backPressureStrategy: .init(lowWatermark: 2, highWatermark: 4)))
                }
            }
        let port = try #require(server.channel.localAddress?.port)

        // 2,000 frames of about 10 KB: 20 MB, far more than the socket
        // buffers hold.
        let count = 2_000
        let text = String(repeating: "0123456789", count: 1_000)
        let frames = try (0..<count).map { seq in
            var message = Samples.message(sender: "fast", seq: seq)
            message.elems = [.text(text)]
            return try FrameEncoder(policy: .disabled).encode(message)
        }
        let total = frames.reduce(0) { $0 + $1.count }
        let replies = Locked<[UInt8]>([])
        let client = try await ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteCollector(bytes: replies))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        let sending = Task {
            for frame in frames {
                client.writeAndFlush(ByteBuffer(bytes: frame), promise: nil)
                while !client.isWritable { try await Task.sleep(for: .milliseconds(1)) }
            }
        }

        var consumed = 0
        var consumedBytes = 0
        var mostAhead = 0
        var sequences: [Int] = []
        try await server.executeThenClose { connections in
            for try await connection in connections {
                try await connection.executeThenClose { inbound, outbound in
                    for try await frame in inbound.frames() {
                        consumed += 1
                        consumedBytes += frame.header.frameLength
                        mostAhead = max(mostAhead, bytesRead.withLock { $0 } - consumedBytes)
                        if case .message(let message) = try FramePayload(decoding: frame) {
                            sequences.append(Int(message.seq))
                        }
                        if consumed % 50 == 0 { try await Task.sleep(for: .milliseconds(10)) }
                        if consumed == count { break }
                    }
                    // The async writer answers on the same channel.
                    let writer = AsyncFrameWriter(outbound: outbound, policy: .disabled)
                    var done = Message()
                    done.sender = "server"
                    done.receiver = "fast"
                    done.seq = UInt64(consumed)
                    try await writer.write(.message(done))
                }
                break
            }
        }
        try await sending.value
        #expect(sequences == Array(0..<count))
        // The server read at most a few reads ahead of its consumer, not the
        // 20 MB the client had to send.
        #expect(mostAhead < 2 << 20, "the server read \(mostAhead) bytes ahead of \(total)")

        try await eventually("the server's answer") {
            let bytes = replies.withLock { $0 }
            let reader = FrameReader()
            reader.append(bytes)
            guard let payload = try reader.nextPayload(), case .message(let message) = payload else { return false }
            return message.seq == UInt64(count) && message.sender == "server"
        }
        // The server closed the connection when it was done with it.
        try await client.closeFuture.get()
        try await group.shutdownGracefully()
    }
}

/// Counts the bytes a connection reads.
final class ByteCounter: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    let count: Locked<Int>

    init(count: Locked<Int>) {
        self.count = count
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data).readableBytes
        count.withLock { $0 += bytes }
        context.fireChannelRead(data)
    }
}

/// Keeps every byte a client receives.
final class ByteCollector: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    let bytes: Locked<[UInt8]>

    init(bytes: Locked<[UInt8]>) {
        self.bytes = bytes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        let read = buffer.readBytes(length: buffer.readableBytes) ?? []
        bytes.withLock { $0 += read }
    }
}
