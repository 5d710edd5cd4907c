import Foundation
import IMCodecConformance
import IMCodecOracle
import IMCodecTestSupport
import IMCodecTestee
import SwiftProtobuf
import Testing

/// The testee protocol's types (IMCodecTestee, made by scripts/codegen/generate_swift.py)
/// checked against swift-protobuf's types for the same schema: every request
/// the runner makes from the vectors, and every answer the in-process testee
/// gives, is encoded byte for byte as swift-protobuf encodes it, and decodes
/// to the value swift-protobuf decodes.
@Suite struct TesteeProtocolOracleTests {
    /// The requests of every vector case, with the in-process testee's answers.
    static let exchanges: [(TesteeRequest, TesteeResponse)] = {
        let files = (try? VectorLoader.loadDirectory(repositoryRoot + "/Vectors")) ?? []
        let testee = InProcessTestee()
        return files.flatMap(\.cases).flatMap(CaseCheck.checks(for:)).map { check in
            (check.request, testee.handle(check.request))
        }
    }()

    @Test func requestsEncodeAsSwiftProtobufEncodesThem() throws {
        #expect(Self.exchanges.count > 2_000)
        var operations = Set<String>()
        for (request, _) in Self.exchanges {
            let ours = request.serializedBytes()
            let oracle = try Imcodec_Testee_V1_Request(serializedBytes: ours)
            #expect(try oracle.serializedBytes() == ours, "\(request.caseID)")
            #expect(oracle.caseID == request.caseID)
            let decoded = try TesteeRequest(serializedBytes: try oracle.serializedBytes() as [UInt8])
            #expect(decoded == request, "\(request.caseID)")
            if let operation = oracle.operation {
                operations.insert("\(operation)".prefix(while: { $0 != "(" }).description)
            }
        }
        // Every operation of the protocol occurs in the vectors.
        #expect(operations.count == 10, "\(operations.sorted())")
    }

    @Test func responsesEncodeAsSwiftProtobufEncodesThem() throws {
        var results = Set<String>()
        for (request, response) in Self.exchanges {
            let ours = response.serializedBytes()
            let oracle = try Imcodec_Testee_V1_Response(serializedBytes: ours)
            #expect(try oracle.serializedBytes() == ours, "\(request.caseID)")
            #expect(try TesteeResponse(serializedBytes: try oracle.serializedBytes() as [UInt8]) == response)
            if let result = oracle.result { results.insert("\(result)".prefix(while: { $0 != "(" }).description) }
        }
        // Every result but `skipped` and `runtime_error`, which the library never answers to a vector.
        #expect(
            results.isSuperset(of: ["payload", "frame", "frameBytes", "stream", "findings", "json", "rest", "failure"]))
    }

    /// A field swift-protobuf writes that this schema version does not know
    /// survives our decoding and re-encoding.
    @Test func unknownFieldsSurvive() throws {
        var oracle = Imcodec_Testee_V1_Failure()
        oracle.code = "frame.checksum"
        oracle.path = "header"
        var bytes: [UInt8] = try oracle.serializedBytes()
        bytes += [0xA8, 0x06, 0x2A]  // field 101, varint 42
        let ours = try TesteeFailure(serializedBytes: bytes)
        #expect(ours.code == "frame.checksum")
        #expect(ours.serializedBytes() == bytes)
    }
}
