import IMCodec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension WireMessage {
    /// Decodes a value from its protobuf binary form held in `Data`, reading
    /// the bytes where they are.
    ///
    /// - Parameters:
    ///   - serializedData: The payload bytes.
    ///   - limits: The decoding limits.
    /// - Throws: `payload.*` and `limit.*` codes, with their paths.
    public init(serializedData: Data, limits: DecodingLimits = .default) throws(IMCodecError) {
        self = try serializedData.withUnsafeBytes { raw in
            Result { () throws(IMCodecError) in try Self(serializedBytes: raw, limits: limits) }
        }.get()
    }

    /// The canonical protobuf binary form in `Data`: the bytes of
    /// `serializedBytes()`.
    ///
    /// - Returns: The encoded value.
    public func serializedData() -> Data {
        Data(serializedBytes())
    }

    /// The proto3 JSON form as UTF-8 in `Data`: the bytes of `jsonUTF8()`.
    ///
    /// - Returns: Compact JSON.
    public func jsonUTF8Data() -> Data {
        Data(jsonUTF8())
    }
}

extension FramePayload {
    /// Decodes the payload of a frame of `kind` held in `Data`, reading the
    /// bytes where they are.
    ///
    /// - Parameters:
    ///   - kind: The kind of frame the payload came from.
    ///   - serializedData: The payload bytes.
    ///   - limits: The decoding limits.
    /// - Throws: `payload.*` and `limit.*` codes, with their paths.
    public init(kind: FrameKind, serializedData: Data, limits: DecodingLimits = .default) throws(IMCodecError) {
        self = try serializedData.withUnsafeBytes { raw in
            Result { () throws(IMCodecError) in try FramePayload(kind: kind, serializedBytes: raw, limits: limits) }
        }.get()
    }

    /// The value's canonical protobuf binary form in `Data`.
    ///
    /// - Returns: The payload bytes.
    public func serializedData() -> Data {
        Data(serializedBytes())
    }
}
