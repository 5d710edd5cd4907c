import ArgumentParser
import IMCodec

/// The `imcodec` command: encode, decode, inspect and validate IM message
/// frames, and check implementations against the golden vectors.
///
/// One subcommand per file; add a new one to `subcommands`. The exit status of
/// encode, decode and inspect is 0 on success, 1 when the input is invalid
/// (with `error: <code> at <path>: <reason>` on standard error), 2 when it
/// cannot be read at all (missing, a directory, refused by the system) and 64
/// (`EX_USAGE`, ArgumentParser's own status for a `ValidationError` or a parse
/// error) on a usage error such as an unknown option or a bad option value.
/// The version `imcodec --version` prints: the release of the tool
/// (``imcodecRelease``) and the frame format's version.
let imcodecVersion = "\(imcodecRelease) (frame format \(FrameHeader.version))"

@main
struct IMCodecCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imcodec",
        abstract: "Encode, decode, inspect and validate IM message frames.",
        discussion: """
            A frame wraps one message, batch of messages or event: its canonical \
            protobuf payload, compressed with \(HelpText.compressions) when that pays, behind a header \
            with a version, kind, lengths and a CRC-32 (docs/spec/frame-format.md). \
            Values are read and written in their proto3 JSON form.

            Files are named as arguments; '-' or no name means standard input.

            Exit status of encode, decode and inspect: 0 on success; 1 on invalid \
            input, reported as 'error: <code> at <path>: <reason>' (codes in \
            docs/spec/error-and-finding-codes.md), often followed by a 'hint:' line; 2 when the input \
            cannot be read (input.missing, input.directory, input.unreadable); 64 \
            on a usage error.

            Examples:
              imcodec encode message.json > message.frame
              imcodec decode message.frame
              imcodec inspect message.frame
              imcodec encode < message.json | imcodec decode
            """,
        version: imcodecVersion,
        subcommands: [
            EncodeCommand.self,
            DecodeCommand.self,
            InspectCommand.self,
            ValidateCommand.self,
            ConformanceCommand.self,
            ReportCommand.self,
            DifferentialCommand.self,
            TesteeCommand.self,
        ]
    )
}
