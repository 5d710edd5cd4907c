import IMCodec
import Logging
import NIOCore
import NIOEmbedded

/// The fan-out measurement of `imcodec-relay-load fanout`: the relay's own
/// work per message for a group of a given size, in process and without
/// sockets.
///
/// One sender and `members` other members join a group of a hub; then the
/// sender's group messages (pre-encoded frames, `textBytes` of text each)
/// are read by a `FrameReader` and handed to the hub, which decodes,
/// validates, and forwards each to every member, `burst` frames handed to
/// the hub at a time as after a read burst. The members have no channel, so a
/// write to one costs the loop over the group and the call, not a socket:
/// what is measured is the codec's share, which forwarding keeps the same
/// whatever the group's size.
package enum RelayFanOut {
    /// The nanoseconds per message of one pass over `frames` messages.
    ///
    /// - Parameters:
    ///   - members: The members besides the sender.
    ///   - frames: The messages of one pass.
    ///   - textBytes: The bytes of text in each message.
    ///   - burst: The frames between two flushes.
    ///   - forwarding: Forwarding unchanged or framing again.
    ///   - passes: How many passes to time.
    /// - Returns: One figure per pass.
    package static func measure(
        members: Int, frames: Int, textBytes: Int, burst: Int, forwarding: RelayConfiguration.Forwarding,
        passes: Int
    ) throws -> [Double] {
        let loop = EmbeddedEventLoop()
        var configuration = RelayConfiguration()
        configuration.forwarding = forwarding
        configuration.logger = Logger(label: "fanout") { _ in SwiftLogNoOpLogHandler() }
        let hub = RelayHub(eventLoop: loop, configuration: configuration)
        let encoder = FrameEncoder()
        let sender = RelayConnection(hub: hub, transport: .tcp, eventLoop: loop)
        let group = "fan-out"
        var others: [RelayConnection] = []
        for index in 0...members {
            let connection = index == 0 ? sender : RelayConnection(hub: hub, transport: .tcp, eventLoop: loop)
            if index > 0 { others.append(connection) }
            let join = try FrameDecoder().decodeFrame(
                encoder.encode(Message(from: "user-\(index)", toGroup: group, elems: [])))
            hub.received([RelayHub.Checked(join, started: NIODeadline.now(), bounds: hub.bounds)], from: connection)
        }
        var stream: [UInt8] = []
        let text = String(repeating: "m", count: textBytes)
        for seq in 0..<frames {
            var message = Message(from: "user-0", toGroup: group, elems: [.text(text)], msgID: "0-\(seq)")
            message.seq = UInt64(seq)
            message.timestamp = 1_700_000_000
            stream += try encoder.encode(message)
        }
        var figures: [Double] = []
        for _ in 0..<passes {
            let reader = FrameReader()
            reader.append(stream)
            let start = NIODeadline.now()
            var checked: [RelayHub.Checked] = []
            while let frame = try reader.next() {
                checked.append(RelayHub.Checked(frame, started: NIODeadline.now(), bounds: hub.bounds))
                if checked.count == burst {
                    hub.received(checked, from: sender)
                    checked.removeAll(keepingCapacity: true)
                }
            }
            hub.received(checked, from: sender)
            figures.append(Double((NIODeadline.now() - start).nanoseconds) / Double(frames))
        }
        let delivered = hub.statistics.framesDelivered
        precondition(
            delivered == members * frames * passes, "every message reaches every member: \(delivered) deliveries")
        _ = others
        return figures
    }
}
