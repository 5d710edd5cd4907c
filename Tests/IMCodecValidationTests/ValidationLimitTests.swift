import IMCodec
import IMCodecTestSupport
import IMCodecValidation
import Testing

/// Messages and findings the validation tests build on.
enum ValidationFixtures {
    /// A valid group message in a Public group.
    static func groupMessage(_ elems: [Elem] = [text()], groupType: String = "Public") -> Message {
        Message(msgID: "m1", sender: "alice", groupID: "group1", groupType: groupType, elems: elems)
    }

    /// A valid one-to-one message.
    static func directMessage(_ elems: [Elem] = [text()]) -> Message {
        Message(msgID: "m1", sender: "alice", receiver: "bob", elems: elems)
    }

    /// A text elem.
    static func text(_ text: String = "hi") -> Elem {
        Elem(kind: .text(TextElem(text: text)))
    }

    /// A group message holding one group tips elem.
    static func tips(_ tips: GroupTipsElem, groupType: String = "Public") -> FramePayload {
        .message(groupMessage([Elem(kind: .groupTips(tips))], groupType: groupType))
    }

    /// A one-to-one message holding one elem.
    static func direct(_ kind: Elem.Kind) -> FramePayload {
        .message(directMessage([Elem(kind: kind)]))
    }

    /// A merger of valid one-to-one text messages, with compatible text.
    static func merger(messages count: Int, abstracts: [String] = ["alice: hi"]) -> Elem {
        let nested = Array(repeating: directMessage([text()]), count: count)
        return Elem(
            kind: .merger(
                MergerElem(title: "history", abstracts: abstracts, compatibleText: "[chat history]", messages: nested)))
    }

    /// A one-to-one message whose merger nests `layers` deep.
    static func nestedMergers(_ layers: Int) -> Message {
        var message = directMessage([text("deepest")])
        for _ in 0..<layers {
            message = directMessage([
                Elem(kind: .merger(MergerElem(title: "t", abstracts: ["a"], compatibleText: "c", messages: [message])))
            ])
        }
        return message
    }

    /// The path of the message at `layer` of ``nestedMergers(_:)``.
    static func pathOfLayer(_ layer: Int) -> String {
        Array(repeating: "elems[0].merger.messages[0]", count: layer).joined(separator: ".")
    }

    /// An error finding.
    static func error(_ code: FindingCode, _ path: String, limit: Int? = nil, actual: Int? = nil) -> ValidationFinding {
        ValidationFinding(
            code, path: FieldPath(documented: path), severity: .error, limit: limit.map(Int64.init),
            actual: actual.map(Int64.init))
    }

    /// A warning finding.
    static func warning(_ code: FindingCode, _ path: String, limit: Int? = nil, actual: Int? = nil) -> ValidationFinding
    {
        ValidationFinding(
            code, path: FieldPath(documented: path), severity: .warning, limit: limit.map(Int64.init),
            actual: actual.map(Int64.init))
    }

    /// The limits of a profile by name.
    static func limits(_ profile: String) -> ValidationLimits {
        ValidationLimits.profile(named: profile) ?? ValidationLimits()
    }
}

/// A string alphabet and how much one of its characters counts against a limit.
struct LimitAlphabet: Sendable {
    /// One character.
    var unit: String
    /// Its weight in the limit's unit (UTF-8 bytes or UTF-16 code units).
    var width: Int

    /// ASCII, Chinese (3 bytes) and emoji (4 bytes), for byte limits.
    static let bytes = [LimitAlphabet(unit: "a", width: 1), .init(unit: "汉", width: 3), .init(unit: "😀", width: 4)]
    /// ASCII letters only, for fields that allow nothing else.
    static let asciiLetters = [LimitAlphabet(unit: "a", width: 1)]
    /// ASCII, Chinese (1 unit) and emoji (2 units), for UTF-16 length limits.
    static let utf16 = [LimitAlphabet(unit: "a", width: 1), .init(unit: "汉", width: 1), .init(unit: "😀", width: 2)]
}

