extension FrameReader {
    /// Returns the model value of the next complete frame, or `nil` when more
    /// bytes are needed.
    ///
    /// - Returns: The message, batch or event of the next frame, or `nil`.
    /// - Throws: The codes of ``next()``, then `payload.*` and `limit.*` codes
    ///   with the path of the field where decoding stopped; every error says
    ///   which frame. Like every error of the reader, a payload error is
    ///   final, unless the reader skips damaged frames: then it is reported
    ///   and the next frame is read.
    public func nextPayload() throws(IMCodecError) -> FramePayload? {
        while let frame = try nextFrame() {
            do throws(IMCodecError) {
                let payload = try FramePayload(decoding: frame, limits: limits)
                frameCount += 1
                return payload
            } catch {
                try skipOrFail(payloadError(error))
            }
        }
        return nil
    }
}
