import IMCodecTestSupport
import IMCodecTraffic
import Testing

@testable import IMCodec

/// Writer within reader: an encoder refuses exactly what a reader with the
/// same limits refuses, with the reader's code and path, and everything it
/// writes, that reader accepts.
///
/// The expected errors are the decoder's own answers on frames written with
/// limits raised out of the way, so the encoder's walk is checked against
/// the decoding code it mirrors, not against itself.
@Suite struct WriterWithinReaderTests {
    /// Limits no value of these tests reaches.
    static let unbounded: DecodingLimits = {
        var limits = DecodingLimits()
        limits.maxFrameBytes = Int(UInt32.max)
        limits.maxInflatedBytes = Int(UInt32.max)
        limits.maxInflateRatio = Int(UInt32.max)
        limits.maxDepth = 10_000
        limits.maxElems = 1 << 30
        limits.maxRepeated = 1 << 30
        limits.maxBatchMessages = 1 << 30
        return limits
    }()

    /// What a reader with `limits` answers for the frame of `value`.
    func readerError(_ value: FramePayload, limits: DecodingLimits) throws -> IMCodecError? {
        let frame = try FrameEncoder(policy: .disabled, limits: Self.unbounded).encode(value)
        do {
            _ = try FrameDecoder(limits: limits).decode(frame)
            return nil
        } catch {
            return error
        }
    }

    /// What an encoder with `limits` answers for `value`: its error, or nil
    /// after checking that a reader with the same limits reads the frame
    /// back as `value`.
    func writerError(_ value: FramePayload, limits: DecodingLimits, policy: CompressionPolicy = .default)
        throws -> IMCodecError?
    {
        let frame: [UInt8]
        do {
            frame = try FrameEncoder(policy: policy, limits: limits).encode(value)
        } catch {
            return error
        }
        // Compared as bytes: a generated double may be NaN, which == never
        // equals.
        #expect(try FrameDecoder(limits: limits).decode(frame).serializedBytes() == value.serializedBytes())
        return nil
    }

    func merger(layers: Int) -> Message {
        var message = Message(sender: "innermost")
        for _ in 0..<layers {
            message = Message(elems: [Elem(kind: .merger(MergerElem(messages: [message])))])
        }
        return message
    }

    /// One value at and one just past each default limit, with the code and
    /// path the documentation gives for it.
    var defaultLimitCases: [(name: String, atLimit: FramePayload, past: FramePayload, code: String, path: String)] {
        let text = Elem.text("")
        let level = Elem(kind: .image(ImageElem(levels: Array(repeating: ImageLevel(), count: 10_000))))
        let tooManyLevels = Elem(kind: .image(ImageElem(levels: Array(repeating: ImageLevel(), count: 10_001))))
        return [
            (
                "depth", .message(merger(layers: 100)), .message(merger(layers: 101)), "limit.depth",
                Array(repeating: "elems[0].merger.messages[0]", count: 101).joined(separator: ".")
            ),
            (
                "elems", .message(Message(elems: Array(repeating: text, count: 1_000))),
                .message(Message(elems: Array(repeating: text, count: 1_001))), "limit.elems", "elems[1000]"
            ),
            (
                "repeated", .message(Message(atUserList: Array(repeating: "u", count: 10_000))),
                .message(Message(atUserList: Array(repeating: "u", count: 10_001))), "limit.repeated",
                "atUserList[10000]"
            ),
            (
                "nested repeated", .message(Message(elems: [level])), .message(Message(elems: [tooManyLevels])),
                "limit.repeated", "elems[0].image.levels[10000]"
            ),
            (
                "batch messages", .batch(MessageBatch(messages: Array(repeating: Message(), count: 1_000))),
                .batch(MessageBatch(messages: Array(repeating: Message(), count: 1_001))), "limit.batch-messages",
                "messages[1000]"
            ),
            (
                "frame size", .message(Message(elems: [.text(String(repeating: "x", count: (4 << 20) - 16))])),
                .message(Message(elems: [.text(String(repeating: "x", count: 4 << 20))])), "limit.frame-size", ""
            ),
        ]
    }

