import Foundation
import IMCodecConformance
import IMCodecOracle
import IMCodecTestSupport
import SwiftProtobuf
import Testing

/// Every payload expectation of the vector files re-derived with
/// swift-protobuf 1.39, the oracle: the vectors are never trusted only because
/// the library under test (or the script that wrote them) agrees with itself.
@Suite struct VectorOracleTests {
    /// Far above any nesting in the vectors (5,000 merger layers are 15,000
    /// protobuf levels), so swift-protobuf judges structure, not depth.
    static let binaryOptions: BinaryDecodingOptions = {
        var options = BinaryDecodingOptions()
        options.messageDepthLimit = 100_000
        return options
    }()

    static let jsonOptions: JSONDecodingOptions = {
        var options = JSONDecodingOptions()
        options.messageDepthLimit = 100_000
        return options
    }()

    /// Codes whose inputs swift-protobuf cannot be asked about: it has no
    /// such limits, so it must accept the input instead. The same reversed
    /// check applies to cases flagged `SwiftProtobufAccepts`, where the
    /// documents are stricter than swift-protobuf. Cases flagged `LimitFirst`
    /// hold a malformed entry past a limit, which swift-protobuf must reject.
    static let limitCodes: Set<String> = ["limit.depth", "limit.elems", "limit.repeated", "limit.batch-messages"]

