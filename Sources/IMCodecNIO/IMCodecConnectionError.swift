#if SwiftNIO
    import NIOCore

    /// Why one of IMCodecNIO's handlers closed a connection, or refused a
    /// write, for something other than a malformed frame.
    ///
    /// A malformed frame is an `IMCodecError` (`frame.*`, `limit.*`,
    /// `payload.*`): the format's own codes. This error is about the
    /// connection: a peer too slow to read, a frame that never finishes, a
    /// connection that says nothing, a server out of buffer space, or a
    /// WebSocket message that cannot hold a frame. Handlers fire it through
    /// `errorCaught` before they close the channel, so the handler at the
    /// end of the pipeline can log the reason. Two errors are equal when
    /// their codes are; the reason is for people.
    public struct IMCodecConnectionError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The stable code naming why the connection was closed.
        public var code: Code
        /// A human explanation; its wording may change between releases.
        public var reason: String

        /// Creates an error.
        ///
        /// - Parameters:
        ///   - code: The stable code.
        ///   - reason: A human explanation.
        public init(_ code: Code, reason: String) {
            self.code = code
            self.reason = reason
        }

        /// Whether two errors have the same code.
        public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

        /// Hashes the code, the part ``==(_:_:)`` compares.
        public func hash(into hasher: inout Hasher) { hasher.combine(code) }

        /// `code: reason`.
        public var description: String { "\(code): \(reason)" }

        /// A stable code. New codes may be added in later releases, so switch
        /// over them with a `default`.
        public struct Code: Hashable, Sendable, CustomStringConvertible {
            /// The code's string form, such as `connection.idle-timeout`.
            public let rawValue: String

            /// Creates a code from its string form.
            ///
            /// - Parameter rawValue: The code, such as `connection.idle-timeout`.
            public init(_ rawValue: String) { self.rawValue = rawValue }

            /// The string form.
            public var description: String { rawValue }

            /// Nothing was read from the connection for the idle timeout
            /// (``IMCodecIdleTimeoutHandler``).
            public static let idleTimeout = Self("connection.idle-timeout")
            /// A frame (or a WebSocket message) was still incomplete when the
            /// partial-frame timeout, counted from its first byte, ran out.
            public static let partialFrameTimeout = Self("connection.partial-frame-timeout")
            /// Keeping the frame the connection is sending would take the
            /// bytes buffered across connections past an
            /// ``IMCodecBufferBudget``.
            public static let bufferLimit = Self("connection.buffer-limit")
            /// A frame was written to a peer whose queue of unsent bytes was
            /// already past its bound (``IMCodecOutboundLimitHandler``): the
            /// peer is closed, or the frame dropped, as its policy says.
            public static let slowConsumer = Self("connection.slow-consumer")
            /// A WebSocket text message arrived; frames travel in binary
            /// messages only (close code 1003).
            public static let textMessage = Self("connection.websocket-text")
            /// The WebSocket peer broke the protocol: an unmasked or
            /// malformed WebSocket frame, a continuation with nothing to
            /// continue, a control frame too long (close code 1002).
            public static let webSocketProtocol = Self("connection.websocket-protocol")
            /// An HTTP request head (a WebSocket upgrade request, say) did not
            /// arrive whole within its timeout
            /// (``IMCodecRequestHeadTimeoutHandler``).
            public static let requestHeadTimeout = Self("connection.request-head-timeout")
            /// The server is shutting down (close code 1001 on WebSocket).
            public static let shutdown = Self("connection.shutdown")
        }
    }
#endif
