import IMCodec

extension ValidationRun {
    /// G1–G7, G14–G16, F8: a group-management event kind at the root.
    ///
    /// - Parameter kind: The event's kind; kinds that are not about group
    ///   management are ignored.
    mutating func validateGroupManagement(_ kind: Event.Kind) {
        switch kind {
        case .groupProfiles(let list):
            for (index, group) in list.groups.enumerated() {
                // Each profile starts from the root: a last message moves the
                // position to its own node.
                moveTo(node: 0)
                push("groupProfiles")
                push("groups")
                push(index: index)
                visit(groupInfo: group)
                if let message = group.lastMsg {
                    validate(message: message, at: makeNode(parent: 0, .groupLastMessage(index)))
                }
            }
            moveTo(node: 0)
        case .createGroup(let info):
            push("createGroup")
            visit(createGroup: info)
            pop()
        case .groupMembers(let list):
            push("groupMembers")
            checkGroupID(list.groupID, at: "groupId")
            push("members")
            for (index, member) in list.members.enumerated() {
                push(index: index)
                visit(member: member)
                pop()
            }
            pop(2)
        case .groupMemberResults(let results):
            push("groupMemberResults")
            checkGroupID(results.groupID, at: "groupId")
            push("results")
            for (index, result) in results.results.enumerated() {
                push(index: index)
                checkUserID(result.member, at: "member")
                checkEnum(result.status.isKnown, result.status.rawValue, at: "status", what: "member operation status")
                pop()
            }
            pop(2)
        case .groupPendency(let page):
            push("groupPendency")
            push("items")
            for (index, item) in page.items.enumerated() {
                push(index: index)
                visit(groupPendency: item)
                pop()
            }
            pop(2)
        default:
            break
        }
    }

    /// G1–G6, G14, G15, F8: one group profile's own fields (its last message
    /// is validated by the caller, as a message).
    private mutating func visit(groupInfo group: GroupInfo) {
        checkGroupID(group.group, at: "group")
        checkCount(
            group.groupName.utf8.count, against: limits.maxGroupNameBytes, .groupNameBytes, at: "groupName",
            what: "the group name")
        checkUserID(group.owner, at: "owner")
        checkGroupType(group.groupType, at: "groupType")
        let typeLimit = group.groupType.isEmpty ? nil : limits.maxGroupMembers[group.groupType]
        checkCount(
            Int(group.maxMemberNum), against: typeLimit, .groupMembers, at: "maxMemberNum",
            what: "the group's maximum member count", unit: "members")
        if group.maxMemberNum != 0 && group.memberNum > group.maxMemberNum {
            report(
                .groupMemberNum, at: "memberNum", limit: Int64(group.maxMemberNum), actual: Int64(group.memberNum),
                "the group has \(group.memberNum) members, above its maximum of \(group.maxMemberNum)")
        }
        checkCount(
            Int(group.memberNum), against: typeLimit, .groupMembers, at: "memberNum",
            what: "the group's member count", unit: "members")
        if group.groupType == Self.avChatRoom && group.memberNum != 0 {
            report(
                .avChatRoomMemberNum, at: "memberNum", actual: Int64(group.memberNum),
                "an AVChatRoom profile with a member count of \(group.memberNum); live-streaming groups report none")
        }
        checkEnum(group.addOpt.isKnown, group.addOpt.rawValue, at: "addOpt", what: "add option")
        if group.groupType == Self.privateGroup && (group.addOpt == .auth || group.addOpt == .any) {
            report(
                .privateGroupAddOpt, at: "addOpt",
                "a Private group with add option \(group.addOpt); users join it only by invitation")
        }
        checkGroupTexts(
            notification: group.notification, introduction: group.introduction, faceURL: group.faceURL,
            notificationField: "notification", introductionField: "introduction", faceURLField: "faceUrl")
        checkEnum(group.isSearchable.isKnown, group.isSearchable.rawValue, at: "isSearchable", what: "searchable type")
        checkEnum(
            group.isMemberVisible.isKnown, group.isMemberVisible.rawValue, at: "isMemberVisible",
            what: "member visible type")
        if group.groupType == Self.avChatRoom && group.selfInfo != nil {
            report(
                .avChatRoomSelfInfo, at: "selfInfo",
                "an AVChatRoom profile with self info, which cannot be pulled there")
        }
        if let selfInfo = group.selfInfo {
            push("selfInfo")
            checkEnum(selfInfo.role.isKnown, selfInfo.role.rawValue, at: "role", what: "member role")
            checkEnum(selfInfo.recvOpt.isKnown, selfInfo.recvOpt.rawValue, at: "recvOpt", what: "receive option")
            pop()
        }
        checkGroupCustomInfo(group.customInfo)
    }

