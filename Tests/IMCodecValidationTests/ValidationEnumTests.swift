import IMCodec
import IMCodecValidation
import Testing

/// An enum field holding a value, and the one finding it must yield.
struct EnumCase: Sendable, CustomTestStringConvertible {
    var name: String
    var payload: FramePayload
    var expected: ValidationFinding

    var testDescription: String { name }
}

/// Enum values outside the documented sets stay decodable and are reported
/// as warnings with their own codes.
@Suite struct ValidationEnumTests {
    typealias F = ValidationFixtures

    static let profile = UserProfile(identifier: "u")

    static let cases: [EnumCase] = [
        EnumCase(
            name: "priority",
            payload: .message(Message(sender: "a", receiver: "b", priority: Priority(rawValue: 7), elems: [F.text()])),
            expected: F.warning(.unknownEnumValue, "priority", actual: 7)),
        EnumCase(
            name: "image format",
            payload: F.direct(
                .image(ImageElem(format: ImageFormat(rawValue: 5), levels: [ImageLevel(type: .original)]))),
            expected: F.warning(.unknownEnumValue, "elems[0].image.format", actual: 5)),
        EnumCase(
            name: "image level type",
            payload: F.direct(.image(ImageElem(levels: [ImageLevel(type: ImageLevelType(rawValue: 4))]))),
            expected: F.warning(.unknownEnumValue, "elems[0].image.levels[0].type", actual: 4)),
        EnumCase(
            name: "image level type unspecified",
            payload: F.direct(.image(ImageElem(levels: [ImageLevel()]))),
            expected: F.warning(.unspecifiedEnumValue, "elems[0].image.levels[0].type", actual: 0)),
        EnumCase(
            name: "friend allow type",
            payload: F.tips(
                GroupTipsElem(type: .quit, opUserInfo: UserProfile(allowType: FriendAllowType(rawValue: 3)))),
            expected: F.warning(.unknownEnumValue, "elems[0].groupTips.opUserInfo.allowType", actual: 3)),
        EnumCase(
            name: "gender",
            payload: F.tips(
                GroupTipsElem(
                    type: .quit, changedUserInfo: [ChangedUserInfo(profile: UserProfile(gender: Gender(rawValue: -1)))])
            ),
            expected: F.warning(.unknownEnumValue, "elems[0].groupTips.changedUserInfo[0].profile.gender", actual: -1)),
        EnumCase(
            name: "member role",
            payload: F.direct(
                .groupSystem(
                    GroupSystemElem(
                        type: .createGroup, opGroupMemberInfo: GroupMemberInfo(role: GroupMemberRole(rawValue: 100))))),
            expected: F.warning(.unknownEnumValue, "elems[0].groupSystem.opGroupMemberInfo.role", actual: 100)),
        EnumCase(
            name: "group tips type",
            payload: F.tips(GroupTipsElem(type: GroupTipsType(rawValue: 8))),
            expected: F.warning(.unknownEnumValue, "elems[0].groupTips.type", actual: 8)),
        EnumCase(
            name: "group tips type unspecified",
            payload: F.tips(GroupTipsElem()),
            expected: F.warning(.unspecifiedEnumValue, "elems[0].groupTips.type", actual: 0)),
        EnumCase(
            name: "group change type",
            payload: F.tips(
                GroupTipsElem(
                    type: .infoChange, groupChangeList: [GroupChangeInfo(type: GroupInfoChangeType(rawValue: 7))])),
            expected: F.warning(.unknownEnumValue, "elems[0].groupTips.groupChangeList[0].type", actual: 7)),
        EnumCase(
            name: "group change type unspecified",
            payload: F.tips(GroupTipsElem(type: .infoChange, groupChangeList: [GroupChangeInfo(value: "v")])),
            expected: F.warning(.unspecifiedEnumValue, "elems[0].groupTips.groupChangeList[0].type", actual: 0)),
        EnumCase(
            name: "group system type",
            payload: F.direct(.groupSystem(GroupSystemElem(type: GroupSystemType(rawValue: 15)))),
            expected: F.warning(.unknownEnumValue, "elems[0].groupSystem.type", actual: 15)),
        EnumCase(
            name: "group system type unspecified",
            payload: F.direct(.groupSystem(GroupSystemElem())),
            expected: F.warning(.unspecifiedEnumValue, "elems[0].groupSystem.type", actual: 0)),
        EnumCase(
            name: "profile system type",
            payload: F.direct(.profileSystem(ProfileSystemElem(type: ProfileSystemType(rawValue: 2)))),
            expected: F.warning(.unknownEnumValue, "elems[0].profileSystem.type", actual: 2)),
        EnumCase(
            name: "profile system type unspecified",
            payload: F.direct(.profileSystem(ProfileSystemElem())),
            expected: F.warning(.unspecifiedEnumValue, "elems[0].profileSystem.type", actual: 0)),
        EnumCase(
            name: "user status type unspecified",
            payload: .event(Event(kind: .userStatus(UserStatusEvent()))),
            expected: F.warning(.unspecifiedEnumValue, "userStatus.type", actual: 0)),
        EnumCase(
            name: "elem of no known kind",
            payload: .message(F.directMessage([F.text(), Elem()])),
            expected: F.warning(.unknownKind, "elems[1]")),
    ]

