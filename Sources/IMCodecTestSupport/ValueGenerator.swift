import IMCodec
import IMCodecTraffic

/// A type whose values a ``ValueGenerator`` can produce.
public protocol Arbitrary {
    /// Returns a value whose fields are drawn from `generator`.
    static func arbitrary(using generator: inout ValueGenerator) -> Self
}

/// A deterministic source of field values for generated test populations.
///
/// The same seed always yields the same sequence. Values lean towards the
/// cases codecs get wrong: empty and long strings, Chinese, emoji and ZWJ
/// sequences, NUL and U+2028 inside strings, -0.0, NaN and infinities,
/// integer extremes, enum numbers the schema does not name, and unknown
/// fields.
public struct ValueGenerator: Sendable {
    private var random: SeededGenerator
    private var nested = 0
    private var layers = 0
    /// The deepest merger nesting generated.
    public var maxLayers: Int
    /// Whether to add unknown fields to some messages.
    public var unknownFieldsEnabled: Bool

    /// Creates a generator.
    ///
    /// - Parameters:
    ///   - seed: The seed; equal seeds give equal sequences.
    ///   - maxLayers: The deepest merger nesting to generate.
    ///   - unknownFields: Whether to add unknown fields.
    public init(seed: UInt64, maxLayers: Int = 2, unknownFields: Bool = true) {
        self.random = SeededGenerator(seed: seed)
        self.maxLayers = maxLayers
        self.unknownFieldsEnabled = unknownFields
    }

    /// The next 64 random bits (SplitMix64).
    public mutating func next() -> UInt64 { random.next() }

    /// A number in `0..<bound`.
    public mutating func choice(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// Whether to set an optional field (about 60%).
    public mutating func setField() -> Bool { choice(10) < 6 }

    /// How many entries a repeated field gets: usually 0 to 3.
    public mutating func count() -> Int {
        choice(20) == 0 ? 4 + choice(6) : choice(4)
    }

    /// Enters a nested message; false when nesting is deep enough.
    public mutating func enterNested() -> Bool {
        guard nested < 12 else { return false }
        nested += 1
        return true
    }

    /// Leaves a nested message.
    public mutating func leaveNested() { nested -= 1 }

    /// Enters a merger's messages; false past `maxLayers` or, less often the
    /// deeper it is, by chance.
    public mutating func enterLayer() -> Bool {
        guard layers < maxLayers, choice(layers + 2) == 0 else { return false }
        layers += 1
        return true
    }

    /// Leaves a merger's messages.
    public mutating func leaveLayer() { layers -= 1 }

    private static let strings: [String] = [
        "hello", "Hi, how are you?", "你好，世界", "群公告：明天上午十点开会", "😀", "👍🏽 ok",
        "👨‍👩‍👧‍👦 family", "🇨🇳🇺🇸", "a\u{0}b", "\u{0}", "line\u{2028}sep", "tab\there", "quote\"back\\slash",
        "https://cos.ap-shanghai.myqcloud.com/abc/IMG_0001.jpg", "AddSource_Type_iOS", "@TGS#1JYSZEAEQ",
        "{\"businessID\":\"text_link\",\"text\":\"欢迎\"}", "Ω≈ç√∫", "\u{7F}\u{1}\u{1F}", "e\u{301}",
        "𝄞 music", "iOS", "RESTful API",
    ]

    /// A string: often short and ASCII, often not.
    public mutating func string() -> String {
        switch choice(10) {
        case 0: return String(repeating: "长", count: 1 + choice(200))
        case 1: return String(repeating: "x", count: 100 + choice(400))
        case 2...4: return "user_\(choice(100_000))"
        default: return Self.strings[choice(Self.strings.count)]
        }
    }

    /// Bytes of random length and content.
    public mutating func bytes() -> [UInt8] {
        let length = choice(8) == 0 ? 64 + choice(512) : choice(24)
        return (0..<length).map { _ in UInt8(truncatingIfNeeded: next()) }
    }

    /// A bool.
    public mutating func bool() -> Bool { next() & 1 == 1 }

    /// An Int32, extremes included.
    public mutating func int32() -> Int32 {
        switch choice(8) {
        case 0: return .min
        case 1: return .max
        case 2: return -1
        case 3: return 1
        default: return Int32(truncatingIfNeeded: next() >> UInt64(choice(32)))
        }
    }

    /// A UInt32, extremes included.
    public mutating func uint32() -> UInt32 {
        switch choice(6) {
        case 0: return .max
        case 1: return 1
        default: return UInt32(truncatingIfNeeded: next() >> UInt64(choice(32)))
        }
    }

    /// An Int64, extremes included.
    public mutating func int64() -> Int64 {
        switch choice(8) {
        case 0: return .min
        case 1: return .max
        case 2: return -1
        default: return Int64(bitPattern: next() >> UInt64(choice(64)))
        }
    }

    /// A UInt64, extremes included.
    public mutating func uint64() -> UInt64 {
        switch choice(6) {
        case 0: return .max
        case 1: return 1
        default: return next() >> UInt64(choice(64))
        }
    }

    /// A double: -0.0, NaN, infinities, extremes, 17-digit coordinates.
    public mutating func double() -> Double {
        switch choice(12) {
        case 0: return -0.0
        case 1: return .nan
        case 2: return .infinity
        case 3: return -.infinity
        case 4: return .leastNonzeroMagnitude
        case 5: return .greatestFiniteMagnitude
        case 6: return 29.340656774469956
        case 7: return 116.77497920478824
        default: return (Double(next() >> 11) / Double(1 << 53) - 0.5) * 360
        }
    }

    /// An enum number: usually one the schema names, sometimes not.
    public mutating func enumNumber(known: [Int32]) -> Int32 {
        if choice(10) == 0 { return [Int32(-1), 99, 1_000, Int32.max][choice(4)] }
        return known[choice(known.count)]
    }

    /// Unknown fields for about one message in ten: numbers the schema does
    /// not use (100 and up), of every wire type but groups.
    public mutating func unknownFields() -> UnknownFields {
        guard unknownFieldsEnabled, choice(10) == 0 else { return UnknownFields() }
        var bytes: [UInt8] = []
        for _ in 0..<(1 + choice(2)) {
            let number = UInt64(100 + choice(1 << 20))
            let wireType = [0, 1, 2, 5][choice(4)]
            bytes.appendVarint(number << 3 | UInt64(wireType))
            switch wireType {
            case 0: bytes.appendVarint(next() >> UInt64(choice(64)))
            case 1: bytes.append(contentsOf: (0..<8).map { _ in UInt8(truncatingIfNeeded: next()) })
            case 2:
                let payload = self.bytes()
                bytes.appendVarint(UInt64(payload.count))
                bytes.append(contentsOf: payload)
            default: bytes.append(contentsOf: (0..<4).map { _ in UInt8(truncatingIfNeeded: next()) })
            }
        }
        return UnknownFields(bytes: bytes)
    }
}
