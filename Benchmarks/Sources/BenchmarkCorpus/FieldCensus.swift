import Foundation
import IMCodecOracle
import SwiftProtobuf

/// Counts, in swift-protobuf's view of a value, the fields a decoder may
/// allocate for: string and bytes values (each element of a repeated one)
/// and non-empty repeated fields. Scalars and nested messages held inline
/// need no allocation of their own.
public struct FieldCensus: SwiftProtobuf.Visitor {
    /// String and bytes values present.
    public private(set) var strings = 0
    /// Non-empty repeated fields.
    public private(set) var repeatedFields = 0
    /// Singular scalar fields present.
    public private(set) var scalars = 0

    /// The allocation budget: one per string, bytes value or repeated field.
    public var budget: Int { strings + repeatedFields }

    /// Counts the fields of `message` and of everything nested in it.
    public init<M: SwiftProtobuf.Message>(of message: M) throws {
        try message.traverse(visitor: &self)
    }

    /// Counts the fields of every value.
    public init<M: SwiftProtobuf.Message>(of messages: [M]) throws {
        for message in messages { try message.traverse(visitor: &self) }
    }

    public mutating func visitSingularDoubleField(value: Double, fieldNumber: Int) throws { scalars += 1 }
    public mutating func visitSingularInt64Field(value: Int64, fieldNumber: Int) throws { scalars += 1 }
    public mutating func visitSingularUInt64Field(value: UInt64, fieldNumber: Int) throws { scalars += 1 }
    public mutating func visitSingularBoolField(value: Bool, fieldNumber: Int) throws { scalars += 1 }
    public mutating func visitSingularStringField(value: String, fieldNumber: Int) throws { strings += 1 }
    public mutating func visitSingularBytesField(value: Data, fieldNumber: Int) throws { strings += 1 }
    public mutating func visitSingularEnumField<E: SwiftProtobuf.Enum>(value: E, fieldNumber: Int) throws {
        scalars += 1
    }
    public mutating func visitSingularMessageField<M: SwiftProtobuf.Message>(value: M, fieldNumber: Int) throws {
        try value.traverse(visitor: &self)
    }
    public mutating func visitSingularGroupField<G: SwiftProtobuf.Message>(value: G, fieldNumber: Int) throws {
        try value.traverse(visitor: &self)
    }
    public mutating func visitRepeatedStringField(value: [String], fieldNumber: Int) throws {
        repeatedFields += 1
        strings += value.count
    }
    public mutating func visitRepeatedBytesField(value: [Data], fieldNumber: Int) throws {
        repeatedFields += 1
        strings += value.count
    }
    public mutating func visitRepeatedMessageField<M: SwiftProtobuf.Message>(value: [M], fieldNumber: Int) throws {
        repeatedFields += 1
        for element in value { try element.traverse(visitor: &self) }
    }
    public mutating func visitRepeatedGroupField<G: SwiftProtobuf.Message>(value: [G], fieldNumber: Int) throws {
        repeatedFields += 1
        for element in value { try element.traverse(visitor: &self) }
    }
    public mutating func visitMapField<KeyType, ValueType: MapValueType>(
        fieldType: _ProtobufMap<KeyType, ValueType>.Type, value: _ProtobufMap<KeyType, ValueType>.BaseType,
        fieldNumber: Int
    ) throws { repeatedFields += 1 }
    public mutating func visitMapField<KeyType, ValueType>(
        fieldType: _ProtobufEnumMap<KeyType, ValueType>.Type, value: _ProtobufEnumMap<KeyType, ValueType>.BaseType,
        fieldNumber: Int
    ) throws where ValueType.RawValue == Int { repeatedFields += 1 }
    public mutating func visitMapField<KeyType, ValueType>(
        fieldType: _ProtobufMessageMap<KeyType, ValueType>.Type,
        value: _ProtobufMessageMap<KeyType, ValueType>.BaseType, fieldNumber: Int
    ) throws { repeatedFields += 1 }
    public mutating func visitExtensionFields(fields: ExtensionFieldValueSet, start: Int, end: Int) throws {}
    public mutating func visitUnknown(bytes: Data) throws { strings += 1 }
}
