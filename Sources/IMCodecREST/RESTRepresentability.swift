import IMCodec

/// Finds the first part of a model value that the REST form cannot hold
/// (docs/spec/rest.md, "Export"), in field-number order, depth first.
///
/// Forwarded messages wait on a heap stack instead of being checked by
/// recursion, so a deep merger costs no stack.
enum RESTRepresentability {
    /// A check still to make, in a stack whose last check comes next.
    private enum Step {
        /// A message's fields, then its elems.
        case message(Message, path: FieldPath)
        /// What follows a message's elems: `is_self` (field 19), `at_type`
        /// (field 22) and its unknown fields.
        case messageEnd(Message, path: FieldPath)
        /// One elem.
        case elem(Elem, path: FieldPath)
        /// What follows a merger's messages: the rest of the merger and of
        /// its elem.
        case mergerEnd(MergerElem, elem: UnknownFields, path: FieldPath)
    }

    static func check(_ batch: MessageBatch) throws(IMCodecError) {
        try run(
            batch.messages.enumerated().map { .message($0.element, path: [.field("messages"), .index($0.offset)]) })
        try unknown(batch.unknownFields, at: FieldPath())
    }

    static func check(_ message: Message, at path: FieldPath) throws(IMCodecError) {
        try run([.message(message, path: path)])
    }

    private static func run(_ steps: [Step]) throws(IMCodecError) {
        var stack = Array(steps.reversed())
        while let step = stack.popLast() {
            switch step {
            case .message(let message, let path):
                try fields(of: message, at: path)
                stack.append(.messageEnd(message, path: path))
                for (index, elem) in message.elems.enumerated().reversed() {
                    stack.append(.elem(elem, path: join(path, .field("elems"), .index(index))))
                }
            case .messageEnd(let message, let path):
                if message.isSelf {
                    throw unrepresentable(join(path, .field("isSelf")), "REST message bodies carry no isSelf flag")
                }
                if message.atType.rawValue != 0 {
                    throw unrepresentable(join(path, .field("atType")), "REST message bodies carry no @ type")
                }
                try unknown(message.unknownFields, at: path)
            case .elem(let elem, let path):
                if case .merger(let merger)? = elem.kind {
                    let mergerPath = join(path, .field("merger"))
                    stack.append(.mergerEnd(merger, elem: elem.unknownFields, path: path))
                    for (index, message) in merger.messages.enumerated().reversed() {
                        stack.append(.message(message, path: join(mergerPath, .field("messages"), .index(index))))
                    }
                } else {
                    try check(elem, at: path)
                }
            case .mergerEnd(let merger, let elemFields, let path):
                let mergerPath = join(path, .field("merger"))
                if merger.layersOverLimit {
                    throw unrepresentable(
                        join(mergerPath, .field("layersOverLimit")), "REST relay elements have no layersOverLimit")
                }
                // Only a relay written with JsonMsgKey (a key and no
                // messages) has a MsgNum of its own; with MsgList, even an
                // empty one, MsgNum is its length.
                let writtenWithList = merger.jsonMsgKey.isEmpty || !merger.messages.isEmpty
                if merger.msgNum != 0 && writtenWithList && Int(merger.msgNum) != merger.messages.count {
                    throw unrepresentable(
                        join(mergerPath, .field("msgNum")), "MsgNum must equal the number of messages in MsgList")
                }
                if !merger.jsonMsgKey.isEmpty && !merger.messages.isEmpty {
                    throw unrepresentable(
                        join(mergerPath, .field("jsonMsgKey")),
                        "a REST relay element has MsgList or JsonMsgKey, not both")
                }
                try unknown(merger.unknownFields, at: mergerPath)
                try unknown(elemFields, at: path)
            }
        }
    }

