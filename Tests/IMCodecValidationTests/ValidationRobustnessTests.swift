import IMCodec
import IMCodecTestSupport
import IMCodecValidation
import Testing

/// The validator accepts anything the model can hold: empty values, unknown
/// enums and kinds, and hand-built mergers nested deeper than any decoder
/// allows.
@Suite struct ValidationRobustnessTests {
    typealias F = ValidationFixtures

    @Test func emptyValuesYieldOnlyTheirMissingParts() {
        for limits in [ValidationLimits.sdkGuide, .current] {
            #expect(
                Validator.validate(Message(), limits: limits) == [
                    F.error(.messageTargetMissing, ""), F.error(.messageElemsMissing, "elems"),
                ])
            #expect(Validator.validate(MessageBatch(), limits: limits) == [])
            #expect(Validator.validate(Event(), limits: limits) == [F.warning(.unknownKind, "")])
            #expect(
                Validator.validate(Event(kind: .readReceipt(ReadReceiptEvent())), limits: limits) == [])
        }
    }

    @Test func emptyElemsOfEveryKindDoNotCrash() {
        let kinds: [Elem.Kind] = [
            .text(TextElem()), .custom(CustomElem()), .image(ImageElem()), .sound(SoundElem()), .video(VideoElem()),
            .file(FileElem()), .location(LocationElem()), .face(FaceElem()), .merger(MergerElem()),
            .groupTips(GroupTipsElem()), .groupSystem(GroupSystemElem()), .snsSystem(SnsSystemElem()),
            .profileSystem(ProfileSystemElem()),
        ]
        let message = F.directMessage(kinds.map { Elem(kind: $0) } + [Elem()])
        #expect(
            Validator.validate(message, limits: .current).inCanonicalOrder
                == [
                    F.error(.imageLevelsMissing, "elems[2].image.levels"),
                    F.error(.mergerTitleMissing, "elems[8].merger.title"),
                    F.error(.mergerAbstractsMissing, "elems[8].merger.abstracts"),
                    F.error(.mergerCompatibleTextMissing, "elems[8].merger.compatibleText"),
                    F.error(.groupTipsOneToOne, "elems[9].groupTips"),
                    F.warning(.unspecifiedEnumValue, "elems[9].groupTips.type", actual: 0),
                    F.warning(.unspecifiedEnumValue, "elems[10].groupSystem.type", actual: 0),
                    F.warning(.unspecifiedEnumValue, "elems[11].snsSystem.type", actual: 0),
                    F.warning(.unspecifiedEnumValue, "elems[12].profileSystem.type", actual: 0),
                    F.warning(.unknownKind, "elems[13]"),
                ].inCanonicalOrder)
    }

    @Test func everyEnumFieldOutsideItsSetIsOnlyAWarning() {
        let odd = Int32.min
        let profile = UserProfile(
            allowType: FriendAllowType(rawValue: odd), gender: Gender(rawValue: odd),
            customInfo: [CustomInfoEntry(key: "k")])
        let member = GroupMemberInfo(role: GroupMemberRole(rawValue: odd), customInfo: [MemberCustomEntry()])
        // A group message: group tips in a one-to-one message are an error (M23).
        let message = Message(
            groupID: "g", priority: Priority(rawValue: odd),
            elems: [
                Elem(
                    kind: .image(
                        ImageElem(format: ImageFormat(rawValue: odd), levels: [ImageLevel(type: .init(rawValue: odd))]))
                ),
                Elem(
                    kind: .groupTips(
                        GroupTipsElem(
                            type: GroupTipsType(rawValue: odd),
                            groupChangeList: [GroupChangeInfo(type: GroupInfoChangeType(rawValue: odd))],
                            opUserInfo: profile, opGroupMemberInfo: member))),
                Elem(kind: .groupSystem(GroupSystemElem(type: GroupSystemType(rawValue: odd)))),
                Elem(kind: .snsSystem(SnsSystemElem(type: SnsSystemType(rawValue: odd)))),
                Elem(kind: .profileSystem(ProfileSystemElem(type: ProfileSystemType(rawValue: odd)))),
            ])
        let findings = Validator.validate(message, limits: .current)
        #expect(findings.count == 11)
        #expect(findings.allSatisfy { $0.code == .unknownEnumValue && $0.severity == .warning })
        #expect(findings.allSatisfy { $0.actual == Int64(odd) })
    }

    @Test func validatesAHandBuiltMergerChainThousandsOfLayersDeep() {
        let layers = 3_000
        var message = Message(sender: "innermost", elems: [F.text()])  // no receiver: one finding at the bottom
        for _ in 0..<layers {
            message = F.directMessage([
                Elem(kind: .merger(MergerElem(title: "t", abstracts: ["a"], compatibleText: "c", messages: [message])))
            ])
        }
        #expect(
            Validator.validate(message, limits: .sdkGuide) == [F.error(.messageTargetMissing, F.pathOfLayer(layers))])
        #expect(
            Validator.validate(message, limits: .current).inCanonicalOrder == [
                F.error(.mergerDepth, F.pathOfLayer(100) + ".elems[0].merger.messages", limit: 100, actual: 101)
            ])
    }

    @Test func stopsAtTheDepthLimitForEveryMergerOfTheTooDeepLayer() {
        var limits = ValidationLimits.sdkGuide
        limits.maxMergerDepth = 1
        let inner = F.directMessage([F.merger(messages: 2)])
        let message = F.directMessage([
            Elem(kind: .merger(MergerElem(title: "t", abstracts: ["a"], messages: [inner, inner]))),
            F.merger(messages: 1),
        ])
        #expect(
            Validator.validate(message, limits: limits) == [
                F.error(.mergerDepth, "elems[0].merger.messages[0].elems[0].merger.messages", limit: 1, actual: 2),
                F.error(.mergerDepth, "elems[0].merger.messages[1].elems[0].merger.messages", limit: 1, actual: 2),
            ])
    }

    @Test func validatesAWideMergerOfMaximumSize() {
        // 300 messages of 100 messages each: 30,300 messages in one pass.
        let wide = F.directMessage([F.merger(messages: 100)])
        let message = F.directMessage([
            Elem(
                kind: .merger(
                    MergerElem(
                        title: "t", abstracts: ["a"], compatibleText: "c", messages: Array(repeating: wide, count: 300))
                )
            )
        ])
        #expect(Validator.validate(message, limits: .current) == [])
    }

    @Test func reportsFindingsInDocumentOrderAcrossSiblingMergers() {
        let broken = Message(elems: [F.text()])
        let message = F.directMessage([
            Elem(kind: .merger(MergerElem(title: "a", abstracts: ["a"], messages: [broken, broken]))),
            Elem(kind: .location(LocationElem(latitude: 95))),
            Elem(kind: .merger(MergerElem(title: "b", abstracts: ["a"], messages: [broken]))),
        ])
        #expect(
            Validator.validate(message) == [
                F.error(.locationLatitude, "elems[1].location.latitude", limit: 90),
                F.error(.messageTargetMissing, "elems[0].merger.messages[0]"),
                F.error(.messageTargetMissing, "elems[0].merger.messages[1]"),
                F.error(.messageTargetMissing, "elems[2].merger.messages[0]"),
            ])
    }

    @Test func neverCrashesOnGeneratedMessages() {
        var generator = ValueGenerator(seed: 0x5EED)
        for _ in 0..<200 {
            let payloads: [FramePayload] = [
                .message(Message.arbitrary(using: &generator)), .batch(MessageBatch.arbitrary(using: &generator)),
                .event(Event.arbitrary(using: &generator)),
            ]
            for payload in payloads {
                for limits in [ValidationLimits.sdkGuide, .current] {
                    for finding in Validator.validate(payload, limits: limits) {
                        #expect(FindingCode.validatorCodes.contains(finding.code))
                        #expect(finding.severity == finding.code.severity)
                    }
                }
            }
        }
    }
}
