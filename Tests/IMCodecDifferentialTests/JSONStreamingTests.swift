import Foundation
import IMCodec
import IMCodecREST
import IMCodecTestSupport
import IMCodecTraffic
import IMCodecValidation
import Testing

@testable import IMCodecConformance

/// The readers that hand a batch over one message at a time
/// (`MessageBatch.readMessages`, REST `importPayload(_:limits:eachListMessage:)`,
/// the streaming validators) against the readers that return the whole
/// value: the same messages, findings and errors.
@Suite struct JSONStreamingTests {
    static let files = Result { try VectorLoader.loadDirectory(repositoryRoot + "/Vectors") }

    /// Batches: every batch vector's JSON and batches cut from the traffic.
    static func batchDocuments() throws -> [String] {
        var documents: [String] = []
        for file in try files.get() {
            for vector in file.cases where vector.kind == .batch {
                if let text = vector.input.jsonText ?? vector.input.json?.text { documents.append(text) }
            }
        }
        documents += Corpus(count: 600).batches.map { $0.jsonString() }
        return documents
    }

    @Test func aBatchReadMessageByMessageIsTheBatchReadWhole() throws {
        var compared = 0
        for document in try Self.batchDocuments() {
            let whole = Result { () throws(IMCodecError) in try MessageBatch(jsonString: document) }
            var messages: [Message] = []
            let streamed = Result { () throws(IMCodecError) in
                try MessageBatch.readMessages(jsonUTF8: Array(document.utf8), limits: .default) { message, index in
                    #expect(index == messages.count)
                    messages.append(message)
                }
            }
            switch (whole, streamed) {
            case (.success(let batch), .success): #expect(batch.messages == messages)
            case (.failure(let a), .failure(let b)): #expect(a.code == b.code && a.path == b.path, "\(a) against \(b)")
            default: Issue.record("\(document): \(whole) against \(streamed)")
            }
            compared += 1
        }
        #expect(compared > 40)
    }

    @Test func aBatchValidatedMessageByMessageHasTheFindingsOfTheWholeBatch() throws {
        for document in try Self.batchDocuments() {
            guard let batch = try? MessageBatch(jsonString: document) else { continue }
            for limits in [ValidationLimits.sdkGuide, .current] {
                let whole = Validator.validate(batch, limits: limits)
                let report = InputValidator.validate(
                    Array(document.utf8), format: .jsonOrFrames(kind: .batch), limits: limits)
                #expect(report.failure == nil && report.findings.map(\.finding) == whole)
            }
        }
    }

    @Test func findingsHandedOverAsFoundAreTheReportsFindings() throws {
        let documents = try Self.batchDocuments().prefix(40).map { Array($0.utf8) }
        let inputs: [([UInt8], InputValidator.Format)] =
            documents.map { ($0, .jsonOrFrames(kind: .batch)) }
            + [
                (
                    Array(
                        ("[" + documents.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ",") + "]").utf8),
                    .jsonOrFrames(kind: .batch)
                )
            ]
        for (input, format) in inputs {
            let report = InputValidator.validate(input, format: format, limits: .current)
            var handed: [ValidationReport.LocatedFinding] = []
            let rest = InputValidator.validate(input, format: format, limits: .current) { handed.append($0) }
            #expect(handed == report.findings && rest.failure == report.failure && rest.findings.isEmpty)
        }
    }

    @Test func aRESTMessageListImportedMessageByMessageIsTheListImportedWhole() throws {
        var compared = 0
        for file in try Self.files.get() {
            for vector in file.cases where vector.operation == .restImport || vector.operation == .restValidate {
                guard let text = vector.input.restText ?? vector.input.rest?.text else { continue }
                let document = Array(text.utf8)
                let whole = Result { () throws(IMCodecError) in try RESTCodec.importPayload(document) }
                var messages: [Message] = []
                let streamed = Result { () throws(IMCodecError) in
                    try RESTCodec.importPayload(document, limits: .default) { message, _ in messages.append(message) }
                }
                switch (whole, streamed) {
                case (.success(let a), .success(let b)):
                    #expect(a.skippedKeys == b.skippedKeys)
                    switch a.value {
                    case .batch(let batch): #expect(b.value == nil && batch.messages == messages)
                    case .message(let message): #expect(b.value == message && messages.isEmpty)
                    case .event: Issue.record("an event from REST")
                    }
                case (.failure(let a), .failure(let b)):
                    #expect(a.code == b.code && a.path == b.path, "\(vector.id): \(a) against \(b)")
                default: Issue.record("\(vector.id): \(whole) against \(streamed)")
                }
                compared += 1
            }
        }
        #expect(compared > 100)
    }

    @Test func restFindingsHandedOverAsFoundAreTheValidatorsFindings() throws {
        for file in try Self.files.get() {
            for vector in file.cases where vector.operation == .restValidate || vector.operation == .restImport {
                guard let text = vector.input.restText ?? vector.input.rest?.text else { continue }
                for limits in [ValidationLimits.sdkGuide, .current] {
                    var handed: [ValidationFinding] = []
                    RESTValidator.validate(Array(text.utf8), limits: limits) { handed.append($0) }
                    #expect(handed == RESTValidator.validate(Array(text.utf8), limits: limits), "\(vector.id)")
                }
            }
        }
    }

    @Test func anEscapedMsgContentKeyIsSteppedOverAsTheKeyItSpells() throws {
        // MsgContent ahead of MsgType, its key spelt with an escape: the
        // first pass records its extent under the key it spells.
        let plain = #"[{"MsgContent":{"Text":"hi"},"MsgType":"TIMTextElem"}]"#
        let escaped = #"[{"Msg\u0043ontent":{"Text":"hi"},"MsgType":"TIMTextElem"}]"#
        let message = try RESTCodec.importMessage(Array(plain.utf8)).value
        #expect(try RESTCodec.importMessage(Array(escaped.utf8)).value == message)
        #expect(message.elems == [.text("hi")])
    }

    @Test func theEncoderFramesABatchReadMessageByMessageAsTheLibraryFramesIt() throws {
        let batch = MessageBatch(
            messages: Corpus(count: 40).messages.filter { !$0.receiver.isEmpty }.prefix(20).map { $0 })
        let binary = URL(fileURLWithPath: ChildProcess.currentExecutable).deletingLastPathComponent()
            .appendingPathComponent("imcodec").path
        for policy in [["--compression", "none"], ["--threshold", "0"]] {
            let result = try ChildProcess.run(
                executable: binary,
                arguments: ["encode", "--kind", "batch", "--no-validate", "--output", "-"] + policy,
                input: Array(batch.jsonString().utf8))
            #expect(result.status == 0, "\(result.standardError)")
            let encoder = FrameEncoder(
                policy: policy.first == "--compression" ? .disabled : CompressionPolicy(threshold: 0))
            #expect(result.standardOutputBytes == (try encoder.encode(batch)))
        }
    }
}
