#if SwiftNIO
    import IMCodec
    import NIOCore

    /// What guards one connection's incomplete frame, for the stream decoder
    /// (``IMCodecDecoder``) and the WebSocket handler
    /// (``IMCodecWebSocketHandler``) alike: the reservation in a shared
    /// ``IMCodecBufferBudget``, the partial-frame timer, and the first
    /// failure, after which nothing more is read.
    final class PartialFrameGuard {
        private let timeout: TimeAmount?
        private let budget: IMCodecBufferBudget?
        /// What the decoder (or the WebSocket handler's message) holds.
        private var held = 0
        /// What NIOWebSocket's frame decoder holds of a WebSocket frame not
        /// yet whole, counted by ``IMCodecWebSocketWireGuard``.
        private var wireHeld = 0
        private var reserved: Int { held + wireHeld }
        private var timer: Scheduled<Void>?
        private(set) var hasFailed = false
        /// Whether a ``IMCodecWebSocketWireGuard`` in front of NIOWebSocket's
        /// decoder runs the timer, which then counts from a message's first
        /// byte on the wire.
        var timedOnTheWire = false

        init(timeout: TimeAmount?, budget: IMCodecBufferBudget?) {
            self.timeout = timeout
            self.budget = budget
        }

        /// The bytes reserved in the budget for this connection now.
        var reservedBytes: Int { reserved }

        /// Makes the budget's reservation for what the decoder holds
        /// `holding` bytes.
        ///
        /// - Throws: ``IMCodecConnectionError/Code/bufferLimit`` when growing
        ///   it would pass the budget's capacity; the reservation is then
        ///   unchanged.
        func reserve(_ holding: Int) throws(IMCodecConnectionError) {
            try update(held: holding, wire: wireHeld)
        }

        /// Makes the budget's reservation for the unfinished WebSocket frame
        /// `holding` bytes.
        ///
        /// - Throws: ``IMCodecConnectionError/Code/bufferLimit``, as
        ///   ``reserve(_:)``.
        func reserveWire(_ holding: Int) throws(IMCodecConnectionError) {
            try update(held: held, wire: holding)
        }

        private func update(held newHeld: Int, wire newWire: Int) throws(IMCodecConnectionError) {
            let next = newHeld + newWire
            guard let budget else {
                (held, wireHeld) = (newHeld, newWire)
                return
            }
            guard next != reserved || newWire != wireHeld else {
                (held, wireHeld) = (newHeld, newWire)
                return
            }
            guard budget.update(from: reserved, to: next, wireFrom: wireHeld, wireTo: newWire) else {
                throw IMCodecConnectionError(
                    .bufferLimit,
                    reason: "holding \(next) bytes of an unfinished frame would pass the \(budget.capacity)-byte "
                        + "buffer budget shared by every connection (\(budget.reservedBytes) reserved)")
            }
            (held, wireHeld) = (newHeld, newWire)
        }

        /// Runs the partial-frame timer while `pending` (a frame or message
        /// has started and not finished), from the moment it starts; stops it
        /// otherwise. With `restart`, a timer already running counts again
        /// from now: the frame it timed has ended and another has begun
        /// (moving its start costs a clock read, not a new scheduled task).
        func time(pending: Bool, restart: Bool = false, on loop: EventLoop, onTimeout: @escaping () -> Void) {
            guard let timeout else { return }
            if pending {
                // The loop's clock, which a test's loop moves by hand.
                if timer == nil {
                    started = loop.now
                    schedule(at: started + timeout, timeout: timeout, on: loop, onTimeout: onTimeout)
                } else if restart {
                    started = loop.now
                }
            } else if let running = timer {
                running.cancel()
                timer = nil
            }
        }

        private var started = NIODeadline.uptimeNanoseconds(0)

        private func schedule(
            at deadline: NIODeadline, timeout: TimeAmount, on loop: EventLoop, onTimeout: @escaping () -> Void
        ) {
            timer = loop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
                let due = started + timeout
                if due > loop.now {
                    schedule(at: due, timeout: timeout, on: loop, onTimeout: onTimeout)
                } else {
                    timer = nil
                    onTimeout()
                }
            }
        }

        /// The error a frame still incomplete at the timeout fails with.
        func timeoutError(holding: Int) -> IMCodecConnectionError {
            IMCodecConnectionError(
                .partialFrameTimeout,
                reason: "a frame was still incomplete \((timeout ?? .zero).nanoseconds / 1_000_000) ms "
                    + "after its first byte (\(holding) bytes held)")
        }

        /// Makes the connection failed: nothing more is read, the timer
        /// stops and the reservation of what the decoder held is given
        /// back. What NIOWebSocket's decoder holds of an unfinished
        /// WebSocket frame stays reserved until the channel has closed
        /// (``close()``), since those bytes stay in memory until then (a
        /// WebSocket closes after its close handshake, up to two seconds).
        func fail() {
            hasFailed = true
            timer?.cancel()
            timer = nil
            if held > 0, let budget {
                _ = budget.update(from: reserved, to: wireHeld, wireFrom: wireHeld, wireTo: wireHeld)
            }
            held = 0
        }

        /// Stops the timer and gives the reservation back: the connection
        /// has ended.
        func close() {
            timer?.cancel()
            timer = nil
            if reserved > 0, let budget {
                _ = budget.update(from: reserved, to: 0, wireFrom: wireHeld, wireTo: 0)
            }
            (held, wireHeld) = (0, 0)
        }
    }

    /// The reading half of one stream connection: its `FrameReader`, what the
    /// reader's output is, and the guard of its incomplete frame.
    final class FrameIntake<Element> {
        let reader: FrameReader
        let guarding: PartialFrameGuard
        private let output: FrameReaderOutput<Element>

        init(
            limits: DecodingLimits, output: FrameReaderOutput<Element>, partialFrameTimeout: TimeAmount?,
            budget: IMCodecBufferBudget?
        ) {
            reader = FrameReader(limits: limits)
            guarding = PartialFrameGuard(timeout: partialFrameTimeout, budget: budget)
            self.output = output
        }

        /// Hands the buffer's readable bytes to the reader (all of them are
        /// consumed), passes on every element they complete, and reserves
        /// what the reader then holds.
        ///
        /// - Throws: The reader's `IMCodecError`, or
        ///   ``IMCodecConnectionError/Code/bufferLimit``.
        func read(_ buffer: inout ByteBuffer, emit: (Element) -> Void) throws {
            if buffer.readableBytes > 0 {
                buffer.readWithUnsafeReadableBytes { bytes in
                    reader.append(bytes)
                    return bytes.count
                }
            }
            while let element = try output.next(reader) { emit(element) }
            try guarding.reserve(reader.reservedByteCount)
        }
    }
#endif
