import ArgumentParser
import IMCodec
import IMCodecNIO
import NIOCore
import NIOPosix

/// Drives a running relay with clients in one group over the loopback
/// interface, checks that every member receives every other member's frames
/// in order, and prints throughput and latency.
@main
struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imcodec-relay-load",
        abstract: "Sends a bounded load of frames through an imcodec-relay on 127.0.0.1 and measures it.",
        discussion: """
            Every client joins one group, then sends --frames messages; the relay fans each out to the \
            other clients. A sender keeps at most --window frames that some member has not yet received. \
            The run stops when every frame has arrived, or fails after --timeout seconds.
            """
    )

    @Option(help: "The relay's address; loopback only (127.0.0.0/8 or ::1).")
    var host = "127.0.0.1"

    @Option(help: "The relay's port.")
    var port: Int

    @Option(help: "The number of clients, all in one group.")
    var clients = 4

    @Option(help: "The number of messages each client sends.")
    var frames = 250_000

    @Option(help: "The most frames of one sender in flight (sent, not yet received by every member).")
    var window = 256

    @Option(help: "The bytes of text in each message.")
    var textBytes = 64

    @Option(help: "Seconds after which the run fails.")
    var timeout = 300

    func validate() throws {
        guard clients >= 2, frames >= 1, window >= 1, textBytes >= 0, timeout >= 1 else {
            throw ValidationError("need at least 2 clients and positive frames, window and timeout")
        }
    }

    func run() async throws {
        let address = try SocketAddress.makeAddressResolvingHost(host, port: port)
        guard let ip = address.ipAddress, ip.hasPrefix("127.") || ip == "::1" else {
            throw ValidationError("\(host) is not a loopback address; this load is for 127.0.0.1 only")
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let plan = LoadPlan(clients: clients, frames: frames, window: window, textBytes: textBytes)
        let run = try await loop.submit { LoadRun(plan: plan, eventLoop: loop) }.get()
        let timeout = self.timeout
        let result: LoadResult
        do {
            var channels: [Channel] = []
            for index in 0..<clients {
                let channel = try await ClientBootstrap(group: loop)
                    .channelOption(.tcpOption(.tcp_nodelay), value: 1)
                    .channelInitializer { channel in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(IMCodecFrameDecoder()))
                            try channel.pipeline.syncOperations.addHandler(LoadClientHandler(run: run, index: index))
                        }
                    }
                    .connect(to: address)
                    .get()
                channels.append(channel)
            }
            result = try await loop.flatSubmit {
                loop.scheduleTask(in: .seconds(Int64(timeout))) { run.fail("timed out after \(timeout) s") }
                run.start()
                return run.done.futureResult
            }.get()
            for channel in channels { try? await channel.close() }
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
        try await group.shutdownGracefully()
        print(result.report(plan: plan))
        if result.lost > 0 || result.outOfOrder > 0 { throw ExitCode.failure }
    }
}
