/// A value of the imcodec schema that has a canonical protobuf encoding and a
/// proto3 JSON form.
///
/// Every message type of `Schemas/imcodec/v1/model.proto` conforms; the
/// conformances are generated. The underscored requirements are the
/// schema-specialised encoder, decoder and JSON mapping that generated code
/// provides; use the public members of the extension instead.
public protocol WireMessage: Sendable, Hashable {
    /// Creates a value with every field at its default.
    init()

    /// Fields the decoder did not recognise; the encoder writes them back.
    var unknownFields: UnknownFields { get set }

    /// The fully qualified protobuf name, such as `imcodec.v1.Message`.
    static var protoMessageName: String { get }

    /// Computes the encoded size, recording nested sizes in `cache`.
    func _encodedSize(_ cache: inout SizeCache) -> Int

    /// Writes the canonical encoding, reading nested sizes back from `cache`.
    func _encode(to writer: inout WireWriter, _ cache: inout SizeCache)

    /// Decodes fields from `reader` into this value, merging with what it holds.
    mutating func _merge(from reader: inout WireReader, _ context: inout DecodeContext) throws(IMCodecError)

    /// Throws the first error a decoder with the context's limits would
    /// throw reading this value's canonical encoding (`limit.*`, and
    /// `payload.*` for malformed unknown fields), with the same path; returns
    /// when such a decoder accepts it. Costs a walk of the value, no
    /// encoding.
    ///
    /// - Parameters:
    ///   - context: The limits, and the depth of this value.
    ///   - unknownFields: Whether the value may hold unknown fields; when
    ///     it holds none, nested values that can hold no repeated field are
    ///     not visited.
    func _checkLimits(_ context: inout DecodeContext, unknownFields: Bool) throws(IMCodecError)

    /// Creates a value from its proto3 JSON form.
    init(_json value: JSONValue, _ context: inout JSONDecodeContext) throws(IMCodecError)

    /// Writes the proto3 JSON form.
    func _writeJSON(to writer: inout JSONWriter)
}

extension WireMessage {
    /// Decodes a value from its protobuf encoding.
    ///
    /// The bytes are read in place; strings and byte fields are copied into
    /// the value, nothing else is.
    ///
    /// - Parameters:
    ///   - serializedBytes: The protobuf encoding.
    ///   - limits: Bounds on depth and repeated counts.
    /// - Throws: ``IMCodecError`` with a `payload.*` or `limit.*` code and the
    ///   path of the field where decoding stopped.
    @inlinable
    public init(serializedBytes: UnsafeRawBufferPointer, limits: DecodingLimits = .default) throws(IMCodecError) {
        self.init()
        var reader = WireReader(serializedBytes)
        var context = DecodeContext(limits: limits)
        try _merge(from: &reader, &context)
    }

    /// Decodes a value from its protobuf encoding.
    ///
    /// - Parameters:
    ///   - serializedBytes: The protobuf encoding.
    ///   - limits: Bounds on depth and repeated counts.
    /// - Throws: ``IMCodecError`` with a `payload.*` or `limit.*` code and the
    ///   path of the field where decoding stopped.
    @inlinable
    public init(serializedBytes: [UInt8], limits: DecodingLimits = .default) throws(IMCodecError) {
        // Decoded straight into `self`: going through a `Result` would copy
        // the whole value out of it.
        self.init()
        var failure: IMCodecError?
        serializedBytes.withUnsafeBytes { buffer in
            var reader = WireReader(buffer)
            var context = DecodeContext(limits: limits)
            do throws(IMCodecError) {
                try self._merge(from: &reader, &context)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Decodes a value from bytes in an array slice, such as a frame's payload.
    ///
    /// - Throws: `payload.*` and `limit.*` codes with the path of the field
    ///   where decoding stopped.
    @inlinable
    init(serializedSlice bytes: ArraySlice<UInt8>, limits: DecodingLimits) throws(IMCodecError) {
        self.init()
        var failure: IMCodecError?
        bytes.withUnsafeBytes { buffer in
            var reader = WireReader(buffer)
            var context = DecodeContext(limits: limits)
            do throws(IMCodecError) {
                try self._merge(from: &reader, &context)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// The size of the canonical encoding, in bytes.
    @inlinable
    public var serializedSize: Int {
        Self._serializedSize(of: self)
    }

    /// ``serializedSize`` with the value as a parameter (see ``_serializedBytes(of:)``).
    @inlinable
    static func _serializedSize(of value: Self) -> Int {
        SizeCache.withScratch { cache in value._encodedSize(&cache) }
    }

    /// The canonical protobuf encoding: fields in number order, defaults
    /// omitted, unknown fields last.
    @inlinable
    public func serializedBytes() -> [UInt8] {
        Self._serializedBytes(of: self)
    }

    /// ``serializedBytes()`` with the value as a parameter, which the closures
    /// capture in place: when they captured `self`, the value was copied
    /// (every string and array in it retained) before a byte was written.
    @inlinable
    static func _serializedBytes(of value: Self) -> [UInt8] {
        SizeCache.withScratch { cache in
            let size = value._encodedSize(&cache)
            return [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                var writer = WireWriter(UnsafeMutableRawBufferPointer(buffer))
                value._encode(to: &writer, &cache)
                assert(writer.isFull, "encoded size differs from the computed size")
                count = size
            }
        }
    }

    /// Appends the canonical protobuf encoding to `bytes`.
    ///
    /// - Returns: The number of bytes written.
    @inlinable @discardableResult
    public func serialize(appendingTo bytes: inout [UInt8]) -> Int {
        Self._serialize(self, appendingTo: &bytes)
    }

    /// ``serialize(appendingTo:)`` with the value as a parameter (see ``_serializedBytes(of:)``).
    @inlinable
    static func _serialize(_ value: Self, appendingTo bytes: inout [UInt8]) -> Int {
        SizeCache.withScratch { cache in
            let size = value._encodedSize(&cache)
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: size))
            bytes.withUnsafeMutableBytes { buffer in
                var writer = WireWriter(UnsafeMutableRawBufferPointer(rebasing: buffer[start...]))
                value._encode(to: &writer, &cache)
                assert(writer.isFull, "encoded size differs from the computed size")
            }
            return size
        }
    }
}

extension WireMessage {
    /// The error `_merge` throws for entry `index` of the repeated field
    /// `field` when the field may hold at most `limit` entries.
    static func _overLimit(_ code: IMCodecError.Code, _ field: String, _ index: Int, _ limit: Int) -> IMCodecError {
        IMCodecError(
            code, path: "\(field)[\(index)]", reason: "more entries than the limit allows", limit: limit,
            observed: index + 1)
    }
}
