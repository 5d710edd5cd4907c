import ArgumentParser
import IMCodecConformance

/// `imcodec testee`: the library as a testee of the conformance runner.
struct TesteeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "testee",
        abstract: "Serve the testee protocol on standard input and output.",
        discussion: """
            Reads length-prefixed requests of the testee protocol \
            (Schemas/imcodec/testee/v1/testee.proto, docs/spec/testee-protocol.md) from standard \
            input and answers each on standard output, using the imcodec Swift \
            library. Meant to be started by 'imcodec conformance --testee'.

            Exit status: 0 when standard input ends between requests; 1 when it \
            ends inside one or the output cannot be written.
            """
    )

    func run() throws {
        let testee = InProcessTestee()
        let status = TesteeServer.serve { testee.handle($0) }
        if status != 0 { throw ExitCode(status) }
    }
}
