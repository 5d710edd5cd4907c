import IMCodec
import IMCodecTestee
import IMCodecTraffic

/// Where differential requests come from: values generated from the model
/// (realistic traffic, every elem kind, number and unicode edge cases,
/// merger chains around the depth limit) and structure-aware mutations of
/// the golden vectors' inputs (``DifferentialMutator``). Seeded: equal
/// seeds and vectors give equal sequences.
struct DifferentialGenerator {
    var random: SeededGenerator
    /// The vectors' requests, the mutator's starting points.
    let seeds: [TesteeRequest]
    /// Generated values: kind and canonical payload.
    let values: [(kind: FrameKind, payload: [UInt8])]
    /// The operations to produce.
    let operations: Set<String>
    var mutator: DifferentialMutator
    let library = InProcessTestee()

    init(seed: UInt64, seeds: [TesteeRequest], operations: Set<String>) {
        random = SeededGenerator(seed: seed)
        self.seeds = seeds.filter { $0.operation.map(Self.name).map(operations.contains) ?? false }
        self.operations = operations
        mutator = DifferentialMutator(seed: seed ^ 0x5EED_D1FF)
        values = Self.values(seed: seed)
    }

    /// The testee-protocol name of an operation.
    static func name(_ operation: TesteeRequest.Operation) -> String {
        switch operation {
        case .decodePayload: "decode_payload"
        case .decodeFrame: "decode_frame"
        case .encodeFrame: "encode_frame"
        case .decodeStream: "decode_stream"
        case .validate: "validate"
        case .jsonToPayload: "json_to_payload"
        case .payloadToJson: "payload_to_json"
        case .restToPayload: "rest_to_payload"
        case .payloadToRest: "payload_to_rest"
        case .validateRest: "validate_rest"
        }
    }

    /// The next request.
    mutating func next() -> TesteeRequest {
        for _ in 0..<20 {
            var request: TesteeRequest?
            if !seeds.isEmpty && random.chance(50) {
                request = random.pick(seeds)
                for _ in 0..<random.int(1...3) { request = mutator.mutate(request!) }
            } else {
                request = generated()
                if let base = request, random.chance(25) { request = mutator.mutate(base) }
            }
            if let request, let operation = request.operation, operations.contains(Self.name(operation)) {
                var named = request
                named.caseID = "differential"
                return named
            }
        }
        // Every operation asked for has a generated form; this is reached only
        // when none of them is among the operations.
        return TesteeRequest()
    }

    /// A request about one generated value, for one of the operations.
    mutating func generated() -> TesteeRequest? {
        let (kind, payload) = random.pick(values)
        let payloadKind = TesteePayloadKind(rawValue: Int32(kind.rawValue))
        var request = TesteeRequest()
        switch random.pick(Array(operations).sorted()) {
        case "decode_payload":
            var operation = TesteeDecodePayloadRequest()
            operation.kind = payloadKind
            operation.payload = payload
            request.operation = .decodePayload(operation)
        case "payload_to_json":
            var operation = TesteePayloadToJsonRequest()
            operation.kind = payloadKind
            operation.payload = payload
            request.operation = .payloadToJson(operation)
        case "json_to_payload":
            guard let json = libraryJSON(kind, payload) else { return nil }
            var operation = TesteeJsonToPayloadRequest()
            operation.kind = payloadKind
            operation.json = json
            request.operation = .jsonToPayload(operation)
        case "encode_frame":
            request.operation = .encodeFrame(encodeRequest(payloadKind, payload))
        case "decode_frame":
            guard let frame = libraryFrame(payloadKind, payload) else { return nil }
            var operation = TesteeDecodeFrameRequest()
            operation.frame = frame
            request.operation = .decodeFrame(operation)
        case "decode_stream":
            var bytes: [UInt8] = []
            for _ in 0..<random.int(1...3) {
                let (kind, payload) = random.pick(values)
                bytes += libraryFrame(TesteePayloadKind(rawValue: Int32(kind.rawValue)), payload) ?? []
            }
            var operation = TesteeDecodeStreamRequest()
            operation.chunks = mutator.split(bytes)
            request.operation = .decodeStream(operation)
        case "validate":
            var operation = TesteeValidateRequest()
            operation.kind = payloadKind
            operation.payload = payload
            operation.profile = random.pick(["sdk-guide", "current"])
            request.operation = .validate(operation)
        case "payload_to_rest":
            var operation = TesteePayloadToRestRequest()
            operation.kind = payloadKind
            operation.payload = payload
            request.operation = .payloadToRest(operation)
        case "rest_to_payload":
            guard kind != .event, let rest = libraryREST(kind, payload) else { return nil }
            var operation = TesteeRestToPayloadRequest()
            operation.kind = payloadKind
            operation.rest = rest
            request.operation = .restToPayload(operation)
        case "validate_rest":
            guard kind == .message, let rest = libraryREST(kind, payload) else { return nil }
            var operation = TesteeValidateRestRequest()
            operation.rest = rest
            operation.profile = random.pick(["sdk-guide", "current"])
            request.operation = .validateRest(operation)
        default:
            return nil
        }
        return request
    }

