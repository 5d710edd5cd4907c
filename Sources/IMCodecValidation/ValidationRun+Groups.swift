import IMCodec

extension ValidationRun {
    /// G2, G3, G8–G10, G13–G15, G18–G20: a group tips elem at the current
    /// position.
    ///
    /// - Parameters:
    ///   - tips: The elem.
    ///   - groupType: The group type of the message that holds it, which
    ///     sets the member limit and the operations the group has.
    mutating func visit(groupTips tips: GroupTipsElem, groupType: String) {
        let isAVChatRoom = groupType == Self.avChatRoom
        checkGroupID(tips.groupID, at: "groupId")
        checkDiscriminator(tips.type.isKnown, tips.type.rawValue, at: "type", what: "group tips type")
        checkUserID(tips.opUser, at: "opUser")
        checkUserIDs(tips.userList, at: "userList")
        checkCount(
            tips.groupName.utf8.count, against: limits.maxGroupNameBytes, .groupNameBytes, at: "groupName",
            what: "the group name")
        // Which fields a type carries is only known for the documented types.
        if tips.type.isKnown {
            if tips.memberCount != 0 && tips.type != .invite && tips.type != .quit && tips.type != .kicked {
                report(
                    .groupTipsMemberCountType, at: "memberCount",
                    "a member count on a \(tips.type) tip; only invite, quit and kicked tips carry one")
            }
            if !tips.groupChangeList.isEmpty && tips.type != .infoChange {
                report(
                    .groupTipsGroupChangeListType, at: "groupChangeList",
                    "group changes on a \(tips.type) tip; only info-change tips carry them")
            }
            if !tips.memberChangeList.isEmpty && tips.type != .memberInfoChange {
                report(
                    .groupTipsMemberChangeListType, at: "memberChangeList",
                    "member changes on a \(tips.type) tip; only member-info-change tips carry them")
            }
            if !tips.userList.isEmpty
                && !(GroupTipsType.invite.rawValue...GroupTipsType.cancelAdmin.rawValue)
                    .contains(tips.type.rawValue)
            {
                report(
                    .groupTipsUserListType, at: "userList",
                    "a user list on a \(tips.type) tip; only invite, quit, kicked, set-admin and cancel-admin tips carry one"
                )
            }
        }
        if isAVChatRoom && (tips.type == .setAdmin || tips.type == .cancelAdmin) {
            report(
                .avChatRoomRoleChange, at: "type",
                "a \(tips.type) tip in an AVChatRoom group, which has no roles to change")
        }
        if let limit = limits.maxGroupMembers[groupType] {
            checkCount(
                Int(tips.memberCount), against: limit, .groupMembers, at: "memberCount",
                what: "the group's member count", unit: "members")
        }

        push("groupChangeList")
        var customFields = 0
        for (index, change) in tips.groupChangeList.enumerated() {
            push(index: index)
            visit(groupChange: change)
            if isAVChatRoom && change.type == .owner {
                report(
                    .avChatRoomOwnerTransfer, at: "type",
                    "an owner change in an AVChatRoom group, whose ownership stays")
            }
            pop()
            if change.type == .custom { customFields += 1 }
        }
        checkCount(
            customFields, against: limits.maxGroupCustomFields, .groupCustomFields, what: "the custom field changes",
            unit: "entries")
        pop()

        push("memberChangeList")
        for (index, change) in tips.memberChangeList.enumerated() {
            push(index: index)
            checkUserID(change.identifier, at: "identifier")
            pop()
        }
        pop()

        if let profile = tips.opUserInfo {
            push("opUserInfo")
            visit(profile: profile)
            pop()
        }
        if let member = tips.opGroupMemberInfo {
            push("opGroupMemberInfo")
            visit(member: member)
            pop()
        }
        push("changedUserInfo")
        var seen = Set<[UInt8]>()
        for (index, entry) in tips.changedUserInfo.enumerated() {
            push(index: index)
            checkUserID(entry.identifier, at: "identifier")
            checkUnique(entry.identifier, in: &seen)
            if let profile = entry.profile {
                push("profile")
                visit(profile: profile)
                pop()
            }
            pop()
        }
        pop()
        push("changedGroupMemberInfo")
        seen.removeAll()
        for (index, entry) in tips.changedGroupMemberInfo.enumerated() {
            push(index: index)
            checkUserID(entry.identifier, at: "identifier")
            checkUnique(entry.identifier, in: &seen)
            if let member = entry.info {
                push("info")
                visit(member: member)
                if member.role == .owner && tips.type == .memberInfoChange {
                    report(
                        .groupTipsOwnerRole, at: "role",
                        "a member-info change makes \(entry.identifier) the owner; ownership moves by transfer")
                }
                pop()
            }
            pop()
        }
        pop()
        checkPlatform(tips.platform, at: "platform")
    }

    /// G18: a dictionary key of `changedUserInfo` or `changedGroupMemberInfo`
    /// that an earlier entry of the same list already has.
    /// Compares UTF-8 bytes, as the SDK's NSString keys compare code units,
    /// not canonically equivalent text.
    private mutating func checkUnique(_ identifier: String, in seen: inout Set<[UInt8]>) {
        if !seen.insert(Array(identifier.utf8)).inserted {
            report(
                .groupTipsDuplicateIdentifier, at: "identifier",
                "user ID \(identifier) appears twice; the SDK keeps these entries in a dictionary")
        }
    }

