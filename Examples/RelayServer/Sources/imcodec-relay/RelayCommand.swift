import ArgumentParser
import Dispatch
import IMCodec
import IMCodecValidation
import NIOPosix
import RelayServer

/// Runs the relay server until it is sent SIGINT or SIGTERM, then prints what
/// it did.
@main
struct RelayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imcodec-relay",
        abstract: "Relays IM frames between the members of groups, validating every message."
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 lets the system choose and prints it.")
    var port = 0

    @Option(help: "The validation profile: \(ValidationLimits.profileNames.joined(separator: ", ")).")
    var profile = "sdk-guide"

    @Flag(help: "Fan frames out uncompressed.")
    var noCompression = false

    func run() async throws {
        guard let limits = ValidationLimits.profile(named: profile) else {
            throw ValidationError("unknown profile \(profile); known: \(ValidationLimits.profileNames)")
        }
        var configuration = RelayConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.profile = limits
        if noCompression { configuration.policy = .disabled }

        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let server = try await RelayServer.start(configuration: configuration, on: group.next())
        print("listening on \(server.localAddress)")
        if let port = server.localAddress.port { print("port \(port)") }
        // Scripts wait for the port line; stdout is a pipe there, not a terminal.
        fflush(nil)

        await waitForSignal()
        let statistics = try await server.statistics()
        print(
            """
            connections \(statistics.connections), frames received \(statistics.framesReceived), \
            delivered \(statistics.framesDelivered), rejected \(statistics.messagesRejected), \
            unrouted \(statistics.framesUnrouted), joins refused \(statistics.joinsRefused), \
            failed connections \(statistics.connectionsFailed), read pauses \(statistics.readPauses)
            """)
        try await server.close()
        try await group.shutdownGracefully()
    }
}

/// Returns when the process receives SIGINT or SIGTERM.
private func waitForSignal() async {
    let signals: [Int32] = [SIGINT, SIGTERM]
    for signal in signals { _ = Glibc.signal(signal, SIG_IGN) }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let box = SignalSources(signals: signals) { continuation.resume() }
        box.start()
    }
}

/// The dispatch sources of the signals that stop the server; the first to
/// fire resumes the waiting task, once.
private final class SignalSources: @unchecked Sendable {
    // @unchecked: `sources` and `fired` are touched on `queue` only.
    private let queue = DispatchQueue(label: "imcodec-relay.signals")
    private var sources: [DispatchSourceSignal] = []
    private var fired = false
    private let signals: [Int32]
    private let onSignal: @Sendable () -> Void

    init(signals: [Int32], onSignal: @escaping @Sendable () -> Void) {
        self.signals = signals
        self.onSignal = onSignal
    }

    func start() {
        queue.sync {
            for signal in signals {
                let source = DispatchSource.makeSignalSource(signal: signal, queue: queue)
                source.setEventHandler { [self] in
                    guard !fired else { return }
                    fired = true
                    onSignal()
                }
                source.resume()
                sources.append(source)
            }
        }
    }
}