/// A string limit: a value of exactly `limit` passes, one unit more fails.
struct StringLimitCase: Sendable, CustomTestStringConvertible {
    var name: String
    var profile: String
    var limit: Int
    var code: FindingCode
    var path: String
    var alphabets: [LimitAlphabet] = LimitAlphabet.bytes
    /// Units the payload adds beside the string under test.
    var fixed = 0
    var make: @Sendable (String) -> FramePayload

    var testDescription: String { "\(name) ≤ \(limit) (\(profile))" }
}

/// A count or size limit: `limit` passes, `limit + 1` fails.
struct CountLimitCase: Sendable, CustomTestStringConvertible {
    var name: String
    var profile: String
    var limit: Int
    var code: FindingCode
    var path: String
    var make: @Sendable (Int) -> FramePayload

    var testDescription: String { "\(name) ≤ \(limit) (\(profile))" }
}

/// A rule a profile does not have: a value far past the other profile's
/// limit passes.
struct RuleOffCase: Sendable, CustomTestStringConvertible {
    var name: String
    var payload: FramePayload

    var testDescription: String { name }
}

/// Every limit of docs/spec/limits.md, at N and N + 1, in each profile.
@Suite struct ValidationLimitTests {
    typealias F = ValidationFixtures

    static let stringCases: [StringLimitCase] = {
        var cases: [StringLimitCase] = []
        // G3: the group name, in tips and in a name change.
        for profile in ["sdk-guide", "current"] {
            cases.append(
                StringLimitCase(
                    name: "group tips group name", profile: profile, limit: 30, code: .groupNameBytes,
                    path: "elems[0].groupTips.groupName",
                    make: { F.tips(GroupTipsElem(type: .invite, groupName: $0)) }))
            cases.append(
                StringLimitCase(
                    name: "group name change", profile: profile, limit: 30, code: .groupNameBytes,
                    path: "elems[0].groupTips.groupChangeList[0].value",
                    make: {
                        F.tips(
                            GroupTipsElem(type: .infoChange, groupChangeList: [GroupChangeInfo(type: .name, value: $0)])
                        )
                    }))
            // G6 is 100 bytes in both profiles.
            cases.append(
                StringLimitCase(
                    name: "group face URL change", profile: profile, limit: 100, code: .groupFaceURLBytes,
                    path: "elems[0].groupTips.groupChangeList[0].value",
                    make: {
                        F.tips(
                            GroupTipsElem(
                                type: .infoChange, groupChangeList: [GroupChangeInfo(type: .faceUrl, value: $0)]))
                    }))
            // F2 is 120 bytes in both profiles.
            cases.append(
                StringLimitCase(
                    name: "add-friend wording", profile: profile, limit: 120, code: .snsWordingBytes,
                    path: "elems[0].snsSystem.users[0].wording",
                    make: {
                        F.direct(
                            .snsSystem(
                                SnsSystemElem(type: .addFriendReq, users: [SnsChangeInfo(identifier: "u", wording: $0)])
                            ))
                    }))
            // F3: the name after the prefix, English letters only.
            cases.append(
                StringLimitCase(
                    name: "add source name", profile: profile, limit: 8, code: .snsSourceBytes,
                    path: "elems[0].snsSystem.users[0].source", alphabets: LimitAlphabet.asciiLetters,
                    make: {
                        F.direct(
                            .snsSystem(
                                SnsSystemElem(
                                    type: .addFriendReq,
                                    users: [SnsChangeInfo(identifier: "u", source: "AddSource_Type_" + $0)])))
                    }))
        }
        // G4 and G5 differ between the profiles.
        for (profile, limit) in [("sdk-guide", 120), ("current", 240)] {
            cases.append(
                StringLimitCase(
                    name: "group introduction change", profile: profile, limit: limit, code: .groupIntroductionBytes,
                    path: "elems[0].groupTips.groupChangeList[0].value",
                    make: {
                        F.tips(
                            GroupTipsElem(
                                type: .infoChange, groupChangeList: [GroupChangeInfo(type: .introduction, value: $0)]))
                    }))
        }
        for (profile, limit) in [("sdk-guide", 150), ("current", 300)] {
            cases.append(
                StringLimitCase(
                    name: "group notification change", profile: profile, limit: limit, code: .groupNotificationBytes,
                    path: "elems[0].groupTips.groupChangeList[0].value",
                    make: {
                        F.tips(
                            GroupTipsElem(
                                type: .infoChange, groupChangeList: [GroupChangeInfo(type: .notification, value: $0)]))
                    }))
        }
        // Rules of the current profile only.
        cases += [
            StringLimitCase(
                name: "member name card", profile: "current", limit: 50, code: .groupNameCardBytes,
                path: "elems[0].groupTips.opGroupMemberInfo.nameCard",
                make: { F.tips(GroupTipsElem(type: .invite, opGroupMemberInfo: GroupMemberInfo(nameCard: $0))) }),
            StringLimitCase(
                name: "custom desc", profile: "current", limit: 3_072, code: .customDescExtBytes,
                path: "elems[0].custom", make: { F.direct(.custom(CustomElem(desc: $0))) }),
            StringLimitCase(
                name: "custom desc and ext", profile: "current", limit: 3_072, code: .customDescExtBytes,
                path: "elems[0].custom", fixed: 1_000,
                make: { F.direct(.custom(CustomElem(desc: $0, ext: String(repeating: "e", count: 1_000)))) }),
            StringLimitCase(
                name: "merger abstract", profile: "current", limit: 100, code: .mergerAbstractLength,
                path: "elems[0].merger.abstracts[1]", alphabets: LimitAlphabet.utf16,
                make: { .message(F.directMessage([F.merger(messages: 1, abstracts: ["first", $0])])) }),
            StringLimitCase(
                name: "group custom field key", profile: "current", limit: 16, code: .groupCustomKeyBytes,
                path: "elems[0].groupTips.groupChangeList[0].key",
                make: {
                    F.tips(GroupTipsElem(type: .infoChange, groupChangeList: [GroupChangeInfo(type: .custom, key: $0)]))
                }),
            StringLimitCase(
                name: "group custom field value", profile: "current", limit: 512, code: .groupCustomValueBytes,
                path: "elems[0].groupTips.groupChangeList[0].value",
                make: {
                    F.tips(
                        GroupTipsElem(
                            type: .infoChange, groupChangeList: [GroupChangeInfo(type: .custom, value: $0, key: "k")]))
                }),
            StringLimitCase(
                name: "member custom field value", profile: "current", limit: 64, code: .memberCustomValueBytes,
                path: "elems[0].groupTips.opGroupMemberInfo.customInfo[0].data",
                make: {
                    F.tips(
                        GroupTipsElem(
                            type: .invite,
                            opGroupMemberInfo: GroupMemberInfo(customInfo: [
                                MemberCustomEntry(key: "k", data: Array($0.utf8))
                            ])))
                }),
            StringLimitCase(
                name: "group ID", profile: "current", limit: 48, code: .groupIDBytes, path: "groupId",
                alphabets: LimitAlphabet.asciiLetters,
                make: { .message(Message(sender: "alice", groupID: $0, elems: [F.text()])) }),
            StringLimitCase(
                name: "group tips group ID", profile: "current", limit: 48, code: .groupIDBytes,
                path: "elems[0].groupTips.groupId", alphabets: LimitAlphabet.asciiLetters,
                make: { F.tips(GroupTipsElem(groupID: $0, type: .invite)) }),
            StringLimitCase(
                name: "group system group ID", profile: "current", limit: 48, code: .groupIDBytes,
                path: "elems[0].groupSystem.groupId", alphabets: LimitAlphabet.asciiLetters,
                make: { F.direct(.groupSystem(GroupSystemElem(type: .createGroup, groupID: $0))) }),
            StringLimitCase(
                name: "receipt group ID", profile: "current", limit: 48, code: .groupIDBytes,
                path: "readReceipt.receipts[0].groupId", alphabets: LimitAlphabet.asciiLetters,
                make: {
                    .event(
                        Event(kind: .readReceipt(ReadReceiptEvent(receipts: [MessageReceipt(msgID: "m", groupID: $0)])))
                    )
                }),
        ]
        // F7: every profile string.
        let profileStrings: [(String, String, @Sendable (String) -> FramePayload)] = [
            (
                "nickname", "elems[0].groupTips.opUserInfo.nickname",
                { F.tips(GroupTipsElem(type: .invite, opUserInfo: UserProfile(nickname: $0))) }
            ),
            (
                "face URL", "elems[0].groupTips.opUserInfo.faceUrl",
                { F.tips(GroupTipsElem(type: .invite, opUserInfo: UserProfile(faceURL: $0))) }
            ),
            (
                "signature", "elems[0].groupTips.opUserInfo.selfSignature",
                { F.tips(GroupTipsElem(type: .invite, opUserInfo: UserProfile(selfSignature: Array($0.utf8)))) }
            ),
            (
                "location", "elems[0].groupTips.opUserInfo.location",
                { F.tips(GroupTipsElem(type: .invite, opUserInfo: UserProfile(location: Array($0.utf8)))) }
            ),
            (
                "custom profile value", "elems[0].groupTips.opUserInfo.customInfo[0].data",
                {
                    F.tips(
                        GroupTipsElem(
                            type: .invite,
                            opUserInfo: UserProfile(customInfo: [
                                CustomInfoEntry(key: "k", value: .data(Array($0.utf8)))
                            ])))
                }
            ),
            (
                "changed user's nickname", "elems[0].groupTips.changedUserInfo[0].profile.nickname",
                {
                    F.tips(
                        GroupTipsElem(
                            type: .invite,
                            changedUserInfo: [ChangedUserInfo(identifier: "u", profile: UserProfile(nickname: $0))]))
                }
            ),
            (
                "group system operator's nickname", "elems[0].groupSystem.opUserInfo.nickname",
                { F.direct(.groupSystem(GroupSystemElem(type: .createGroup, opUserInfo: UserProfile(nickname: $0)))) }
            ),
            (
                "profile system nickname", "elems[0].profileSystem.nickname",
                { F.direct(.profileSystem(ProfileSystemElem(type: .friendProfileChange, nickname: $0))) }
            ),
        ]
        for (name, path, make) in profileStrings {
            cases.append(
                StringLimitCase(
                    name: "profile " + name, profile: "current", limit: 500, code: .profileStringBytes, path: path,
                    make: make))
        }
        // F8: every user ID.
        let userIDs: [(String, String, @Sendable (String) -> FramePayload)] = [
            ("sender", "sender", { .message(Message(sender: $0, receiver: "bob", elems: [F.text()])) }),
            ("receiver", "receiver", { .message(Message(sender: "alice", receiver: $0, elems: [F.text()])) }),
            (
                "targeted receiver", "targetedReceivers[1]",
                {
                    var message = F.groupMessage([F.text()])
                    message.targetedReceivers = ["carol", $0]
                    return .message(message)
                }
            ),
            (
                "@ user", "atUserList[0]",
                {
                    var message = F.groupMessage([F.text()])
                    message.atUserList = [$0]
                    return .message(message)
                }
            ),
            ("tips operator", "elems[0].groupTips.opUser", { F.tips(GroupTipsElem(type: .invite, opUser: $0)) }),
            (
                "tips user list", "elems[0].groupTips.userList[0]",
                { F.tips(GroupTipsElem(type: .invite, userList: [$0])) }
            ),
            (
                "member change", "elems[0].groupTips.memberChangeList[0].identifier",
                {
                    F.tips(
                        GroupTipsElem(type: .memberInfoChange, memberChangeList: [MemberChangeInfo(identifier: $0)]))
                }
            ),
            (
                "changed user", "elems[0].groupTips.changedUserInfo[0].identifier",
                { F.tips(GroupTipsElem(type: .invite, changedUserInfo: [ChangedUserInfo(identifier: $0)])) }
            ),
            (
                "changed member", "elems[0].groupTips.changedGroupMemberInfo[0].identifier",
                {
                    F.tips(
                        GroupTipsElem(type: .invite, changedGroupMemberInfo: [ChangedGroupMemberInfo(identifier: $0)]))
                }
            ),
            (
                "profile identifier", "elems[0].groupTips.opUserInfo.identifier",
                { F.tips(GroupTipsElem(type: .invite, opUserInfo: UserProfile(identifier: $0))) }
            ),
            (
                "member", "elems[0].groupTips.opGroupMemberInfo.member",
                { F.tips(GroupTipsElem(type: .invite, opGroupMemberInfo: GroupMemberInfo(member: $0))) }
            ),
            (
                "owner change", "elems[0].groupTips.groupChangeList[0].value",
                {
                    F.tips(
                        GroupTipsElem(type: .infoChange, groupChangeList: [GroupChangeInfo(type: .owner, value: $0)]))
                }
            ),
            (
                "group system operator", "elems[0].groupSystem.user",
                { F.direct(.groupSystem(GroupSystemElem(type: .createGroup, user: $0))) }
            ),
            (
                "relationship change user", "elems[0].snsSystem.users[0].identifier",
                { F.direct(.snsSystem(SnsSystemElem(type: .addFriend, users: [SnsChangeInfo(identifier: $0)]))) }
            ),
            (
                "profile change user", "elems[0].profileSystem.fromUser",
                { F.direct(.profileSystem(ProfileSystemElem(type: .friendProfileChange, fromUser: $0))) }
            ),
            (
                "receipt user", "readReceipt.receipts[0].userId",
                {
                    .event(
                        Event(kind: .readReceipt(ReadReceiptEvent(receipts: [MessageReceipt(msgID: "m", userID: $0)]))))
                }
            ),
        ]
        for (name, path, make) in userIDs {
            cases.append(
                StringLimitCase(
                    name: "user ID of " + name, profile: "current", limit: 32, code: .userIDBytes, path: path,
                    make: make))
        }
        return cases
    }()

