/// One walk over a REST document: builds the model and collects every
/// problem, in document order (docs/REST.md, "Strictness").
///
/// A problem does not stop the walk: the member is skipped and the walk goes
/// on, so a validation run reports everything at once. The model built
/// alongside is complete only when ``problems`` is empty.
final class RESTReader {
    let limits: DecodingLimits
    private(set) var problems: [IMCodecError] = []
    /// Paths of the envelope keys skipped (docs/REST.md, "Envelope keys that
    /// are not part of the message").
    private(set) var skippedKeys: [String] = []
    /// Every download flag read, with its path, for the REST-measured rules.
    private(set) var downloadFlags: [(path: String, value: UInt32)] = []
    /// Every image format read, with its path.
    private(set) var imageFormats: [(path: String, value: Int32)] = []

    init(limits: DecodingLimits) {
        self.limits = limits
    }

    /// The JSON nesting a document may reach: a merger layer takes five
    /// levels (message, `MsgBody`, element, `MsgContent`, `MsgList`); eight
    /// leave room for push-info objects.
    static func maxNesting(for limits: DecodingLimits) -> Int {
        8 * (limits.maxDepth + 1) + 8
    }

    // MARK: Documents

    /// Reads a message: a bare `MsgBody` array or a message object.
    func message(document root: JSONValue) -> Message {
        switch root {
        case .array(let entries):
            var message = Message()
            message.elems = elems(entries, at: "MsgBody", layer: 0)
            return message
        case .object(let members) where !isMessageList(members):
            return message(members, at: "", layer: 0, forwarded: false)
        case .object:
            report(.restType, "", "expected a MsgBody array or a message object, found a message list")
        default:
            report(.restType, "", "expected a MsgBody array or a message object, found \(root.typeName)")
        }
        return Message()
    }

    /// Reads a message list: `{"MsgList": [...]}` or `{"RspMsgList": [...]}`.
    func batch(document root: JSONValue) -> MessageBatch {
        var batch = MessageBatch()
        guard case .object(let members) = root, isMessageList(members) else {
            let found = if case .object = root { "a message object" } else if case .array = root { "a MsgBody array" } else { root.typeName }
            report(.restType, "", "expected a message list (an object with MsgList or RspMsgList), found \(found)")
            return batch
        }
        let listKey = members.first { $0.key == "MsgList" || $0.key == "RspMsgList" }!.key
        var groupID: String?
        walkObject(members, at: "", known: [listKey, "GroupId"], skippable: RESTForms.envelopeOnlyKeys) { key, value, path in
            if key == "GroupId" {
                groupID = self.string(value, at: path)
            } else if let entries = self.array(value, at: path) {
                guard entries.count <= self.limits.maxBatchMessages else {
                    self.report(
                        .limitBatchMessages, path, "the list holds \(entries.count) messages",
                        limit: self.limits.maxBatchMessages, observed: entries.count)
                    return
                }
                for (index, entry) in entries.enumerated() {
                    let entryPath = "\(path)[\(index)]"
                    guard let fields = self.object(entry, at: entryPath) else { continue }
                    batch.messages.append(self.message(fields, at: entryPath, layer: 0, forwarded: false))
                }
            }
        }
        if let groupID, !groupID.isEmpty {
            for index in batch.messages.indices where batch.messages[index].groupID.isEmpty {
                batch.messages[index].groupID = groupID
            }
        }
        return batch
    }

    /// A root object is a message list when it has `MsgList` or `RspMsgList`
    /// and no `MsgBody`.
    func isMessageList(_ members: [JSONValue.Member]) -> Bool {
        !members.contains { $0.key == "MsgBody" }
            && members.contains { $0.key == "MsgList" || $0.key == "RspMsgList" }
    }

    // MARK: Messages and elements

    private func message(_ members: [JSONValue.Member], at path: String, layer: Int, forwarded: Bool) -> Message {
        let form = forwarded ? RESTForms.forwardedMessage : RESTForms.message
        var envelope = RESTEnvelope()
        var message = Message()
        let present = walkObject(members, at: path, known: form.names, skippable: RESTForms.envelopeOnlyKeys) {
            key, value, memberPath in
            switch key {
            case "MsgBody":
                if let entries = self.array(value, at: memberPath) {
                    message.elems = self.elems(entries, at: memberPath, layer: layer)
                }
            case "OfflinePushInfo":
                if let fields = self.object(value, at: memberPath) {
                    let push = self.offlinePush(fields, at: memberPath)
                    message.offlinePushInfo = push == OfflinePushInfo() ? nil : push
                }
            default:
                self.read(value, as: form.key(key)!, into: &envelope, at: memberPath)
            }
        }
        checkPresence(form, present, at: path)
        message.sender = envelope.sender
        message.receiver = envelope.receiver
        message.groupID = envelope.groupID
        message.seq = UInt64(envelope.seq)
        message.random = envelope.random
        message.timestamp = Int64(envelope.timestamp)
        message.cloudCustomData = envelope.cloudCustomData
        return message
    }

