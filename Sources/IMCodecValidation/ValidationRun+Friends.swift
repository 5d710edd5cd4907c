import IMCodec

extension ValidationRun {
    /// F1–F3, F7–F9: a relationship-chain event kind at the root.
    ///
    /// - Parameter kind: The event's kind; kinds that are not about the
    ///   relationship chain are ignored.
    mutating func validateRelationship(_ kind: Event.Kind) {
        switch kind {
        case .friendList(let list):
            visitFriends(list.friends, at: "friendList")
        case .blacklist(let list):
            visitFriends(list.friends, at: "blacklist")
        case .friendRequest(let request):
            push("friendRequest")
            checkUserID(request.identifier, at: "identifier")
            checkRemark(request.remark, at: "remark")
            checkWording(request.addWording, at: "addWording")
            checkAddSource(request.addSource, at: "addSource")
            pop()
        case .friendResponse(let response):
            push("friendResponse")
            checkEnum(
                response.responseType.isKnown, response.responseType.rawValue, at: "responseType",
                what: "friend response type")
            checkUserID(response.identifier, at: "identifier")
            checkRemark(response.remark, at: "remark")
            if response.responseType == .reject && !response.remark.isEmpty {
                report(
                    .friendResponseRemarkOnReject, at: "remark",
                    "a rejection carries a remark; a remark goes with adding the requester as a friend")
            }
            pop()
        case .friendResults(let results):
            push("friendResults")
            push("results")
            for (index, result) in results.results.enumerated() {
                push(index: index)
                checkUserID(result.identifier, at: "identifier")
                checkEnum(
                    result.resultCode.isKnown, result.resultCode.rawValue, at: "resultCode",
                    what: "friendship status code")
                pop()
            }
            pop(2)
        case .friendCheck(let check):
            push("friendCheck")
            visit(friendCheck: check)
            pop()
        case .friendPendency(let page):
            push("friendPendency")
            visit(friendPendency: page)
            pop()
        case .friendDelete(let request):
            push("friendDelete")
            checkUserIDs(request.users, at: "users")
            checkEnum(
                request.deleteType.isKnown, request.deleteType.rawValue, at: "deleteType", what: "friend delete type")
            pop()
        case .friendsAdded(let list):
            checkUserIDs(list.users, in: "friendsAdded")
        case .friendsDeleted(let list):
            checkUserIDs(list.users, in: "friendsDeleted")
        case .friendPendencyDeleted(let list):
            checkUserIDs(list.users, in: "friendPendencyDeleted")
        case .blacklistAdded(let list):
            checkUserIDs(list.users, in: "blacklistAdded")
        case .blacklistDeleted(let list):
            checkUserIDs(list.users, in: "blacklistDeleted")
        case .friendProfilesUpdated(let update):
            visitFriends(update.friends, at: "friendProfilesUpdated")
        case .friendPendencyAdded(let added):
            push("friendPendencyAdded")
            visit(pendencyItems: added.items)
            pop()
        case .friendGroups(let groups):
            push("friendGroups")
            push("groups")
            for (index, group) in groups.groups.enumerated() {
                push(index: index)
                checkUserIDs(group.friends, at: "friends")
                pop()
            }
            pop(2)
        default:
            break
        }
    }

    /// F8: the users of a relationship-chain notification, at `field.users`.
    private mutating func checkUserIDs(_ users: [String], in field: StaticString) {
        push(field)
        checkUserIDs(users, at: "users")
        pop()
    }

    /// F1–F3, F7, F8, F11: the entries of a friend list or the blacklist.
    private mutating func visitFriends(_ friends: [Friend], at field: StaticString) {
        push(field)
        push("friends")
        for (index, friend) in friends.enumerated() {
            push(index: index)
            checkUserID(friend.identifier, at: "identifier")
            checkRemark(friend.remark, at: "remark")
            checkWording(friend.addWording, at: "addWording")
            checkAddSource(friend.addSource, at: "addSource")
            if let prefix = limits.friendCustomKeyPrefix {
                push("customInfo")
                for (entryIndex, entry) in friend.customInfo.enumerated()
                where !entry.key.utf8.starts(with: prefix.utf8) {
                    push(index: entryIndex)
                    report(.friendCustomKeyFormat, at: "key", "the custom field key does not start with \"\(prefix)\"")
                    pop()
                }
                pop()
            }
            if let profile = friend.profile {
                push("profile")
                visit(profile: profile)
                pop()
            }
            pop()
        }
        pop(2)
    }

    /// F8, F9: a relationship check's question and its per-user results.
    private mutating func visit(friendCheck check: FriendCheck) {
        if let info = check.info {
            push("info")
            checkUserIDs(info.users, at: "users")
            checkEnum(info.checkType.isKnown, info.checkType.rawValue, at: "checkType", what: "friend check type")
            pop()
        }
        push("results")
        for (index, result) in check.results.enumerated() {
            push(index: index)
            checkUserID(result.identifier, at: "identifier")
            checkEnum(
                result.resultCode.isKnown, result.resultCode.rawValue, at: "resultCode", what: "friendship status code")
            checkEnum(
                result.resultType.isKnown, result.resultType.rawValue, at: "resultType", what: "friend relation type")
            pop()
        }
        pop()
    }

    /// F2, F3, F7, F8: a pendency page's request type and its items.
    private mutating func visit(friendPendency page: FriendPendencyPage) {
        if let request = page.request {
            push("request")
            checkEnum(request.type.isKnown, request.type.rawValue, at: "type", what: "pendency type")
            pop()
        }
        visit(pendencyItems: page.items)
    }

    /// F2, F3, F7, F8: pending add-friend requests, at `items`.
    private mutating func visit(pendencyItems items: [FriendPendencyItem]) {
        push("items")
        for (index, item) in items.enumerated() {
            push(index: index)
            checkUserID(item.identifier, at: "identifier")
            checkAddSource(item.addSource, at: "addSource")
            checkWording(item.addWording, at: "addWording")
            checkProfileBytes(item.nickname.utf8.count, at: "nickname")
            checkEnum(item.type.isKnown, item.type.rawValue, at: "type", what: "pendency type")
            pop()
        }
        pop()
    }

    /// F1: a friend remark's length.
    private mutating func checkRemark(_ remark: String, at field: StaticString) {
        checkCount(
            remark.utf8.count, against: limits.maxFriendRemarkBytes, .friendRemarkBytes, at: field,
            what: "the friend remark")
    }

    /// F2: an add-friend wording's length.
    private mutating func checkWording(_ wording: String, at field: StaticString) {
        checkCount(
            wording.utf8.count, against: limits.maxFriendWordingBytes, .snsWordingBytes, at: field, what: "the wording")
    }
}
