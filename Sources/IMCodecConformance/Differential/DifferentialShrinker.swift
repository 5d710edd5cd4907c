import IMCodec
import IMCodecTestee

/// Reduces a request on which two implementations disagree to a smaller
/// one on which they still disagree the same way: greedy, coarse edits
/// first (whole wire fields, JSON members, chunks, halves of the bytes),
/// each kept only when the signature is unchanged, until no edit helps or
/// the budget is spent.
struct DifferentialShrinker {
    /// Whether a candidate still shows the disagreement.
    let stillDisagrees: (TesteeRequest) -> Bool
    /// When to stop trying.
    let deadline: ContinuousClock.Instant
    /// How many candidates were tried.
    private(set) var attempts = 0

    init(deadline: ContinuousClock.Instant, stillDisagrees: @escaping (TesteeRequest) -> Bool) {
        self.deadline = deadline
        self.stillDisagrees = stillDisagrees
    }

    /// The smallest request found.
    mutating func shrink(_ request: TesteeRequest) -> TesteeRequest {
        var current = request
        var size = Self.size(current)
        var improved = true
        while improved && ContinuousClock.now < deadline {
            improved = false
            for candidate in Self.candidates(current) where Self.size(candidate) < size {
                guard ContinuousClock.now < deadline else { break }
                attempts += 1
                if stillDisagrees(candidate) {
                    current = candidate
                    size = Self.size(candidate)
                    improved = true
                    break
                }
            }
        }
        return current
    }

    /// What a request's size is measured as: its encoding.
    static func size(_ request: TesteeRequest) -> Int { request.serializedBytes().count }

    /// Smaller variants of a request, coarse first.
    static func candidates(_ request: TesteeRequest) -> [TesteeRequest] {
        var out: [TesteeRequest] = []
        if request.limits != nil {
            var without = request
            without.limits = nil
            out.append(without)
        }
        func each<Operation>(_ values: [Operation], _ wrap: (Operation) -> TesteeRequest.Operation) {
            for value in values {
                var candidate = request
                candidate.operation = wrap(value)
                out.append(candidate)
            }
        }
        switch request.operation {
        case .decodePayload(let operation):
            each(payloads(operation.payload).map { with(operation, \.payload, $0) }) { .decodePayload($0) }
        case .payloadToJson(let operation):
            each(payloads(operation.payload).map { with(operation, \.payload, $0) }) { .payloadToJson($0) }
        case .payloadToRest(let operation):
            each(payloads(operation.payload).map { with(operation, \.payload, $0) }) { .payloadToRest($0) }
        case .validate(let operation):
            each(payloads(operation.payload).map { with(operation, \.payload, $0) }) { .validate($0) }
        case .encodeFrame(let operation):
            var simpler: [TesteeEncodeFrameRequest] = []
            if operation.threshold != 0 { simpler.append(with(operation, \.threshold, 0)) }
            if operation.level != 0 { simpler.append(with(operation, \.level, 0)) }
            if operation.dictionaryID != 0 { simpler.append(with(operation, \.dictionaryID, 0)) }
            if operation.compression != 0 { simpler.append(with(operation, \.compression, 0)) }
            simpler += payloads(operation.payload).map { with(operation, \.payload, $0) }
            each(simpler) { .encodeFrame($0) }
        case .decodeFrame(let operation):
            each(frames(operation.frame).map { with(operation, \.frame, $0) }) { .decodeFrame($0) }
        case .decodeStream(let operation):
            var chunkings: [[[UInt8]]] = []
            let whole = operation.chunks.flatMap { $0 }
            if operation.chunks.count > 1 { chunkings.append([whole]) }
            if operation.chunks.count > 32 {
                // Many chunks: halve their number first, by merging pairs.
                chunkings.append(
                    stride(from: 0, to: operation.chunks.count, by: 2).map { start in
                        operation.chunks[start..<min(start + 2, operation.chunks.count)].flatMap { $0 }
                    })
            }
            for index in operation.chunks.indices where operation.chunks.count <= 32 {
                var fewer = operation.chunks
                fewer.remove(at: index)
                chunkings.append(fewer)
                if index > 0 {
                    var merged = operation.chunks
                    merged[index - 1] += merged.remove(at: index)
                    chunkings.append(merged)
                }
            }
            if operation.chunks.count == 1 { chunkings += frames(whole).map { [$0] } }
            each(chunkings.map { with(operation, \.chunks, $0) }) { .decodeStream($0) }
        case .jsonToPayload(let operation):
            each(documents(operation.json).map { with(operation, \.json, $0) }) { .jsonToPayload($0) }
        case .restToPayload(let operation):
            each(documents(operation.rest).map { with(operation, \.rest, $0) }) { .restToPayload($0) }
        case .validateRest(let operation):
            each(documents(operation.rest).map { with(operation, \.rest, $0) }) { .validateRest($0) }
        case nil:
            break
        }
        return out
    }

