/// A field's value as the rule engine of IMCodecValidation reads it, without
/// knowing the field's Swift type.
///
/// Numbers keep their sign: `int32`, `int64`, `uint32` and enum fields are
/// ``int(_:)`` (an enum's number), `uint64` is ``uint(_:)``.
package enum ReflectedScalar {
    /// A message field or oneof member that is not set.
    case absent
    /// A message field or oneof member that is set.
    case present
    /// A `bool`.
    case bool(Bool)
    /// A signed number, a `uint32` or an enum's number.
    case int(Int64)
    /// A `uint64`.
    case uint(UInt64)
    /// A `double`.
    case double(Double)
    /// A `string`.
    case string(String)
    /// A `bytes`.
    case bytes([UInt8])
    /// A repeated `string`.
    case strings([String])
    /// Any other repeated field: its entry count.
    case count(Int)
}

/// What visits the message values of a ``ReflectedMessage``'s fields: a
/// generic call with the value's address, so no value is boxed, and an entry
/// of a repeated field is not copied on the way. The pointer is valid only
/// during the call.
package protocol ReflectedVisitor {
    /// Visits one message value.
    mutating func visit<Message: ReflectedMessage>(_ message: UnsafePointer<Message>)
}

/// A repeated message field, read without knowing its entries' type.
package protocol ReflectedList {
    /// The number of entries.
    var count: Int { get }

    /// Hands entry `index` to `visitor`.
    func reflectedVisit<Visitor: ReflectedVisitor>(at index: Int, _ visitor: inout Visitor)
}

extension Array: ReflectedList where Element: ReflectedMessage {
    /// Hands entry `index` to `visitor`.
    package func reflectedVisit<Visitor: ReflectedVisitor>(at index: Int, _ visitor: inout Visitor) {
        // The entry's own address in the array's storage: nothing is copied.
        withUnsafeBufferPointer { if let base = $0.baseAddress { visitor.visit(base + index) } }
    }
}

/// A message of the schema read field by field, by *slot*: the field's index
/// in its message's declaration order (``ReflectedSchema/fieldNames``).
/// Generated for every message type (`Model+Reflection.swift`), for the
/// table-driven validator, which resolves field names to slots once.
package protocol ReflectedMessage: WireMessage {
    /// The type's index in ``ReflectedSchema/typeNames``.
    static var reflectedType: Int { get }

    /// The value of a scalar or repeated scalar field, the presence of a
    /// message field, or the entry count of a repeated message field.
    func reflectedScalar(_ slot: Int) -> ReflectedScalar

    /// Hands the message of a singular message field (when set) or entry
    /// `index` of a repeated one to `visitor`.
    func reflectedVisit<Visitor: ReflectedVisitor>(_ slot: Int, at index: Int, _ visitor: inout Visitor)

    /// A repeated message field as a list, `nil` for any other field.
    func reflectedList(_ slot: Int) -> (any ReflectedList)?

    /// Sets a field to its default (a oneof member: clears the oneof when
    /// that member is set).
    mutating func reflectedClear(_ slot: Int)

    /// Sets field `child` of the message in the singular message field
    /// `slot` to its default, when that message is set.
    mutating func reflectedClear(_ slot: Int, inMessage child: Int)

    /// ``reflectedScalar(_:)`` of the value at `pointer`, which holds a
    /// `Self`: read in place, where a generic caller would copy the value.
    static func reflectedScalar(at pointer: UnsafeRawPointer, _ slot: Int) -> ReflectedScalar

    /// ``reflectedVisit(_:at:_:)`` of the value at `pointer`, which holds a
    /// `Self`, read in place.
    static func reflectedVisit<Visitor: ReflectedVisitor>(
        at pointer: UnsafeRawPointer, _ slot: Int, at index: Int, _ visitor: inout Visitor)
}

extension UnsafePointer where Pointee: ReflectedMessage {
    /// ``ReflectedMessage/reflectedScalar(_:)`` of the value here, read in place.
    package func reflectedScalar(_ slot: Int) -> ReflectedScalar {
        Pointee.reflectedScalar(at: UnsafeRawPointer(self), slot)
    }

    /// ``ReflectedMessage/reflectedVisit(_:at:_:)`` of the value here, read in place.
    package func reflectedVisit<Visitor: ReflectedVisitor>(_ slot: Int, at index: Int, _ visitor: inout Visitor) {
        Pointee.reflectedVisit(at: UnsafeRawPointer(self), slot, at: index, &visitor)
    }
}
