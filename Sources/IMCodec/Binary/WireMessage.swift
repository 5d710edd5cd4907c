/// A value of the imcodec schema that has a canonical protobuf encoding and a
/// proto3 JSON form.
///
/// Every message type of `Schemas/imcodec/v1/model.proto` conforms, and only
/// those: the conformances are generated, together with each type's
/// schema-specialised encoder, decoder and JSON mapping, which stay inside
/// the package. Use the members of the extension (``init(serializedBytes:limits:)-([UInt8],_)``,
/// ``serializedBytes()``, ``init(jsonString:limits:)``, ``jsonString(pretty:)``)
/// to encode and decode. A type of another module that declares this
/// conformance has no codec: encoding or decoding it stops the program.
public protocol WireMessage: Sendable, Hashable {
    /// Creates a value with every field at its default.
    init()

    /// Fields the decoder did not recognise; the encoder writes them back.
    var unknownFields: UnknownFields { get set }

    /// The fully qualified protobuf name, such as `imcodec.v1.Message`.
    static var protoMessageName: String { get }
}

/// The codec of a ``WireMessage``: what generated code provides for every
/// schema type, kept out of the public API.
///
/// The public members of ``WireMessage`` reach it through ``WireMessage/codable``,
/// a cast the optimizer resolves where the concrete type is known (inlined
/// into the caller, as those members are), so a call costs what a call of
/// the generated function costs.
@usableFromInline
package protocol WireCodable: WireMessage {
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

    /// Creates a value from its proto3 JSON form, read where it stands.
    init(_json reader: inout JSONReader, _ context: inout JSONDecodeContext) throws(IMCodecError)

    /// Writes the proto3 JSON form.
    func _writeJSON(to writer: inout JSONWriter)
}

extension WireMessage {
    /// This type as a ``WireCodable``: the generated conformance every
    /// schema type has.
    ///
    /// Where `Self` is a concrete type the optimizer proves the cast and
    /// drops it; elsewhere it is one lookup in the runtime's conformance
    /// cache.
    @inlinable @inline(__always)
    package static var codable: any WireCodable.Type {
        guard let type = Self.self as? any WireCodable.Type else {
            preconditionFailure("\(Self.self) is not a type of the imcodec schema; only generated types have a codec")
        }
        return type
    }

    /// Calls `body` with this value seen as `Codable`, which is `Self`: the
    /// same memory, not a copy.
    ///
    /// - Precondition: `Codable` is `Self` (``codable``).
    @inlinable @inline(__always)
    package func withCodable<Codable: WireCodable, Result, Failure: Error>(
        as _: Codable.Type, _ body: (Codable) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        precondition(Codable.self == Self.self, "a codec for another type")
        return try withUnsafePointer(to: self) { (pointer) throws(Failure) -> Result in
            try body(UnsafeRawPointer(pointer).assumingMemoryBound(to: Codable.self).pointee)
        }
    }

