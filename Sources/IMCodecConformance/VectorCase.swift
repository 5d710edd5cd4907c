import IMCodec

/// One case of a vector file: an input, what to do with it, and the result
/// every conforming implementation produces (`Vectors/README.md`).
public struct VectorCase: Sendable, Hashable {
    /// What the case asks an implementation to do.
    public enum Operation: String, Sendable, Hashable, CaseIterable {
        /// Read a value (payload bytes or proto3 JSON) and answer its canonical
        /// payload and JSON, or the error.
        case payload
        /// Decode one frame.
        case decodeFrame = "decode-frame"
        /// Build a frame around a payload under a compression policy.
        case encodeFrame = "encode-frame"
        /// Feed a stream of frames to a streaming reader in chunks.
        case decodeStream = "decode-stream"
        /// Validate a value against a limits profile.
        case validate
        /// Read a Tencent REST document (Sources/IMCodecREST/IMCodecREST.docc/REST.md) and answer its
        /// canonical payload, or the first problem.
        case restImport = "rest-import"
        /// Write a payload as a canonical REST document, or answer why it
        /// has no REST form.
        case restExport = "rest-export"
        /// Validate a REST document against a limits profile.
        case restValidate = "rest-validate"
    }

    /// What a payload holds; the names of the frame kinds.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case message
        case batch
        case event

        /// The frame kind number (1, 2, 3), also the testee protocol's
        /// `PayloadKind`.
        public var number: Int {
            FrameKind(name: rawValue).map { Int($0.rawValue) } ?? 0
        }

        /// The kind with frame kind number `number`.
        public init?(number: Int) {
            guard let kind = Self.allCases.first(where: { $0.number == number }) else { return nil }
            self = kind
        }
    }

    /// Whether the input is accepted (`valid`) or rejected (`invalid`).
    public enum Result: String, Sendable, Hashable {
        case valid
        case invalid
    }

    /// A rejection: the stable code and the path into the value.
    public struct ExpectedError: Sendable, Hashable, CustomStringConvertible {
        public var code: String
        public var path: String

        public init(code: String, path: String) {
            self.code = code
            self.path = path
        }

        public var description: String { path.isEmpty ? code : "\(code) at \(path)" }
    }

    /// A decoded frame: header fields and the canonical payload.
    public struct ExpectedFrame: Sendable, Hashable, CustomStringConvertible {
        public var kind: Kind
        /// 0 none, 1 deflate, 2 zstd.
        public var compression: Int
        /// 0 when the frame names no dictionary.
        public var dictionaryID: Int
        public var payload: [UInt8]

        public init(kind: Kind, compression: Int, dictionaryID: Int, payload: [UInt8]) {
            self.kind = kind
            self.compression = compression
            self.dictionaryID = dictionaryID
            self.payload = payload
        }

        public var description: String {
            "\(kind) frame, compression \(compression), dictionary \(dictionaryID), payload \(Hex.abbreviated(payload))"
        }
    }

    /// The compression policy of an `encode-frame` case.
    public struct FramePolicy: Sendable, Hashable {
        /// 0 never compress, 1 deflate when worthwhile.
        public var compression: Int
        public var threshold: Int
        /// zlib level 1–9; 0 for the implementation's default.
        public var level: Int
        /// 0 for none.
        public var dictionaryID: Int
    }

    /// One expected validation finding. Fields left nil are not compared.
    public struct ExpectedFinding: Sendable, Hashable, CustomStringConvertible {
        public var code: String
        public var path: String
        public var severity: String?
        public var limit: Int64?
        public var actual: Int64?

        public var description: String {
            var text = path.isEmpty ? code : "\(code) at \(path)"
            if let severity { text += " [\(severity)]" }
            if let limit { text += " limit \(limit)" }
            if let actual { text += " actual \(actual)" }
            return text
        }
    }

    /// The case's input. Which members are set depends on the operation.
    public struct Input: Sendable, Hashable {
        /// proto3 JSON of the value (payload and validate cases).
        public var json: VectorJSON?
        /// JSON text given verbatim, for inputs that are not JSON values.
        public var jsonText: String?
        /// A payload (payload, encode-frame and validate cases).
        public var payload: [UInt8]?
        /// One frame (decode-frame cases).
        public var frame: [UInt8]?
        /// The chunks of a stream (decode-stream cases).
        public var chunks: [[UInt8]]?
        /// The compression policy (encode-frame cases).
        public var policy: FramePolicy?
        /// The limits profile name (validate cases).
        public var profile: String?
        /// A REST document as a JSON value (REST cases).
        public var rest: VectorJSON?
        /// A REST document as verbatim text (REST cases).
        public var restText: String?
    }

    /// The case's expected result.
    public struct Expected: Sendable, Hashable {
        /// The canonical payload.
        public var payload: [UInt8]?
        /// The canonical proto3 JSON.
        public var json: VectorJSON?
        /// The rejection of an invalid input.
        public var error: ExpectedError?
        /// The decoded frame (decode-frame, encode-frame).
        public var frame: ExpectedFrame?
        /// The frames a stream yields, in order (decode-stream).
        public var frames: [ExpectedFrame]?
        /// Whether the stream ends inside a frame (decode-stream).
        public var incompleteTail: Bool?
        /// All validation findings (validate).
        public var findings: [ExpectedFinding]?
        /// The canonical REST document (rest-import, rest-export).
        public var rest: VectorJSON?
    }

    /// The stable id, unique across all vector files.
    public var id: String
    /// What the case checks and why, for people.
    public var comment: String
    /// Names of the file's flags that apply to this case.
    public var flags: [String]
    public var operation: Operation
    public var result: Result
    /// What the payload holds (payload, encode-frame and validate cases).
    public var kind: Kind?
    /// Decoding limits for this case; members left out mean the defaults.
    public var limits: [String: Int]
    public var input: Input
    public var expected: Expected
}
