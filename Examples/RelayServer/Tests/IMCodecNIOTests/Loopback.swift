import IMCodec
import IMCodecNIO
import NIOCore
import NIOPosix
import Synchronization

/// A value behind a lock, shared by reference between a test and the
/// handlers on the event loop.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) {
        mutex = Mutex(value)
    }

    func withLock<Result: Sendable>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try mutex.withLock { value in try body(&value) }
    }
}

/// What a test server saw on one connection.
struct ConnectionLog: Sendable {
    var bytesRead = 0
    var reads = 0
    var payloads: [FramePayload] = []
    var errors: [IMCodecError] = []
    var otherErrors: [String] = []
    var isClosed = false
}

/// A server on 127.0.0.1 whose connections run IMCodecPayloadDecoder and log
/// what comes out of it, per connection in the order they were accepted.
final class LoggingServer: Sendable {
    let group: MultiThreadedEventLoopGroup
    let channel: Channel
    let logs = Locked<[ConnectionLog]>([])

    /// - Parameter readSize: When set, every read takes at most this many
    ///   bytes, whatever has arrived.
    init(readSize: Int? = nil, limits: DecodingLimits = .default) async throws {
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let logs = self.logs
        var bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
        if let readSize {
            bootstrap = bootstrap.childChannelOption(
                .recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: readSize))
        }
        channel = try await bootstrap.childChannelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                let index = logs.withLock { logs in
                    logs.append(ConnectionLog())
                    return logs.count - 1
                }
                try channel.pipeline.syncOperations.addHandler(ReadCounter(logs: logs, index: index))
                try channel.pipeline.syncOperations.addHandler(
                    ByteToMessageHandler(IMCodecPayloadDecoder(limits: limits)))
                try channel.pipeline.syncOperations.addHandler(PayloadLogger(logs: logs, index: index))
            }
        }
        .bind(host: "127.0.0.1", port: 0).get()
    }

    var port: Int { channel.localAddress?.port ?? 0 }

    func log(_ index: Int) -> ConnectionLog {
        logs.withLock { $0.indices.contains(index) ? $0[index] : ConnectionLog() }
    }

    func shutdown() async throws {
        try await channel.close()
        try await group.shutdownGracefully()
    }
}

/// Counts the bytes and reads of a connection before the decoder sees them.
final class ReadCounter: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    let logs: Locked<[ConnectionLog]>
    let index: Int

    init(logs: Locked<[ConnectionLog]>, index: Int) {
        self.logs = logs
        self.index = index
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let count = unwrapInboundIn(data).readableBytes
        logs.withLock {
            $0[index].bytesRead += count
            $0[index].reads += 1
        }
        context.fireChannelRead(data)
    }
}

/// Records the decoder's payloads and errors, and the end of the connection.
final class PayloadLogger: ChannelInboundHandler {
    typealias InboundIn = FramePayload
    let logs: Locked<[ConnectionLog]>
    let index: Int

    init(logs: Locked<[ConnectionLog]>, index: Int) {
        self.logs = logs
        self.index = index
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let payload = unwrapInboundIn(data)
        logs.withLock { $0[index].payloads.append(payload) }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        logs.withLock {
            if let error = error as? IMCodecError {
                $0[index].errors.append(error)
            } else {
                $0[index].otherErrors.append("\(error)")
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        logs.withLock { $0[index].isClosed = true }
        context.fireChannelInactive()
    }
}

/// A client that writes raw bytes; whatever comes back is ignored.
func connectRawClient(port: Int, group: EventLoopGroup) async throws -> Channel {
    try await ClientBootstrap(group: group)
        .channelOption(.tcpOption(.tcp_nodelay), value: 1)
        .connect(host: "127.0.0.1", port: port).get()
}

extension Channel {
    func send(_ bytes: some Sequence<UInt8>) async throws {
        try await writeAndFlush(ByteBuffer(bytes: Array(bytes))).get()
    }
}

struct TimedOut: Error, CustomStringConvertible {
    var what: String
    var description: String { "timed out waiting for \(what)" }
}

/// Polls `condition` until it holds; throws after `seconds`.
func eventually(
    _ what: String, seconds: Double = 20, _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw TimedOut(what: what) }
        try await Task.sleep(for: .milliseconds(2))
    }
}
