import Foundation
import IMCodec
import Testing

/// Sources/IMCodec/IMCodec.docc/SDKNumericCodes.md is checked against the enums it documents, so the named
/// codes and their table cannot drift apart.
@Suite struct CodesDocTests {
    /// One documented enum: its name in the section heading, its values and
    /// their schema names.
    struct Catalogue: Sendable, CustomTestStringConvertible {
        var name: String
        var values: [(number: Int32, protoName: String?)]

        var testDescription: String { name }

        init<Code: RawRepresentable>(_ name: String, _ values: [Code], protoName: (Code) -> String?)
        where Code.RawValue == Int32 {
            self.name = name
            self.values = values.map { ($0.rawValue, protoName($0)) }
        }
    }

    static let catalogues: [Catalogue] = [
        Catalogue("ImErrorCode", ImErrorCode.knownValues, protoName: \.protoName),
        Catalogue("FriendStatus", FriendStatus.knownValues, protoName: \.protoName),
        Catalogue("GroupMemberStatus", GroupMemberStatus.knownValues, protoName: \.protoName),
        Catalogue("ConnectionStatusCode", ConnectionStatusCode.knownValues, protoName: \.protoName),
    ]

    /// The rows of the table in the section whose heading names `name`:
    /// the number and the schema name of each.
    static func rows(of name: String) throws -> [(number: Int32, protoName: String)] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(
            contentsOf: root.appendingPathComponent("Sources/IMCodec/IMCodec.docc/SDKNumericCodes.md"), encoding: .utf8)
        let sections = text.components(separatedBy: "\n## ")
        guard let section = sections.first(where: { $0.split(separator: "\n").first?.hasSuffix("`\(name)`") ?? false })
        else { return [] }
        var rows: [(Int32, String)] = []
        for line in section.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 1, let number = Int32(cells[0]) else { continue }
            rows.append((number, cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))))
        }
        return rows
    }

    @Test(arguments: catalogues)
    func tableListsExactlyTheNamedValues(_ catalogue: Catalogue) throws {
        let rows = try Self.rows(of: catalogue.name)
        #expect(!rows.isEmpty, "Sources/IMCodec/IMCodec.docc/SDKNumericCodes.md has no table for \(catalogue.name)")
        #expect(rows.map(\.number) == catalogue.values.map(\.number), "rows of \(catalogue.name) in declaration order")
        for (row, value) in zip(rows, catalogue.values) {
            #expect(row.protoName == value.protoName, "\(catalogue.name) \(row.number)")
        }
    }

    @Test func codesTheSDKGuidesNameAreNamed() {
        #expect(ImErrorCode.kickedByOthers.rawValue == 6_208)
        #expect(ImErrorCode.inPeerBlocklist.rawValue == 20_007)
        #expect(ImErrorCode.notFriend.rawValue == 20_009)
        #expect(
            Set(FriendStatus.knownValues.map(\.rawValue))
                == [0, 30_515, 30_516, 30_010, 30_525, 30_539, 31_704, 30_614, 30_014])
        #expect(GroupMemberStatus.knownValues.map(\.rawValue) == [0, 1, 2, 3])
        #expect(ConnectionStatusCode.knownValues.map(\.rawValue) == [0, 6, 14, 15, 16])
        #expect(ConnectionStatusCode.connected.rawValue == 0 && ConnectionStatusCode.connected.isKnown)
    }
}
