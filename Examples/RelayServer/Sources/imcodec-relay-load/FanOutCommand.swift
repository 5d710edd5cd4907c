import ArgumentParser
import RelayServer

/// Measures the relay's own time per message for groups of different
/// sizes, interleaved in one run, and prints each size's median beside the
/// smallest size's.
struct FanOutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fanout",
        abstract: "Measures the relay's codec time per message for groups of different sizes (in process, no sockets).",
        discussion: """
            For each size, one sender and --members other members join a group; the sender's messages are \
            read, decoded, validated and forwarded to every member, the hub flushed every --burst frames. \
            Members have no socket, so the figure is the codec's share of fan-out plus the loop over the \
            members. Sizes are measured in turn, --rounds times, and each size's median is compared with \
            the first size's.
            """
    )

    @Option(help: "The group sizes to compare (members besides the sender); the first is the reference.")
    var members: [Int] = [1, 100]

    @Option(help: "The messages of one pass.")
    var frames = 20_000

    @Option(help: "The passes per size, interleaved.")
    var rounds = 7

    @Option(help: "The frames between two flushes, as in one read burst.")
    var burst = 32

    @Option(help: "The bytes of text in each message.")
    var textBytes = 64

    @Flag(help: "Frame each payload again instead of forwarding its bytes.")
    var reframe = false

    func validate() throws {
        guard !members.isEmpty, members.allSatisfy({ $0 >= 1 }), frames >= 1, rounds >= 1, burst >= 1 else {
            throw ValidationError("members, frames, rounds and burst must be positive")
        }
    }

    func run() throws {
        var figures = Array(repeating: [Double](), count: members.count)
        for _ in 0..<rounds {
            for (index, size) in members.enumerated() {
                figures[index] += try RelayFanOut.measure(
                    members: size, frames: frames, textBytes: textBytes, burst: burst,
                    forwarding: reframe ? .reframed(.default) : .unchanged, passes: 1)
            }
        }
        let medians = figures.map { $0.sorted()[$0.count / 2] }
        print(
            "forwarding \(reframe ? "reframed" : "unchanged"), \(frames) messages of \(textBytes) text bytes a pass, "
                + "\(rounds) passes per size, flushed every \(burst)")
        for (index, size) in members.enumerated() {
            let ratio = Int((medians[index] / medians[0] * 100).rounded())
            print(
                "members \(size): median \(Int(medians[index].rounded())) ns/message, "
                    + "\(ratio / 100).\(String(ratio % 100 + 100).dropFirst())x of members \(members[0])")
        }
    }
}
