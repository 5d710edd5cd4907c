import Foundation
import IMCodec
import IMCodecREST
import IMCodecValidation
import Testing

/// A value and exactly the findings it must yield; an empty list is a valid
/// counterpart of the cases beside it.
struct RuleCase: Sendable, CustomTestStringConvertible {
    var name: String
    var profile = "sdk-guide"
    var payload: FramePayload
    var expected: [ValidationFinding]

    var testDescription: String { "\(name) (\(profile))" }
}

/// The cross-field rules, ranges and formats of docs/spec/limits.md, each
/// with a passing and a failing value.
@Suite struct ValidationRuleTests {
    typealias F = ValidationFixtures

    static func message(_ build: (inout Message) -> Void) -> FramePayload {
        var message = F.groupMessage([F.text()])
        build(&message)
        return .message(message)
    }

    static func image(_ levels: [ImageLevel]) -> FramePayload {
        F.direct(.image(ImageElem(uuid: "u", format: .jpg, levels: levels)))
    }

    static func level(_ type: ImageLevelType, _ width: UInt32, _ height: UInt32) -> ImageLevel {
        ImageLevel(type: type, uuid: "u", size: 1_000, width: width, height: height, url: "https://x")
    }

    /// M3, M6, M7, M9–M12.
    static let messageCases: [RuleCase] = [
        // M12
        RuleCase(name: "group message", payload: message { _ in }, expected: []),
        RuleCase(name: "one-to-one message", payload: .message(F.directMessage([F.text()])), expected: []),
        RuleCase(
            name: "message without a target", payload: .message(Message(sender: "a", elems: [F.text()])),
            expected: [F.error(.messageTargetMissing, "")]),
        RuleCase(
            name: "message with receiver and group", payload: message { $0.receiver = "bob" },
            expected: [F.error(.messageTargetAmbiguous, "")]),
        // M10
        RuleCase(name: "group @ text message", payload: message { $0.atUserList = ["bob"] }, expected: []),
        RuleCase(
            name: "@ list on a one-to-one message",
            payload: .message(Message(sender: "a", receiver: "b", atUserList: ["b"], elems: [F.text()])),
            expected: [F.error(.atNotGroupMessage, "atUserList")]),
        RuleCase(
            name: "@ message with a face elem",
            payload: message {
                $0.atUserList = ["bob"]
                $0.elems.append(Elem(kind: .face(FaceElem(index: 1))))
            },
            expected: [F.error(.atTextOnly, "elems[1]")]),
        RuleCase(
            name: "@ message without elems",
            payload: message {
                $0.atUserList = ["bob"]
                $0.elems = []
            },
            expected: [F.error(.atTextOnly, "elems"), F.error(.messageElemsMissing, "elems")]),
        // M11
        RuleCase(name: "targeted group message", payload: message { $0.targetedReceivers = ["bob"] }, expected: []),
        RuleCase(
            name: "targeted one-to-one message",
            payload: .message(Message(sender: "a", receiver: "b", targetedReceivers: ["b"], elems: [F.text()])),
            expected: [F.error(.targetedNotGroupMessage, "targetedReceivers")]),
        RuleCase(
            name: "targeted @ message",
            payload: message {
                $0.targetedReceivers = ["bob"]
                $0.atUserList = ["bob"]
            },
            expected: [F.error(.targetedWithAt, "targetedReceivers")]),
        RuleCase(
            name: "targeted AVChatRoom message",
            payload: message {
                $0.targetedReceivers = ["bob"]
                $0.groupType = "AVChatRoom"
            },
            expected: [F.error(.targetedGroupType, "targetedReceivers")]),
        RuleCase(
            name: "targeted Community message",
            payload: message {
                $0.targetedReceivers = ["bob"]
                $0.groupType = "Community"
            },
            expected: [F.error(.targetedGroupType, "targetedReceivers")]),
        // M3
        RuleCase(
            name: "merger of a merger",
            payload: .message(
                F.directMessage([
                    Elem(
                        kind: .merger(
                            MergerElem(
                                title: "t", abstracts: ["a"], compatibleText: "c",
                                messages: [F.directMessage([F.merger(messages: 2)])])))
                ])),
            expected: []),
        RuleCase(
            name: "merger holding group tips",
            payload: .message(
                F.directMessage([
                    Elem(
                        kind: .merger(
                            MergerElem(
                                title: "t", abstracts: ["a"], compatibleText: "c",
                                messages: [
                                    F.groupMessage([F.text(), Elem(kind: .groupTips(GroupTipsElem(type: .quit)))])
                                ])))
                ])),
            expected: [F.error(.mergerContainsGroupTips, "elems[0].merger.messages[0].elems[1]")]),
        RuleCase(
            name: "group tips outside a merger",
            payload: F.tips(GroupTipsElem(type: .quit)), expected: []),
        // M19
        RuleCase(
            name: "merger with a title and one abstract",
            payload: F.direct(.merger(MergerElem(title: "t", abstracts: ["a"], messages: [F.directMessage()]))),
            expected: []),
        RuleCase(
            name: "merger without a title",
            payload: F.direct(.merger(MergerElem(abstracts: ["a"], messages: [F.directMessage()]))),
            expected: [F.error(.mergerTitleMissing, "elems[0].merger.title")]),
        RuleCase(
            name: "merger without abstracts", profile: "current",
            payload: F.direct(.merger(MergerElem(title: "t", compatibleText: "c", messages: [F.directMessage()]))),
            expected: [F.error(.mergerAbstractsMissing, "elems[0].merger.abstracts")]),
        // M20
        RuleCase(
            name: "@ all with the @-all user ID",
            payload: message {
                $0.atUserList = [Message.atAllUserID]
                $0.atType = .atAll
            },
            expected: []),
        RuleCase(
            name: "@ all and me",
            payload: message {
                $0.atUserList = ["bob", Message.atAllUserID]
                $0.atType = .atAllAtMe
            },
            expected: []),
        RuleCase(
            name: "@ me with the @-all user ID",
            payload: message {
                $0.atUserList = ["bob", Message.atAllUserID]
                $0.atType = .atMe
            },
            expected: [F.error(.atTypeMismatch, "atType")]),
        RuleCase(
            name: "@ all without the @-all user ID",
            payload: message {
                $0.atUserList = ["__kImSDK_MessageAtALL__"]
                $0.atType = .atAll
            },
            expected: [F.error(.atTypeMismatch, "atType")]),
        RuleCase(
            name: "@ all with a canonically equivalent user ID",
            payload: message {
                $0.atUserList = ["__kImSD\u{212A}_MesssageAtALL__"]  // KELVIN SIGN for the K of SDK
                $0.atType = .atAll
            },
            expected: [F.error(.atTypeMismatch, "atType")]),
        RuleCase(
            name: "@ type without an @ list", payload: message { $0.atType = .atMe },
            expected: [F.error(.atTypeMismatch, "atType")]),
        RuleCase(
            name: "@ type undocumented",
            payload: message {
                $0.atUserList = ["bob"]
                $0.atType = GroupAtType(rawValue: 4)
            },
            expected: [F.warning(.unknownEnumValue, "atType", actual: 4)]),
        // M9
        RuleCase(
            name: "coordinates at the bounds",
            payload: F.direct(.location(LocationElem(desc: "pole", longitude: -180, latitude: 90))), expected: []),
        RuleCase(
            name: "coordinates at the other bounds",
            payload: F.direct(.location(LocationElem(longitude: 180, latitude: -90))), expected: []),
        RuleCase(
            name: "coordinates past the bounds",
            payload: F.direct(.location(LocationElem(longitude: 180.000001, latitude: -90.000001))),
            expected: [
                F.error(.locationLatitude, "elems[0].location.latitude", limit: 90),
                F.error(.locationLongitude, "elems[0].location.longitude", limit: 180),
            ]),
        RuleCase(
            name: "coordinates that are not numbers",
            payload: F.direct(.location(LocationElem(longitude: .infinity, latitude: .nan))),
            expected: [
                F.error(.locationLatitude, "elems[0].location.latitude", limit: 90),
                F.error(.locationLongitude, "elems[0].location.longitude", limit: 180),
            ]),
        // M6
        RuleCase(
            name: "one level of each type",
            payload: image([level(.original, 1080, 1920), level(.large, 720, 1280), level(.thumbnail, 198, 352)]),
            expected: []),
        RuleCase(
            name: "two originals",
            payload: image([level(.original, 1080, 1920), level(.thumbnail, 198, 352), level(.original, 1080, 1920)]),
            expected: [F.error(.imageDuplicateLevel, "elems[0].image.levels[2].type")]),
        // M7
        RuleCase(
            name: "large image 1 px too big",
            payload: image([level(.original, 1080, 1920), level(.large, 721, 1282)]),
            expected: [F.warning(.imageLargeSize, "elems[0].image.levels[1]", limit: 720, actual: 721)]),
        RuleCase(
            name: "thumbnail 1 px too big",
            payload: image([level(.original, 1920, 1080), level(.thumbnail, 353, 199)]),
            expected: [F.warning(.imageThumbnailSize, "elems[0].image.levels[1]", limit: 198, actual: 199)]),
        RuleCase(
            name: "small original reused as large image",
            payload: image([level(.original, 500, 600), level(.large, 500, 600), level(.thumbnail, 198, 238)]),
            expected: []),
        RuleCase(
            name: "small original scaled up to 720",
            payload: image([level(.original, 500, 600), level(.large, 720, 864)]),
            expected: [F.warning(.imageLargeSize, "elems[0].image.levels[1]", limit: 500, actual: 720)]),
        RuleCase(
            name: "tiny original reused as thumbnail",
            payload: image([level(.original, 100, 150), level(.large, 100, 150), level(.thumbnail, 100, 150)]),
            expected: []),
        RuleCase(
            name: "tiny original scaled up to a thumbnail",
            payload: image([level(.original, 100, 150), level(.thumbnail, 198, 297)]),
            expected: [F.warning(.imageThumbnailSize, "elems[0].image.levels[1]", limit: 100, actual: 198)]),
        RuleCase(
            name: "large image without original within 720",
            payload: image([level(.large, 720, 1280), level(.thumbnail, 150, 150)]), expected: []),
        RuleCase(
            name: "large image without original above 720",
            payload: image([level(.large, 721, 1280)]),
            expected: [F.warning(.imageLargeSize, "elems[0].image.levels[0]", limit: 720, actual: 721)]),
        RuleCase(
            name: "levels without sizes",
            payload: image([level(.original, 0, 0), level(.large, 0, 0), level(.thumbnail, 0, 0)]), expected: []),
    ]