    /// A message's fields before its elems (numbers 1 to 17).
    private static func fields(of message: Message, at path: FieldPath) throws(IMCodecError) {
        func field(_ names: String...) -> FieldPath { path.appending(FieldPath(names.map { .field($0) })) }
        if !message.msgID.isEmpty { throw unrepresentable(field("msgId"), "REST messages have no message ID") }
        if !message.groupType.isEmpty { throw unrepresentable(field("groupType"), "REST messages have no group type") }
        if !(0...Int64(UInt32.max)).contains(message.timestamp) {
            throw unrepresentable(field("timestamp"), "MsgTimeStamp is 0...4294967295, not \(message.timestamp)")
        }
        if message.seq > UInt64(UInt32.max) {
            throw unrepresentable(field("seq"), "MsgSeq is 0...4294967295, not \(message.seq)")
        }
        if message.priority.rawValue != 0 {
            throw unrepresentable(field("priority"), "REST message bodies carry no priority")
        }
        let flags = [
            ("needReadReceipt", message.needReadReceipt), ("excludedFromUnreadCount", message.excludedFromUnreadCount),
            ("excludedFromLastMessage", message.excludedFromLastMessage), ("onlineUserOnly", message.onlineUserOnly),
        ]
        if let flag = flags.first(where: \.1) {
            throw unrepresentable(field(flag.0), "REST message bodies carry no \(flag.0) flag")
        }
        if !message.targetedReceivers.isEmpty {
            throw unrepresentable(field("targetedReceivers"), "REST message bodies carry no targeted receivers")
        }
        if !message.atUserList.isEmpty {
            throw unrepresentable(field("atUserList"), "REST message bodies carry no @ list")
        }
        if let push = message.offlinePushInfo {
            try unknown(push.unknownFields, at: field("offlinePushInfo"))
            if let android = push.android {
                try unknown(android.unknownFields, at: field("offlinePushInfo", "android"))
            }
            if let apns = push.apns { try unknown(apns.unknownFields, at: field("offlinePushInfo", "apns")) }
        }
        try utf8(message.cloudCustomData, at: field("cloudCustomData"))
    }

    private static func check(_ elem: Elem, at path: FieldPath) throws(IMCodecError) {
        if try !checkTable(elem.kind, at: path) {
            switch elem.kind {
            case .image(let image):
                for (index, level) in image.levels.enumerated() {
                    let levelPath = join(path, .field("image"), .field("levels"), .index(index))
                    if !(1...3).contains(level.type.rawValue) {
                        throw unrepresentable(join(levelPath, .field("type")), "REST image levels are Type 1, 2 or 3")
                    }
                    if !level.uuid.isEmpty {
                        throw unrepresentable(join(levelPath, .field("uuid")), "REST image levels have no UUID")
                    }
                    try unknown(level.unknownFields, at: levelPath)
                }
                try unknown(image.unknownFields, at: join(path, .field("image")))
            case .merger:
                preconditionFailure("mergers are checked by run(_:)")
            case .groupTips:
                throw unrepresentable(join(path, .field("groupTips")), "group tips are not a REST element type")
            case .groupSystem:
                throw unrepresentable(
                    join(path, .field("groupSystem")), "group system elems are not a REST element type")
            case .snsSystem:
                throw unrepresentable(
                    join(path, .field("snsSystem")), "relationship system elems are not a REST element type")
            case .profileSystem:
                throw unrepresentable(
                    join(path, .field("profileSystem")), "profile system elems are not a REST element type")
            case nil: throw unrepresentable(path, "an elem of no known kind has no REST element type")
            default:
                preconditionFailure("\(String(describing: elem.kind)) maps by its table (Generated/RESTTables.swift)")
            }
        }
        try unknown(elem.unknownFields, at: path)
    }

    static func finite(_ value: Double, at path: FieldPath) throws(IMCodecError) {
        guard value.isFinite else { throw unrepresentable(path, "JSON has no \(value)") }
    }

    static func utf8(_ data: [UInt8], at path: FieldPath) throws(IMCodecError) {
        guard String(validatingUTF8: data) != nil else {
            throw unrepresentable(path, "REST Data is a string; these bytes are not UTF-8")
        }
    }

    static func unknown(_ fields: UnknownFields, at path: FieldPath) throws(IMCodecError) {
        guard fields.isEmpty else {
            throw unrepresentable(path, "\(fields.bytes.count) bytes of unknown fields have no REST form")
        }
    }

    static func unrepresentable(_ path: FieldPath, _ reason: String) -> IMCodecError {
        IMCodecError(.restUnrepresentable, path: path, reason: reason)
    }

    static func join(_ path: FieldPath, _ components: FieldPath.Component...) -> FieldPath {
        path.appending(FieldPath(components))
    }
}
