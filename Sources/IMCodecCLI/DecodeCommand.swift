import ArgumentParser
import IMCodec
import IMCodecREST
import IMCodecValidation

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

            --to restapi writes each message or batch as Tencent Cloud IM REST JSON \
            (Sources/IMCodecREST/IMCodecREST.docc/REST.md) instead: a message with no envelope field as a bare \
            MsgBody array, else a message object; a batch as {"MsgList": [...]}. A \
            value the REST form cannot hold (an event, a group tips elem, a msgId, \
            ...) stops decoding with 'rest.unrepresentable' and its path.

            Examples:
              imcodec decode message.frame
              imcodec encode < message.json | imcodec decode
              imcodec decode --pretty - < messages.frames
              imcodec decode --to restapi message.frame
            """
    )

    @OptionGroup var inputOptions: InputOptions
    @OptionGroup var outputOptions: OutputOptions
    @OptionGroup(title: "Reader limits") var limitOptions: LimitOptions

    @Flag(help: "Indent the JSON, one member per line.")
    var pretty = false

    @Option(help: "The output's JSON: json (proto3 JSON, the default) or restapi (Tencent REST MsgBody JSON).")
    var to: DocumentFormatOption = .json

    func run() throws {
        let output = try outputOptions.open()
        let reader = FrameReader(limits: limitOptions.limits)
        // Where the frame being read starts: the reader's counters move past
        // a frame before its payload is decoded and exported.
        var frameIndex = 0
        var frameStart = 0
        var read = 0
        do {
            try inputOptions.forEachChunk { chunk in
                if read == 0, let kind = nonFrameKind(of: chunk) {
                    throw notFrames(inputOptions.input, kind: kind, command: "imcodec decode").reported()
                }
                read += chunk.count
                reader.append(chunk)
                while true {
                    (frameIndex, frameStart) = (reader.frameCount, reader.offset)
                    guard let payload = try reader.nextPayload() else { break }
                    switch to {
                    case .json:
                        output.write(line: payload.jsonString(pretty: pretty))
                    case .restapi:
                        let text = try RESTCodec.export(payload)
                        output.write(
                            line: pretty ? try JSONValue(parsing: Array(text.utf8)).serialized(pretty: true) : text)
                    }
                }
            }
            guard read > 0 else { throw emptyInput(inputOptions.input).reported() }
            (frameIndex, frameStart) = (reader.frameCount, reader.offset)
            try reader.finish()
        } catch let error as IMCodecError {
            throw report(error, context: inputOptions.context(frameLocation(frameIndex, byte: frameStart)))
        }
    }
}
