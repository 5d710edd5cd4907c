import ArgumentParser
import IMCodec
import NIOCore
import NIOPosix

/// Runs healthy clients that chat steadily beside faulty ones that
/// misbehave at random, for a bounded time, and checks that the healthy
/// ones lose nothing and see every sender's messages in order.
struct SoakCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "Soaks the relay: healthy clients beside faulty ones, for a bounded time.",
        discussion: """
            --healthy clients join --groups groups (user-N in group N mod groups) and each sends --rate \
            messages a second. Beside them --faulty slots each run one faulty client after another, \
            chosen at random: one that disconnects mid-frame, one that stalls mid-frame, one that sends \
            a message naming another sender, one that sends a message the profile refuses, one that never \
            reads, one that sends garbage, one that says nothing. After --duration seconds the healthy \
            clients stop and wait for what is in flight; the run fails when one of them lost a message, saw \
            a sender's messages out of order, or received anything else, and when a faulty client did not \
            get the relay's answer (a rejection, or its connection closed).
            """
    )

    @OptionGroup var relay: RelayAddress

    @Option(help: "Seconds of traffic.")
    var duration = 120

    @Option(help: "The healthy clients.")
    var healthy = 24

    @Option(help: "The groups the healthy clients are spread over.")
    var groups = 4

    @Option(help: "The faulty clients at any time.")
    var faulty = 8

    @Option(help: "Messages a second each healthy client sends.")
    var rate = 20

    @Option(help: "The bytes of text in each message.")
    var textBytes = 200

    @Option(help: "Seconds a faulty client waits for the relay to close it (at least the relay's timeouts).")
    var patience = 30

    @Option(help: "The seed of the faulty clients' choices.")
    var seed: UInt64 = 1

    func validate() throws {
        guard duration >= 1, healthy >= 2, groups >= 1, groups <= healthy / 2, faulty >= 0, rate >= 1,
            textBytes >= 0, patience >= 1
        else { throw ValidationError("need a duration, two healthy clients a group, and positive rates") }
    }

    func run() async throws {
        let address = try relay.resolve()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let plan = SoakPlan(
            healthy: healthy, groups: groups, rate: rate, textBytes: textBytes)
        let run = try await loop.submit { SoakRun(plan: plan, eventLoop: loop) }.get()
        var channels: [Channel] = []
        for index in 0..<healthy {
            channels.append(
                try await connectClient(relay.transport, to: address, on: loop) {
                    SoakHealthyHandler(run: run, index: index)
                })
        }
        try await loop.flatSubmit { run.join() }.get()
        try await loop.submit { run.startSending() }.get()

        let faults = SoakFaults(
            address: address, transport: relay.transport, group: group, groups: groups, healthy: healthy,
            textBytes: textBytes, patience: .seconds(Int64(patience)))
        let deadline = ContinuousClock.now + .seconds(duration)
        let seed = self.seed
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            for slot in 0..<faulty {
                tasks.addTask {
                    var random = SplitMix(seed: seed &+ UInt64(slot) &* 0x9E37_79B9_7F4A_7C15)
                    var serial = 0
                    while ContinuousClock.now < deadline {
                        serial += 1
                        await faults.runOne(
                            SoakFault.allCases[Int(random.next() % UInt64(SoakFault.allCases.count))],
                            name: "bad-\(slot)-\(serial)", random: &random)
                    }
                }
            }
            try await Task.sleep(until: deadline)
            try await tasks.waitForAll()
        }
        let result = try await loop.flatSubmit { run.stopAndWait(timeout: .seconds(30)) }.get()
        for channel in channels { try? await channel.close() }
        try await group.shutdownGracefully()

        print(
            "soak \(duration) s: \(healthy) healthy clients in \(groups) groups at \(rate) messages/s each, "
                + "\(faulty) faulty slots, transport \(relay.transport.rawValue)")
        print(result.report)
        let tally = await faults.tally
        print(tally.report)
        if !result.isClean || !tally.isClean { throw ExitCode.failure }
    }
}

/// A small seeded generator (SplitMix64), so a run's choices repeat.
struct SplitMix: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
