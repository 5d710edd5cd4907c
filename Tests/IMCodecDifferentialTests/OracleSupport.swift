import Foundation
import IMCodec
import IMCodecOracle
import IMCodecTestSupport
import SwiftProtobuf

/// swift-protobuf options for the oracle: a depth limit far above the merger
/// nesting the tests build (each merger layer is three protobuf levels).
let oracleDecoding: BinaryDecodingOptions = {
    var options = BinaryDecodingOptions()
    options.messageDepthLimit = 10_000
    return options
}()

let oracleJSONDecoding: JSONDecodingOptions = {
    var options = JSONDecodingOptions()
    options.messageDepthLimit = 10_000
    return options
}()

/// Records which fields of which message types a swift-protobuf message sets.
struct FieldCoverage: SwiftProtobuf.Visitor {
    var seen: Set<String> = []
    private var stack: [String] = []

    init<M: SwiftProtobuf.Message>(of message: M) throws {
        stack = [M.protoMessageName]
        try message.traverse(visitor: &self)
    }

    private mutating func record(_ number: Int) {
        seen.insert("\(stack.last ?? "?")#\(number)")
    }

    private mutating func nested<M: SwiftProtobuf.Message>(_ value: M) throws {
        stack.append(M.protoMessageName)
        try value.traverse(visitor: &self)
        stack.removeLast()
    }

    mutating func visitSingularDoubleField(value: Double, fieldNumber: Int) throws { record(fieldNumber) }
    mutating func visitSingularInt64Field(value: Int64, fieldNumber: Int) throws { record(fieldNumber) }
    mutating func visitSingularUInt64Field(value: UInt64, fieldNumber: Int) throws { record(fieldNumber) }
    mutating func visitSingularBoolField(value: Bool, fieldNumber: Int) throws { record(fieldNumber) }
    mutating func visitSingularStringField(value: String, fieldNumber: Int) throws { record(fieldNumber) }
    mutating func visitSingularBytesField(value: Data, fieldNumber: Int) throws { record(fieldNumber) }
    mutating func visitSingularEnumField<E: SwiftProtobuf.Enum>(value: E, fieldNumber: Int) throws {
        record(fieldNumber)
    }
    mutating func visitSingularMessageField<M: SwiftProtobuf.Message>(value: M, fieldNumber: Int) throws {
        record(fieldNumber)
        try nested(value)
    }
    mutating func visitSingularGroupField<G: SwiftProtobuf.Message>(value: G, fieldNumber: Int) throws {
        record(fieldNumber)
    }
    mutating func visitRepeatedStringField(value: [String], fieldNumber: Int) throws { record(fieldNumber) }
    mutating func visitRepeatedBytesField(value: [Data], fieldNumber: Int) throws { record(fieldNumber) }
    mutating func visitRepeatedMessageField<M: SwiftProtobuf.Message>(value: [M], fieldNumber: Int) throws {
        record(fieldNumber)
        for element in value { try nested(element) }
    }
    mutating func visitRepeatedGroupField<G: SwiftProtobuf.Message>(value: [G], fieldNumber: Int) throws {
        record(fieldNumber)
    }
    mutating func visitMapField<KeyType, ValueType: MapValueType>(
        fieldType: _ProtobufMap<KeyType, ValueType>.Type, value: _ProtobufMap<KeyType, ValueType>.BaseType,
        fieldNumber: Int
    ) throws { record(fieldNumber) }
    mutating func visitMapField<KeyType, ValueType>(
        fieldType: _ProtobufEnumMap<KeyType, ValueType>.Type, value: _ProtobufEnumMap<KeyType, ValueType>.BaseType,
        fieldNumber: Int
    ) throws where ValueType.RawValue == Int { record(fieldNumber) }
    mutating func visitMapField<KeyType, ValueType>(
        fieldType: _ProtobufMessageMap<KeyType, ValueType>.Type,
        value: _ProtobufMessageMap<KeyType, ValueType>.BaseType, fieldNumber: Int
    ) throws { record(fieldNumber) }
    mutating func visitExtensionFields(fields: ExtensionFieldValueSet, start: Int, end: Int) throws {}
    mutating func visitUnknown(bytes: Data) throws {}
}

/// The .proto files of the package `imcodec.v1`, relative to the repository.
let modelProtoFiles = [
    "Schemas/imcodec/v1/model.proto", "Schemas/imcodec/v1/relationship.proto", "Schemas/imcodec/v1/group.proto",
    "Schemas/imcodec/v1/event.proto",
]

/// The field numbers and names of every message of the package `imcodec.v1`,
/// read from all its .proto files.
func modelSchemaFields() throws -> [String: [Int: String]] {
    var result: [String: [Int: String]] = [:]
    for file in modelProtoFiles {
        result.merge(try schemaFields(protoFile: repositoryRoot + "/" + file, package: "imcodec.v1")) { $1 }
    }
    return result
}

/// The fields of every message of a `.proto` file, read from its text.
///
/// A deliberately simple reading of the schema, independent of the code
/// generator: `message Name {` opens a message, `type name = number;` lines are
/// fields, `}` closes. Enough for the schema's own style.
func schemaFields(protoFile path: String, package: String) throws -> [String: [Int: String]] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    var result: [String: [Int: String]] = [:]
    var current: String?
    var braces = 0
    for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
        let line =
            rawLine.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        if line.hasPrefix("message "), current == nil {
            current = "\(package).\(line.dropFirst(8).split(separator: " ")[0])"
            result[current!] = [:]
            braces = 1
            continue
        }
        guard let name = current else { continue }
        braces += line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count
        if braces == 0 {
            current = nil
            continue
        }
        let words = line.replacingOccurrences(of: ";", with: "").split(separator: " ").map(String.init)
        if let equals = words.firstIndex(of: "="), equals >= 2, equals + 1 < words.count,
            let number = Int(words[equals + 1]), !line.hasPrefix("oneof")
        {
            result[name]![number] = words[equals - 1]
        }
    }
    return result
}
