/// A value held on the heap: the storage of a large singular message field.
///
/// A field of a message type takes as many bytes inline as the message it
/// holds, and every value holding it pays for those bytes on each
/// initialisation, move and destruction, also when the field is absent: an
/// `OfflinePushInfo` made every ``Message`` 270 bytes larger. The generated
/// model keeps each singular message field whose value would take more than
/// 96 bytes inline in one of these instead (8 bytes, one allocation when the
/// field is set), behind a property of the field's own type. It has value
/// semantics like any enum: a copy shares the storage until it is replaced.
enum Indirect<Value: Hashable & Sendable>: Hashable, Sendable {
    /// The held value.
    indirect case value(Value)

    /// The held value.
    var value: Value {
        switch self {
        case .value(let value): value
        }
    }
}
