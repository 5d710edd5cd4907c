import IMCodec

extension ValidationRun {
    /// M21: validates a batch: each message with its index, then whether a
    /// history page or an offline sync may hold it at all.
    mutating func validate(batch: MessageBatch) {
        for (index, message) in batch.messages.enumerated() {
            validate(batchMessage: message, at: index)
        }
    }

    /// M21 and the message rules: validates the message at `index` of a
    /// batch, at `messages[index]`; a batch's findings are those of its
    /// messages in order, so a reader may validate them one at a time.
    mutating func validate(batchMessage message: Message, at index: Int) {
        let node = makeNode(parent: 0, .batchMessage(index))
        validate(message: message, at: node)
        moveTo(node: node)
        if message.groupType == Self.avChatRoom {
            report(.batchAVChatRoom, at: "groupType", "an AVChatRoom message, which is never stored or roamed")
        }
        if message.onlineUserOnly {
            report(.batchOnlineOnly, at: "onlineUserOnly", "an online-only message, which is never stored or roamed")
        }
    }

    /// C1–C6: validates an event; a modification's message is validated as a
    /// message, a read-member page's members as group members, a
    /// conversation's last message as a message. The
    /// relationship-chain and group kinds are validated by
    /// ``validateRelationship(_:)`` and ``validateGroupManagement(_:)``.
    mutating func validate(event: Event) {
        guard let kind = event.kind else {
            report(.unknownKind, "the event has no kind this schema knows")
            return
        }
        switch kind {
        case .readReceipt(let receipts):
            push("readReceipt")
            push("receipts")
            for (index, receipt) in receipts.receipts.enumerated() {
                push(index: index)
                visit(receipt: receipt)
                pop()
            }
            pop(2)
        case .recall(let recall):
            push("recall")
            if recall.msgID.isEmpty {
                report(.recallMsgIDMissing, at: "msgId", "a recall that names no message")
            }
            pop()
        case .modification(let modification):
            if let message = modification.message {
                validate(message: message, at: makeNode(parent: 0, .modificationMessage))
            } else {
                push("modification")
                report(.modificationMessageMissing, at: "message", "a modification without the modified message")
                pop()
            }
        case .connection(let connection):
            push("connection")
            visit(connection: connection)
            pop()
        case .userStatus(let status):
            push("userStatus")
            visit(userStatus: status)
            pop()
        case .readMembers(let page):
            push("readMembers")
            push("members")
            for (index, member) in page.members.enumerated() {
                push(index: index)
                visit(member: member)
                pop()
            }
            pop()
            checkEnum(page.filter.isKnown, page.filter.rawValue, at: "filter", what: "read-member filter")
            pop()
        case .conversations(let list):
            for (index, conversation) in list.conversations.enumerated() {
                // Each conversation starts from the root: a last message
                // moves the position to its own node.
                moveTo(node: 0)
                push("conversations")
                push("conversations")
                push(index: index)
                visit(conversation: conversation)
                if let message = conversation.lastMessage {
                    validate(message: message, at: makeNode(parent: 0, .conversationLastMessage(index)))
                }
            }
            moveTo(node: 0)
        case .friendList, .friendRequest, .friendResponse, .friendResults, .friendCheck, .friendPendency,
            .friendGroups, .blacklist, .friendDelete, .friendsAdded, .friendsDeleted, .friendProfilesUpdated,
            .friendPendencyAdded, .friendPendencyDeleted, .friendPendencyRead, .blacklistAdded, .blacklistDeleted:
            validateRelationship(kind)
        case .groupProfiles, .createGroup, .groupMembers, .groupMemberResults, .groupPendency:
            validateGroupManagement(kind)
        }
    }

