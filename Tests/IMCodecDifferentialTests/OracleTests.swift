import Foundation
import IMCodec
import IMCodecOracle
import IMCodecTestSupport
import SwiftProtobuf
import Testing

/// The schema-specialised codec against swift-protobuf generated from the
/// same Schemas/: identical bytes, equal values, compatible JSON.
@Suite struct OracleTests {
    /// Checks one value both ways and returns the oracle's field coverage.
    func check<Ours: WireMessage, Oracle: SwiftProtobuf.Message>(
        _ value: Ours, oracle: Oracle.Type, differences: inout [String]
    ) throws -> Set<String> {
        let ours = value.serializedBytes()
        #expect(ours.count == value.serializedSize)

        // swift-protobuf reads our bytes and writes the very same bytes back.
        let decodedByOracle = try Oracle(serializedBytes: ours, options: oracleDecoding)
        let oracleBytes: [UInt8] = try decodedByOracle.serializedBytes()
        if oracleBytes != ours {
            differences.append("bytes differ for \(value.jsonString())")
        }

        // We read swift-protobuf's bytes to an equal value.
        let decodedByUs = try Ours(serializedBytes: oracleBytes)
        let json = value.jsonString()
        if decodedByUs.serializedBytes() != ours || (!json.contains("NaN") && decodedByUs != value) {
            differences.append("value differs after reading the oracle's bytes: \(json)")
        }

        // JSON: both parse our JSON to the same bytes, and we read theirs.
        let oracleFromOurJSON = try Oracle(jsonString: json, options: oracleJSONDecoding)
        let ourFromOurJSON = try Ours(jsonString: json)
        let expectedFromJSON: [UInt8] = try oracleFromOurJSON.serializedBytes()
        if ourFromOurJSON.serializedBytes() != expectedFromJSON {
            differences.append("our JSON reads differently: \(json)")
        }
        let oracleJSON = try decodedByOracle.jsonString()
        let ourFromOracleJSON = try Ours(jsonString: oracleJSON)
        let expectedFromOracleJSON: [UInt8] = try Oracle(jsonString: oracleJSON, options: oracleJSONDecoding)
            .serializedBytes()
        if ourFromOracleJSON.serializedBytes() != expectedFromOracleJSON {
            differences.append("the oracle's JSON reads differently: \(oracleJSON)")
        }
        return try FieldCoverage(of: decodedByOracle).seen
    }

    @Test func agreesWithSwiftProtobufOnGeneratedPopulation() throws {
        try agreesWithSwiftProtobuf(onPopulationOf: 1)
    }

    /// The generated population, 10,000 messages, 6,000 events and 300
    /// batches divided by `divisor`, against swift-protobuf; the whole
    /// population (`divisor` 1) must exercise every field of the schema.
    /// (`PortablePathsTests` runs a part of it through the portable string
    /// path.)
    func agreesWithSwiftProtobuf(onPopulationOf divisor: Int) throws {
        var generator = ValueGenerator(seed: 0x1AC0_DEC0)
        var differences: [String] = []
        var covered: Set<String> = []
        var checked = 0
        for _ in 0..<10_000 / divisor {
            covered.formUnion(
                try check(
                    Message.arbitrary(using: &generator), oracle: Imcodec_V1_Message.self,
                    differences: &differences))
            checked += 1
        }
        for _ in 0..<6_000 / divisor {
            covered.formUnion(
                try check(
                    Event.arbitrary(using: &generator), oracle: Imcodec_V1_Event.self,
                    differences: &differences))
            checked += 1
        }
        for _ in 0..<300 / divisor {
            covered.formUnion(
                try check(
                    MessageBatch.arbitrary(using: &generator),
                    oracle: Imcodec_V1_MessageBatch.self, differences: &differences))
            checked += 1
        }
        #expect(differences.isEmpty, "\(differences.count) differences, first: \(differences.prefix(3))")

        // Every field of every message of the schema was exercised.
        let schema = try modelSchemaFields()
        var all: Set<String> = []
        for (message, fields) in schema {
            for number in fields.keys { all.insert("\(message)#\(number)") }
        }
        let missing = all.subtracting(covered).sorted()
        if divisor == 1 { #expect(missing.isEmpty, "fields never exercised: \(missing)") }
        print(
            "oracle: \(checked) values, 0 allowed differences (found \(differences.count)); "
                + "\(covered.intersection(all).count) of \(all.count) fields of \(schema.count) types exercised")
    }

    @Test func generatedModelHandlesEverySchemaField() throws {
        let schema = try modelSchemaFields()
        #expect(schema.count == SchemaFields.byMessage.count)
        for (message, fields) in schema {
            let handled = SchemaFields.byMessage[message] ?? []
            #expect(
                Dictionary(uniqueKeysWithValues: handled.map { ($0.number, $0.name) }) == fields,
                "\(message): the generated model does not match the schema")
        }
    }
}
