import CoreMetrics

/// The relay's counters, gauges and timers (swift-metrics), made once per
/// server, plus one counter per rejection code and close reason as they
/// first occur. Used with the hub's lock held, but for
/// `imcodec_relay_queued_bytes`, which a connection records on its loop.
///
/// | label | kind | dimensions | what |
/// |---|---|---|---|
/// | `imcodec_relay_connections_opened` | counter | `transport` | connections accepted (`tcp`, `web`; an upgrade to WebSocket counts as `websocket`) |
/// | `imcodec_relay_connections_refused` | counter | | connections closed at once: the cap was reached |
/// | `imcodec_relay_connections_open` | meter | | connections open now |
/// | `imcodec_relay_connections_closed` | counter | `reason` | closes, by reason |
/// | `imcodec_relay_frames_received`, `imcodec_relay_bytes_received` | counters | | frames read, and their bytes |
/// | `imcodec_relay_frames_checked_off_loop` | counter | | the part of them checked on the thread pool, their payloads declaring at least `RelayConfiguration.offLoopPayloadBytes` |
/// | `imcodec_relay_frames_delivered`, `imcodec_relay_bytes_delivered` | counters | | frames written to members, and their bytes |
/// | `imcodec_relay_rejections` | counter | `code` | refused messages and joins, by the code of their first finding |
/// | `imcodec_relay_slow_consumer_disconnects` | counter | | members disconnected for not reading |
/// | `imcodec_relay_queued_bytes` | recorder | | bytes queued toward a member, each time its writes are flushed |
/// | `imcodec_relay_frame_duration` | timer | | from a frame read to its copies queued: decoding, validation and fan-out |
/// | `imcodec_relay_throttles` | counter | | times a connection was not read for a while because it sent past its rates |
/// | `imcodec_relay_throttled_connections` | meter | | connections not read now because of their rates |
/// | `imcodec_relay_buffered_bytes` | meter | | bytes of unfinished frames held, in the shared budget (set after a read burst or a close, at most four times a second) |
/// | `imcodec_relay_websocket_partial_bytes` | meter | | the part of them that is unfinished WebSocket frames (sampled with it) |
final class RelayMetrics {
    private let factory: any MetricsFactory
    let tcpOpened: Counter
    let webOpened: Counter
    let webSocketUpgraded: Counter
    let refused: Counter
    let open: Meter
    let framesReceived: Counter
    let bytesReceived: Counter
    let framesCheckedOffLoop: Counter
    let framesDelivered: Counter
    let bytesDelivered: Counter
    let slowConsumerDisconnects: Counter
    let queuedBytes: Recorder
    let frameDuration: Timer
    let bufferedBytes: Meter
    let throttles: Counter
    let throttled: Meter
    let webSocketPartialBytes: Meter
    private var rejections: [String: Counter] = [:]
    private var closes: [String: Counter] = [:]

    init(factory: any MetricsFactory) {
        self.factory = factory
        tcpOpened = Counter(
            label: "imcodec_relay_connections_opened", dimensions: [("transport", "tcp")], factory: factory)
        webOpened = Counter(
            label: "imcodec_relay_connections_opened", dimensions: [("transport", "web")], factory: factory)
        webSocketUpgraded = Counter(
            label: "imcodec_relay_connections_opened", dimensions: [("transport", "websocket")], factory: factory)
        refused = Counter(label: "imcodec_relay_connections_refused", factory: factory)
        open = Meter(label: "imcodec_relay_connections_open", factory: factory)
        framesReceived = Counter(label: "imcodec_relay_frames_received", factory: factory)
        bytesReceived = Counter(label: "imcodec_relay_bytes_received", factory: factory)
        framesCheckedOffLoop = Counter(label: "imcodec_relay_frames_checked_off_loop", factory: factory)
        framesDelivered = Counter(label: "imcodec_relay_frames_delivered", factory: factory)
        bytesDelivered = Counter(label: "imcodec_relay_bytes_delivered", factory: factory)
        slowConsumerDisconnects = Counter(label: "imcodec_relay_slow_consumer_disconnects", factory: factory)
        queuedBytes = Recorder(label: "imcodec_relay_queued_bytes", factory: factory)
        frameDuration = Timer(label: "imcodec_relay_frame_duration", factory: factory)
        bufferedBytes = Meter(label: "imcodec_relay_buffered_bytes", factory: factory)
        throttles = Counter(label: "imcodec_relay_throttles", factory: factory)
        throttled = Meter(label: "imcodec_relay_throttled_connections", factory: factory)
        webSocketPartialBytes = Meter(label: "imcodec_relay_websocket_partial_bytes", factory: factory)
    }

    func rejected(code: String) {
        counter(in: &rejections, label: "imcodec_relay_rejections", dimension: "code", value: code).increment()
    }

    func closed(reason: String) {
        counter(in: &closes, label: "imcodec_relay_connections_closed", dimension: "reason", value: reason).increment()
    }

    private func counter(in cache: inout [String: Counter], label: String, dimension: String, value: String)
        -> Counter
    {
        if let counter = cache[value] { return counter }
        let counter = Counter(label: label, dimensions: [(dimension, value)], factory: factory)
        cache[value] = counter
        return counter
    }
}
