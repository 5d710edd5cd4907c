import IMCodec
import IMCodecTestSupport
import Testing

/// Depth, length and truncation behaviour of the payload decoder.
@Suite struct PayloadLimitTests {
    /// A message whose merger nests `layers` deep, built with the model.
    func nestedMergers(_ layers: Int) -> Message {
        var message = Message(sender: "innermost", elems: [Elem(kind: .text(TextElem(text: "deepest")))])
        for layer in 0..<layers {
            message = Message(
                sender: "layer\(layer)",
                elems: [Elem(kind: .merger(MergerElem(title: "chat history", messages: [message])))])
        }
        return message
    }

    /// The path of the message at `layer` of ``nestedMergers(_:)``.
    func pathOfLayer(_ layer: Int) -> String {
        Array(repeating: "elems[0].merger.messages[0]", count: layer).joined(separator: ".")
    }

    @Test func decodesMergersNestedHundredLayersDeep() throws {
        let bytes = nestedMergers(100).serializedBytes()
        let decoded = try Message(serializedBytes: bytes)
        #expect(decoded == nestedMergers(100))
    }

    @Test func rejectsMergersNestedHundredAndOneLayersDeep() throws {
        let bytes = nestedMergers(101).serializedBytes()
        let error = #expect(throws: IMCodecError.self) { try Message(serializedBytes: bytes) }
        #expect(error?.code == .limitDepth)
        #expect(error?.path.description == pathOfLayer(101))
        #expect(error?.limit == 100)
        #expect(error?.observed == 101)
    }

    @Test func honoursALowerDepthBudget() throws {
        var limits = DecodingLimits()
        limits.maxDepth = 3
        _ = try Message(serializedBytes: nestedMergers(3).serializedBytes(), limits: limits)
        let error = #expect(throws: IMCodecError.self) {
            try Message(serializedBytes: nestedMergers(4).serializedBytes(), limits: limits)
        }
        #expect(error?.code == .limitDepth)
        #expect(error?.path.description == pathOfLayer(4))
    }

    /// 10,000 merger layers written byte by byte (no encoder involved):
    /// Message.elems (18) → Elem.merger (9) → MergerElem.messages (4) → ...
    func handBuiltNesting(_ layers: Int) -> [UInt8] {
        func varint(_ value: Int) -> [UInt8] {
            var v = UInt64(value)
            var out: [UInt8] = []
            while v >= 0x80 {
                out.append(UInt8(v & 0x7F) | 0x80)
                v >>= 7
            }
            out.append(UInt8(v))
            return out
        }
        // Sizes from the inside out: message i holds elem i holds merger i holds message i-1.
        var messageSize = [0]
        var elemSize = [0]
        var mergerSize = [0]
        for i in 1...layers {
            mergerSize.append(1 + varint(messageSize[i - 1]).count + messageSize[i - 1])
            elemSize.append(1 + varint(mergerSize[i]).count + mergerSize[i])
            messageSize.append(2 + varint(elemSize[i]).count + elemSize[i])
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(messageSize[layers])
        for i in stride(from: layers, through: 1, by: -1) {
            bytes += [0x92, 0x01] + varint(elemSize[i])
            bytes += [0x4A] + varint(mergerSize[i])
            bytes += [0x22] + varint(messageSize[i - 1])
        }
        #expect(bytes.count == messageSize[layers])
        return bytes
    }

    @Test func rejectsTenThousandLayersWithoutExhaustingTheStack() throws {
        let bytes = handBuiltNesting(10_000)
        let error = #expect(throws: IMCodecError.self) { try Message(serializedBytes: bytes) }
        #expect(error?.code == .limitDepth)
        #expect(error?.path.description == pathOfLayer(101))
    }

    @Test func handBuiltNestingMatchesTheEncoder() throws {
        // The hand-built bytes are what the encoder writes for empty innermost messages.
        var message = Message()
        for _ in 0..<5 { message = Message(elems: [Elem(kind: .merger(MergerElem(messages: [message])))]) }
        #expect(handBuiltNesting(5) == message.serializedBytes())
    }

    @Test func rejectsALengthOfFourGibibytesWithoutAllocating() throws {
        // Field 1 (msgId), wire type 2, length 2^32, then 4 bytes: 10 bytes in all.
        let bytes: [UInt8] = [0x0A, 0x80, 0x80, 0x80, 0x80, 0x10, 0x61, 0x62, 0x63, 0x64]
        let error = #expect(throws: IMCodecError.self) { try Message(serializedBytes: bytes) }
        #expect(error?.code == .payloadLength)
        #expect(error?.path.description == "msgId")
    }

    @Test func rejectsALengthPastTheEndAsTruncated() throws {
        let bytes: [UInt8] = [0x0A, 0x05, 0x61, 0x62]
        let error = #expect(throws: IMCodecError.self) { try Message(serializedBytes: bytes) }
        #expect(error?.code == .payloadTruncated)
        #expect(error?.path.description == "msgId")
    }

    @Test func everyStrictPrefixFailsOrDecodesToADifferentValue() throws {
        var generator = ValueGenerator(seed: 7)
        var prefixes = 0
        var rejected = 0
        for _ in 0..<1_000 {
            let bytes = Message.arbitrary(using: &generator).serializedBytes()
            for length in 0..<bytes.count {
                prefixes += 1
                do {
                    let decoded = try Message(serializedBytes: Array(bytes[..<length]))
                    #expect(decoded.serializedBytes() != bytes)
                } catch {
                    rejected += 1
                    #expect(error.code.rawValue.hasPrefix("payload.") || error.code == .limitDepth)
                }
            }
        }
        print("strict prefixes: \(prefixes) checked, \(rejected) rejected, \(prefixes - rejected) decoded differently")
    }

    @Test func limitsElemsPerMessage() throws {
        var limits = DecodingLimits()
        limits.maxElems = 3
        let three = Message(elems: Array(repeating: Elem(kind: .text(TextElem(text: "x"))), count: 3))
        _ = try Message(serializedBytes: three.serializedBytes(), limits: limits)
        var four = three
        four.elems.append(Elem(kind: .text(TextElem(text: "y"))))
        let error = #expect(throws: IMCodecError.self) {
            try Message(serializedBytes: four.serializedBytes(), limits: limits)
        }
        #expect(error?.code == .limitElems)
        #expect(error?.path.description == "elems[3]")
        #expect(error?.limit == 3)
        #expect(error?.observed == 4)
    }

    @Test func limitsOtherRepeatedFieldsAndBatches() throws {
        var limits = DecodingLimits()
        limits.maxRepeated = 2
        limits.maxBatchMessages = 1
        let mentions = Message(groupID: "g", atUserList: ["a", "b", "c"])
        let error = #expect(throws: IMCodecError.self) {
            try Message(serializedBytes: mentions.serializedBytes(), limits: limits)
        }
        #expect(error?.code == .limitRepeated)
        #expect(error?.path.description == "atUserList[2]")
        let batch = MessageBatch(messages: [Message(), Message()])
        let batchError = #expect(throws: IMCodecError.self) {
            try MessageBatch(serializedBytes: batch.serializedBytes(), limits: limits)
        }
        #expect(batchError?.code == .limitBatchMessages)
        #expect(batchError?.path.description == "messages[1]")
    }
}