    /// G1, G2, G9, G10, G12–G14.
    static let groupCases: [RuleCase] = [
        // G1
        RuleCase(name: "Community group", payload: message { $0.groupType = "Community" }, expected: []),
        RuleCase(name: "BChatRoom group", payload: message { $0.groupType = "BChatRoom" }, expected: []),
        RuleCase(
            name: "undocumented group type", payload: message { $0.groupType = "Work" },
            expected: [F.warning(.unknownGroupType, "groupType")]),
        // G9
        RuleCase(
            name: "member count on invite", payload: F.tips(GroupTipsElem(type: .invite, memberCount: 5)), expected: []),
        RuleCase(
            name: "member count on quit", payload: F.tips(GroupTipsElem(type: .quit, memberCount: 5)), expected: []),
        RuleCase(
            name: "member count on kicked", payload: F.tips(GroupTipsElem(type: .kicked, memberCount: 5)), expected: []),
        RuleCase(
            name: "member count on set admin", payload: F.tips(GroupTipsElem(type: .setAdmin, memberCount: 5)),
            expected: [F.error(.groupTipsMemberCountType, "elems[0].groupTips.memberCount")]),
        RuleCase(
            name: "group change on info change",
            payload: F.tips(
                GroupTipsElem(type: .infoChange, groupChangeList: [GroupChangeInfo(type: .name, value: "n")])),
            expected: []),
        RuleCase(
            name: "group change on invite",
            payload: F.tips(GroupTipsElem(type: .invite, groupChangeList: [GroupChangeInfo(type: .name, value: "n")])),
            expected: [F.error(.groupTipsGroupChangeListType, "elems[0].groupTips.groupChangeList")]),
        RuleCase(
            name: "member change on member info change",
            payload: F.tips(
                GroupTipsElem(
                    type: .memberInfoChange, memberChangeList: [MemberChangeInfo(identifier: "u", shutupTime: 60)])),
            expected: []),
        RuleCase(
            name: "member change on cancel admin",
            payload: F.tips(GroupTipsElem(type: .cancelAdmin, memberChangeList: [MemberChangeInfo(identifier: "u")])),
            expected: [F.error(.groupTipsMemberChangeListType, "elems[0].groupTips.memberChangeList")]),
        RuleCase(
            name: "fields of an undocumented tips type",
            payload: F.tips(
                GroupTipsElem(
                    type: GroupTipsType(rawValue: 9), groupChangeList: [GroupChangeInfo(type: .name, value: "n")],
                    memberCount: 3)),
            expected: [F.warning(.unknownEnumValue, "elems[0].groupTips.type", actual: 9)]),
        RuleCase(
            name: "user list on invite to cancel admin",
            payload: .message(
                F.groupMessage(
                    (1...5).map { raw in
                        Elem(
                            kind: .groupTips(
                                GroupTipsElem(type: GroupTipsType(rawValue: Int32(raw)), userList: ["bob"])))
                    })),
            expected: []),
        RuleCase(
            name: "user list on info change",
            payload: F.tips(GroupTipsElem(type: .infoChange, userList: ["bob"])),
            expected: [F.error(.groupTipsUserListType, "elems[0].groupTips.userList")]),
        // G18
        RuleCase(
            name: "changed user info with a repeated ID",
            payload: F.tips(
                GroupTipsElem(
                    type: .memberInfoChange,
                    changedUserInfo: [
                        ChangedUserInfo(identifier: "bob"), ChangedUserInfo(identifier: "carol"),
                        ChangedUserInfo(identifier: "bob"),
                    ])),
            expected: [F.error(.groupTipsDuplicateIdentifier, "elems[0].groupTips.changedUserInfo[2].identifier")]),
        RuleCase(
            name: "changed member info with a repeated ID",
            payload: F.tips(
                GroupTipsElem(
                    type: .memberInfoChange,
                    changedGroupMemberInfo: [
                        ChangedGroupMemberInfo(identifier: "bob"), ChangedGroupMemberInfo(identifier: "bob"),
                    ])),
            expected: [
                F.error(.groupTipsDuplicateIdentifier, "elems[0].groupTips.changedGroupMemberInfo[1].identifier")
            ]),
        RuleCase(
            name: "same ID in both changed lists",
            payload: F.tips(
                GroupTipsElem(
                    type: .memberInfoChange, changedUserInfo: [ChangedUserInfo(identifier: "bob")],
                    changedGroupMemberInfo: [ChangedGroupMemberInfo(identifier: "bob")])),
            expected: []),
        // G19
        RuleCase(
            name: "member change to admin",
            payload: F.tips(
                GroupTipsElem(
                    type: .memberInfoChange,
                    changedGroupMemberInfo: [
                        ChangedGroupMemberInfo(identifier: "bob", info: GroupMemberInfo(member: "bob", role: .admin))
                    ])),
            expected: []),
        RuleCase(
            name: "member change to owner",
            payload: F.tips(
                GroupTipsElem(
                    type: .memberInfoChange,
                    changedGroupMemberInfo: [
                        ChangedGroupMemberInfo(identifier: "bob", info: GroupMemberInfo(member: "bob", role: .owner))
                    ])),
            expected: [F.error(.groupTipsOwnerRole, "elems[0].groupTips.changedGroupMemberInfo[0].info.role")]),
        RuleCase(
            name: "owner transfer showing the owner",
            payload: F.tips(
                GroupTipsElem(
                    type: .infoChange, groupChangeList: [GroupChangeInfo(type: .owner, value: "bob")],
                    changedGroupMemberInfo: [
                        ChangedGroupMemberInfo(identifier: "bob", info: GroupMemberInfo(member: "bob", role: .owner))
                    ])),
            expected: []),
        // G20
        RuleCase(
            name: "set admin in an AVChatRoom",
            payload: F.tips(GroupTipsElem(type: .setAdmin, userList: ["bob"]), groupType: "AVChatRoom"),
            expected: [F.error(.avChatRoomRoleChange, "elems[0].groupTips.type")]),
        RuleCase(
            name: "set admin in a ChatRoom",
            payload: F.tips(GroupTipsElem(type: .setAdmin, userList: ["bob"]), groupType: "ChatRoom"), expected: []),
        RuleCase(
            name: "owner change in an AVChatRoom",
            payload: F.tips(
                GroupTipsElem(type: .infoChange, groupChangeList: [GroupChangeInfo(type: .owner, value: "bob")]),
                groupType: "AVChatRoom"),
            expected: [F.error(.avChatRoomOwnerTransfer, "elems[0].groupTips.groupChangeList[0].type")]),
        RuleCase(
            name: "invite tips in an AVChatRoom",
            payload: F.tips(GroupTipsElem(type: .invite, userList: ["bob"]), groupType: "AVChatRoom"), expected: []),
        RuleCase(
            name: "grant admin notice in an AVChatRoom",
            payload: .message(
                F.groupMessage([Elem(kind: .groupSystem(GroupSystemElem(type: .grantAdmin)))], groupType: "AVChatRoom")
            ),
            expected: [F.error(.avChatRoomRoleChange, "elems[0].groupSystem.type")]),
        RuleCase(
            name: "invitation notice in an AVChatRoom",
            payload: .message(
                F.groupMessage(
                    [Elem(kind: .groupSystem(GroupSystemElem(type: .inviteToGroupRequest)))], groupType: "AVChatRoom")),
            expected: [F.error(.avChatRoomMemberAddition, "elems[0].groupSystem.type")]),
        RuleCase(
            name: "join accepted in an AVChatRoom",
            payload: .message(
                F.groupMessage(
                    [Elem(kind: .groupSystem(GroupSystemElem(type: .addGroupAccept)))], groupType: "AVChatRoom")
            ),
            expected: []),
        RuleCase(
            name: "AVChatRoom created with members",
            payload: .event(
                Event(
                    kind: .createGroup(
                        CreateGroupInfo(
                            groupType: "AVChatRoom", membersInfo: [CreateGroupMemberInfo(member: "bob"), .init()])))),
            expected: [F.error(.avChatRoomMemberAddition, "createGroup.membersInfo", actual: 2)]),
        RuleCase(
            name: "AVChatRoom created without members",
            payload: .event(Event(kind: .createGroup(CreateGroupInfo(groupType: "AVChatRoom")))), expected: []),
        // G21
        RuleCase(
            name: "Private group created with setAddOpt",
            payload: .event(
                Event(kind: .createGroup(CreateGroupInfo(groupType: "Private", setAddOpt: true, addOpt: .forbid)))),
            expected: [F.error(.privateGroupAddOpt, "createGroup.setAddOpt")]),
        RuleCase(
            name: "Public group created with setAddOpt",
            payload: .event(
                Event(kind: .createGroup(CreateGroupInfo(groupType: "Public", setAddOpt: true, addOpt: .any)))),
            expected: []),
        RuleCase(
            name: "Private group profile with add option any",
            payload: .event(
                Event(kind: .groupProfiles(GroupInfoList(groups: [GroupInfo(groupType: "Private", addOpt: .any)])))),
            expected: [F.error(.privateGroupAddOpt, "groupProfiles.groups[0].addOpt")]),
        RuleCase(
            name: "Private group profile with add option forbid",
            payload: .event(
                Event(kind: .groupProfiles(GroupInfoList(groups: [GroupInfo(groupType: "Private", addOpt: .forbid)])))),
            expected: []),
        RuleCase(
            name: "join request in a Private group",
            payload: .message(
                F.groupMessage(
                    [Elem(kind: .groupSystem(GroupSystemElem(type: .addGroupRequest)))], groupType: "Private")),
            expected: [F.error(.privateGroupJoinRequest, "elems[0].groupSystem.type")]),
        RuleCase(
            name: "invitation notice in a Private group",
            payload: .message(
                F.groupMessage([Elem(kind: .groupSystem(GroupSystemElem(type: .invitedToGroup)))], groupType: "Private")
            ),
            expected: []),
        // G22
        RuleCase(
            name: "application to join naming a handler",
            payload: .event(
                Event(
                    kind: .groupPendency(
                        GroupPendencyPage(items: [GroupPendencyItem(toUser: "bob", getType: .join)])))),
            expected: [F.error(.groupPendencyToUserType, "groupPendency.items[0].toUser")]),
        RuleCase(
            name: "application to join with handler 0",
            payload: .event(
                Event(kind: .groupPendency(GroupPendencyPage(items: [GroupPendencyItem(toUser: "0", getType: .join)])))),
            expected: []),
        RuleCase(
            name: "invitation without an invitee",
            payload: .event(
                Event(kind: .groupPendency(GroupPendencyPage(items: [GroupPendencyItem(getType: .invite)])))),
            expected: [F.error(.groupPendencyToUserMissing, "groupPendency.items[0].toUser")]),
        // M22
        RuleCase(
            name: "video without its snapshot",
            payload: .message(F.directMessage([Elem(kind: .video(VideoElem(videoUUID: "v")))])),
            expected: [F.error(.videoSnapshotMissing, "elems[0].video")]),
        RuleCase(
            name: "video with its snapshot URL",
            payload: .message(F.directMessage([Elem(kind: .video(VideoElem(videoUUID: "v", snapshotURL: "s")))])),
            expected: []),
        // M23
        RuleCase(
            name: "group tips in a one-to-one message",
            payload: .message(
                F.directMessage([F.text(), Elem(kind: .groupTips(GroupTipsElem(type: .quit, platform: "iOS")))])),
            expected: [F.error(.groupTipsOneToOne, "elems[1].groupTips")]),
        RuleCase(
            name: "group tips in a group message",
            payload: .message(F.groupMessage([Elem(kind: .groupTips(GroupTipsElem(type: .quit, platform: "iOS")))])),
            expected: []),
        // G23
        RuleCase(
            name: "AVChatRoom profile with a member count",
            payload: .event(
                Event(kind: .groupProfiles(GroupInfoList(groups: [GroupInfo(groupType: "AVChatRoom", memberNum: 12)])))),
            expected: [F.error(.avChatRoomMemberNum, "groupProfiles.groups[0].memberNum", actual: 12)]),
        RuleCase(
            name: "AVChatRoom profile with self info",
            payload: .event(
                Event(
                    kind: .groupProfiles(
                        GroupInfoList(groups: [GroupInfo(groupType: "AVChatRoom", selfInfo: GroupSelfInfo())])))),
            expected: [F.error(.avChatRoomSelfInfo, "groupProfiles.groups[0].selfInfo")]),
        RuleCase(
            name: "Public profile with a member count and self info",
            payload: .event(
                Event(
                    kind: .groupProfiles(
                        GroupInfoList(groups: [GroupInfo(groupType: "Public", memberNum: 12, selfInfo: GroupSelfInfo())]
                        )
                    ))),
            expected: []),
        // G19 on creation
        RuleCase(
            name: "initial member with the owner role",
            payload: .event(
                Event(
                    kind: .createGroup(
                        CreateGroupInfo(
                            groupType: "Public",
                            membersInfo: [CreateGroupMemberInfo(member: "bob"), CreateGroupMemberInfo(role: .owner)])))),
            expected: [F.error(.createGroupOwnerRole, "createGroup.membersInfo[1].role")]),
        // F12
        RuleCase(
            name: "rejection with a remark",
            payload: .event(
                Event(kind: .friendResponse(FriendResponse(responseType: .reject, identifier: "dave", remark: "d")))),
            expected: [F.error(.friendResponseRemarkOnReject, "friendResponse.remark")]),
        RuleCase(
            name: "agree and add with a remark",
            payload: .event(
                Event(
                    kind: .friendResponse(FriendResponse(responseType: .agreeAndAdd, identifier: "dave", remark: "d")))
            ),
            expected: []),
        // M21
        RuleCase(
            name: "online-only message in a batch",
            payload: .batch(
                MessageBatch(messages: [
                    F.directMessage([F.text()]),
                    Message(sender: "a", receiver: "b", onlineUserOnly: true, elems: [F.text()]),
                ])),
            expected: [F.error(.batchOnlineOnly, "messages[1].onlineUserOnly")]),
        RuleCase(
            name: "AVChatRoom message in a batch",
            payload: .batch(MessageBatch(messages: [F.groupMessage([F.text()], groupType: "AVChatRoom")])),
            expected: [F.error(.batchAVChatRoom, "messages[0].groupType")]),
        RuleCase(
            name: "online-only message alone",
            payload: .message(Message(sender: "a", receiver: "b", onlineUserOnly: true, elems: [F.text()])),
            expected: []),
        // G10
        RuleCase(
            name: "name change without a name",
            payload: F.tips(GroupTipsElem(type: .infoChange, groupChangeList: [GroupChangeInfo(type: .name)])),
            expected: [F.error(.groupChangeValueMissing, "elems[0].groupTips.groupChangeList[0].value")]),
        RuleCase(
            name: "owner change without an owner",
            payload: F.tips(
                GroupTipsElem(
                    type: .infoChange,
                    groupChangeList: [GroupChangeInfo(type: .owner, value: "bob"), GroupChangeInfo(type: .owner)])),
            expected: [F.error(.groupChangeValueMissing, "elems[0].groupTips.groupChangeList[1].value")]),
        RuleCase(
            name: "cleared introduction",
            payload: F.tips(GroupTipsElem(type: .infoChange, groupChangeList: [GroupChangeInfo(type: .introduction)])),
            expected: []),
        RuleCase(
            name: "key on a name change",
            payload: F.tips(
                GroupTipsElem(type: .infoChange, groupChangeList: [GroupChangeInfo(type: .name, value: "n", key: "k")])),
            expected: [F.error(.groupChangeKeyType, "elems[0].groupTips.groupChangeList[0].key")]),
        RuleCase(
            name: "custom change without a key",
            payload: F.tips(
                GroupTipsElem(type: .infoChange, groupChangeList: [GroupChangeInfo(type: .custom, value: "v")])),
            expected: [F.error(.groupChangeKeyMissing, "elems[0].groupTips.groupChangeList[0].key")]),
        RuleCase(
            name: "custom change with a key",
            payload: F.tips(
                GroupTipsElem(
                    type: .infoChange, groupChangeList: [GroupChangeInfo(type: .custom, value: "v", key: "k")])),
            expected: []),
        // G12
        RuleCase(
            name: "user data on a custom notice",
            payload: F.direct(.groupSystem(GroupSystemElem(type: .customInfo, groupID: "g", userData: [1, 2]))),
            expected: []),
        RuleCase(
            name: "user data on a join request",
            payload: F.direct(.groupSystem(GroupSystemElem(type: .addGroupRequest, groupID: "g", userData: [1, 2]))),
            expected: [F.error(.groupSystemUserDataType, "elems[0].groupSystem.userData")]),
        // G13
        RuleCase(
            name: "documented platforms",
            payload: .message(
                F.groupMessage([
                    Elem(kind: .groupTips(GroupTipsElem(type: .quit, platform: "RESTful API"))),
                    Elem(kind: .groupSystem(GroupSystemElem(type: .createGroup, platform: "Web"))),
                ])),
            expected: []),
        RuleCase(
            name: "undocumented platforms",
            payload: .message(
                F.groupMessage([
                    Elem(kind: .groupTips(GroupTipsElem(type: .quit, platform: "Linux"))),
                    Elem(kind: .groupSystem(GroupSystemElem(type: .createGroup, platform: "ios"))),
                ])),
            expected: [
                F.warning(.unknownPlatform, "elems[0].groupTips.platform"),
                F.warning(.unknownPlatform, "elems[1].groupSystem.platform"),
            ]),
        // G14
        RuleCase(
            name: "printable ASCII group ID", profile: "current",
            payload: .message(Message(sender: "a", groupID: "@TGS#2J4SZEAEL ~", elems: [F.text()])), expected: []),
        RuleCase(
            name: "group ID with a Chinese character", profile: "current",
            payload: .message(Message(sender: "a", groupID: "群1", elems: [F.text()])),
            expected: [F.error(.groupIDCharacters, "groupId", actual: 0xE7)]),
        RuleCase(
            name: "group ID with a tab", profile: "current",
            payload: F.tips(GroupTipsElem(groupID: "g\t1", type: .quit)),
            expected: [F.error(.groupIDCharacters, "elems[0].groupTips.groupId", actual: 0x09)]),
        RuleCase(
            name: "group ID with DEL", profile: "current",
            payload: F.direct(.groupSystem(GroupSystemElem(type: .createGroup, groupID: "g\u{7F}"))),
            expected: [F.error(.groupIDCharacters, "elems[0].groupSystem.groupId", actual: 0x7F)]),
        RuleCase(
            name: "group ID with a Chinese character in the sdk-guide profile",
            payload: .message(Message(sender: "a", groupID: "群1", elems: [F.text()])), expected: []),
    ]

