import IMCodec
import IMCodecValidation
import Testing

/// One message with many planted violations, several inside nested mergers,
/// yields exactly those findings in one pass.
@Suite struct ValidationPlantedTests {
    typealias F = ValidationFixtures

    static let mebibyte: UInt32 = 1 << 20

    /// The message: each comment names the finding its line plants.
    static func plantedMessage() -> Message {
        var message = Message(
            msgID: "planted",
            sender: String(repeating: "s", count: 33),  // limit.user.id-bytes
            receiver: "bob",  // with groupID: rule.message.target-ambiguous
            groupID: "group1",
            groupType: "AVChatRoom",
            priority: Priority(rawValue: 9),  // enum.unknown-value
            targetedReceivers: ["dave"])  // rule.targeted.group-type (AVChatRoom)
        let tips = GroupTipsElem(
            type: .setAdmin,  // rule.avchatroom.role-change (AVChatRoom)
            groupName: String(repeating: "群", count: 11),  // limit.group.name-bytes
            groupChangeList: [  // rule.group-tips.group-change-list-type
                // limit.group.introduction-bytes
                GroupChangeInfo(type: .introduction, value: String(repeating: "i", count: 241))
            ],
            // limit.group.name-card-bytes
            opGroupMemberInfo: GroupMemberInfo(member: "m", nameCard: String(repeating: "c", count: 51)),
            memberCount: 5,  // rule.group-tips.member-count-type
            platform: "Linux")  // enum.unknown-platform
        let nestedMerger = MergerElem(
            title: "inner", abstracts: ["a"], compatibleText: "c",
            messages: [
                // range.location.latitude
                Message(receiver: "g", elems: [Elem(kind: .location(LocationElem(latitude: .nan)))])
            ])
        let merger = MergerElem(
            title: "history",
            abstracts: Array(repeating: "line", count: 6),  // limit.merger.abstracts; compatibleText missing
            messages: [
                // rule.merger.contains-group-tips
                F.groupMessage([Elem(kind: .groupTips(GroupTipsElem(type: .invite)))]),
                Message(  // rule.message.target-missing
                    atUserList: ["x"],  // rule.at.not-group-message
                    elems: [F.text(), Elem(kind: .face(FaceElem(index: 1)))]),  // rule.at.text-only
                Message(receiver: "frank", elems: [Elem(kind: .merger(nestedMerger))]),
            ])
        message.elems = [
            F.text("hello"),
            Elem(
                kind: .custom(
                    // limit.custom.desc-ext-bytes
                    CustomElem(desc: String(repeating: "d", count: 2_000), ext: String(repeating: "e", count: 1_100)))),
            Elem(kind: .custom(CustomElem(data: [1]))),  // limit.message.custom-elems
            Elem(
                kind: .image(
                    ImageElem(
                        format: ImageFormat(rawValue: 7),  // enum.unknown-value
                        levels: [
                            ImageLevel(type: .original, size: 1_000, width: 1_000, height: 2_000),
                            ImageLevel(type: .large, size: 900, width: 800, height: 1_600),  // rule.image.large-size
                            // rule.image.duplicate-level
                            ImageLevel(type: .original, size: 1_000, width: 1_000, height: 2_000),
                            // limit.image.size
                            ImageLevel(type: .thumbnail, size: 30 * mebibyte, width: 198, height: 396),
                        ]))),
            Elem(kind: .sound(SoundElem(size: 29 * mebibyte))),  // limit.sound.size
            Elem(kind: .video(VideoElem(videoSize: 101 * mebibyte))),  // limit.video.size
            Elem(kind: .file(FileElem(size: 101 * mebibyte))),  // limit.file.size
            Elem(kind: .location(LocationElem(longitude: -181, latitude: 91))),  // range.location.*
            Elem(kind: .groupTips(tips)),
            // rule.group-system.user-data-type
            Elem(kind: .groupSystem(GroupSystemElem(type: .addGroupRequest, userData: [1]))),
            Elem(
                kind: .snsSystem(
                    SnsSystemElem(
                        type: .addFriend,
                        users: [
                            SnsChangeInfo(
                                identifier: "u1",
                                wording: "hi",  // rule.sns.wording-type
                                source: "Friends")  // rule.sns.source-type, format.sns.source
                        ]))),
            Elem(kind: .merger(merger)),
        ]
        return message
    }

