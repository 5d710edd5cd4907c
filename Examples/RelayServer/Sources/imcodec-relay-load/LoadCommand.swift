import ArgumentParser
import IMCodec
import IMCodecNIO
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// The relay's load tools: a bounded load, a soak with faulty clients, the
/// fan-out measurement, and the latency of a control pair beside a flooder.
@main
struct LoadTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imcodec-relay-load",
        abstract:
            "Drives an imcodec-relay on 127.0.0.1 with clients in one process and measures it; times the SwiftNIO readers alone.",
        subcommands: [
            LoadCommand.self, SoakCommand.self, FanOutCommand.self, FloodCommand.self, ByteAtATimeCommand.self,
        ],
        defaultSubcommand: LoadCommand.self
    )
}

/// The relay's address, loopback only.
struct RelayAddress: ParsableArguments {
    @Option(help: "The relay's address; loopback only (127.0.0.0/8 or ::1).")
    var host = "127.0.0.1"

    @Option(help: "The relay's TCP port, or its web port with --transport websocket.")
    var port: Int

    @Option(help: "tcp (the frame stream) or websocket (binary messages at /frames).")
    var transport = LoadTransport.tcp

    func resolve() throws -> SocketAddress {
        let address = try SocketAddress.makeAddressResolvingHost(host, port: port)
        guard let ip = address.ipAddress, ip.hasPrefix("127.") || ip == "::1" else {
            throw ValidationError("\(host) is not a loopback address; this load is for 127.0.0.1 only")
        }
        return address
    }
}

/// Drives a running relay with clients in one group over the loopback
/// interface, checks that every member receives every other member's frames
/// in order, and prints throughput and latency.
struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Sends a bounded load of frames through the relay and measures it.",
        discussion: """
            Every client joins one group, then sends --frames messages; the relay fans each out to the \
            other clients. A sender keeps at most --window frames that some member has not yet received. \
            The run stops when every frame has arrived, or fails after --timeout seconds.
            """
    )

    @OptionGroup var relay: RelayAddress

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
        let address = try relay.resolve()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let plan = LoadPlan(clients: clients, frames: frames, window: window, textBytes: textBytes)
        let run = try await loop.submit { LoadRun(plan: plan, eventLoop: loop) }.get()
        let timeout = self.timeout
        let result: LoadResult
        do {
            var channels: [Channel] = []
            for index in 0..<clients {
                channels.append(
                    try await connectClient(relay.transport, to: address, on: loop, input: .frameBytes) {
                        LoadClientHandler(run: run, index: index)
                    })
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
        print("transport \(relay.transport.rawValue)")
        print(result.report(plan: plan))
        print("clients' CPU \(processCPUSeconds()) s")
        if result.lost > 0 || result.outOfOrder > 0 { throw ExitCode.failure }
    }
}

/// The CPU time (user and system) this process has used, in seconds with
/// two decimals.
func processCPUSeconds() -> String {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let micros =
        (Int(usage.ru_utime.tv_sec) + Int(usage.ru_stime.tv_sec)) * 1_000_000
        + Int(usage.ru_utime.tv_usec) + Int(usage.ru_stime.tv_usec)
    let hundredths = (micros + 5_000) / 10_000
    return "\(hundredths / 100).\(String(hundredths % 100 + 100).dropFirst())"
}