    /// G1–G6, G14 (with the reserved prefix), G15, G16, G20, G21, F8: the
    /// parameters of a group creation.
    private mutating func visit(createGroup info: CreateGroupInfo) {
        checkGroupID(info.group, at: "group")
        if let prefix = limits.reservedGroupIDPrefix, !prefix.isEmpty, info.group.utf8.starts(with: prefix.utf8) {
            report(
                .groupIDPrefix, at: "group",
                "a custom group ID starts with \"\(prefix)\", the prefix of server-assigned IDs")
        }
        checkCount(
            info.groupName.utf8.count, against: limits.maxGroupNameBytes, .groupNameBytes, at: "groupName",
            what: "the group name")
        checkGroupType(info.groupType, at: "groupType")
        if info.groupType == Self.privateGroup && info.setAddOpt {
            report(
                .privateGroupAddOpt, at: "setAddOpt",
                "a Private group created with setAddOpt; users join it only by invitation")
        }
        checkEnum(info.addOpt.isKnown, info.addOpt.rawValue, at: "addOpt", what: "add option")
        let typeLimit = info.groupType.isEmpty ? nil : limits.maxGroupMembers[info.groupType]
        checkCount(
            Int(info.maxMemberNum), against: typeLimit, .groupMembers, at: "maxMemberNum",
            what: "the group's maximum member count", unit: "members")
        checkGroupTexts(
            notification: info.notification, introduction: info.introduction, faceURL: info.faceURL,
            notificationField: "notification", introductionField: "introduction", faceURLField: "faceUrl")
        checkGroupCustomInfo(info.customInfo)
        if info.groupType == Self.avChatRoom && !info.membersInfo.isEmpty {
            report(
                .avChatRoomMemberAddition, at: "membersInfo", actual: Int64(info.membersInfo.count),
                "an AVChatRoom group created with \(info.membersInfo.count) members; it does not add members")
        }
        // The creator is added without being named, so the limit is the
        // type's member limit less one (docs/spec/validation.md).
        let initialLimit = info.groupType.isEmpty ? nil : limits.maxGroupInitialMembers[info.groupType]
        checkCount(
            info.membersInfo.count, against: initialLimit, .groupMembers, at: "membersInfo",
            what: "the initial members", unit: "members")
        push("membersInfo")
        for (index, member) in info.membersInfo.enumerated() {
            push(index: index)
            checkUserID(member.member, at: "member")
            checkEnum(member.role.isKnown, member.role.rawValue, at: "role", what: "member role")
            if member.role == .owner {
                report(
                    .createGroupOwnerRole, at: "role", "an initial member with the owner role; the creator is the owner"
                )
            }
            checkMemberCustomInfo(member.customInfo)
            pop()
        }
        pop()
    }

    /// G14, G22, F8: one application to join or invitation.
    private mutating func visit(groupPendency item: GroupPendencyItem) {
        checkGroupID(item.groupID, at: "groupId")
        checkUserID(item.fromUser, at: "fromUser")
        checkUserID(item.toUser, at: "toUser")
        switch item.getType {
        case .join where !item.toUser.isEmpty && item.toUser != "0":
            report(
                .groupPendencyToUserType, at: "toUser",
                "an application to join names a handler; its toUser is empty or 0")
        case .invite where item.toUser.isEmpty:
            report(.groupPendencyToUserMissing, at: "toUser", "an invitation that names no invitee")
        default:
            break
        }
        checkEnum(item.getType.isKnown, item.getType.rawValue, at: "getType", what: "pendency type")
        checkEnum(item.handleStatus.isKnown, item.handleStatus.rawValue, at: "handleStatus", what: "handle status")
        checkEnum(item.handleResult.isKnown, item.handleResult.rawValue, at: "handleResult", what: "handle result")
        checkUserID(item.selfIdentifier, at: "selfIdentifier")
    }

    /// G1: a group type from the documented list; empty is unset.
    mutating func checkGroupType(_ type: String, at field: StaticString) {
        guard !type.isEmpty, let types = limits.groupTypes, !types.contains(type) else { return }
        report(.unknownGroupType, at: field, "group type \"\(type)\" is not a documented one")
    }

    /// G4–G6: the notification, introduction and face URL of a group, in
    /// field order.
    private mutating func checkGroupTexts(
        notification: String, introduction: String, faceURL: String,
        notificationField: StaticString, introductionField: StaticString, faceURLField: StaticString
    ) {
        checkCount(
            notification.utf8.count, against: limits.maxGroupNotificationBytes, .groupNotificationBytes,
            at: notificationField, what: "the group notification")
        checkCount(
            introduction.utf8.count, against: limits.maxGroupIntroductionBytes, .groupIntroductionBytes,
            at: introductionField, what: "the group introduction")
        checkCount(
            faceURL.utf8.count, against: limits.maxGroupFaceURLBytes, .groupFaceURLBytes, at: faceURLField,
            what: "the group face URL")
    }

    /// G15: a group's custom fields: their number, then each key and value.
    private mutating func checkGroupCustomInfo(_ entries: [GroupCustomEntry]) {
        checkCount(
            entries.count, against: limits.maxGroupCustomFields, .groupCustomFields, at: "customInfo",
            what: "the group's custom fields", unit: "entries")
        push("customInfo")
        for (index, entry) in entries.enumerated() {
            push(index: index)
            checkCount(
                entry.key.utf8.count, against: limits.maxGroupCustomKeyBytes, .groupCustomKeyBytes, at: "key",
                what: "the custom field key")
            checkCount(
                entry.data.count, against: limits.maxGroupCustomValueBytes, .groupCustomValueBytes, at: "data",
                what: "the custom field value")
            pop()
        }
        pop()
    }

    /// G16: a member's custom fields at creation: their number, then each
    /// value.
    private mutating func checkMemberCustomInfo(_ entries: [MemberCustomEntry]) {
        checkCount(
            entries.count, against: limits.maxMemberCustomFields, .memberCustomFields, at: "customInfo",
            what: "the member's custom fields", unit: "entries")
        guard let limit = limits.maxMemberCustomValueBytes else { return }
        push("customInfo")
        for (index, entry) in entries.enumerated() where entry.data.count > limit {
            push(index: index)
            checkCount(
                entry.data.count, against: limit, .memberCustomValueBytes, at: "data", what: "the custom field value")
            pop()
        }
        pop()
    }
}