    static func with<Value, Field>(_ value: Value, _ keyPath: WritableKeyPath<Value, Field>, _ field: Field) -> Value {
        var value = value
        value[keyPath: keyPath] = field
        return value
    }

    /// Smaller payloads: a field put in the place of an enclosing field of
    /// the same number (layers of a chain removed at once), wire fields
    /// removed, nested messages hoisted or emptied, then runs of bytes
    /// removed.
    static func payloads(_ bytes: [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        if let deep = WireTree.parse(bytes, limit: chainDepth) { out += chainCuts(deep) }
        if let tree = WireTree.parse(bytes) {
            for path in WireTree.paths(tree).prefix(512) {
                out.append(WireTree.encode(WireTree.replacing(tree, at: path) { _ in [] }))
                if let field = WireTree.field(tree, at: path), let children = field.children {
                    out.append(WireTree.encode(WireTree.replacing(tree, at: path) { _ in children }))
                }
            }
        }
        return out + byteRuns(bytes)
    }

    /// How deep a payload is read for ``chainCuts(_:)``: past the deepest
    /// chain a run's limits let through (a merger layer is three nested
    /// messages).
    static let chainDepth = 400

    /// A chain of fields of one number, each inside the last (a message's
    /// elems holding a merger holding messages holding elems, one layer a
    /// turn), shortened in one edit: the outermost link of the chain at each
    /// of the first 4 nested fields replaced by the link `n`, `n/2`, `n/4`,
    /// ..., 1 links below it, so that a chain of `n` links reaches the
    /// length where the disagreement stops in about `log2(n)` kept edits,
    /// where one link an edit would take a slow testee minutes.
    static func chainCuts(_ tree: [WireField]) -> [[UInt8]] {
        // Every field once, depth first: its path and its number and type.
        var fields: [(path: [Int], number: UInt64, wireType: UInt8, nested: Bool)] = []
        func walk(_ level: [WireField], _ prefix: [Int]) {
            for (index, field) in level.enumerated() {
                let path = prefix + [index]
                fields.append((path, field.number, field.wireType, field.children != nil))
                if let children = field.children { walk(children, path) }
            }
        }
        walk(tree, [])
        var out: [[UInt8]] = []
        var outer = 0
        for (index, field) in fields.enumerated() where field.nested {
            // Its links: the fields of its number below it, which follow it.
            var links: [[Int]] = []
            for other in fields[(index + 1)...] {
                guard other.path.starts(with: field.path) else { break }
                if other.number == field.number && other.wireType == field.wireType { links.append(other.path) }
            }
            guard !links.isEmpty else { continue }
            links.sort { $0.count < $1.count }
            var step = links.count
            while step >= 1 {
                if let inner = WireTree.field(tree, at: links[step - 1]) {
                    out.append(WireTree.encode(WireTree.replacing(tree, at: field.path) { _ in [inner] }))
                }
                step /= 2
            }
            outer += 1
            if outer == 4 { break }
        }
        return out
    }

    /// The bytes with one run removed, long runs first; runs too short to
    /// try on long inputs (more than 512 of them) are left out.
    static func byteRuns(_ bytes: [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var run = max(1, bytes.count / 2)
        while bytes.count / run <= 512 {
            var start = 0
            while start < bytes.count {
                var fewer = bytes
                fewer.removeSubrange(start..<min(bytes.count, start + run))
                out.append(fewer)
                start += run
            }
            if run == 1 { break }
            run /= 2
        }
        return out
    }

    /// Smaller frames: for a frame whose checksum holds, the same header
    /// around each smaller payload; then runs of bytes removed.
    static func frames(_ bytes: [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        let library = InProcessTestee()
        if let frame = try? FrameDecoder(limits: DifferentialAnswer.generousLimits).decodeFrame(bytes) {
            for payload in payloads(Array(frame.payload)).prefix(200) {
                var operation = TesteeEncodeFrameRequest()
                operation.kind = TesteePayloadKind(rawValue: Int32(frame.header.kind.rawValue))
                operation.payload = payload
                operation.compression = UInt32(frame.header.compression.rawValue)
                operation.dictionaryID = frame.header.dictionaryID ?? 0
                var request = TesteeRequest()
                request.operation = .encodeFrame(operation)
                if case .frameBytes(let framed) = library.handle(request).result { out.append(framed) }
            }
        }
        return out + byteRuns(bytes)
    }

    /// ``chainCuts(_:)`` of a JSON document: the value of a member replaced
    /// by the value of a member of the same name `n`, `n/2`, ..., 1 links
    /// below it (a merger's `elems` holding a merger's `messages` holding
    /// `elems`), at each of the first 4 members that have such links.
    static func chainCuts(_ value: VectorJSON) -> [VectorJSON] {
        // Every member once, depth first: its path and its name.
        var members: [(path: [Int], key: String)] = []
        func walk(_ node: VectorJSON, _ prefix: [Int]) {
            switch node {
            case .array(let items):
                for (index, item) in items.enumerated() { walk(item, prefix + [index]) }
            case .object(let fields):
                for (index, field) in fields.enumerated() {
                    members.append((prefix + [index], field.key))
                    walk(field.value, prefix + [index])
                }
            default:
                break
            }
        }
        walk(value, [])
        func node(_ value: VectorJSON, at path: [Int]) -> VectorJSON? {
            guard let first = path.first else { return value }
            switch value {
            case .array(let items) where items.indices.contains(first):
                return node(items[first], at: Array(path.dropFirst()))
            case .object(let fields) where fields.indices.contains(first):
                return node(fields[first].value, at: Array(path.dropFirst()))
            default:
                return nil
            }
        }
        var out: [VectorJSON] = []
        var outer = 0
        for (index, member) in members.enumerated() {
            var links: [[Int]] = []
            for other in members[(index + 1)...] {
                guard other.path.starts(with: member.path) else { break }
                if other.key == member.key { links.append(other.path) }
            }
            guard !links.isEmpty else { continue }
            links.sort { $0.count < $1.count }
            var step = links.count
            while step >= 1 {
                if let inner = node(value, at: links[step - 1]) {
                    out.append(DifferentialMutator.replacing(value, at: member.path) { _ in inner })
                }
                step /= 2
            }
            outer += 1
            if outer == 4 { break }
        }
        return out
    }

    /// Smaller JSON documents: a member's value put in the place of an
    /// enclosing member's of the same name (layers of a chain removed at
    /// once, as ``chainCuts(_:)`` does for payloads), members and items
    /// removed, a node put in its parent's place; for text that is not JSON,
    /// runs of bytes removed.
    static func documents(_ text: String) -> [String] {
        guard let value = try? VectorJSON(parsing: text) else {
            return byteRuns(Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) }
        }
        var out = chainCuts(value).map(\.text)
        for path in DifferentialMutator.jsonPaths(value).prefix(512) where !path.isEmpty {
            let parent = Array(path.dropLast())
            let index = path[path.count - 1]
            out.append(
                DifferentialMutator.replacing(value, at: parent) { node in
                    switch node {
                    case .array(var items):
                        items.remove(at: index)
                        return .array(items)
                    case .object(var members):
                        members.remove(at: index)
                        return .object(members)
                    default:
                        return node
                    }
                }.text)
            out.append(
                DifferentialMutator.replacing(value, at: parent) { node in
                    switch node {
                    case .array(let items): return items[index]
                    case .object(let members): return members[index].value
                    default: return node
                    }
                }.text)
        }
        return out
    }
}