    @Test func swiftProtobufReDerivesEveryPayloadExpectation() throws {
        let files = try VectorLoader.loadDirectory(repositoryRoot + "/Vectors")
        // Deep vectors recurse deeply in swift-protobuf: give it a large stack.
        let outcome = onLargeStack { Self.check(files) }
        let problems = outcome.problems.prefix(30).joined(separator: "\n")
        #expect(
            outcome.problems.isEmpty, "\(outcome.problems.count) vectors disagree with swift-protobuf:\n\(problems)")
        #expect(outcome.checked > 900)
        print("vector oracle: \(outcome.checked) expectations re-derived with swift-protobuf")
    }

    @Test func everySchemaFieldIsSetByAValidVector() throws {
        let files = try VectorLoader.loadDirectory(repositoryRoot + "/Vectors")
        var covered: Set<String> = []
        for file in files {
            for vector in file.cases where vector.operation == .payload && vector.result == .valid {
                guard let payload = vector.expected.payload, let kind = vector.kind else { continue }
                covered.formUnion(try Self.coverage(Self.oracleType(kind), payload))
            }
        }
        let schema = try modelSchemaFields()
        var all: Set<String> = []
        for (message, fields) in schema {
            for number in fields.keys { all.insert("\(message)#\(number)") }
        }
        #expect(all.subtracting(covered).sorted() == [], "fields no valid vector sets")
    }

    struct Outcome: Sendable {
        var problems: [String] = []
        var checked = 0
    }

    static func check(_ files: [VectorFile]) -> Outcome {
        var outcome = Outcome()
        for file in files {
            for vector in file.cases {
                var problems: [String] = []
                do {
                    outcome.checked += try check(vector) { problems.append($0) }
                } catch {
                    problems.append("swift-protobuf threw \(error)")
                }
                outcome.problems += problems.map { "\(vector.id): \($0)" }
            }
        }
        return outcome
    }

    /// Checks one case; returns how many expectations were re-derived.
    static func check(_ vector: VectorCase, _ note: (String) -> Void) throws -> Int {
        let input = vector.input
        let expected = vector.expected
        var checked = 0
        switch vector.operation {
        case .payload:
            guard let kind = vector.kind else { return 0 }
            let type = oracleType(kind)
            if let error = expected.error {
                guard let payload = input.payload else {
                    if let text = input.jsonText ?? input.json?.text {
                        checked += 1
                        let accepted = (try? json(type, text)) != nil
                        if limitCodes.contains(error.code) || vector.flags.contains("SwiftProtobufAccepts") {
                            if !accepted {
                                note("swift-protobuf rejects the JSON, so \(error.code) is not the only problem")
                            }
                        } else if accepted {
                            note("swift-protobuf reads the JSON rejected with \(error.code)")
                        }
                    }
                    return checked
                }
                if vector.flags.contains("DepthBomb") && payload.count > 2_000 {
                    // swift-protobuf takes time quadratic in the nesting; the
                    // 101-layer siblings of these bombs are checked instead.
                    return 0
                }
                checked += 1
                let accepted = (try? reencode(type, payload)) != nil
                if vector.flags.contains("LimitFirst") {
                    // The limit is judged before the entry past it is read;
                    // that entry is malformed, which swift-protobuf must see.
                    if accepted { note("swift-protobuf accepts the input, so the entry past the limit is sound") }
                } else if limitCodes.contains(error.code) || vector.flags.contains("SwiftProtobufAccepts") {
                    if !accepted { note("swift-protobuf rejects the input, so \(error.code) is not the only problem") }
                } else if accepted {
                    note("swift-protobuf accepts the input rejected with \(error.code)")
                }
                return checked
            }
            guard let canonical = expected.payload, let expectedJSON = expected.json else { return 0 }
            if let json = input.json {
                checked += 1
                let bytes = try Self.json(type, json.text)
                if bytes != canonical {
                    note("swift-protobuf reads the input JSON to \(Hex.encode(bytes)), not \(Hex.encode(canonical))")
                }
            }
            checked += 1
            let reencoded = try reencode(type, input.payload ?? canonical)
            if reencoded != canonical {
                note("swift-protobuf re-encodes the input to \(Hex.encode(reencoded)), not \(Hex.encode(canonical))")
            }
            checked += 1
            let printed = try VectorJSON(parsing: printJSON(type, canonical))
            if !printed.isEquivalent(to: expectedJSON) {
                note("swift-protobuf prints \(printed.text), not \(expectedJSON.text)")
            }
        case .decodeFrame, .decodeStream, .encodeFrame:
            var frames = expected.frames ?? []
            if let frame = expected.frame { frames.append(frame) }
            for frame in frames {
                checked += 1
                if try reencode(oracleType(frame.kind), frame.payload) != frame.payload {
                    note("a frame's payload is not canonical for swift-protobuf")
                }
            }
            if let payload = input.payload, let kind = vector.kind {
                checked += 1
                // An encode-frame case refused for its payload holds one
                // swift-protobuf must reject too; one refused before the
                // payload is looked at may hold any bytes.
                let reencoded = try? reencode(oracleType(kind), payload)
                if let code = expected.error?.code, code.hasPrefix("payload.") {
                    if reencoded != nil { note("swift-protobuf accepts the payload refused with \(code)") }
                } else if let reencoded {
                    if reencoded != payload { note("the input payload is not canonical for swift-protobuf") }
                } else if expected.error == nil {
                    note("swift-protobuf rejects the payload of a frame that is written")
                }
            }
        case .validate:
            guard let kind = vector.kind, let payload = input.payload else { return 0 }
            checked += 1
            if let json = input.json, try Self.json(oracleType(kind), json.text) != payload {
                note("swift-protobuf reads the input JSON to other bytes than payloadHex")
            }
            if try reencode(oracleType(kind), payload) != payload {
                note("the input payload is not canonical for swift-protobuf")
            }
        case .restImport, .restExport:
            // The REST mapping itself is checked by the independent Python
            // implementation that made the vectors; swift-protobuf checks
            // that the payloads are canonical.
            guard let kind = vector.kind, let payload = expected.payload ?? input.payload else { return 0 }
            checked += 1
            if try reencode(oracleType(kind), payload) != payload {
                note("the payload is not canonical for swift-protobuf")
            }
        case .restValidate:
            return 0
        }
        return checked
    }

    static func oracleType(_ kind: VectorCase.Kind) -> any SwiftProtobuf.Message.Type {
        switch kind {
        case .message: Imcodec_V1_Message.self
        case .batch: Imcodec_V1_MessageBatch.self
        case .event: Imcodec_V1_Event.self
        }
    }

    static func reencode<M: SwiftProtobuf.Message>(_: M.Type, _ bytes: [UInt8]) throws -> [UInt8] {
        try M(serializedBytes: bytes, options: binaryOptions).serializedBytes()
    }

    static func json<M: SwiftProtobuf.Message>(_: M.Type, _ text: String) throws -> [UInt8] {
        try M(jsonString: text, options: jsonOptions).serializedBytes()
    }

    static func printJSON<M: SwiftProtobuf.Message>(_: M.Type, _ bytes: [UInt8]) throws -> String {
        try M(serializedBytes: bytes, options: binaryOptions).jsonString()
    }

    static func coverage<M: SwiftProtobuf.Message>(_: M.Type, _ bytes: [UInt8]) throws -> Set<String> {
        try FieldCoverage(of: M(serializedBytes: bytes, options: binaryOptions)).seen
    }
}

/// Holds a thread's result until the waiting thread reads it; the semaphore
/// orders the write before the read.
private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}

/// Runs `body` on a thread with a 512 MiB stack and waits for it.
func onLargeStack<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        box.value = body()
        done.signal()
    }
    thread.stackSize = 512 << 20
    thread.start()
    done.wait()
    guard let value = box.value else { preconditionFailure("the thread ended without a value") }
    return value
}
