import IMCodec
import NIOCore

/// One client of the relay: the handler after the frame decoder.
///
/// Reads go to the hub. Outbound, it holds back the channel's reads while a
/// slow member of one of its groups has paused it (``pauseCount`` above
/// zero), and lets the held read through when the last pause is released.
final class RelayConnection: ChannelDuplexHandler {
    typealias InboundIn = Frame
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let hub: RelayHub
    private var context: ChannelHandlerContext?
    private var hasFailed = false
    private var hasPendingRead = false

    /// The groups this connection has joined.
    var groups: Set<String> = []
    /// The members this connection, while it is slow, holds back.
    var paused: [ObjectIdentifier: RelayConnection] = [:]
    /// Whether the channel accepts writes without buffering past its high
    /// watermark.
    var isWritable = true
    /// How many slow members hold this connection's reads back.
    var pauseCount = 0 {
        didSet {
            if pauseCount == 0, hasPendingRead, let context {
                hasPendingRead = false
                context.read()
            }
        }
    }

    init(hub: RelayHub) {
        self.hub = hub
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        isWritable = context.channel.isWritable
        hub.connected(self)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !hasFailed else { return }
        do throws(IMCodecError) {
            try hub.received(unwrapInboundIn(data), from: self)
        } catch {
            hasFailed = true
            context.fireErrorCaught(error)
            context.close(promise: nil)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        hub.flush()
        context.fireChannelReadComplete()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // The frame decoder has fired a malformed frame and is closing the
        // channel; other errors (a reset connection) end it too.
        if error is IMCodecError { hasFailed = true }
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        hub.disconnected(self, failed: hasFailed)
        self.context = nil
        context.fireChannelInactive()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        isWritable = context.channel.isWritable
        hub.writabilityChanged(self)
        context.fireChannelWritabilityChanged()
    }

    func read(context: ChannelHandlerContext) {
        if pauseCount > 0 {
            hasPendingRead = true
        } else {
            context.read()
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
}
