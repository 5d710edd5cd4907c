import NIOCore

/// One connection's token buckets: frames, bytes as received, and bytes
/// inflated, each refilled at its rate per second and holding at most one
/// second's worth.
///
/// A frame always passes (it has been read), and takes its tokens even
/// into debt; a connection in debt is not read again until every bucket is
/// back at zero. So a flooder is slowed to the rates by TCP's own
/// backpressure, before the members it floods fall behind, and the inflate
/// work one connection can ask of the relay per second is bounded by the
/// inflated-bytes rate, whatever the ratio of its frames.
struct RelayThrottle {
    /// The rates, per second; `nil` for no bucket.
    struct Rates: Sendable, Hashable {
        var frames: Int?
        var bytes: Int?
        var inflatedBytes: Int?

        var isUnlimited: Bool { frames == nil && bytes == nil && inflatedBytes == nil }
    }

    private let rates: Rates
    private var frames: Double
    private var bytes: Double
    private var inflated: Double
    private var refilled: NIODeadline

    init(rates: Rates, now: NIODeadline) {
        self.rates = rates
        frames = Double(rates.frames ?? 0)
        bytes = Double(rates.bytes ?? 0)
        inflated = Double(rates.inflatedBytes ?? 0)
        refilled = now
    }

    /// Takes one frame's tokens.
    ///
    /// - Returns: How long the connection must not be read, when a bucket
    ///   is in debt; `nil` when every bucket still holds tokens.
    mutating func take(bytes received: Int, inflatedBytes: Int, now: NIODeadline) -> TimeAmount? {
        let seconds = Double((now - refilled).nanoseconds) / 1e9
        refilled = now
        var wait = 0.0
        func spend(_ tokens: inout Double, _ rate: Int?, _ cost: Int) {
            guard let rate, rate > 0 else { return }
            tokens = min(Double(rate), tokens + seconds * Double(rate)) - Double(cost)
            if tokens < 0 { wait = max(wait, -tokens / Double(rate)) }
        }
        spend(&frames, rates.frames, 1)
        spend(&bytes, rates.bytes, received)
        spend(&inflated, rates.inflatedBytes, inflatedBytes)
        guard wait > 0 else { return nil }
        return .nanoseconds(Int64(wait * 1e9) + 1)
    }
}