    mutating func encodeRequest(_ kind: TesteePayloadKind, _ payload: [UInt8]) -> TesteeEncodeFrameRequest {
        var operation = TesteeEncodeFrameRequest()
        operation.kind = kind
        operation.payload = payload
        operation.compression = UInt32(random.int(0...2))
        operation.threshold = UInt32(random.pick([0, 1, 32, 256, payload.count, payload.count + 1]))
        operation.level = UInt32(random.pick([0, 0, 1, 6, 9]))
        operation.dictionaryID = random.chance(20) ? UInt32(random.int(1...4)) : 0
        return operation
    }

    /// A frame of the payload as the library writes it.
    mutating func libraryFrame(_ kind: TesteePayloadKind, _ payload: [UInt8]) -> [UInt8]? {
        var request = TesteeRequest()
        request.operation = .encodeFrame(encodeRequest(kind, payload))
        if case .frameBytes(let bytes) = library.handle(request).result { return bytes }
        return nil
    }

    func libraryJSON(_ kind: FrameKind, _ payload: [UInt8]) -> String? {
        var operation = TesteePayloadToJsonRequest()
        operation.kind = TesteePayloadKind(rawValue: Int32(kind.rawValue))
        operation.payload = payload
        var request = TesteeRequest()
        request.operation = .payloadToJson(operation)
        if case .json(let text) = library.handle(request).result { return text }
        return nil
    }

    func libraryREST(_ kind: FrameKind, _ payload: [UInt8]) -> String? {
        var operation = TesteePayloadToRestRequest()
        operation.kind = TesteePayloadKind(rawValue: Int32(kind.rawValue))
        operation.payload = payload
        var request = TesteeRequest()
        request.operation = .payloadToRest(operation)
        if case .rest(let text) = library.handle(request).result { return text }
        return nil
    }

    // MARK: Values

    /// Doubles that implementations print, read or drop differently.
    static let edgeDoubles: [Double] = [
        -0.0, 0.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 2.2250738585072014e-308, 1.7976931348623157e308,
        -1.7976931348623157e308,
        0.1, 1e21, 1e-7, 123456789.12345679, 9007199254740992, 1.5, -90, 180, 90.000000000000014,
        .infinity, -.infinity, .nan,
    ]
    /// Strings that encoders escape, cut or normalise differently.
    static let edgeStrings: [String] = [
        "", "\u{0}", "a\u{0}b", "\u{2028}\u{2029}", "e\u{301}", "👨‍👩‍👧‍👦", "\u{FEFF}x", "\u{7F}\u{1F}", "\"\\/",
        "\u{10FFFF}", "\u{FFFD}", "中文测试", "@all", String(repeating: "长", count: 300), "<script>", "\t\n\r",
    ]

    /// The generated values: realistic traffic (every elem kind the corpus
    /// mixes), each altered by an edge case, batches, and merger chains
    /// around the depth limit and the depth where runtimes' recursion
    /// limits bite.
    static func values(seed: UInt64) -> [(kind: FrameKind, payload: [UInt8])] {
        var random = SeededGenerator(seed: seed ^ 0xA1_7E5)
        let corpus = Corpus(seed: seed, count: 120)
        var values: [(FrameKind, [UInt8])] = []
        for message in corpus.messages {
            values.append((.message, message.serializedBytes()))
            values.append((.message, edged(message, &random).serializedBytes()))
        }
        for batch in corpus.batches.prefix(2) { values.append((.batch, batch.serializedBytes())) }
        let inner = corpus.messages[0]
        for depth in [1, 2, 8, 31, 32, 33, 34, 35, 40, 49, 50, 98, 99, 100, 101] {
            values.append((.message, chain(inner, depth: depth).serializedBytes()))
        }
        return values
    }

    /// The message wrapped in `depth` merger layers.
    static func chain(_ inner: Message, depth: Int) -> Message {
        var message = inner
        for layer in 0..<depth {
            var merger = MergerElem()
            merger.title = "layer \(layer)"
            merger.messages = [message]
            var elem = Elem()
            elem.kind = .merger(merger)
            var outer = Message()
            outer.msgID = "m\(layer)"
            outer.elems = [elem]
            message = outer
        }
        return message
    }

    /// The message with one edge case put in.
    static func edged(_ message: Message, _ random: inout SeededGenerator) -> Message {
        var message = message
        switch random.int(0...6) {
        case 0, 1:
            var location = LocationElem()
            location.desc = random.pick(edgeStrings)
            location.latitude = random.pick(edgeDoubles)
            location.longitude = random.pick(edgeDoubles)
            var elem = Elem()
            elem.kind = .location(location)
            message.elems.insert(elem, at: random.int(0...message.elems.count))
        case 2:
            var text = TextElem()
            text.text = random.pick(edgeStrings)
            var elem = Elem()
            elem.kind = .text(text)
            message.elems.append(elem)
        case 3:
            message.timestamp = random.pick([Int64.min, Int64.max, -1, 0, 1 << 53 + 1])
            message.seq = random.pick([UInt64.max, 1 << 63, 0])
            message.random = random.pick([UInt32.max, 1 << 31])
        case 4:
            message.priority = Priority(rawValue: random.pick([-1, 7, Int32.max, Int32.min]))
        case 5:
            var custom = CustomElem()
            custom.data = (0..<random.int(0...40)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            custom.desc = random.pick(edgeStrings)
            var elem = Elem()
            elem.kind = .custom(custom)
            message.elems.append(elem)
        default:
            message.sender = random.pick(edgeStrings)
            message.msgID = random.pick(edgeStrings)
        }
        return message
    }
}
