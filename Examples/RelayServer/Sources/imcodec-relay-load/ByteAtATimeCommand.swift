import ArgumentParser
import Dispatch
import IMCodec
import IMCodecNIO
import NIOCore
import NIOEmbedded
import NIOWebSocket

/// Measures the SwiftNIO readers on a peer that sends a large frame one byte
/// at a time: the frame decoder on a byte stream, and NIOWebSocket's decoder
/// with the WebSocket frame handler on one WebSocket message. Each byte is
/// one `channelRead` of an `EmbeddedChannel`, so the time is the pipeline's
/// per-read work plus the readers' own, and it grows linearly with the
/// frame when every byte is held once.
struct ByteAtATimeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "byte-at-a-time",
        abstract: "Times the SwiftNIO frame readers fed one large frame a byte per read.",
        discussion: """
            Builds a stored frame of one text message of about --frame-bytes bytes, feeds it one byte per \
            read to an IMCodecFrameDecoder and, as one masked binary WebSocket message, to NIOWebSocket's \
            decoder and an IMCodecWebSocketFrameHandler, each in an EmbeddedChannel with a buffer budget, \
            and prints the seconds each took (the best of --rounds), after checking that the frame read \
            back is the one fed and that the budget held each byte once. Build it in release \
            (swift build -c release) for figures.
            """
    )

    @Option(help: "The frame's length in bytes, about (1 MiB by default).")
    var frameBytes = 1 << 20

    @Option(help: "Rounds of each reader; the best is printed.")
    var rounds = 3

    func validate() throws {
        guard frameBytes >= 64, frameBytes <= DecodingLimits.default.maxFrameBytes else {
            throw ValidationError("--frame-bytes must be from 64 to \(DecodingLimits.default.maxFrameBytes)")
        }
        guard rounds >= 1 else { throw ValidationError("--rounds must be positive") }
    }

    func run() throws {
        let message = Message(
            from: "user-1", toGroup: "g", elems: [.text(String(repeating: "a", count: frameBytes - 64))])
        let frame = try FrameEncoder(policy: .disabled).encode(message)
        let webSocketMessage = try Self.maskedBinaryMessage(frame)
        var stream = Double.infinity
        var webSocket = Double.infinity
        for _ in 0..<rounds {
            stream = min(stream, try Self.streamSeconds(frame))
            webSocket = min(webSocket, try Self.webSocketSeconds(webSocketMessage, frame: frame))
        }
        print("a frame of \(frame.count) bytes fed one byte per read, best of \(rounds):")
        print("  IMCodecFrameDecoder on a byte stream: \(Self.seconds(stream)) s")
        print(
            "  NIOWebSocket's decoder and IMCodecWebSocketFrameHandler (\(webSocketMessage.count) bytes of "
                + "WebSocket message): \(Self.seconds(webSocket)) s")
    }

    /// Seconds with three decimals.
    static func seconds(_ value: Double) -> String {
        let thousandths = Int((value * 1000).rounded())
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    struct Mismatch: Error, CustomStringConvertible {
        let description: String
    }

    /// Feeds `bytes` to `channel` one byte per read; returns the seconds it
    /// took, after checking after every byte that `held` reports every byte
    /// fed so far but the last, held once.
    static func feed(_ bytes: [UInt8], to channel: EmbeddedChannel, held: () -> Int) throws -> Double {
        var byte = ByteBuffer()
        var heldOnce = true
        let start = DispatchTime.now().uptimeNanoseconds
        for (index, value) in bytes.enumerated() {
            byte.clear()
            byte.writeInteger(value)
            try channel.writeInbound(byte)
            if index + 1 < bytes.count, held() != index + 1 { heldOnce = false }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard heldOnce else { throw Mismatch(description: "a byte was held more than once") }
        return seconds
    }

    static func streamSeconds(_ frame: [UInt8]) throws -> Double {
        let budget = IMCodecBufferBudget(capacity: 8 << 20)
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(
            ByteToMessageHandler(IMCodecFrameDecoder(partialFrameTimeout: nil, budget: budget)))
        let seconds = try feed(frame, to: channel) { budget.reservedBytes }
        try check(channel, frame: frame, budget: budget)
        return seconds
    }

    static func webSocketSeconds(_ message: [UInt8], frame: [UInt8]) throws -> Double {
        let budget = IMCodecBufferBudget(capacity: 8 << 20)
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(
            ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: 4 << 20)))
        try channel.pipeline.syncOperations.addHandler(
            IMCodecWebSocketFrameHandler(partialFrameTimeout: nil, budget: budget))
        let seconds = try feed(message, to: channel) { budget.reservedWebSocketFrameBytes }
        try check(channel, frame: frame, budget: budget)
        return seconds
    }

    /// The frame read back is the one fed, and its bytes are given back.
    static func check(_ channel: EmbeddedChannel, frame: [UInt8], budget: IMCodecBufferBudget) throws {
        guard let read = try channel.readInbound(as: Frame.self), Array(read.bytes) == frame else {
            throw Mismatch(description: "the frame read back is not the one fed")
        }
        guard budget.reservedBytes == 0 else { throw Mismatch(description: "the budget kept a reservation") }
        _ = try channel.finish()
    }

    /// `frame` as one masked binary WebSocket message, as a client sends it.
    static func maskedBinaryMessage(_ frame: [UInt8]) throws -> [UInt8] {
        let client = EmbeddedChannel()
        try client.pipeline.syncOperations.addHandler(WebSocketFrameEncoder())
        try client.writeOutbound(
            WebSocketFrame(fin: true, opcode: .binary, maskKey: [1, 2, 3, 4], data: ByteBuffer(bytes: frame)))
        var bytes: [UInt8] = []
        while var buffer = try client.readOutbound(as: ByteBuffer.self) {
            bytes += buffer.readBytes(length: buffer.readableBytes) ?? []
        }
        return bytes
    }
}