    private func offlinePush(_ members: [JSONValue.Member], at path: String) -> OfflinePushInfo {
        var push = OfflinePushInfo()
        walkObject(members, at: path, known: RESTForms.offlinePush.names) { key, value, memberPath in
            switch key {
            case "AndroidInfo":
                if let fields = self.object(value, at: memberPath) {
                    let android = self.form(RESTForms.android, fields, at: memberPath, into: AndroidPushInfo())
                    push.android = android == AndroidPushInfo() ? nil : android
                }
            case "ApnsInfo":
                if let fields = self.object(value, at: memberPath) {
                    let apns = self.form(RESTForms.apns, fields, at: memberPath, into: RESTApns())
                    push.iosSound = apns.sound
                    push.apns = apns.apns == ApnsPushInfo() ? nil : apns.apns
                }
            default:
                self.read(value, as: RESTForms.offlinePush.key(key)!, into: &push, at: memberPath)
            }
        }
        return push
    }

    private func elems(_ entries: [JSONValue], at path: String, layer: Int) -> [Elem] {
        guard entries.count <= limits.maxElems else {
            report(
                .limitElems, path, "the body holds \(entries.count) elements",
                limit: limits.maxElems, observed: entries.count)
            return []
        }
        var elems: [Elem] = []
        elems.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            if let kind = element(entry, at: "\(path)[\(index)]", layer: layer) {
                elems.append(Elem(kind: kind))
            }
        }
        return elems
    }

    private func element(_ value: JSONValue, at path: String, layer: Int) -> Elem.Kind? {
        guard let members = object(value, at: path) else { return nil }
        // MsgType decides how MsgContent is read, wherever it stands.
        var type: RESTElemType?
        if let member = members.first(where: { $0.key == "MsgType" }), case .string(let name) = member.value {
            type = RESTElemType(rawValue: name)
        }
        var kind: Elem.Kind?
        let present = walkObject(members, at: path, known: RESTForms.elementKeys) { key, value, memberPath in
            if key == "MsgType" {
                guard let name = self.string(value, at: memberPath), type == nil else { return }
                self.report(
                    .restMsgType, memberPath,
                    "\"\(name)\" is not a REST element type (\(RESTElemType.allCases.map(\.rawValue).joined(separator: ", ")))")
            } else if let fields = self.object(value, at: memberPath), let type {
                kind = self.content(type, fields, at: memberPath, layer: layer)
            }
        }
        for key in RESTForms.elementKeys where !present.contains(key) {
            report(.restMissingKey, join(path, key), "an element needs \(key)")
        }
        return kind
    }

    private func content(_ type: RESTElemType, _ members: [JSONValue.Member], at path: String, layer: Int) -> Elem.Kind {
        switch type {
        case .text: .text(form(RESTForms.text, members, at: path, into: TextElem()))
        case .location: .location(form(RESTForms.location, members, at: path, into: LocationElem()))
        case .face: .face(form(RESTForms.face, members, at: path, into: FaceElem()))
        case .custom: .custom(form(RESTForms.custom, members, at: path, into: CustomElem()))
        case .sound: .sound(form(RESTForms.sound, members, at: path, into: SoundElem()))
        case .file: .file(form(RESTForms.file, members, at: path, into: FileElem()))
        case .video: .video(form(RESTForms.video, members, at: path, into: VideoElem()))
        case .image: .image(image(members, at: path))
        case .relay: .merger(relay(members, at: path, layer: layer))
        }
    }

    private func image(_ members: [JSONValue.Member], at path: String) -> ImageElem {
        form(RESTForms.image, members, at: path, into: ImageElem()) { image, key, value, memberPath in
            guard let entries = self.array(value, at: memberPath), self.withinRepeated(entries, at: memberPath) else {
                return
            }
            for (index, entry) in entries.enumerated() {
                let entryPath = "\(memberPath)[\(index)]"
                guard let fields = self.object(entry, at: entryPath) else { continue }
                image.levels.append(self.form(RESTForms.imageLevel, fields, at: entryPath, into: ImageLevel()))
            }
        }
    }

    private func relay(_ members: [JSONValue.Member], at path: String, layer: Int) -> MergerElem {
        var listLength: Int?
        var msgNumRead = false
        let merger = form(RESTForms.relay, members, at: path, into: MergerElem()) { merger, key, value, memberPath in
            guard let entries = self.array(value, at: memberPath) else { return }
            if key == "AbstractList" {
                guard self.withinRepeated(entries, at: memberPath) else { return }
                for (index, entry) in entries.enumerated() {
                    if let line = self.string(entry, at: "\(memberPath)[\(index)]") { merger.abstracts.append(line) }
                }
                return
            }
            guard layer + 1 <= self.limits.maxDepth else {
                self.report(
                    .limitDepth, memberPath,
                    "forwarded messages would be at merger layer \(layer + 1); at most \(self.limits.maxDepth) are allowed",
                    limit: self.limits.maxDepth, observed: layer + 1)
                return
            }
            guard self.withinRepeated(entries, at: memberPath) else { return }
            listLength = entries.count
            for (index, entry) in entries.enumerated() {
                let entryPath = "\(memberPath)[\(index)]"
                guard let fields = self.object(entry, at: entryPath) else { continue }
                merger.messages.append(self.message(fields, at: entryPath, layer: layer + 1, forwarded: true))
            }
        } onRead: { key in
            if key == "MsgNum" { msgNumRead = true }
        }
        let hasList = members.contains { $0.key == "MsgList" }
        let hasKey = members.contains { $0.key == "JsonMsgKey" }
        if !hasList && !hasKey {
            report(.restMissingKey, join(path, "MsgList"), "a relay element needs MsgList or JsonMsgKey")
        }
        if hasList && hasKey {
            report(.restRelayListAndKey, path, "a relay element has MsgList or JsonMsgKey, not both")
        }
        if let listLength, msgNumRead, Int(merger.msgNum) != listLength {
            report(
                .restRelayMsgNum, join(path, "MsgNum"),
                "MsgNum is \(merger.msgNum) but MsgList holds \(listLength) messages")
        }
        return merger
    }

    private func withinRepeated(_ entries: [JSONValue], at path: String) -> Bool {
        guard entries.count <= limits.maxRepeated else {
            report(
                .limitRepeated, path, "the array holds \(entries.count) entries",
                limit: limits.maxRepeated, observed: entries.count)
            return false
        }
        return true
    }

    // MARK: Forms

    /// Reads an object of `form` into `model`: scalar keys by the table,
    /// nested ones through `nested`; then reports absent keys.
    private func form<Model>(
        _ form: RESTForm<Model>,
        _ members: [JSONValue.Member],
        at path: String,
        into model: Model,
        nested: (inout Model, String, JSONValue, String) -> Void = { _, _, _, _ in },
        onRead: (String) -> Void = { _ in }
    ) -> Model {
        var model = model
        let present = walkObject(members, at: path, known: form.names) { key, value, memberPath in
            let spec = form.key(key)!
            if case .nested = spec.value {
                nested(&model, key, value, memberPath)
            } else if self.read(value, as: spec, into: &model, at: memberPath) {
                onRead(key)
            }
        }
        checkPresence(form, present, at: path)
        return model
    }

    /// Reports, in table order, every required key that is absent and every
    /// group key absent while another key of its group is present.
    private func checkPresence<Model>(_ form: RESTForm<Model>, _ present: Set<String>, at path: String) {
        let groupKeys = form.keys.filter { $0.presence == .group }.map(\.name)
        let groupStarted = groupKeys.contains { present.contains($0) }
        for key in form.keys where !present.contains(key.name) {
            switch key.presence {
            case .required:
                report(.restMissingKey, join(path, key.name), "\(key.name) is required")
            case .group where groupStarted:
                let given = groupKeys.filter { present.contains($0) }.joined(separator: ", ")
                report(.restMissingKey, join(path, key.name), "\(given) needs \(key.name) as well")
            case .group, .optional:
                break
            }
        }
    }

    /// Reads one scalar key; reports a problem and returns false when its
    /// value does not fit.
    @discardableResult
    private func read<Model>(_ value: JSONValue, as key: RESTKey<Model>, into model: inout Model, at path: String) -> Bool {
        switch key.value {
        case .string(let field):
            guard let text = string(value, at: path) else { return false }
            model[keyPath: field] = text
        case .text(let field):
            guard let text = string(value, at: path) else { return false }
            model[keyPath: field] = Array(text.utf8)
        case .uint32(let field):
            guard let number = integer(value, at: path, in: 0...Int64(UInt32.max)) else { return false }
            model[keyPath: field] = UInt32(number)
            if key.name.hasSuffix("Download_Flag") || key.name.hasSuffix("DownloadFlag") {
                downloadFlags.append((path, UInt32(number)))
            }
        case .int32(let field):
            guard let number = integer(value, at: path, in: Int64(Int32.min)...Int64(Int32.max)) else { return false }
            model[keyPath: field] = Int32(number)
        case .double(let field):
            guard let number = double(value, at: path) else { return false }
            model[keyPath: field] = number
        case .imageFormat(let field):
            guard let number = integer(value, at: path, in: 0...Int64(Int32.max)) else { return false }
            model[keyPath: field] = ImageFormat(rawValue: Int32(number))
            imageFormats.append((path, Int32(number)))
        case .levelType(let field):
            guard let number = integer(value, at: path, in: 0...Int64(UInt32.max)) else { return false }
            guard (1...3).contains(number) else {
                report(.restRange, path, "Type \(number) is not 1 (original), 2 (large) or 3 (thumbnail)")
                return false
            }
            model[keyPath: field] = ImageLevelType(rawValue: Int32(number))
        case .nested:
            return false
        }
        return true
    }

    // MARK: Objects

    /// Walks an object's members in document order: reports duplicate,
    /// unknown and mis-cased keys, records skippable ones, and hands every
    /// known key's first occurrence to `visit`. Returns the known keys present.
    @discardableResult
    private func walkObject(
        _ members: [JSONValue.Member],
        at path: String,
        known: [String],
        skippable: Set<String> = [],
        visit: (String, JSONValue, String) -> Void
    ) -> Set<String> {
        var seen = Set<String>()
        var present = Set<String>()
        for member in members {
            let memberPath = join(path, member.key)
            guard seen.insert(member.key).inserted else {
                report(.restDuplicateKey, memberPath, "\(member.key) appears more than once")
                continue
            }
            if known.contains(member.key) {
                present.insert(member.key)
                visit(member.key, member.value, memberPath)
            } else if skippable.contains(member.key) {
                skippedKeys.append(memberPath)
            } else if let match = known.first(where: { $0.lowercased() == member.key.lowercased() }) {
                // Counted as present: the key is there, misspelt, and is not also missing.
                present.insert(match)
                report(.restKeyCase, memberPath, "keys are case-sensitive: \(member.key) should be \(match)")
            } else {
                report(.restUnknownKey, memberPath, "\(member.key) is not a key of this object (\(known.joined(separator: ", ")))")
            }
        }
        return present
    }

    // MARK: Values

    private func string(_ value: JSONValue, at path: String) -> String? {
        if case .string(let text) = value { return text }
        report(.restType, path, "expected a string, found \(value.typeName)")
        return nil
    }

    private func object(_ value: JSONValue, at path: String) -> [JSONValue.Member]? {
        if case .object(let members) = value { return members }
        report(.restType, path, "expected an object, found \(value.typeName)")
        return nil
    }

    private func array(_ value: JSONValue, at path: String) -> [JSONValue]? {
        if case .array(let entries) = value { return entries }
        report(.restType, path, "expected an array, found \(value.typeName)")
        return nil
    }

    /// An integer literal in `range`: no fraction, no exponent.
    private func integer(_ value: JSONValue, at path: String, in range: ClosedRange<Int64>) -> Int64? {
        guard case .number(let literal) = value else {
            report(.restType, path, "expected an integer, found \(value.typeName)")
            return nil
        }
        guard !literal.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) else {
            report(.restType, path, "expected an integer, found \(literal)")
            return nil
        }
        guard let number = Int64(literal), range.contains(number) else {
            report(.restRange, path, "\(literal) is outside \(range.lowerBound)...\(range.upperBound)")
            return nil
        }
        return number
    }

    private func double(_ value: JSONValue, at path: String) -> Double? {
        guard case .number(let literal) = value else {
            report(.restType, path, "expected a number, found \(value.typeName)")
            return nil
        }
        guard let number = Double(literal), number.isFinite else {
            report(.restRange, path, "\(literal) is outside the range of a double")
            return nil
        }
        return number
    }

    // MARK: Reporting

    private func report(_ code: IMCodecError.Code, _ path: String, _ reason: String, limit: Int? = nil, observed: Int? = nil) {
        problems.append(IMCodecError(code, path: path, reason: reason, limit: limit, observed: observed))
    }

    private func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }
}