    /// F3–F5.
    static func sns(_ type: SnsSystemType, _ users: [SnsChangeInfo]) -> FramePayload {
        F.direct(.snsSystem(SnsSystemElem(type: type, users: users)))
    }

    /// A group tips elem whose operator profile holds `keys` as custom fields.
    static func profileCustomKeys(_ keys: [String]) -> FramePayload {
        let entries = keys.map { CustomInfoEntry(key: $0, value: .data(Array("v".utf8))) }
        return F.tips(GroupTipsElem(type: .quit, opUserInfo: UserProfile(identifier: "a", customInfo: entries)))
    }

    static let relationshipCases: [RuleCase] = [
        // F10
        RuleCase(
            name: "profile custom keys with the prefix",
            payload: profileCustomKeys(["Tag_Profile_Custom_Blood", "Tag_Profile_Custom_血型"]), expected: []),
        RuleCase(
            name: "profile custom key without the prefix",
            payload: profileCustomKeys(["Tag_Profile_Custom_Blood", "Blood"]),
            expected: [F.error(.profileCustomKeyFormat, "elems[0].groupTips.opUserInfo.customInfo[1].key")]),
        RuleCase(
            name: "profile custom key with the friend prefix",
            payload: profileCustomKeys(["Tag_SNS_Custom_Blood"]),
            expected: [F.error(.profileCustomKeyFormat, "elems[0].groupTips.opUserInfo.customInfo[0].key")]),
        RuleCase(
            name: "profile custom key without the prefix, current profile", profile: "current",
            payload: profileCustomKeys(["Blood"]),
            expected: []),
        // F3
        RuleCase(
            name: "add source with letters",
            payload: sns(.addFriendReq, [SnsChangeInfo(identifier: "u", wording: "hi", source: "AddSource_Type_iOS")]),
            expected: []),
        RuleCase(
            name: "add source without the prefix",
            payload: sns(.addFriendReq, [SnsChangeInfo(identifier: "u", source: "iOS")]),
            expected: [F.error(.snsSourceFormat, "elems[0].snsSystem.users[0].source")]),
        RuleCase(
            name: "add source with a lowercase prefix",
            payload: sns(.addFriendReq, [SnsChangeInfo(identifier: "u", source: "addsource_type_iOS")]),
            expected: [F.error(.snsSourceFormat, "elems[0].snsSystem.users[0].source")]),
        RuleCase(
            name: "add source of the bare prefix",
            payload: sns(.addFriendReq, [SnsChangeInfo(identifier: "u", source: "AddSource_Type_")]),
            expected: [F.error(.snsSourceFormat, "elems[0].snsSystem.users[0].source")]),
        RuleCase(
            name: "add source with a digit",
            payload: sns(.addFriendReq, [SnsChangeInfo(identifier: "u", source: "AddSource_Type_i0S")]),
            expected: [F.error(.snsSourceFormat, "elems[0].snsSystem.users[0].source")]),
        RuleCase(
            name: "add source with a Chinese name",
            payload: sns(.addFriendReq, [SnsChangeInfo(identifier: "u", source: "AddSource_Type_微信")]),
            expected: [F.error(.snsSourceFormat, "elems[0].snsSystem.users[0].source")]),
        RuleCase(
            name: "add source with a Chinese name past 8 bytes",
            payload: sns(.addFriendReq, [SnsChangeInfo(identifier: "u", source: "AddSource_Type_微信好")]),
            expected: [
                F.error(.snsSourceFormat, "elems[0].snsSystem.users[0].source"),
                F.error(.snsSourceBytes, "elems[0].snsSystem.users[0].source", limit: 8, actual: 9),
            ]),
        // F4
        RuleCase(
            name: "relationship type 5 in the sdk-guide profile",
            payload: sns(SnsSystemType(rawValue: 5), [SnsChangeInfo(identifier: "u")]),
            expected: [F.warning(.unknownEnumValue, "elems[0].snsSystem.type", actual: 5)]),
        RuleCase(
            name: "relationship type 5 in the current profile", profile: "current",
            payload: sns(SnsSystemType(rawValue: 5), [SnsChangeInfo(identifier: "u")]), expected: []),
        RuleCase(
            name: "relationship type 14 in the current profile", profile: "current",
            payload: sns(SnsSystemType(rawValue: 14), [SnsChangeInfo(identifier: "u")]), expected: []),
        RuleCase(
            name: "relationship type 15 in the current profile", profile: "current",
            payload: sns(SnsSystemType(rawValue: 15), [SnsChangeInfo(identifier: "u")]),
            expected: [F.warning(.unknownEnumValue, "elems[0].snsSystem.type", actual: 15)]),
        RuleCase(
            name: "relationship type left unspecified",
            payload: sns(.unspecified, [SnsChangeInfo(identifier: "u")]),
            expected: [F.warning(.unspecifiedEnumValue, "elems[0].snsSystem.type", actual: 0)]),
        // F5
        RuleCase(
            name: "wording on an add-friend notice",
            payload: sns(.addFriend, [SnsChangeInfo(identifier: "u"), SnsChangeInfo(identifier: "v", wording: "hi")]),
            expected: [F.error(.snsWordingType, "elems[0].snsSystem.users[1].wording")]),
        RuleCase(
            name: "source on a delete-friend notice",
            payload: sns(.delFriend, [SnsChangeInfo(identifier: "u", source: "AddSource_Type_Web")]),
            expected: [F.error(.snsSourceType, "elems[0].snsSystem.users[0].source")]),
        RuleCase(
            name: "source on an add request",
            payload: sns(.addFriendReq, [SnsChangeInfo(identifier: "u", wording: "hi", source: "AddSource_Type_Web")]),
            expected: []),
        RuleCase(
            name: "relationship change without a user",
            payload: sns(.delFriend, [SnsChangeInfo(identifier: "")]),
            expected: [F.error(.snsIdentifierMissing, "elems[0].snsSystem.users[0].identifier")]),
    ]

