#if SwiftNIO
    import NIOConcurrencyHelpers

    /// A bound on the bytes that the decoders of many connections together
    /// hold for frames that have not arrived whole.
    ///
    /// Each decoder already keeps at most one incomplete frame, within
    /// `DecodingLimits.maxFrameBytes`; a server with many connections shares
    /// one budget between their decoders so that many peers each sending
    /// the start of a large frame cannot make it hold connections ×
    /// `maxFrameBytes`. A decoder reserves the bytes it holds of the frame
    /// it is putting together as they arrive (not the length the frame's
    /// header declares, so headers alone cannot take the budget from peers
    /// that send), and gives the reservation back when the frame is complete
    /// or the connection closes. On WebSocket the bytes that NIOWebSocket's
    /// decoder holds of an unfinished WebSocket frame count too. A reservation that would
    /// pass ``capacity`` fails that connection with
    /// ``IMCodecConnectionError/Code/bufferLimit`` and closes it; the other
    /// connections are untouched.
    ///
    /// ```swift
    /// let budget = IMCodecBufferBudget(capacity: 64 << 20)   // shared by every connection
    /// ByteToMessageHandler(IMCodecFrameDecoder(limits: limits, budget: budget))
    /// ```
    ///
    /// It is `Sendable` and locked, so connections on several event loops can
    /// share one.
    ///
    /// The budget bounds the bytes held; the process's resident memory
    /// follows it only if freed buffers go back to the system. With glibc,
    /// fix the `mmap` threshold (`MALLOC_MMAP_THRESHOLD_=131072`, or
    /// `mallopt(M_MMAP_THRESHOLD, 128 << 10)` at start, as `imcodec-relay`
    /// does): otherwise glibc raises it each time a large buffer is freed,
    /// and the buffers of later large frames come from a heap whose freed
    /// pages stay resident (<doc:Servers#Bounds-with-their-defaults>).
    public final class IMCodecBufferBudget: Sendable {
        /// The most bytes the decoders sharing the budget may hold together.
        public let capacity: Int
        /// The bytes reserved, and the part of them held by NIOWebSocket's
        /// decoders of WebSocket frames not yet whole.
        private let used = NIOLockedValueBox((total: 0, webSocketFrames: 0))

        /// Creates a budget.
        ///
        /// - Parameter capacity: The most bytes of incomplete frames that every
        ///   decoder sharing the budget may hold together.
        public init(capacity: Int) {
            precondition(capacity >= 0, "a budget's capacity is a number of bytes")
            self.capacity = capacity
        }

        /// The bytes reserved now.
        public var reservedBytes: Int { used.withLockedValue { $0.total } }

        /// The part of ``reservedBytes`` that is bytes of unfinished
        /// WebSocket frames, held by NIOWebSocket's decoders before any
        /// ``IMCodecWebSocketHandler`` sees them.
        public var reservedWebSocketFrameBytes: Int { used.withLockedValue { $0.webSocketFrames } }

        /// Changes one holder's reservation from `old` to `new` bytes, of
        /// which `oldWire` and `newWire` are bytes of unfinished WebSocket
        /// frames.
        ///
        /// - Returns: `false`, reserving nothing more, when growing the
        ///   reservation would pass the capacity; a reservation that shrinks
        ///   always succeeds.
        func update(from old: Int, to new: Int, wireFrom oldWire: Int = 0, wireTo newWire: Int = 0) -> Bool {
            used.withLockedValue { used in
                let next = used.total - old + new
                guard new <= old || next <= capacity else { return false }
                used.total = next
                used.webSocketFrames += newWire - oldWire
                return true
            }
        }
    }
#endif
