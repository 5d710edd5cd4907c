import IMCodec

extension ValidationRun {
    /// Validates `message` and every message nested in its mergers.
    ///
    /// - Parameters:
    ///   - message: The message.
    ///   - node: Its position: the root, or a node made by
    ///     ``makeNode(parent:_:)``.
    mutating func validate(message: Message, at node: Int) {
        visit(message, node: node, layer: 0, isInMergerList: false)
        while var list = pending.popLast() {
            let index = list.next
            list.next += 1
            let messageNode = makeNode(parent: list.parent, .mergerMessage(elem: list.elem, message: index))
            if list.next < list.messages.count {
                pending.append(list)
            }
            let message =
                forwarded?(ForwardedPlace(parent: list.parent, elem: list.elem, index: index, node: messageNode))
                ?? list.messages[index]
            visit(message, node: messageNode, layer: list.layer, isInMergerList: true)
        }
    }

    /// Checks one message and its elems, and queues the message lists of its
    /// mergers so they are visited next, in order.
    ///
    /// - Parameters:
    ///   - message: The message.
    ///   - node: Its position.
    ///   - layer: Its merger layer: 0 for a top-level message.
    ///   - isInMergerList: Whether it is an entry of a merger's message list.
    private mutating func visit(_ message: Message, node: Int, layer: Int, isInMergerList: Bool) {
        moveTo(node: node)
        let isGroupMessage = !message.groupID.isEmpty

        checkTarget(of: message)
        checkUserID(message.sender, at: "sender")
        checkUserID(message.receiver, at: "receiver")
        checkGroupID(message.groupID, at: "groupId")
        if !message.groupType.isEmpty, let types = limits.groupTypes, !types.contains(message.groupType) {
            report(.unknownGroupType, at: "groupType", "group type \"\(message.groupType)\" is not a documented one")
        }
        checkEnum(message.priority.isKnown, message.priority.rawValue, at: "priority", what: "priority")
        if !message.atUserList.isEmpty {
            checkAtList(of: message, isGroupMessage: isGroupMessage)
        }
        checkAtType(of: message)
        if !message.targetedReceivers.isEmpty {
            checkTargetedReceivers(of: message, isGroupMessage: isGroupMessage)
        }

        if message.elems.isEmpty {
            report(.messageElemsMissing, at: "elems", "the message holds no elem")
        }

        let customElemCount = limits.maxCustomElems == nil ? 0 : message.elems.count(where: { $0.isCustom })
        var customElemsSeen = 0
        var bodyBytes = 0
        let firstList = pending.count
        push("elems")
        for (index, elem) in message.elems.enumerated() {
            push(index: index)
            if isInMergerList, case .groupTips = elem.kind {
                report(.mergerContainsGroupTips, "a message in a merger's list holds group tips")
            }
            if !message.receiver.isEmpty, case .groupTips = elem.kind {
                report(.groupTipsOneToOne, at: "groupTips", "a one-to-one message holds group tips")
            }
            if elem.isCustom, let limit = limits.maxCustomElems {
                customElemsSeen += 1
                if customElemsSeen == limit + 1 {
                    report(
                        .messageCustomElems, limit: Int64(limit), actual: Int64(customElemCount),
                        "the message holds \(customElemCount) custom elems, above \(limit)")
                }
            }
            visit(elem: elem, at: index, in: message, node: node, layer: layer)
            if limits.maxMessageBodyBytes != nil {
                bodyBytes += Self.bodyBytes(of: elem)
            }
            pop()
        }
        pop()
        checkCount(bodyBytes, against: limits.maxMessageBodyBytes, .messageBodyBytes, at: "elems", what: "message body")
        // The lists were queued in elem order; the first must be visited first.
        pending[firstList...].reverse()
    }

    /// M12: a one-to-one message names a receiver, a group message a group.
    private mutating func checkTarget(of message: Message) {
        switch (message.receiver.isEmpty, message.groupID.isEmpty) {
        case (true, true):
            report(.messageTargetMissing, "the message names neither a receiver nor a group")
        case (false, false):
            report(.messageTargetAmbiguous, "the message names both a receiver and a group")
        default:
            break
        }
    }

    /// M10: @ lists only on group messages, and only with text elems.
    private mutating func checkAtList(of message: Message, isGroupMessage: Bool) {
        if !isGroupMessage {
            report(.atNotGroupMessage, at: "atUserList", "an @ user list on a message that is not a group message")
        }
        if message.elems.isEmpty {
            report(.atTextOnly, at: "elems", "an @ message without a text elem")
        }
        push("elems")
        for (index, elem) in message.elems.enumerated() {
            if case .text = elem.kind { continue }
            push(index: index)
            report(.atTextOnly, "an @ message holds an elem that is not text")
            pop()
        }
        pop()
        checkUserIDs(message.atUserList, at: "atUserList")
    }

    /// M16, M20: the @ type is a documented value that follows from the @
    /// user list: @ all needs the @-all user ID, @ me another user ID, and
    /// @ me alone excludes the @-all user ID (the SDK then reports @ all and
    /// me).
    private mutating func checkAtType(of message: Message) {
        let type = message.atType
        checkEnum(type.isKnown, type.rawValue, at: "atType", what: "@ type")
        let mentionsAll = message.mentionsAllMembers
        let mentionsUser = message.atUserList.contains { !Message.isAtAllUserID($0) }
        let follows: Bool
        switch type {
        case .atMe: follows = mentionsUser && !mentionsAll
        case .atAll: follows = mentionsAll
        case .atAllAtMe: follows = mentionsAll && mentionsUser
        default: return
        }
        if !follows {
            report(
                .atTypeMismatch, at: "atType",
                "an @ type of \(type) does not follow from the @ user list of \(message.atUserList.count) entries")
        }
    }

    /// M11: targeted receivers only on group messages, never with @, never
    /// for AVChatRoom or Community groups.
    private mutating func checkTargetedReceivers(of message: Message, isGroupMessage: Bool) {
        if !isGroupMessage {
            report(
                .targetedNotGroupMessage, at: "targetedReceivers",
                "targeted receivers on a message that is not a group message")
        }
        if !message.atUserList.isEmpty {
            report(.targetedWithAt, at: "targetedReceivers", "a targeted group message is also an @ message")
        }
        if message.groupType == "AVChatRoom" || message.groupType == "Community" {
            report(
                .targetedGroupType, at: "targetedReceivers",
                "targeted group messages are not available for \(message.groupType) groups")
        }
        checkUserIDs(message.targetedReceivers, at: "targetedReceivers")
    }

    /// The bytes `elem` adds to its message's canonical encoding as an entry
    /// of `elems` (field 18: a 2-byte tag, the length, the elem), where a
    /// merger counts without its nested messages.
    static func bodyBytes(of elem: Elem) -> Int {
        let size: Int
        if case .merger(var merger) = elem.kind, !merger.messages.isEmpty {
            merger.messages = []
            var stripped = elem
            stripped.kind = .merger(merger)
            size = stripped.serializedSize
        } else {
            size = elem.serializedSize
        }
        return 2 + WireFormat.lengthDelimitedSize(size)
    }
}

extension Elem {
    /// Whether this is a custom elem.
    var isCustom: Bool {
        if case .custom = kind { return true }
        return false
    }
}
