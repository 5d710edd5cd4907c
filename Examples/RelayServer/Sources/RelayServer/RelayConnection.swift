import IMCodec
import IMCodecNIO
import NIOCore

/// One client of the relay, over TCP or WebSocket: the handler after the
/// frame decoder (or the WebSocket handler).
///
/// Reads go to the hub. It records the first reason the connection is
/// closed for (a malformed frame's code, a guard's code, a shutdown) so the
/// hub can log and count it. Under the backpressure policy it holds back
/// the channel's reads while a slow member of one of its groups has paused
/// it (``pauseCount`` above zero).
final class RelayConnection: ChannelDuplexHandler {
    typealias InboundIn = Frame
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// How the client reached the relay.
    enum Transport: String {
        case tcp
        case webSocket = "websocket"
    }

    let hub: RelayHub
    let transport: Transport
    private var context: ChannelHandlerContext?
    private var hasPendingRead = false

    /// The connection's number in the logs.
    var id = 0
    /// The peer's address, for the logs.
    var remote = ""
    /// The user the connection is bound to: the sender of its first
    /// accepted join.
    var user: String?
    /// The expiry of the ticket the connection logged in with, in Unix
    /// seconds; `nil` without tickets.
    var ticketExpiry: Int64?
    /// The groups this connection has joined.
    var groups: Set<String> = []
    /// Why the connection closed (or is closing): a stable code and a detail.
    private(set) var closeReason: (code: String, detail: String)?
    /// When the login ticket's expiry ends the connection.
    var expiryTask: Scheduled<Void>?
    /// Whether a malformed frame or payload closed it.
    private(set) var hasFailed = false
    /// The members this connection, while it is slow, holds back.
    var paused: [ObjectIdentifier: RelayConnection] = [:]
    /// Whether the channel accepts writes without queueing past its bound.
    var isWritable = true
    /// The connection's token buckets.
    var throttle: RelayThrottle?
    /// Whether the connection sent past its rates and is not read until
    /// its buckets refill.
    var isThrottled = false {
        didSet { resumeReadingIfFree() }
    }
    /// How many slow members hold this connection's reads back.
    var pauseCount = 0 {
        didSet { resumeReadingIfFree() }
    }

    private func resumeReadingIfFree() {
        if pauseCount == 0, !isThrottled, hasPendingRead, let context {
            hasPendingRead = false
            context.read()
        }
    }

    init(hub: RelayHub, transport: Transport) {
        self.hub = hub
        self.transport = transport
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        isWritable = context.channel.isWritable
        remote = context.channel.remoteAddress?.description ?? "?"
        hub.connected(self, on: context.channel)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !hasFailed else { return }
        do throws(IMCodecError) {
            try hub.received(unwrapInboundIn(data), from: self)
        } catch {
            record(error)
            // The replies to the good frames of this read go out first.
            hub.flush()
            switch transport {
            case .tcp:
                context.close(promise: nil)
            case .webSocket:
                // From the head, so that the WebSocket handler sends its
                // close frame (1007 and the code) and closes.
                context.pipeline.fireErrorCaught(error)
            }
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        hub.flush()
        context.fireChannelReadComplete()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        record(error)
        // The replies to the good frames of this read go out before the
        // channel closes.
        hub.flush()
        // A decoder, the WebSocket handler or a guard has fired why it closes
        // the channel, and closes it (a WebSocket after its close frame);
        // other errors (a reset connection) end it here.
        if !(error is IMCodecError || error is IMCodecConnectionError) {
            context.close(promise: nil)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        record(IMCodecConnectionError(.shutdown, reason: "the server is shutting down"))
        // A WebSocket's handler sends its close frame after what is queued;
        // a stream closes once what is queued has been written.
        if transport == .tcp {
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(capacity: 0)))
                .whenComplete { _ in channel.close(promise: nil) }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        hub.disconnected(self)
        self.context = nil
        context.fireChannelInactive()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        isWritable = context.channel.isWritable
        hub.writabilityChanged(self)
        context.fireChannelWritabilityChanged()
    }

    func read(context: ChannelHandlerContext) {
        if pauseCount > 0 || isThrottled {
            hasPendingRead = true
        } else {
            context.read()
        }
    }

    /// Closes the connection for the relay's own reason: what is written is
    /// flushed, the error goes down the pipeline from its head (a WebSocket
    /// sends its close frame with the code as reason) and the channel closes.
    func end(with error: IMCodecConnectionError) {
        guard let context else { return }
        record(error)
        context.flush()
        context.pipeline.fireErrorCaught(error)
        context.close(promise: nil)
    }

    /// Keeps the first reason the connection closes for.
    private func record(_ error: Error) {
        guard closeReason == nil else { return }
        switch error {
        case let error as IMCodecError:
            hasFailed = true
            closeReason = (error.code.rawValue, error.description)
        case let error as IMCodecConnectionError:
            closeReason = (error.code.rawValue, error.reason)
        default:
            closeReason = ("io-error", "\(error)")
        }
    }

    /// Writes a frame without flushing; false when the channel has gone.
    func write(_ bytes: ByteBuffer) -> Bool {
        guard let context else { return false }
        context.write(wrapOutboundOut(bytes), promise: nil)
        return true
    }

    func flush() {
        context?.flush()
    }

    /// The bytes queued toward the peer that the kernel has not taken.
    var queuedBytes: Int? {
        try? context?.channel.syncOptions?.getOption(.bufferedWritableBytes)
    }
}