    @Test(arguments: cases)
    func enumValueOutsideTheDocumentedSetIsAWarning(_ enumCase: EnumCase) {
        for limits in [ValidationLimits.sdkGuide, .current] {
            #expect(Validator.validate(enumCase.payload, limits: limits) == [enumCase.expected])
        }
    }

    @Test func everyDocumentedValueOfAnEnumFieldPasses() {
        for priority in Priority.knownValues {
            #expect(
                Validator.validate(Message(sender: "a", receiver: "b", priority: priority, elems: [F.text()])) == [])
        }
        for format in ImageFormat.knownValues {
            #expect(
                Validator.validate(F.direct(.image(ImageElem(format: format, levels: [ImageLevel(type: .original)]))))
                    == [])
        }
        for type in GroupSystemType.knownValues where type != .unspecified {
            #expect(Validator.validate(F.direct(.groupSystem(GroupSystemElem(type: type)))) == [])
        }
        for type in GroupTipsType.knownValues where type != .unspecified {
            #expect(Validator.validate(F.tips(GroupTipsElem(type: type))) == [])
        }
        for role in GroupMemberRole.knownValues {
            #expect(
                Validator.validate(F.tips(GroupTipsElem(type: .quit, opGroupMemberInfo: GroupMemberInfo(role: role))))
                    == [])
        }
        for status in ConnectionStatusCode.knownValues {
            let event = ConnectionEvent(state: .failed, rongCloudStatus: RongCloudStatus(code: status))
            #expect(Validator.validate(Event(kind: .connection(event))) == [])
        }
        for code in ImErrorCode.knownValues {
            let event = ConnectionEvent(state: .failed, code: code.rawValue)
            #expect(Validator.validate(Event(kind: .connection(event))) == [])
        }
    }

    @Test func undocumentedValuesSurviveDecodingAndAreReported() throws {
        let json = #"{"receiver":"b","priority":99,"elems":[{"image":{"format":42,"levels":[{"type":9}]}}]}"#
        let decoded = try Message(jsonString: json)
        #expect(decoded.priority.rawValue == 99)
        let fromBinary = try Message(serializedBytes: decoded.serializedBytes())
        #expect(fromBinary == decoded)
        #expect(
            Validator.validate(fromBinary) == [
                F.warning(.unknownEnumValue, "priority", actual: 99),
                F.warning(.unknownEnumValue, "elems[0].image.format", actual: 42),
                F.warning(.unknownEnumValue, "elems[0].image.levels[0].type", actual: 9),
            ])
    }
}