    /// G3–G6, G10, G15, F8: one group change; its value obeys the limit of
    /// the group field it changes.
    private mutating func visit(groupChange change: GroupChangeInfo) {
        checkDiscriminator(change.type.isKnown, change.type.rawValue, at: "type", what: "group change type")
        let valueBytes = change.value.utf8.count
        switch change.type {
        case .name:
            if change.value.isEmpty {
                report(.groupChangeValueMissing, at: "value", "a name change without a name")
            }
            checkCount(
                valueBytes, against: limits.maxGroupNameBytes, .groupNameBytes, at: "value", what: "the group name")
        case .introduction:
            checkCount(
                valueBytes, against: limits.maxGroupIntroductionBytes, .groupIntroductionBytes, at: "value",
                what: "the group introduction")
        case .notification:
            checkCount(
                valueBytes, against: limits.maxGroupNotificationBytes, .groupNotificationBytes, at: "value",
                what: "the group notification")
        case .faceUrl:
            checkCount(
                valueBytes, against: limits.maxGroupFaceURLBytes, .groupFaceURLBytes, at: "value",
                what: "the group face URL")
        case .owner:
            if change.value.isEmpty {
                report(.groupChangeValueMissing, at: "value", "an owner change without an owner")
            }
            checkUserID(change.value, at: "value")
        case .custom:
            if change.key.isEmpty {
                report(.groupChangeKeyMissing, at: "key", "a custom field change without a key")
            }
            checkCount(
                change.key.utf8.count, against: limits.maxGroupCustomKeyBytes, .groupCustomKeyBytes, at: "key",
                what: "the custom field key")
            checkCount(
                valueBytes, against: limits.maxGroupCustomValueBytes, .groupCustomValueBytes, at: "value",
                what: "the custom field value")
        default:
            break
        }
        if change.type != .custom && change.type.isKnown && !change.key.isEmpty {
            report(.groupChangeKeyType, at: "key", "a key on a \(change.type) change; only custom changes name one")
        }
    }

    /// G11–G14, G20, G21: a group system elem at the current position.
    ///
    /// - Parameters:
    ///   - system: The elem.
    ///   - groupType: The group type of the message that holds it, which sets
    ///     the operations the group has.
    mutating func visit(groupSystem system: GroupSystemElem, groupType: String) {
        checkDiscriminator(system.type.isKnown, system.type.rawValue, at: "type", what: "group system type")
        if groupType == Self.avChatRoom {
            switch system.type {
            case .grantAdmin, .cancelAdmin:
                report(
                    .avChatRoomRoleChange, at: "type",
                    "a \(system.type) notice in an AVChatRoom group, which has no roles to change")
            case .invitedToGroup, .inviteToGroupRequest, .inviteToGroupAccept, .inviteToGroupRefuse:
                report(
                    .avChatRoomMemberAddition, at: "type",
                    "a \(system.type) notice in an AVChatRoom group, which does not add members")
            default:
                break
            }
        }
        if groupType == Self.privateGroup {
            switch system.type {
            case .addGroupRequest, .addGroupAccept, .addGroupRefuse:
                report(
                    .privateGroupJoinRequest, at: "type",
                    "a \(system.type) notice in a Private group, which users join only by invitation")
            default:
                break
            }
        }
        checkGroupID(system.groupID, at: "groupId")
        checkUserID(system.user, at: "user")
        if !system.userData.isEmpty && system.type != .customInfo {
            report(
                .groupSystemUserDataType, at: "userData",
                "user data on a \(system.type) notice; only custom (0xff) notices carry it")
        }
        if let profile = system.opUserInfo {
            push("opUserInfo")
            visit(profile: profile)
            pop()
        }
        if let member = system.opGroupMemberInfo {
            push("opGroupMemberInfo")
            visit(member: member)
            pop()
        }
        checkPlatform(system.platform, at: "platform")
    }

    /// The group type whose operations G20 restricts (the live-streaming
    /// group).
    static let avChatRoom = "AVChatRoom"

    /// The group type users join only by invitation (G21).
    static let privateGroup = "Private"

    /// G7, G16, F8: a group member's info at the current position.
    mutating func visit(member: GroupMemberInfo) {
        checkUserID(member.member, at: "member")
        checkCount(
            member.nameCard.utf8.count, against: limits.maxNameCardBytes, .groupNameCardBytes, at: "nameCard",
            what: "the name card")
        checkEnum(member.role.isKnown, member.role.rawValue, at: "role", what: "member role")
        checkCount(
            member.customInfo.count, against: limits.maxMemberCustomFields, .memberCustomFields, at: "customInfo",
            what: "the member's custom fields", unit: "entries")
        guard let limit = limits.maxMemberCustomValueBytes else { return }
        push("customInfo")
        for (index, entry) in member.customInfo.enumerated() {
            guard entry.data.count > limit else { continue }
            push(index: index)
            checkCount(
                entry.data.count, against: limit, .memberCustomValueBytes, at: "data", what: "the custom field value")
            pop()
        }
        pop()
    }
}
