extension FrameReader {
    /// Returns the model value of the next complete frame, or `nil` when more
    /// bytes are needed.
    ///
    /// - Returns: The message, batch or event of the next frame, or `nil`.
    /// - Throws: The codes of ``next()``, then `payload.*` and `limit.*` codes
    ///   with the path of the field where decoding stopped. Like every error
    ///   of the reader, a payload error is final.
    public func nextPayload() throws(IMCodecError) -> FramePayload? {
        guard let frame = try next() else { return nil }
        do throws(IMCodecError) {
            return try FramePayload(decoding: frame, limits: limits)
        } catch {
            fail(with: error)
            throw error
        }
    }
}
