import ArgumentParser
import IMCodec

/// `imcodec decode`: frames in, JSON out.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode a frame or a stream of frames to proto3 JSON.",
        discussion: """
            Reads frames back to back, as they arrive, and writes the value of each \
            as one line of compact proto3 JSON (or indented with --pretty). Frames \
            of any kind may be mixed; 'imcodec inspect' shows the kind of each.

            Every frame is checked (version, flags, lengths against the default \
            decoding limits, deflate stream, CRC-32) before its payload is decoded. \
            The first problem stops decoding with exit status 1; the frames before \
            it have been written.

            Examples:
              imcodec decode message.frame
              imcodec encode < message.json | imcodec decode
              imcodec decode --pretty - < messages.frames
            """
    )

    @OptionGroup var inputOptions: InputOptions
    @OptionGroup var outputOptions: OutputOptions

    @Flag(help: "Indent the JSON, one member per line.")
    var pretty = false

    func run() throws {
        let output = try outputOptions.open()
        let reader = FrameReader()
        do {
            try inputOptions.forEachChunk { chunk in
                reader.append(chunk)
                while let payload = try reader.nextPayload() {
                    output.write(line: payload.jsonString(pretty: pretty))
                }
            }
            try reader.finish()
        } catch let error as IMCodecError {
            throw report(error, context: "frame \(reader.frameCount) at byte \(reader.offset)")
        }
    }
}
