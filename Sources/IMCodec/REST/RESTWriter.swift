/// Writes model values as canonical REST documents (docs/REST.md, "Export").
///
/// Callers run ``RESTRepresentability`` first: the writer assumes every value
/// it meets has a REST form.
struct RESTWriter {
    private(set) var json = JSONWriter()

    /// Writes a top-level message: a bare `MsgBody` array when no envelope
    /// field is set, else a message object.
    mutating func document(_ message: Message) {
        if hasEnvelope(message) {
            self.message(message, forwarded: false)
        } else {
            body(message.elems)
        }
    }

    /// Writes a batch as `{"MsgList": [...]}`.
    mutating func document(_ batch: MessageBatch) {
        json.beginObject()
        json.key("MsgList")
        json.beginArray()
        for message in batch.messages { self.message(message, forwarded: false) }
        json.endArray()
        json.endObject()
    }

    /// Writes a `MsgBody` array.
    mutating func body(_ elems: [Elem]) {
        json.beginArray()
        for elem in elems { element(elem) }
        json.endArray()
    }

    private func hasEnvelope(_ message: Message) -> Bool {
        !message.sender.isEmpty || !message.receiver.isEmpty || !message.groupID.isEmpty || message.seq != 0
            || message.random != 0 || message.timestamp != 0 || !message.cloudCustomData.isEmpty
            || message.offlinePushInfo.map(isEmpty) == false
    }

    private mutating func message(_ message: Message, forwarded: Bool) {
        json.beginObject()
        func text(_ key: String, _ value: String, always: Bool = false) {
            guard always || !value.isEmpty else { return }
            json.key(key)
            json.string(value)
        }
        func number(_ key: String, _ value: UInt64) {
            guard forwarded || value != 0 else { return }
            json.key(key)
            json.literal(String(value))
        }
        text("From_Account", message.sender, always: forwarded)
        text("To_Account", message.receiver)
        text("GroupId", message.groupID)
        number("MsgSeq", message.seq)
        number("MsgRandom", UInt64(message.random))
        number("MsgTimeStamp", UInt64(message.timestamp))
        json.key("MsgBody")
        body(message.elems)
        text("CloudCustomData", message.cloudCustomData)
        if let push = message.offlinePushInfo, !isEmpty(push) {
            json.key("OfflinePushInfo")
            offlinePush(push)
        }
        json.endObject()
    }

    private func isEmpty(_ push: OfflinePushInfo) -> Bool {
        push.pushFlag == 0 && push.title.isEmpty && push.desc.isEmpty && push.ext.isEmpty && push.iosSound.isEmpty
            && push.android.map { allDefault(RESTForms.android, $0) } != false
            && push.apns.map { allDefault(RESTForms.apns, RESTApns(apns: $0)) } != false
    }

    private func allDefault<Model>(_ form: RESTForm<Model>, _ model: Model) -> Bool {
        form.keys.allSatisfy { RESTForm.isDefault($0.value, in: model) }
    }

    private mutating func offlinePush(_ push: OfflinePushInfo) {
        form(RESTForms.offlinePush, push) { writer, key in
            if key == "AndroidInfo" {
                guard let android = push.android, !writer.allDefault(RESTForms.android, android) else { return false }
                writer.json.key(key)
                writer.form(RESTForms.android, android)
            } else {
                let apns = RESTApns(sound: push.iosSound, apns: push.apns ?? ApnsPushInfo())
                guard !writer.allDefault(RESTForms.apns, apns) else { return false }
                writer.json.key(key)
                writer.form(RESTForms.apns, apns)
            }
            return true
        }
    }

    private mutating func element(_ elem: Elem) {
        json.beginObject()
        json.key("MsgType")
        switch elem.kind {
        case .text(let text): content(.text) { $0.form(RESTForms.text, text) }
        case .location(let location): content(.location) { $0.form(RESTForms.location, location) }
        case .face(let face): content(.face) { $0.form(RESTForms.face, face) }
        case .custom(let custom): content(.custom) { $0.form(RESTForms.custom, custom) }
        case .sound(let sound): content(.sound) { $0.form(RESTForms.sound, sound) }
        case .file(let file): content(.file) { $0.form(RESTForms.file, file) }
        case .video(let video): content(.video) { $0.form(RESTForms.video, video) }
        case .image(let image): content(.image) { $0.image(image) }
        case .merger(let merger): content(.relay) { $0.relay(merger) }
        case .groupTips, .groupSystem, .snsSystem, .profileSystem, nil:
            preconditionFailure("RESTRepresentability admits only REST element kinds")
        }
        json.endObject()
    }