    @Test func refusesValuesJustPastEachDefaultLimitWithTheReadersCodeAndPath() throws {
        for limitCase in defaultLimitCases {
            for policy in [CompressionPolicy.disabled, .default] {
                let refused = try #require(
                    try writerError(limitCase.past, limits: .default, policy: policy), "\(limitCase.name)")
                #expect(refused.code.rawValue == limitCase.code, "\(limitCase.name)")
                #expect(refused.path.description == limitCase.path, "\(limitCase.name)")
                let read = try #require(try readerError(limitCase.past, limits: .default), "\(limitCase.name)")
                #expect(read.code == refused.code && read.path == refused.path, "\(limitCase.name)")
            }
            #expect(try writerError(limitCase.atLimit, limits: .default, policy: .disabled) == nil)
        }
    }

    /// Text of `count` letters drawn from sixteen, which deflate shrinks
    /// about two times: far from the default ratio limit.
    func letters(_ count: Int) -> String {
        var random = SeededGenerator(seed: 7)
        let alphabet = Array("abcdefghijklmnop".utf8)
        return String(decoding: (0..<count).map { _ in alphabet[Int(random.next() % 16)] }, as: UTF8.self)
    }

    @Test func theDefaultFrameSizeLimitsDecideBetweenCompressedStoredAndRefused() throws {
        // 6 MiB: past maxFrameBytes stored; compressed, about 3 MiB, within it.
        let large = FramePayload.message(Message(elems: [.text(letters(6 << 20))]))
        #expect(try writerError(large, limits: .default, policy: .default) == nil)
        #expect(try writerError(large, limits: .default, policy: .disabled)?.code == .limitFrameSize)
        // 17 MiB: past maxInflatedBytes, so never compressed, and too large stored.
        let huge = FramePayload.message(Message(elems: [.text(letters(17 << 20))]))
        let refused = try #require(try writerError(huge, limits: .default, policy: .default))
        #expect(refused.code == .limitFrameSize)
    }

    @Test func storesABodyReadersWouldRefuseCompressed() throws {
        let value = FramePayload.message(Message(elems: [.text(String(repeating: "ab", count: 2_000))]))
        var limits = DecodingLimits()
        limits.maxInflateRatio = 2
        let frame = try FrameEncoder(policy: CompressionPolicy(threshold: 0), limits: limits).encode(value)
        #expect(try FrameHeader.peek(frame)?.compression == FrameCompression.none)
        limits = DecodingLimits()
        limits.maxInflatedBytes = 100
        let stored = try FrameEncoder(policy: CompressionPolicy(threshold: 0), limits: limits).encode(value)
        #expect(try FrameHeader.peek(stored)?.compression == FrameCompression.none)
        #expect(try FrameDecoder(limits: limits).decode(stored) == value)
    }

    @Test func refusesMalformedUnknownFieldsAsTheReaderDoes() throws {
        var message = Message(sender: "a")
        message.unknownFields = UnknownFields(bytes: [0xA0, 0x01])  // field 20, varint, value missing
        let refused = try #require(try writerError(.message(message), limits: .default))
        #expect(refused.code == .payloadTruncated)
        // 101 nested groups of field 20: start tags A3 01, end tags A4 01.
        var deep = Message()
        let start: [UInt8] = [0xA3, 0x01]
        let end: [UInt8] = [0xA4, 0x01]
        deep.unknownFields = UnknownFields(
            bytes: Array(repeatElement(start, count: 101).joined()) + Array(repeatElement(end, count: 101).joined()))
        let tooDeep = try #require(try writerError(.message(deep), limits: .default))
        #expect(tooDeep.code == .limitDepth && tooDeep.path.description == "")
        // 100 nested groups: at the limit, written (and read back).
        var atLimit = Message()
        atLimit.unknownFields = UnknownFields(
            bytes: Array(repeatElement(start, count: 100).joined()) + Array(repeatElement(end, count: 100).joined()))
        #expect(try writerError(.message(atLimit), limits: .default) == nil)
    }

    /// Generated values against low limits, so many of them are past one:
    /// the encoder and the decoder agree on every one, with unknown fields
    /// in the values (every nested value walked) and without (only those
    /// that can hold repeated fields).
    @Test(arguments: [1, 2, 3], [true, false])
    func agreesWithTheReaderOnGeneratedValues(limit: Int, unknownFields: Bool) throws {
        var limits = DecodingLimits()
        limits.maxDepth = limit
        limits.maxElems = limit + 1
        limits.maxRepeated = limit
        limits.maxBatchMessages = limit + 1
        var generator = ValueGenerator(seed: UInt64(limit) &* 0x9E37_79B9, maxLayers: 3, unknownFields: unknownFields)
        var refusedCount = 0
        for index in 0..<400 {
            let value: FramePayload =
                switch index % 3 {
                case 0: .message(Message.arbitrary(using: &generator))
                case 1: .batch(MessageBatch.arbitrary(using: &generator))
                default: .event(Event.arbitrary(using: &generator))
                }
            let written = try writerError(value, limits: limits, policy: CompressionPolicy(threshold: 0))
            let read = try readerError(value, limits: limits)
            #expect(written?.code == read?.code, "value \(index)")
            #expect(written?.path == read?.path, "value \(index)")
            if written != nil { refusedCount += 1 }
        }
        // The limits are low enough that the comparison covers refusals too.
        #expect(refusedCount > 20)
    }
}