    /// G1, G14, F8: one conversation's own fields (its last message is
    /// validated by the caller, as a message).
    private mutating func visit(conversation: Conversation) {
        checkDiscriminator(conversation.type.isKnown, conversation.type.rawValue, at: "type", what: "conversation type")
        checkUserID(conversation.userID, at: "userId")
        checkGroupID(conversation.groupID, at: "groupId")
        checkGroupType(conversation.groupType, at: "groupType")
        push("groupAtInfoList")
        for (index, info) in conversation.groupAtInfoList.enumerated() {
            push(index: index)
            checkEnum(info.atType.isKnown, info.atType.rawValue, at: "atType", what: "@ type")
            pop()
        }
        pop()
        checkEnum(conversation.recvOpt.isKnown, conversation.recvOpt.rawValue, at: "recvOpt", what: "receive option")
    }

    /// C4, F8, G14: one read receipt. One-to-one receipts name a user and may
    /// carry the peer-read flag; group receipts name a group and may carry
    /// the read and unread counts.
    private mutating func visit(receipt: MessageReceipt) {
        let isOneToOne = !receipt.userID.isEmpty
        let isGroup = !receipt.groupID.isEmpty
        switch (isOneToOne, isGroup) {
        case (false, false):
            report(.receiptTargetMissing, "the receipt names neither a user nor a group")
        case (true, true):
            report(.receiptTargetAmbiguous, "the receipt names both a user and a group")
        case (false, true):
            if receipt.isPeerRead {
                report(.receiptPeerReadOnGroup, at: "isPeerRead", "the one-to-one peer-read flag on a group receipt")
            }
        case (true, false):
            if receipt.readCount != 0 {
                report(.receiptCountsOnOneToOne, at: "readCount", "a group read count on a one-to-one receipt")
            }
            if receipt.unreadCount != 0 {
                report(.receiptCountsOnOneToOne, at: "unreadCount", "a group unread count on a one-to-one receipt")
            }
        }
        checkUserID(receipt.userID, at: "userId")
        checkGroupID(receipt.groupID, at: "groupId")
    }

    /// C1, C3, C6: the state and RongCloud status are documented values (an
    /// event that carries a RongCloud status may leave the state unset), the
    /// error code is a documented one, and only failed and disconnected
    /// events carry an error code and text.
    private mutating func visit(connection: ConnectionEvent) {
        if let status = connection.rongCloudStatus {
            if connection.state.rawValue != 0 {
                checkDiscriminator(
                    connection.state.isKnown, connection.state.rawValue, at: "state", what: "connection state")
            }
            push("rongCloudStatus")
            checkEnum(status.code.isKnown, status.code.rawValue, at: "code", what: "RongCloud connection status")
            pop()
        } else {
            checkDiscriminator(
                connection.state.isKnown, connection.state.rawValue, at: "state", what: "connection state")
        }
        checkDocumentedCode(connection.code)
        guard connection.state == .connected || connection.state == .connecting else { return }
        if connection.code != 0 {
            report(
                .connectionCodeState, at: "code", actual: Int64(connection.code),
                "an error code on a \(connection.state) event; only failed and disconnected events carry one")
        }
        if !connection.text.isEmpty {
            report(
                .connectionCodeState, at: "text",
                "an error text on a \(connection.state) event; only failed and disconnected events carry one")
        }
    }

    /// C6: an error code is 0 or one ``ImErrorCode`` names.
    private mutating func checkDocumentedCode(_ code: Int32) {
        guard !ImErrorCode(rawValue: code).isKnown else { return }
        report(
            .undocumentedCode, at: "code", actual: Int64(code),
            "error code \(code) is not one the documents name (ImErrorCode)")
    }

    /// C2, C6: the type is a documented value, the error code a documented
    /// one, and only reconnect-failed events carry an error code and text.
    private mutating func visit(userStatus status: UserStatusEvent) {
        checkDiscriminator(status.type.isKnown, status.type.rawValue, at: "type", what: "user status type")
        checkDocumentedCode(status.code)
        guard status.type == .forcedOffline || status.type == .userSigExpired else { return }
        if status.code != 0 {
            report(
                .userStatusCodeType, at: "code", actual: Int64(status.code),
                "an error code on a \(status.type) event; only reconnect-failed events carry one")
        }
        if !status.text.isEmpty {
            report(
                .userStatusCodeType, at: "text",
                "an error text on a \(status.type) event; only reconnect-failed events carry one")
        }
    }
}
