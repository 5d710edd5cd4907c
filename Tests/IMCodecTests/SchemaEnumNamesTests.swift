import Foundation
import Testing

@testable import IMCodec

/// The enum names the JSON decoder's messages list: every generated enum,
/// each with its own names.
@Suite struct SchemaEnumNamesTests {
    @Test func everyGeneratedEnumIsListed() throws {
        let generated = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/IMCodec/Generated")
        var declared: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: generated.path) where file.hasSuffix(".swift") {
            let source = try String(contentsOf: generated.appendingPathComponent(file), encoding: .utf8)
            for line in source.split(separator: "\n")
            where line.contains("struct ") && line.contains(": RawRepresentable") {
                let afterStruct = line.split(separator: "struct ", maxSplits: 1)[1]
                declared.append(String(afterStruct.prefix { $0.isLetter || $0.isNumber }))
            }
        }
        #expect(declared.count >= 14)
        #expect(Set(SchemaEnumNames.all.map(\.type)) == Set(declared), "list the new enum in SchemaEnumNames.all")
    }

    @Test func eachLookupFindsItsOwnEnum() {
        #expect(SchemaEnumNames.enumeration(acceptedBy: ImageFormat._number(forProtoName:))?.type == "ImageFormat")
        #expect(SchemaEnumNames.enumeration(acceptedBy: Gender._number(forProtoName:))?.type == "Gender")
        #expect(SchemaEnumNames.enumeration(acceptedBy: { _ in nil }) == nil)
        // Names belong to one enum each (proto3 package scoping), so a lookup cannot be mistaken.
        let names = SchemaEnumNames.all.flatMap(\.names)
        #expect(Set(names).count == names.count)
        #expect(SchemaEnumNames.all.allSatisfy { !$0.names.isEmpty })
    }
}
