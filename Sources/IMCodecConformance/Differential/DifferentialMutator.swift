import IMCodec
import IMCodecTestee
import IMCodecTraffic

/// Structure-aware mutations of a request's input: payloads edited as wire
/// fields (``WireTree``) so lengths stay right, frames re-framed around a
/// mutated payload so the checksum holds, streams re-chunked, JSON and REST
/// documents edited as values, limits set to small boundaries; and plain
/// byte edits, for what a parser must refuse.
struct DifferentialMutator {
    var random: SeededGenerator
    let library = InProcessTestee()

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    /// Varints that cross a boundary of some integer type.
    static let edgeVarints: [UInt64] = [
        0, 1, 0x7F, 0x80, 0x3FFF, 0x4000, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 0x1_0000_0000,
        0x7FFF_FFFF_FFFF_FFFF, 0x8000_0000_0000_0000, UInt64.max, UInt64.max - 1, 2, 3, 7, 100, 101,
    ]
    /// String contents that are not valid UTF-8, or valid and awkward.
    static let edgeStringBytes: [[UInt8]] = [
        [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xFF], [0x00], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x80, 0xA8],
        [0x61, 0xCC], [0xEF, 0xBB, 0xBF], [],
    ]
    /// JSON numbers that readers round, refuse or lose the sign of.
    static let edgeNumbers = [
        "-0.0", "-0", "0", "1e400", "-1e400", "1.0", "1e2", "9007199254740993", "-9223372036854775808",
        "9223372036854775808", "18446744073709551615", "18446744073709551616", "4294967296", "-1", "0.5",
        "1E-7", "5e-324", "01", "1.", "-", "2147483648", "-2147483649",
    ]

    /// A mutation of `request`.
    mutating func mutate(_ request: TesteeRequest) -> TesteeRequest {
        var request = request
        if random.chance(10) {
            request.limits = boundaryLimits()
            return request
        }
        switch request.operation {
        case .decodePayload(var operation):
            operation.payload = mutatePayload(operation.payload)
            if random.chance(5) { operation.kind = TesteePayloadKind(rawValue: Int32(random.int(0...4))) }
            request.operation = .decodePayload(operation)
        case .payloadToJson(var operation):
            operation.payload = mutatePayload(operation.payload)
            request.operation = .payloadToJson(operation)
        case .payloadToRest(var operation):
            operation.payload = mutatePayload(operation.payload)
            request.operation = .payloadToRest(operation)
        case .validate(var operation):
            if random.chance(10) {
                operation.profile = random.pick(["sdk-guide", "current", "seed"])
            } else {
                operation.payload = mutatePayload(operation.payload)
            }
            request.operation = .validate(operation)
        case .encodeFrame(var operation):
            switch random.int(0...5) {
            case 0: operation.compression = UInt32(random.int(0...2))
            case 1: operation.threshold = UInt32(random.pick([0, 1, operation.payload.count, 1 << 20]))
            case 2: operation.level = UInt32(random.pick([0, 1, 9, 10, 19, 20]))
            case 3: operation.dictionaryID = UInt32(random.int(0...5))
            default: operation.payload = mutatePayload(operation.payload)
            }
            request.operation = .encodeFrame(operation)
        case .decodeFrame(var operation):
            operation.frame = mutateFrame(operation.frame)
            request.operation = .decodeFrame(operation)
        case .decodeStream(var operation):
            operation.chunks = mutateStream(operation.chunks)
            request.operation = .decodeStream(operation)
        case .jsonToPayload(var operation):
            operation.json = mutateJSON(operation.json)
            request.operation = .jsonToPayload(operation)
        case .restToPayload(var operation):
            operation.rest = mutateJSON(operation.rest)
            request.operation = .restToPayload(operation)
        case .validateRest(var operation):
            operation.rest = mutateJSON(operation.rest)
            request.operation = .validateRest(operation)
        case nil:
            break
        }
        return request
    }

    /// One limit set to a small value, where N and N+1 meet in small inputs.
    mutating func boundaryLimits() -> TesteeLimits {
        var limits = TesteeLimits()
        let value = UInt32(random.int(1...12))
        switch random.int(0...5) {
        case 0: limits.maxDepth = value
        case 1: limits.maxElems = value
        case 2: limits.maxRepeated = value
        case 3: limits.maxBatchMessages = value
        case 4: limits.maxFrameBytes = UInt32(random.int(8...400))
        default: limits.maxInflateRatio = value
        }
        return limits
    }

    // MARK: Payloads

    mutating func mutatePayload(_ bytes: [UInt8]) -> [UInt8] {
        if let tree = WireTree.parse(bytes), !tree.isEmpty, random.chance(80) {
            let path = random.pick(WireTree.paths(tree))
            return WireTree.encode(WireTree.replacing(tree, at: path) { field in mutateField(field) })
        }
        return mutateBytes(bytes)
    }

    mutating func mutateField(_ field: WireField) -> [WireField] {
        var field = field
        switch random.int(0...9) {
        case 0:
            return []
        case 1:
            return [field, field]
        case 2:
            field.wireType = 0
            field.children = nil
            var value = WireTree.varint(random.pick(Self.edgeVarints))
            if random.chance(20), value.count < 10 {
                // The same value, not minimally encoded.
                value[value.count - 1] |= 0x80
                value.append(0)
            }
            field.value = value
        case 3:
            field.children = nil
            field.value = Array(field.value.prefix(random.int(0...max(0, field.value.count - 1))))
            if field.wireType == 1 || field.wireType == 5 { field.wireType = 2 }
        case 4:
            field.wireType = 2
            field.children = nil
            field.value = random.pick(Self.edgeStringBytes)
        case 5:
            let unknown = WireField(
                number: UInt64(random.pick([15, 99, 1000, 19_000, 536_870_911])), wireType: random.pick([0, 2, 5]),
                value: [0x01, 0x02, 0x03, 0x04].prefix(random.int(1...4)).map { $0 })
            let inserted =
                unknown.wireType == 0 ? WireField(number: unknown.number, wireType: 0, value: [0x01]) : unknown
            return random.chance(50) ? [inserted, field] : [field, inserted]
        case 6:
            field.number = UInt64(random.int(1...25))
        case 7:
            field.wireType = 1
            field.children = nil
            let bits = random.pick([
                (-0.0).bitPattern, Double.nan.bitPattern, Double.infinity.bitPattern,
                Double.leastNonzeroMagnitude.bitPattern,
                UInt64(0x7FF0_0000_0000_0001),
            ])
            field.value = (0..<8).map { UInt8(truncatingIfNeeded: bits >> ($0 * 8)) }
        case 8:
            if var children = field.children, !children.isEmpty {
                children.append(children[random.int(0...children.count - 1)])
                field.children = children
            } else {
                field.value = mutateBytes(field.value)
                field.children = nil
            }
        default:
            if field.children == nil { field.value = mutateBytes(field.value) }
        }
        return [field]
    }

    mutating func mutateBytes(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        switch random.int(0...4) {
        case 0 where !bytes.isEmpty:
            let index = random.int(0...bytes.count - 1)
            bytes[index] ^= 1 << UInt8(random.int(0...7))
        case 1 where !bytes.isEmpty:
            bytes.removeLast(random.int(1...bytes.count))
        case 2:
            bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: random.int(0...bytes.count))
        case 3 where !bytes.isEmpty:
            let start = random.int(0...bytes.count - 1)
            bytes.removeSubrange(start..<min(bytes.count, start + random.int(1...8)))
        default:
            bytes += [UInt8(truncatingIfNeeded: random.next()), 0x80, 0x01].prefix(random.int(1...3))
        }
        return bytes
    }

    // MARK: Frames and streams

    mutating func mutateFrame(_ bytes: [UInt8]) -> [UInt8] {
        if random.chance(40),
            let frame = try? FrameDecoder(limits: DifferentialAnswer.generousLimits)
                .decodeFrame(bytes)
        {
            // The same header's policy around a mutated payload: a frame
            // whose checksum holds, so the payload's decoding is what differs.
            var operation = TesteeEncodeFrameRequest()
            operation.kind = TesteePayloadKind(rawValue: Int32(frame.header.kind.rawValue))
            operation.payload = mutatePayload(Array(frame.payload))
            operation.compression = UInt32(frame.header.compression.rawValue)
            operation.dictionaryID = frame.header.dictionaryID ?? 0
            var request = TesteeRequest()
            request.operation = .encodeFrame(operation)
            if case .frameBytes(let framed) = library.handle(request).result { return framed }
        }
        var bytes = bytes
        switch random.int(0...3) {
        case 0 where !bytes.isEmpty:
            // The header: magic, version, kind, flags, lengths, checksum.
            let index = random.int(0...min(bytes.count, 16) - 1)
            bytes[index] =
                random.chance(50)
                ? bytes[index] ^ (1 << UInt8(random.int(0...7))) : UInt8(truncatingIfNeeded: random.next())
        case 1:
            bytes += bytes.prefix(random.int(1...max(1, bytes.count)))
        default:
            bytes = mutateBytes(bytes)
        }
        return bytes
    }

    mutating func mutateStream(_ chunks: [[UInt8]]) -> [[UInt8]] {
        var bytes = chunks.flatMap { $0 }
        if random.chance(40) { bytes = random.chance(50) ? mutateFrame(bytes) : mutateBytes(bytes) }
        return split(bytes)
    }

    /// The bytes cut into chunks at random places; small inputs sometimes a
    /// byte at a time, and sometimes with empty chunks.
    mutating func split(_ bytes: [UInt8]) -> [[UInt8]] {
        if bytes.count <= 300 && random.chance(15) { return bytes.map { [$0] } }
        var cuts = (0..<random.int(0...4)).map { _ in random.int(0...bytes.count) }
        cuts.sort()
        var chunks: [[UInt8]] = []
        var start = 0
        for cut in cuts + [bytes.count] {
            chunks.append(Array(bytes[start..<cut]))
            start = cut
        }
        return chunks
    }

    // MARK: JSON

    mutating func mutateJSON(_ text: String) -> String {
        guard let value = try? VectorJSON(parsing: text), random.chance(90) else {
            var bytes = Array(text.utf8)
            bytes = mutateBytes(bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
        let paths = Self.jsonPaths(value)
        let path = random.pick(paths)
        return Self.replacing(value, at: path) { node in mutateJSONNode(node) }.text
    }

    mutating func mutateJSONNode(_ node: VectorJSON) -> VectorJSON {
        switch random.int(0...7) {
        case 0, 1: return .number(random.pick(Self.edgeNumbers))
        case 2: return .string(random.pick(DifferentialGenerator.edgeStrings + ["NaN", "Infinity", "-0", "1e2"]))
        case 3: return .null
        case 4:
            if case .number(let literal) = node { return .string(literal) }
            return .array([node])
        case 5:
            if case .object(var members) = node, !members.isEmpty {
                let index = random.int(0...members.count - 1)
                if random.chance(50) {
                    members.remove(at: index)
                } else {
                    members.append(members[index])
                }
                return .object(members)
            }
            return .object([("unknownMember", node)])
        case 6:
            if case .object(var members) = node, !members.isEmpty {
                // The other spelling of a member name: snake_case for
                // lowerCamelCase and back, both of which proto3 JSON reads.
                let index = random.int(0...members.count - 1)
                members[index].key = Self.otherSpelling(members[index].key)
                return .object(members)
            }
            return .bool(random.chance(50))
        default:
            if case .array(var items) = node, !items.isEmpty {
                items.append(items[random.int(0...items.count - 1)])
                return .array(items)
            }
            return node
        }
    }

    static func otherSpelling(_ key: String) -> String {
        if key.contains("_") {
            var out = ""
            var upper = false
            for character in key {
                if character == "_" {
                    upper = true
                } else {
                    out += upper ? character.uppercased() : String(character)
                    upper = false
                }
            }
            return out
        }
        return key.map { $0.isUppercase ? "_" + $0.lowercased() : String($0) }.joined()
    }

    /// Every node of a JSON value as a path of indexes (array items and
    /// object members alike), the root first.
    static func jsonPaths(_ value: VectorJSON, prefix: [Int] = []) -> [[Int]] {
        var out = [prefix]
        switch value {
        case .array(let items):
            for (index, item) in items.enumerated() { out += jsonPaths(item, prefix: prefix + [index]) }
        case .object(let members):
            for (index, member) in members.enumerated() { out += jsonPaths(member.value, prefix: prefix + [index]) }
        default:
            break
        }
        return out
    }

    /// The value with the node at `path` replaced.
    static func replacing(_ value: VectorJSON, at path: [Int], _ change: (VectorJSON) -> VectorJSON) -> VectorJSON {
        guard let first = path.first else { return change(value) }
        let rest = Array(path.dropFirst())
        switch value {
        case .array(var items) where items.indices.contains(first):
            items[first] = replacing(items[first], at: rest, change)
            return .array(items)
        case .object(var members) where members.indices.contains(first):
            members[first].value = replacing(members[first].value, at: rest, change)
            return .object(members)
        default:
            return value
        }
    }
}