    static let expectedFindings: [ValidationFinding] = [
        F.error(.messageTargetAmbiguous, ""),
        F.error(.userIDBytes, "sender", limit: 32, actual: 33),
        F.warning(.unknownEnumValue, "priority", actual: 9),
        F.error(.targetedGroupType, "targetedReceivers"),
        F.error(.customDescExtBytes, "elems[1].custom", limit: 3_072, actual: 3_100),
        F.error(.messageCustomElems, "elems[2]", limit: 1, actual: 2),
        F.warning(.unknownEnumValue, "elems[3].image.format", actual: 7),
        F.warning(.imageLargeSize, "elems[3].image.levels[1]", limit: 720, actual: 800),
        F.error(.imageDuplicateLevel, "elems[3].image.levels[2].type"),
        F.error(.imageSize, "elems[3].image.levels[3].size", limit: 28 << 20, actual: 30 << 20),
        F.error(.soundSize, "elems[4].sound.size", limit: 28 << 20, actual: 29 << 20),
        F.error(.videoSize, "elems[5].video.videoSize", limit: 100 << 20, actual: 101 << 20),
        F.error(.fileSize, "elems[6].file.size", limit: 100 << 20, actual: 101 << 20),
        F.error(.locationLatitude, "elems[7].location.latitude", limit: 90),
        F.error(.locationLongitude, "elems[7].location.longitude", limit: 180),
        F.error(.groupTipsOneToOne, "elems[8].groupTips"),  // group tips in a one-to-one message (M23)
        F.error(.groupNameBytes, "elems[8].groupTips.groupName", limit: 30, actual: 33),
        F.error(.groupTipsMemberCountType, "elems[8].groupTips.memberCount"),
        F.error(.groupTipsGroupChangeListType, "elems[8].groupTips.groupChangeList"),
        F.error(.avChatRoomRoleChange, "elems[8].groupTips.type"),
        F.error(.groupIntroductionBytes, "elems[8].groupTips.groupChangeList[0].value", limit: 240, actual: 241),
        F.error(.groupNameCardBytes, "elems[8].groupTips.opGroupMemberInfo.nameCard", limit: 50, actual: 51),
        F.warning(.unknownPlatform, "elems[8].groupTips.platform"),
        F.error(.groupSystemUserDataType, "elems[9].groupSystem.userData"),
        F.error(.snsWordingType, "elems[10].snsSystem.users[0].wording"),
        F.error(.snsSourceType, "elems[10].snsSystem.users[0].source"),
        F.error(.snsSourceFormat, "elems[10].snsSystem.users[0].source"),
        F.error(.mergerAbstracts, "elems[11].merger.abstracts", limit: 5, actual: 6),
        F.error(.mergerCompatibleTextMissing, "elems[11].merger.compatibleText"),
        F.error(.mergerContainsGroupTips, "elems[11].merger.messages[0].elems[0]"),
        F.error(.messageTargetMissing, "elems[11].merger.messages[1]"),
        F.error(.atNotGroupMessage, "elems[11].merger.messages[1].atUserList"),
        F.error(.atTextOnly, "elems[11].merger.messages[1].elems[1]"),
        F.error(
            .locationLatitude, "elems[11].merger.messages[2].elems[0].merger.messages[0].elems[0].location.latitude",
            limit: 90),
    ]

    @Test func plantedViolationsYieldExactlyTheirFindings() {
        let findings = Validator.validate(Self.plantedMessage(), limits: .current)
        #expect(Set(Self.expectedFindings.map(\.code)).count >= 25)
        #expect(Set(findings) == Set(Self.expectedFindings))
        #expect(findings.inCanonicalOrder == Self.expectedFindings.inCanonicalOrder)
    }

    @Test func plantedViolationsSurviveABinaryRoundTrip() throws {
        let decoded = try Message(serializedBytes: Self.plantedMessage().serializedBytes())
        #expect(
            Validator.validate(decoded, limits: .current).inCanonicalOrder == Self.expectedFindings.inCanonicalOrder)
    }

    @Test func everyFindingCarriesAReason() {
        for finding in Validator.validate(Self.plantedMessage(), limits: .current) {
            #expect(!finding.reason.isEmpty, "\(finding.code)")
        }
    }
}