    /// Calls `body` with this value seen as `Codable`, which is `Self`, to
    /// change it in place.
    ///
    /// - Precondition: `Codable` is `Self` (``codable``).
    @inlinable @inline(__always)
    package mutating func withMutableCodable<Codable: WireCodable, Result, Failure: Error>(
        as _: Codable.Type, _ body: (inout Codable) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        precondition(Codable.self == Self.self, "a codec for another type")
        return try withUnsafeMutablePointer(to: &self) { (pointer) throws(Failure) -> Result in
            try body(&UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: Codable.self).pointee)
        }
    }
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
        try merge(serializedBytes, limits: limits)
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
            do throws(IMCodecError) {
                try self.merge(buffer, limits: limits)
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
            do throws(IMCodecError) {
                try self.merge(buffer, limits: limits)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Decodes the protobuf encoding in `bytes` into this value, merging
    /// with what it holds.
    ///
    /// - Throws: `payload.*` and `limit.*` codes with the path of the field
    ///   where decoding stopped.
    @inlinable
    package mutating func merge(_ bytes: UnsafeRawBufferPointer, limits: DecodingLimits) throws(IMCodecError) {
        func merge<Codable: WireCodable>(as codable: Codable.Type) throws(IMCodecError) {
            try withMutableCodable(as: codable) { (value) throws(IMCodecError) in
                var reader = WireReader(bytes)
                var context = DecodeContext(limits: limits)
                try value._merge(from: &reader, &context)
            }
        }
        try merge(as: Self.codable)
    }

    /// The size of the canonical encoding, in bytes.
    @inlinable
    public var serializedSize: Int {
        func size<Codable: WireCodable>(as codable: Codable.Type) -> Int {
            withCodable(as: codable) { Codable._serializedSize(of: $0) }
        }
        return size(as: Self.codable)
    }

    /// The canonical protobuf encoding: fields in number order, defaults
    /// omitted, unknown fields last.
    @inlinable
    public func serializedBytes() -> [UInt8] {
        func bytes<Codable: WireCodable>(as codable: Codable.Type) -> [UInt8] {
            withCodable(as: codable) { Codable._serializedBytes(of: $0) }
        }
        return bytes(as: Self.codable)
    }

    /// Appends the canonical protobuf encoding to `bytes`.
    ///
    /// - Returns: The number of bytes written.
    @inlinable @discardableResult
    public func serialize(appendingTo bytes: inout [UInt8]) -> Int {
        func serialize<Codable: WireCodable>(as codable: Codable.Type) -> Int {
            withCodable(as: codable) { Codable._serialize($0, appendingTo: &bytes) }
        }
        return serialize(as: Self.codable)
    }
}

extension WireMessage {
    /// `_encodedSize(_:)` through the generated codec, for code generic over
    /// ``WireMessage`` (the frame encoder).
    @inlinable @inline(__always)
    package func wireSize(_ cache: inout SizeCache) -> Int {
        func size<Codable: WireCodable>(as codable: Codable.Type) -> Int {
            withCodable(as: codable) { $0._encodedSize(&cache) }
        }
        return size(as: Self.codable)
    }

    /// `_encode(to:_:)` through the generated codec.
    @inlinable @inline(__always)
    package func writeWire(to writer: inout WireWriter, _ cache: inout SizeCache) {
        func write<Codable: WireCodable>(as codable: Codable.Type) {
            withCodable(as: codable) { $0._encode(to: &writer, &cache) }
        }
        write(as: Self.codable)
    }

    /// `_checkLimits(_:unknownFields:)` through the generated codec.
    @inlinable @inline(__always)
    package func checkWireLimits(_ context: inout DecodeContext, unknownFields: Bool) throws(IMCodecError) {
        func check<Codable: WireCodable>(as codable: Codable.Type) throws(IMCodecError) {
            try withCodable(as: codable) { (value) throws(IMCodecError) in
                try value._checkLimits(&context, unknownFields: unknownFields)
            }
        }
        try check(as: Self.codable)
    }
}

extension WireMessage {
    /// ``serializedSize`` of the value `pointer` points to, measured where
    /// it stands: reading ``serializedSize`` of `pointer.pointee` copies the
    /// value (every string and array in it retained) before measuring it.
    @inlinable
    package static func _serializedSize(at pointer: UnsafePointer<Self>) -> Int {
        func size<Codable: WireCodable>(as _: Codable.Type) -> Int {
            let value = UnsafeRawPointer(pointer).assumingMemoryBound(to: Codable.self)
            return SizeCache.withScratch { cache in value.pointee._encodedSize(&cache) }
        }
        return size(as: Self.codable)
    }
}

extension WireCodable {
    /// ``WireMessage/serializedSize`` with the value as a parameter (see ``_serializedBytes(of:)``).
    @inlinable
    static func _serializedSize(of value: Self) -> Int {
        SizeCache.withScratch { cache in value._encodedSize(&cache) }
    }

    /// ``WireMessage/serializedBytes()`` with the value as a parameter, which
    /// the closures capture in place: when they captured `self`, the value
    /// was copied (every string and array in it retained) before a byte was
    /// written.
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

    /// ``WireMessage/serialize(appendingTo:)`` with the value as a parameter
    /// (see ``_serializedBytes(of:)``).
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

    /// The error `_merge` throws for entry `index` of the repeated field
    /// `field` when the field may hold at most `limit` entries.
    package static func _overLimit(_ code: IMCodecError.Code, _ field: String, _ index: Int, _ limit: Int)
        -> IMCodecError
    {
        IMCodecError(
            code, path: [.field(field), .index(index)], reason: "more entries than the limit allows", limit: limit,
            observed: index + 1)
    }
}