    /// C1, C2, C4, C5, events and batches.
    static func event(_ kind: Event.Kind) -> FramePayload { .event(Event(kind: kind)) }

    static func receipts(_ receipts: [MessageReceipt]) -> FramePayload {
        event(.readReceipt(ReadReceiptEvent(receipts: receipts)))
    }

    static let eventCases: [RuleCase] = [
        // C1, C3
        RuleCase(name: "connected", payload: event(.connection(ConnectionEvent(state: .connected))), expected: []),
        RuleCase(
            name: "failed with code and text",
            payload: event(
                .connection(
                    ConnectionEvent(
                        state: .failed, code: 6_208, text: "kicked", rongCloudStatus: RongCloudStatus(code: .timeout)))),
            expected: []),
        RuleCase(
            name: "disconnected with code and text",
            payload: event(.connection(ConnectionEvent(state: .disconnected, code: 20_009, text: "x"))), expected: []),
        RuleCase(
            name: "connecting with code and text",
            payload: event(.connection(ConnectionEvent(state: .connecting, code: 7, text: "x"))),
            expected: [
                F.warning(.undocumentedCode, "connection.code", actual: 7),
                F.error(.connectionCodeState, "connection.code", actual: 7),
                F.error(.connectionCodeState, "connection.text"),
            ]),
        RuleCase(
            name: "connection state and RongCloud status undocumented",
            payload: event(
                .connection(
                    ConnectionEvent(
                        state: ConnectionState(rawValue: 9), rongCloudStatus: RongCloudStatus(code: .init(rawValue: 7)))
                )),
            expected: [
                F.warning(.unknownEnumValue, "connection.state", actual: 9),
                F.warning(.unknownEnumValue, "connection.rongCloudStatus.code", actual: 7),
            ]),
        RuleCase(
            name: "RongCloud connected alone",
            payload: event(.connection(ConnectionEvent(rongCloudStatus: RongCloudStatus(code: .connected)))),
            expected: []),
        RuleCase(
            name: "RongCloud status past the documented codes",
            payload: event(.connection(ConnectionEvent(rongCloudStatus: RongCloudStatus(code: .init(rawValue: 17))))),
            expected: [F.warning(.unknownEnumValue, "connection.rongCloudStatus.code", actual: 17)]),
        // C6
        RuleCase(
            name: "failed with an undocumented code",
            payload: event(.connection(ConnectionEvent(state: .failed, code: 6_209, text: "x"))),
            expected: [F.warning(.undocumentedCode, "connection.code", actual: 6_209)]),
        RuleCase(
            name: "connection state unspecified", payload: event(.connection(ConnectionEvent())),
            expected: [F.warning(.unspecifiedEnumValue, "connection.state", actual: 0)]),
        // C2
        RuleCase(
            name: "reconnect failed with code",
            payload: event(.userStatus(UserStatusEvent(type: .reconnectFailed, code: 6_208, text: "t"))), expected: []),
        RuleCase(
            name: "reconnect failed with an undocumented code",
            payload: event(.userStatus(UserStatusEvent(type: .reconnectFailed, code: 5, text: "t"))),
            expected: [F.warning(.undocumentedCode, "userStatus.code", actual: 5)]),
        RuleCase(
            name: "forced offline with code",
            payload: event(.userStatus(UserStatusEvent(type: .forcedOffline, code: 6_208))),
            expected: [F.error(.userStatusCodeType, "userStatus.code", actual: 6_208)]),
        RuleCase(
            name: "signature expired with text",
            payload: event(.userStatus(UserStatusEvent(type: .userSigExpired, text: "expired"))),
            expected: [F.error(.userStatusCodeType, "userStatus.text")]),
        RuleCase(
            name: "user status undocumented",
            payload: event(.userStatus(UserStatusEvent(type: .init(rawValue: 4), code: 1))),
            expected: [
                F.warning(.unknownEnumValue, "userStatus.type", actual: 4),
                F.warning(.undocumentedCode, "userStatus.code", actual: 1),
            ]),
        // G7 on a page of read members
        RuleCase(
            name: "read members with a long name card", profile: "current",
            payload: event(
                .readMembers(
                    GroupMessageReadMembers(
                        msgID: "m",
                        members: [
                            GroupMemberInfo(member: "bob"),
                            GroupMemberInfo(member: "carol", nameCard: String(repeating: "群", count: 17)),
                        ], nextSeq: 5))),
            expected: [F.error(.groupNameCardBytes, "readMembers.members[1].nameCard", limit: 50, actual: 51)]),
        // C4
        RuleCase(
            name: "one-to-one and group receipts",
            payload: receipts([
                MessageReceipt(msgID: "m", userID: "u", isPeerRead: true, timestamp: 1),
                MessageReceipt(msgID: "m", groupID: "g", readCount: 3, unreadCount: 2),
                MessageReceipt(userID: "u", timestamp: 1),
            ]),
            expected: []),
        RuleCase(
            name: "receipt without target", payload: receipts([MessageReceipt(msgID: "m")]),
            expected: [F.error(.receiptTargetMissing, "readReceipt.receipts[0]")]),
        RuleCase(
            name: "receipt with both targets",
            payload: receipts([
                MessageReceipt(msgID: "m", userID: "u"), MessageReceipt(msgID: "m", userID: "u", groupID: "g"),
            ]),
            expected: [F.error(.receiptTargetAmbiguous, "readReceipt.receipts[1]")]),
        RuleCase(
            name: "group receipt read by the peer",
            payload: receipts([MessageReceipt(msgID: "m", groupID: "g", isPeerRead: true)]),
            expected: [F.error(.receiptPeerReadOnGroup, "readReceipt.receipts[0].isPeerRead")]),
        RuleCase(
            name: "one-to-one receipt with counts",
            payload: receipts([MessageReceipt(msgID: "m", userID: "u", readCount: 1, unreadCount: 1)]),
            expected: [
                F.error(.receiptCountsOnOneToOne, "readReceipt.receipts[0].readCount"),
                F.error(.receiptCountsOnOneToOne, "readReceipt.receipts[0].unreadCount"),
            ]),
        // C5
        RuleCase(name: "recall", payload: event(.recall(RecallEvent(msgID: "m"))), expected: []),
        RuleCase(
            name: "recall without message ID", payload: event(.recall(RecallEvent())),
            expected: [F.error(.recallMsgIDMissing, "recall.msgId")]),
        RuleCase(
            name: "modification",
            payload: event(.modification(ModificationEvent(message: F.directMessage([F.text()])))),
            expected: []),
        RuleCase(
            name: "modification without message", payload: event(.modification(ModificationEvent())),
            expected: [F.error(.modificationMessageMissing, "modification.message")]),
        RuleCase(
            name: "modified message breaking rules",
            payload: event(
                .modification(
                    ModificationEvent(
                        message: Message(
                            sender: "a", elems: [Elem(kind: .location(LocationElem(latitude: 100)))])))),
            expected: [
                F.error(.messageTargetMissing, "modification.message"),
                F.error(.locationLatitude, "modification.message.elems[0].location.latitude", limit: 90),
            ]),
        RuleCase(
            name: "event of no known kind", payload: .event(Event()),
            expected: [F.warning(.unknownKind, "")]),
        // Batches
        RuleCase(
            name: "batch", payload: .batch(MessageBatch(messages: [F.directMessage(), F.groupMessage()])),
            expected: []),
        RuleCase(
            name: "batch with broken messages",
            payload: .batch(
                MessageBatch(messages: [
                    F.directMessage(), Message(sender: "a", elems: [F.text()]),
                    F.directMessage([
                        F.text(),
                        Elem(
                            kind: .merger(
                                MergerElem(title: "t", abstracts: ["a"], messages: [Message(elems: [F.text()])]))),
                    ]),
                ])),
            expected: [
                F.error(.messageTargetMissing, "messages[1]"),
                F.error(.messageTargetMissing, "messages[2].elems[1].merger.messages[0]"),
            ]),
        RuleCase(name: "empty batch", payload: .batch(MessageBatch()), expected: []),
    ]

