import IMCodec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `localizedDescription` and `errorDescription` give the error's
/// `description` (`frame.checksum: …`), not Foundation's "The operation could
/// not be completed".
extension IMCodecError: LocalizedError {
    /// The code, the path, the reason, the limit and the observed value for
    /// limit errors, and the frame and its byte offset for errors of a stream.
    public var errorDescription: String? { description }
}