    private mutating func content(_ type: RESTElemType, _ body: (inout RESTWriter) -> Void) {
        json.string(type.rawValue)
        json.key("MsgContent")
        body(&self)
    }

    private mutating func image(_ image: ImageElem) {
        form(RESTForms.image, image) { writer, _ in
            writer.json.key("ImageInfoArray")
            writer.json.beginArray()
            for level in image.levels { writer.form(RESTForms.imageLevel, level) }
            writer.json.endArray()
            return true
        }
    }

    private mutating func relay(_ merger: MergerElem) {
        var relay = merger
        if relay.msgNum == 0 { relay.msgNum = UInt32(clamping: merger.messages.count) }
        form(RESTForms.relay, relay) { writer, key in
            switch key {
            case "AbstractList":
                writer.json.key(key)
                writer.json.beginArray()
                for line in merger.abstracts { writer.json.string(line) }
                writer.json.endArray()
            case "MsgList" where merger.jsonMsgKey.isEmpty:
                writer.json.key(key)
                writer.json.beginArray()
                for message in merger.messages { writer.message(message, forwarded: true) }
                writer.json.endArray()
            default:
                return false
            }
            return true
        }
    }

    /// Writes an object of `form`: required keys always, group keys when the
    /// group is in use, optional keys when not the default, nested keys
    /// through `nested` (which returns whether it wrote anything).
    private mutating func form<Model>(
        _ form: RESTForm<Model>,
        _ model: Model,
        nested: (inout RESTWriter, String) -> Bool = { _, _ in false }
    ) {
        json.beginObject()
        let groupInUse = form.groupInUse(model)
        for key in form.keys {
            if case .nested = key.value {
                _ = nested(&self, key.name)
                continue
            }
            switch key.presence {
            case .required: break
            case .group: guard groupInUse else { continue }
            case .optional: guard !RESTForm.isDefault(key.value, in: model) else { continue }
            }
            json.key(key.name)
            scalar(key.value, of: model)
        }
        json.endObject()
    }

    private mutating func scalar<Model>(_ value: RESTKey<Model>.Value, of model: Model) {
        switch value {
        case .string(let field): json.string(model[keyPath: field])
        case .text(let field): json.string(String(decoding: model[keyPath: field], as: UTF8.self))
        case .uint32(let field): json.literal(String(model[keyPath: field]))
        case .int32(let field): json.literal(String(model[keyPath: field]))
        case .double(let field): json.literal(RESTNumber.text(model[keyPath: field]))
        case .imageFormat(let field): json.literal(String(model[keyPath: field].rawValue))
        case .levelType(let field): json.literal(String(model[keyPath: field].rawValue))
        case .nested: break
        }
    }
}

/// Numbers as REST documents write them.
enum RESTNumber {
    /// The shortest decimal that reads back as `value`, spelled as
    /// JavaScript's `Number.prototype.toString` spells it: `30`, `0.5`,
    /// `29.340656774469956`, `1e-7`, `1.5e+300`, `-0` for negative zero.
    /// `value` must be finite.
    static func text(_ value: Double) -> String {
        if value == 0 { return value.sign == .minus ? "-0" : "0" }
        // Swift's description holds the shortest round-trip digits.
        var text = Substring(value.magnitude.description)
        var exponent = 0
        if let mark = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: mark)...])!
            text = text[..<mark]
        }
        let point = text.firstIndex(of: ".") ?? text.endIndex
        var digits = Array(text[..<point]) + Array(text[point...].dropFirst())
        // value = 0.digits × 10^position
        var position = text.distance(from: text.startIndex, to: point) + exponent
        while digits.first == "0" {
            digits.removeFirst()
            position -= 1
        }
        while digits.last == "0" { digits.removeLast() }
        let count = digits.count
        var out = value.sign == .minus ? "-" : ""
        if count <= position && position <= 21 {
            out += String(digits) + String(repeating: "0", count: position - count)
        } else if 0 < position && position <= 21 {
            out += String(digits[..<position]) + "." + String(digits[position...])
        } else if -6 < position && position <= 0 {
            out += "0." + String(repeating: "0", count: -position) + String(digits)
        } else {
            let power = position - 1
            out += String(digits[0]) + (count > 1 ? "." + String(digits[1...]) : "")
            out += "e" + (power > 0 ? "+" : "-") + String(power.magnitude)
        }
        return out
    }
}