    @Test(arguments: messageCases + groupCases + relationshipCases + eventCases)
    func ruleYieldsExactlyItsFindings(_ ruleCase: RuleCase) {
        #expect(
            Validator.validate(ruleCase.payload, limits: F.limits(ruleCase.profile)).inCanonicalOrder
                == ruleCase.expected.inCanonicalOrder)
    }

    @Test func reportsTheSeverityOfEachCode() {
        let warnings = FindingCode.validatorCodes.filter { $0.severity == .warning }
        #expect(
            Set(warnings) == [
                .unknownEnumValue, .unspecifiedEnumValue, .unknownKind, .unknownGroupType, .unknownPlatform,
                .imageLargeSize, .imageThumbnailSize, .undocumentedCode,
            ])
    }

    @Test func codesAreUniqueDottedLowercaseStrings() {
        let codes = FindingCode.validatorCodes.map(\.rawValue)
        #expect(Set(codes).count == codes.count)
        for code in codes {
            let parts = code.split(separator: ".", omittingEmptySubsequences: false)
            #expect(parts.count >= 2, "\(code)")
            #expect(["limit", "range", "format", "rule", "enum", "code"].contains(String(parts[0])), "\(code)")
            #expect(code.allSatisfy { $0.isLowercase || $0 == "." || $0 == "-" }, "\(code)")
        }
    }

    @Test func checkThrowsTheFirstErrorAsValidationFailed() {
        var message = F.groupMessage([F.text()])
        message.groupType = "Work"
        #expect(throws: Never.self) { try Validator.check(message) }

        message.receiver = "bob"
        message.elems.append(Elem(kind: .file(FileElem(size: UInt32.max))))
        let error = #expect(throws: IMCodecError.self) { try Validator.check(message) }
        #expect(error?.code == .validationFailed)
        #expect(error?.path.description == "")
        #expect(error?.reason.hasPrefix("rule.message.target-ambiguous") == true)

        let batch = MessageBatch(messages: [F.directMessage([Elem(kind: .file(FileElem(size: UInt32.max)))])])
        let batchError = #expect(throws: IMCodecError.self) { try Validator.check(.batch(batch)) }
        #expect(batchError?.code == .validationFailed)
        #expect(batchError?.path.description == "messages[0].elems[0].file.size")
        #expect(batchError?.limit == 100 << 20)
        #expect(batchError?.observed == Int64(UInt32.max))
        #expect(throws: Never.self) { try Validator.check(Event()) }
        let eventError = #expect(throws: IMCodecError.self) { try Validator.check(Event(kind: .recall(RecallEvent()))) }
        #expect(eventError?.path.description == "recall.msgId")
    }

    @Test func findingCodeTableNamesEveryCodeAndTheCValidatorReportsTheSame() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        // The generated table of the specification (from Schemas/imcodec/constraints/v1/finding_codes.json,
        // like FindingCode's members) has a row for every code the validator reports.
        let spec = try String(
            contentsOf: root.appendingPathComponent("docs/spec/error-and-finding-codes.md"), encoding: .utf8)
        let table = try #require(spec.components(separatedBy: "\n## Finding codes\n").last)
        for code in FindingCode.validatorCodes {
            #expect(table.contains("\n| `\(code.rawValue)` |"), "\(code) has no row in the finding code table")
        }
        // The C validator executes a table generated from the same declarations: the table names the codes of
        // the same list, and the engine, validate.c, names none of its own.
        func codes(in file: String) throws -> Set<String> {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            var found: Set<String> = []
            for piece in text.split(separator: "\"") {
                let parts = piece.split(separator: ".", omittingEmptySubsequences: false)
                if parts.count >= 2, !parts.contains(where: \.isEmpty),
                    ["limit", "rule", "range", "format", "enum", "code"].contains(String(parts[0])),
                    piece.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "." || $0 == "-" })
                {
                    found.insert(String(piece))
                }
            }
            return found
        }
        let tableCodes = try codes(in: "Sources/IMCodecReference/Generated/validate_rules.c")
        let listed = Set(FindingCode.validatorCodes.map(\.rawValue))
        #expect(tableCodes.count >= 80, "\(tableCodes.count) codes found in the C rule table")
        #expect(tableCodes.subtracting(listed).isEmpty, "\(tableCodes.subtracting(listed))")
        #expect(listed.subtracting(tableCodes).isEmpty, "\(listed.subtracting(tableCodes))")
        #expect(try codes(in: "Sources/IMCodecReference/validate.c").isEmpty)
    }

    @Test func validationArticleMapsEveryLimitsRowToItsTests() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let article = "Sources/IMCodecValidation/IMCodecValidation.docc/LimitsAndProfiles.md"
        let text = try String(contentsOf: root.appendingPathComponent(article), encoding: .utf8)
        // Every row of the validation tables of docs/spec/limits.md (generated from
        // the declarations; the decoding limits D1… follow "## Decoding
        // limits" and are not validation rows), read from that file so a new
        // row fails here until the article maps it.
        let limitsText = try String(
            contentsOf: root.appendingPathComponent("docs/spec/limits.md"), encoding: .utf8)
        let validationPart = limitsText.components(separatedBy: "\n## Decoding limits")[0]
        var rows: [String] = []
        for line in validationPart.split(separator: "\n") where line.hasPrefix("| ") {
            let cell = line.dropFirst(2).prefix { $0 != " " }
            guard let letter = cell.first, "MGFC".contains(letter), cell.dropFirst().allSatisfy(\.isNumber),
                cell.count > 1, !rows.contains(String(cell))
            else { continue }
            rows.append(String(cell))
        }
        #expect(rows.count >= 50, "docs/spec/limits.md lists \(rows.count) validation rows")
        for row in rows {
            #expect(text.contains("\n| \(row) |"), "docs/spec/limits.md row \(row) is not mapped")
        }
    }
}

extension [ValidationFinding] {
    /// The findings sorted by code, path, severity, limit and actual: the
    /// order the validator reports them in is its declarations' order, which
    /// the specification leaves free (docs/spec/validation.md, "Order").
    var inCanonicalOrder: [ValidationFinding] {
        sorted {
            ($0.code.rawValue, $0.path.description, $0.severity.rawValue, $0.limit ?? 0, $0.actual ?? 0)
                < ($1.code.rawValue, $1.path.description, $1.severity.rawValue, $1.limit ?? 0, $1.actual ?? 0)
        }
    }
}
