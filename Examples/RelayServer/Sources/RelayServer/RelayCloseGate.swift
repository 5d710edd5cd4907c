import NIOCore

/// Holds back a close, and a WebSocket close frame, while the hub is still
/// answering frames its connection has read: so the replies to the good
/// frames of a read go out before the close that a bad frame, or a guard,
/// brings in the same read, as they do when the hub shares the loop.
///
/// It sits between the socket's guards and the transport's decoder, where
/// the decoder's close (or the WebSocket handler's close frame) passes it
/// but so do the replies, which the hub sends through the connection's
/// handler at the pipeline's tail. Only a connection on a loop other than
/// the hub's has one.
final class RelayCloseGate<Out>: ChannelOutboundHandler, RelayClosing {
    typealias OutboundIn = Out
    typealias OutboundOut = Out

    private enum Held {
        case write(NIOAny, EventLoopPromise<Void>?)
        case close(CloseMode, EventLoopPromise<Void>?)
    }

    private let holds: (Out) -> Bool
    private var context: ChannelHandlerContext?
    private var held: [Held] = []
    /// Whether the hub has frames of this connection it has not answered.
    private var isHolding = false

    /// - Parameter holds: Whether a write is a close (a WebSocket close
    ///   frame) to hold with the closes.
    init(holding holds: @escaping (Out) -> Bool = { _ in false }) {
        self.holds = holds
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    /// Starts holding closes back.
    func hold() {
        isHolding = true
    }

    /// Lets what was held through, in order, and stops holding.
    func release() {
        isHolding = false
        let released = held
        held.removeAll()
        guard let context, !released.isEmpty else { return }
        for item in released {
            switch item {
            case .write(let data, let promise):
                context.write(data, promise: promise)
            case .close(let mode, let promise):
                context.flush()
                context.close(mode: mode, promise: promise)
            }
        }
        context.flush()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // The replies the hub is still sending pass: only the close waits.
        if isHolding, holds(unwrapOutboundIn(data)) {
            held.append(.write(data, promise))
        } else {
            context.write(data, promise: promise)
        }
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if isHolding {
            held.append(.close(mode, promise))
        } else {
            context.close(mode: mode, promise: promise)
        }
    }
}

/// What a connection asks of its close gate, whatever the transport.
protocol RelayClosing: AnyObject {
    func hold()
    func release()
}
