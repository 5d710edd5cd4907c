import IMCodec
import IMCodecREST
import IMCodecTestSupport
import IMCodecValidation
import Testing

/// A deterministic, structure-aware mutation run over REST documents through
/// ``FuzzChecks/rest(_:)``: nothing crashes, the validator and the importer
/// agree on every rejection, and every accepted document exports, re-imports
/// to the same value, exports to the same text and survives a frame.
@Suite struct RESTMutationTests {
    static let seeds: [String] = [
        #"[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hello"}},{"MsgType":"TIMFaceElem","MsgContent":{"Index":1,"Data":"content"}}]"#,
        #"[{"MsgType":"TIMLocationElem","MsgContent":{"Desc":"someinfo","Latitude":29.340656774469956,"Longitude":116.77497920478824}}]"#,
        #"[{"MsgType":"TIMCustomElem","MsgContent":{"Data":"message","Desc":"notification","Ext":"url","Sound":"dingdong.aiff"}}]"#,
        #"[{"MsgType":"TIMSoundElem","MsgContent":{"Url":"https://x/a.mp3","UUID":"u1","Size":1553,"Second":1,"Download_Flag":2}}]"#,
        #"[{"MsgType":"TIMImageElem","MsgContent":{"UUID":"img","ImageFormat":1,"ImageInfoArray":[{"Type":1,"Size":1853095,"Width":2448,"Height":3264,"URL":"https://x/o"},{"Type":3,"Size":0,"Width":0,"Height":0,"URL":"https://x/t"}]}}]"#,
        #"[{"MsgType":"TIMFileElem","MsgContent":{"UUID":"f1","FileSize":1773552,"FileName":"a.MOV"}}]"#,
        #"[{"MsgType":"TIMVideoFileElem","MsgContent":{"VideoUrl":"https://x/v","VideoUUID":"v1","VideoSize":1,"VideoSecond":5,"VideoFormat":"mp4","VideoDownloadFlag":2,"ThumbUrl":"https://x/t","ThumbUUID":"t1","ThumbSize":2,"ThumbWidth":720,"ThumbHeight":1280,"ThumbFormat":"JPG","ThumbDownloadFlag":2}}]"#,
        #"{"From_Account":"a","To_Account":"b","MsgSeq":4294967295,"MsgRandom":3998651049,"MsgTimeStamp":1557481126,"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"\u0000 中文 👨‍👩‍👧"}}],"CloudCustomData":"c","OfflinePushInfo":{"PushFlag":1,"Title":"t","AndroidInfo":{"Sound":"s","VIVOClassification":1},"ApnsInfo":{"Sound":"a.aiff","BadgeMode":1}}}"#,
        #"[{"MsgType":"TIMRelayElem","MsgContent":{"Title":"Chat","MsgNum":1,"CompatibleText":"upgrade","AbstractList":["a: hi"],"MsgList":[{"From_Account":"a","GroupId":"g","MsgSeq":1,"MsgRandom":2,"MsgTimeStamp":3,"MsgBody":[{"MsgType":"TIMRelayElem","MsgContent":{"Title":"t","MsgNum":0,"CompatibleText":"c","AbstractList":[],"JsonMsgKey":"k"}}]}]}}]"#,
        #"{"ActionStatus":"OK","GroupId":"g1","RspMsgList":[{"From_Account":"a","MsgSeq":1,"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"x"}}]},{"From_Account":"b","MsgBody":[]}]}"#,
    ]

    /// Replacement values of every JSON type, and numbers at the edges.
    static let values: [JSONValue] = [
        .null, .bool(true), .string(""), .string("x"), .string("\u{2028}"), .number("0"), .number("-1"),
        .number("4294967295"), .number("4294967296"), .number("2147483648"), .number("1.5"), .number("1e3"),
        .number("-0"), .number("1e400"), .array([]), .object([]), .number("3"), .number("2"),
    ]

    struct Mutator {
        var generator: ValueGenerator

        mutating func mutate(_ value: JSONValue, depth: Int = 0) -> JSONValue {
            switch value {
            case .object(var members) where !members.isEmpty && generator.choice(3) != 0:
                let index = generator.choice(members.count)
                switch generator.choice(7) {
                case 0: members.remove(at: index)
                case 1: members.append(members[index])
                case 2: members[index].key = members[index].key.lowercased()
                case 3:
                    members[index].value = RESTMutationTests.values[generator.choice(RESTMutationTests.values.count)]
                case 4: members.insert(JSONValue.Member("Extra", .number("1")), at: index)
                case 5: members.swapAt(index, generator.choice(members.count))
                default: members[index].value = mutate(members[index].value, depth: depth + 1)
                }
                return .object(members)
            case .array(var entries) where !entries.isEmpty && generator.choice(3) != 0:
                let index = generator.choice(entries.count)
                switch generator.choice(4) {
                case 0: entries.remove(at: index)
                case 1: entries.append(entries[index])
                case 2: entries[index] = RESTMutationTests.values[generator.choice(RESTMutationTests.values.count)]
                default: entries[index] = mutate(entries[index], depth: depth + 1)
                }
                return .array(entries)
            case .object, .array:
                return value
            default:
                return RESTMutationTests.values[generator.choice(RESTMutationTests.values.count)]
            }
        }

        mutating func mutateBytes(_ bytes: [UInt8]) -> [UInt8] {
            var bytes = bytes
            guard !bytes.isEmpty else { return bytes }
            let position = generator.choice(bytes.count)
            switch generator.choice(3) {
            case 0: bytes.removeLast(bytes.count - position)
            case 1: bytes[position] ^= 1 << UInt8(generator.choice(8))
            default: bytes.insert(contentsOf: bytes[position..<min(bytes.count, position + 8)], at: position)
            }
            return bytes
        }
    }

    @Test func mutatedDocumentsKeepEveryProperty() throws {
        let parsed = try Self.seeds.map { try JSONValue(parsing: Array($0.utf8)) }
        for seed in Self.seeds {
            #expect(FuzzChecks.rest(Array(seed.utf8)) == nil)
            #expect(throws: Never.self) { try RESTCodec.importPayload(Array(seed.utf8)) }
        }
        var mutator = Mutator(generator: ValueGenerator(seed: 0x2E57))
        var accepted = 0
        var findings: [String] = []
        let runs = 40_000
        for run in 0..<runs {
            var document = parsed[mutator.generator.choice(parsed.count)]
            for _ in 0...mutator.generator.choice(3) { document = mutator.mutate(document) }
            var bytes = Array(document.serialized().utf8)
            if run % 4 == 0 { bytes = mutator.mutateBytes(bytes) }
            if let finding = FuzzChecks.rest(bytes) {
                findings.append("\(finding)\n  input: \(String(decoding: bytes, as: UTF8.self))")
                if findings.count >= 5 { break }
            }
            if (try? RESTCodec.importPayload(bytes)) != nil { accepted += 1 }
        }
        #expect(findings.isEmpty, "\(findings.joined(separator: "\n"))")
        // Both sides of every property are exercised.
        #expect(accepted > runs / 20)
        #expect(accepted < runs / 2)
    }
}
