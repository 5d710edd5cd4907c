import ArgumentParser
import Foundation
import IMCodec

/// `imcodec inspect`: every header field, the sizes, the integrity check and
/// the decoded value of each frame.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show the header, sizes, integrity and value of each frame.",
        discussion: """
            For each frame of the input: its offset, every header field (version, \
            flags with kind, compression and dictionary bit, dictionary id, body \
            length, payload length, checksum), the header and frame sizes, the \
            compression ratio (body / payload), whether the checksum and deflate \
            stream check out, and the decoded value as indented proto3 JSON.

            A frame that fails a check is shown as far as it could be read, then \
            the error; the exit status is then 1.

            Examples:
              imcodec inspect message.frame
              imcodec encode --threshold 0 < message.json | imcodec inspect
            """
    )

    @OptionGroup var inputOptions: InputOptions
    @OptionGroup(title: "Reader limits") var limitOptions: LimitOptions

    @Flag(help: "Leave out the decoded values.")
    var headersOnly = false

    func run() throws {
        let bytes = try inputOptions.readAll()[...]
        guard !bytes.isEmpty else { throw emptyInput(inputOptions.input).reported() }
        if let kind = nonFrameKind(of: bytes) {
            throw notFrames(inputOptions.input, kind: kind, command: "imcodec inspect").reported()
        }
        let decoder = FrameDecoder(limits: limitOptions.limits)
        var offset = bytes.startIndex
        var index = 0
        while offset < bytes.endIndex {
            let rest = bytes[offset...]
            print(frameLocation(index, byte: offset))
            do {
                guard let header = try FrameHeader.peek(rest) else {
                    _ = try decoder.decodeFrame(rest)  // throws frame.truncated with its reason
                    return
                }
                printHeader(header)
                let frame = try decoder.decodeFrame(rest.prefix(header.frameLength))
                print(
                    "  integrity       ok (checksum matches\(header.compression == .none ? "" : ", \(header.compression) stream complete"))"
                )
                if !headersOnly {
                    let payload = try FramePayload(decoding: frame, limits: decoder.limits)
                    print("  \(header.kind):")
                    for line in payload.jsonString(pretty: true).split(
                        separator: "\n", omittingEmptySubsequences: false)
                    {
                        print("    \(line)")
                    }
                }
                offset += header.frameLength
                index += 1
            } catch {
                print("  integrity       failed: \(error.code)")
                throw report(error, context: inputOptions.context(frameLocation(index, byte: offset)))
            }
        }
    }

    private func printHeader(_ header: FrameHeader) {
        let flagNames =
            [
                "kind \(header.kind.rawValue) (\(header.kind))",
                "compression \(header.compression.rawValue) (\(header.compression))",
            ]
            + (header.dictionaryID == nil ? [] : ["dictionary"])
        field("version", "\(FrameHeader.version)")
        field("flags", "0x\(hex(header.flags, digits: 2)) = " + flagNames.joined(separator: ", "))
        field("kind", "\(header.kind)")
        field("compression", "\(header.compression)")
        field("dictionary", header.dictionaryID.map { "\($0)" } ?? "none")
        field("body length", "\(header.bodyLength)")
        field("payload length", "\(header.payloadLength)" + (header.compression == .none ? " (the body)" : ""))
        field("checksum", "0x\(hex(header.checksum, digits: 8)) (CRC-32 of header and payload)")
        field("header size", "\(header.encodedLength) bytes")
        field("frame size", "\(header.frameLength) bytes")
        if header.payloadLength > 0 {
            let ratio = Double(header.bodyLength) / Double(header.payloadLength)
            field("ratio", "\((ratio * 1000).rounded() / 1000) (body / payload)")
        }
    }

    private func field(_ name: String, _ value: String) {
        print("  " + name.padding(toLength: 16, withPad: " ", startingAt: 0) + value)
    }

    private func hex(_ value: some BinaryInteger, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
