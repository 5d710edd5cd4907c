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
        private var reserved = 0
        private var timer: Scheduled<Void>?
        private(set) var hasFailed = false

        init(timeout: TimeAmount?, budget: IMCodecBufferBudget?) {
            self.timeout = timeout
            self.budget = budget
        }

        /// Makes the budget's reservation `holding` bytes.
        ///
        /// - Throws: ``IMCodecConnectionError/Code/bufferLimit`` when growing
        ///   it would pass the budget's capacity; the reservation is then
        ///   unchanged.
        func reserve(_ holding: Int) throws(IMCodecConnectionError) {
            guard let budget, holding != reserved else { return }
            guard budget.update(from: reserved, to: holding) else {
                throw IMCodecConnectionError(
                    .bufferLimit,
                    reason: "keeping a \(holding)-byte frame would pass the \(budget.capacity)-byte buffer budget "
                        + "shared by every connection (\(budget.reservedBytes) reserved)")
            }
            reserved = holding
        }

        /// Runs the partial-frame timer while `pending` (a frame or message
        /// has started and not finished), from the moment it starts; stops it
        /// otherwise.
        func time(pending: Bool, on loop: EventLoop, onTimeout: @escaping () -> Void) {
            guard let timeout else { return }
            if pending {
                guard timer == nil else { return }
                timer = loop.assumeIsolated().scheduleTask(in: timeout, onTimeout)
            } else if let running = timer {
                running.cancel()
                timer = nil
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
        /// stops and the reservation is given back.
        func fail() {
            hasFailed = true
            close()
        }

        /// Stops the timer and gives the reservation back: the connection
        /// has ended.
        func close() {
            timer?.cancel()
            timer = nil
            if reserved > 0, let budget {
                _ = budget.update(from: reserved, to: 0)
                reserved = 0
            }
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