    @Test(arguments: stringCases)
    func stringLimitPassesAtTheLimitAndFailsOneUnitPast(_ limitCase: StringLimitCase) {
        let limits = F.limits(limitCase.profile)
        for alphabet in limitCase.alphabets {
            let fitting = (limitCase.limit - limitCase.fixed) / alphabet.width
            let atLimit = String(repeating: alphabet.unit, count: fitting)
            #expect(
                Validator.validate(limitCase.make(atLimit), limits: limits) == [],
                "\(fitting) × \(alphabet.unit) must pass")
            let past = String(repeating: alphabet.unit, count: fitting + 1)
            let expected = F.error(
                limitCase.code, limitCase.path, limit: limitCase.limit,
                actual: limitCase.fixed + (fitting + 1) * alphabet.width)
            #expect(
                Validator.validate(limitCase.make(past), limits: limits) == [expected],
                "\(fitting + 1) × \(alphabet.unit) must fail")
        }
    }

    @Test func tenChineseCharactersFillAThirtyByteGroupNameAndElevenDoNot() {
        let name = { (count: Int) in
            F.tips(GroupTipsElem(type: .invite, groupName: String(repeating: "群", count: count)))
        }
        #expect(Validator.validate(name(10)) == [])
        #expect(
            Validator.validate(name(11)) == [
                F.error(.groupNameBytes, "elems[0].groupTips.groupName", limit: 30, actual: 33)
            ])
        let emoji = { (count: Int) in
            F.tips(GroupTipsElem(type: .invite, groupName: String(repeating: "🎉", count: count)))
        }
        #expect(Validator.validate(emoji(7)) == [])
        #expect(
            Validator.validate(emoji(8)) == [
                F.error(.groupNameBytes, "elems[0].groupTips.groupName", limit: 30, actual: 32)
            ])
    }

    static let countCases: [CountLimitCase] = {
        let mebibyte = 1 << 20
        var cases: [CountLimitCase] = []
        for profile in ["sdk-guide", "current"] {
            cases += [
                CountLimitCase(
                    name: "merged messages", profile: profile, limit: 300, code: .mergerMessages,
                    path: "elems[0].merger.messages", make: { .message(F.directMessage([F.merger(messages: $0)])) }),
                CountLimitCase(
                    name: "file size", profile: profile, limit: 100 * mebibyte, code: .fileSize,
                    path: "elems[0].file.size", make: { F.direct(.file(FileElem(size: UInt32($0)))) }),
            ]
            for groupType in ["Private", "Public", "ChatRoom"] {
                cases.append(
                    CountLimitCase(
                        name: "\(groupType) group members", profile: profile, limit: 6_000, code: .groupMembers,
                        path: "elems[0].groupTips.memberCount",
                        make: { F.tips(GroupTipsElem(type: .invite, memberCount: UInt32($0)), groupType: groupType) }))
            }
        }
        cases += [
            CountLimitCase(
                name: "Community group members", profile: "current", limit: 100_000, code: .groupMembers,
                path: "elems[0].groupTips.memberCount",
                make: { F.tips(GroupTipsElem(type: .invite, memberCount: UInt32($0)), groupType: "Community") }),
            CountLimitCase(
                name: "video size", profile: "current", limit: 100 * mebibyte, code: .videoSize,
                path: "elems[0].video.videoSize", make: { F.direct(.video(VideoElem(videoSize: UInt32($0)))) }),
            CountLimitCase(
                name: "image size", profile: "current", limit: 28 * mebibyte, code: .imageSize,
                path: "elems[0].image.levels[0].size",
                make: { F.direct(.image(ImageElem(levels: [ImageLevel(type: .original, size: UInt32($0))]))) }),
            CountLimitCase(
                name: "sound size", profile: "current", limit: 28 * mebibyte, code: .soundSize,
                path: "elems[0].sound.size", make: { F.direct(.sound(SoundElem(size: UInt32($0)))) }),
            CountLimitCase(
                name: "merger abstracts", profile: "current", limit: 5, code: .mergerAbstracts,
                path: "elems[0].merger.abstracts",
                make: {
                    .message(F.directMessage([F.merger(messages: 1, abstracts: Array(repeating: "line", count: $0))]))
                }),
            CountLimitCase(
                name: "custom elems", profile: "current", limit: 1, code: .messageCustomElems, path: "elems[1]",
                make: {
                    .message(F.directMessage(Array(repeating: Elem(kind: .custom(CustomElem(data: [1]))), count: $0)))
                }),
            CountLimitCase(
                name: "group custom field changes", profile: "current", limit: 10, code: .groupCustomFields,
                path: "elems[0].groupTips.groupChangeList",
                make: { count in
                    F.tips(
                        GroupTipsElem(
                            type: .infoChange,
                            groupChangeList: (0..<count).map {
                                GroupChangeInfo(type: .custom, value: "v", key: "k\($0)")
                            }))
                }),
            CountLimitCase(
                name: "member custom fields", profile: "current", limit: 5, code: .memberCustomFields,
                path: "elems[0].groupTips.opGroupMemberInfo.customInfo",
                make: { count in
                    F.tips(
                        GroupTipsElem(
                            type: .invite,
                            opGroupMemberInfo: GroupMemberInfo(
                                customInfo: (0..<count).map { MemberCustomEntry(key: "k\($0)", data: [1]) })))
                }),
            CountLimitCase(
                name: "message body bytes", profile: "current", limit: 12_288, code: .messageBodyBytes, path: "elems",
                make: { .message(ValidationLimitTests.messageWithBody(bytes: $0)) }),
            CountLimitCase(
                name: "merger layers", profile: "current", limit: 100, code: .mergerDepth,
                path: F.pathOfLayer(100) + ".elems[0].merger.messages",
                make: { .message(F.nestedMergers($0)) }),
        ]
        return cases
    }()

    @Test(arguments: countCases)
    func countLimitPassesAtTheLimitAndFailsOnePast(_ limitCase: CountLimitCase) {
        let limits = F.limits(limitCase.profile)
        #expect(Validator.validate(limitCase.make(limitCase.limit), limits: limits) == [])
        #expect(
            Validator.validate(limitCase.make(limitCase.limit + 1), limits: limits) == [
                F.error(limitCase.code, limitCase.path, limit: limitCase.limit, actual: limitCase.limit + 1)
            ])
    }

    /// A one-to-one message whose elems encode to exactly `bytes` bytes:
    /// one text elem, whose body is 10 bytes of tags and lengths plus the
    /// text while lengths take two bytes.
    static func messageWithBody(bytes: Int) -> Message {
        F.directMessage([F.text(String(repeating: "b", count: bytes - 10))])
    }

    @Test func measuresTheBodyAsTheCanonicalSizeOfTheElems() {
        let message = Self.messageWithBody(bytes: 12_288)
        #expect(Message(elems: message.elems).serializedSize == 12_288)
    }

    @Test func measuresAMergerBodyWithoutItsNestedMessages() {
        // 300 nested messages of 100 bytes each: 30 KB inside the merger, but
        // each nested message is small and the merger's own fields are too.
        let nested = F.directMessage([F.text(String(repeating: "n", count: 100))])
        let merger = Elem(
            kind: .merger(
                MergerElem(
                    title: "t", abstracts: ["a"], compatibleText: "c", messages: Array(repeating: nested, count: 300))))
        let message = F.directMessage([merger])
        #expect(message.serializedSize > 30_000)
        #expect(Validator.validate(message, limits: .current) == [])

        let bigNested = Self.messageWithBody(bytes: 12_289)
        let holder = F.directMessage([
            Elem(
                kind: .merger(
                    MergerElem(
                        title: "t", abstracts: ["a"], compatibleText: "c",
                        messages: [F.directMessage([F.text()]), bigNested])))
        ])
        #expect(
            Validator.validate(holder, limits: .current) == [
                F.error(.messageBodyBytes, "elems[0].merger.messages[1].elems", limit: 12_288, actual: 12_289)
            ])
    }

    static let ruleOffInSDKGuideCases: [RuleOffCase] = {
        let big = String(repeating: "x", count: 10_000)
        return [
            RuleOffCase(name: "video size", payload: F.direct(.video(VideoElem(videoSize: UInt32.max)))),
            RuleOffCase(
                name: "image size",
                payload: F.direct(.image(ImageElem(levels: [ImageLevel(type: .original, size: UInt32.max)])))),
            RuleOffCase(name: "sound size", payload: F.direct(.sound(SoundElem(size: UInt32.max)))),
            RuleOffCase(name: "merger layers", payload: .message(F.nestedMergers(150))),
            RuleOffCase(
                name: "merger abstracts",
                payload: .message(F.directMessage([F.merger(messages: 1, abstracts: Array(repeating: big, count: 50))]))
            ),
            RuleOffCase(
                name: "merger compatible text",
                payload: .message(F.directMessage([Elem(kind: .merger(MergerElem(title: "t", abstracts: ["a"])))]))),
            RuleOffCase(name: "message body", payload: .message(Self.messageWithBody(bytes: 100_000))),
            RuleOffCase(
                name: "custom elems",
                payload: .message(F.directMessage(Array(repeating: Elem(kind: .custom(CustomElem())), count: 5)))),
            RuleOffCase(name: "custom desc and ext", payload: F.direct(.custom(CustomElem(desc: big, ext: big)))),
            RuleOffCase(
                name: "member name card",
                payload: F.tips(GroupTipsElem(type: .invite, opGroupMemberInfo: GroupMemberInfo(nameCard: big)))),
            RuleOffCase(
                name: "group ID",
                payload: .message(Message(sender: "alice", groupID: "群\t" + big, elems: [F.text()]))),
            RuleOffCase(
                name: "group custom fields",
                payload: F.tips(
                    GroupTipsElem(
                        type: .infoChange,
                        groupChangeList: (0..<20).map { GroupChangeInfo(type: .custom, value: big, key: big + "\($0)") }
                    ))),
            RuleOffCase(
                name: "member custom fields",
                payload: F.tips(
                    GroupTipsElem(
                        type: .invite,
                        opGroupMemberInfo: GroupMemberInfo(
                            customInfo: (0..<20).map { MemberCustomEntry(key: "k\($0)", data: Array(big.utf8)) }))
                )),
            RuleOffCase(
                name: "profile strings",
                payload: F.tips(
                    GroupTipsElem(type: .invite, opUserInfo: UserProfile(nickname: big, selfSignature: Array(big.utf8)))
                )),
            RuleOffCase(
                name: "user IDs",
                payload: .message(Message(sender: big, receiver: big, elems: [F.text()]))),
            RuleOffCase(
                name: "Community members",
                payload: F.tips(GroupTipsElem(type: .invite, memberCount: 1_000_000), groupType: "Community")),
            RuleOffCase(
                name: "AVChatRoom members",
                payload: F.tips(GroupTipsElem(type: .invite, memberCount: UInt32.max), groupType: "AVChatRoom")),
        ]
    }()

    @Test(arguments: ruleOffInSDKGuideCases)
    func sdkGuideProfileHasNoRuleWhereTheGuidesDocumentNone(_ offCase: RuleOffCase) {
        #expect(Validator.validate(offCase.payload, limits: .sdkGuide) == [])
    }

    @Test func sdkGuideProfileIsTheDefault() {
        #expect(ValidationLimits() == .sdkGuide)
        let message = F.tips(
            GroupTipsElem(
                type: .infoChange,
                groupChangeList: [
                    GroupChangeInfo(type: .introduction, value: String(repeating: "i", count: 121))
                ]))
        #expect(Validator.validate(message) == Validator.validate(message, limits: .sdkGuide))
        #expect(Validator.validate(message).count == 1)
        #expect(Validator.validate(message, limits: .current) == [])
    }

    @Test func anySingleLimitCanBeOverridden() {
        var limits = ValidationLimits.current
        limits.maxGroupNameBytes = 100
        let name = String(repeating: "n", count: 100)
        #expect(Validator.validate(F.tips(GroupTipsElem(type: .invite, groupName: name)), limits: limits) == [])
        limits.maxGroupNameBytes = nil
        let longer = String(repeating: "n", count: 10_000)
        #expect(Validator.validate(F.tips(GroupTipsElem(type: .invite, groupName: longer)), limits: limits) == [])
        limits.maxGroupMembers["AVChatRoom"] = 10
        #expect(
            Validator.validate(
                F.tips(GroupTipsElem(type: .invite, memberCount: 11), groupType: "AVChatRoom"), limits: limits)
                == [F.error(.groupMembers, "elems[0].groupTips.memberCount", limit: 10, actual: 11)])
    }

    @Test func profilesAreFoundByName() {
        #expect(ValidationLimits.profile(named: "sdk-guide") == .sdkGuide)
        #expect(ValidationLimits.profile(named: "seed") == .sdkGuide, "the earlier name stays an alias")
        #expect(ValidationLimits.profile(named: "current") == .current)
        #expect(ValidationLimits.profile(named: "newest") == nil)
        #expect(ValidationLimits.profileNames == ["sdk-guide", "current"])
    }
}
