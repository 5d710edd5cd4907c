import IMCodec

/// Writes model values as canonical REST documents (docs/spec/rest.md, "Export").
///
/// Callers run ``RESTRepresentability`` first: the writer assumes every value
/// it meets has a REST form. Forwarded messages are written from a heap stack
/// of pending steps, not by recursion, so a deep relay costs no stack.
package struct RESTWriter {
    package private(set) var json = JSONWriter()

    /// Whether relays are written without their forwarded messages: an
    /// empty `MsgList`, whose `MsgNum` still counts them. A message's JSON
    /// is then measured apart from the messages it forwards; written in
    /// place, a relay's `n` messages add their own JSON and `n - 1` commas.
    package var leavesOutForwardedMessages = false

    /// A writer with nothing written yet.
    package init() {}

    /// A step still to write, in a stack whose last step comes next.
    private enum Step {
        /// A message object, up to and including the opening of its `MsgBody`.
        case message(Message, forwarded: Bool)
        /// The rest of a message object after its `MsgBody` entries.
        case messageEnd(Message)
        /// One `MsgBody` entry.
        case element(Elem)
        /// The end of a relay's `MsgList`, its `MsgContent` and its element.
        case relayEnd
        /// The end of an array.
        case endArray
        /// The end of an object.
        case endObject
    }

    /// Writes a top-level message: a bare `MsgBody` array when no envelope
    /// field is set, else a message object.
    mutating func document(_ message: Message) {
        if hasEnvelope(message) {
            run([.message(message, forwarded: false)])
        } else {
            body(message.elems)
        }
    }

    /// Writes a batch as `{"MsgList": [...]}`.
    mutating func document(_ batch: MessageBatch) {
        json.beginObject()
        json.key("MsgList")
        json.beginArray()
        run(batch.messages.map { .message($0, forwarded: false) } + [.endArray, .endObject])
    }

    /// Writes a `MsgBody` array.
    package mutating func body(_ elems: [Elem]) {
        json.beginArray()
        run(elems.map { .element($0) } + [.endArray])
    }

    /// Writes a forwarded message, as an entry of a relay's `MsgList`.
    package mutating func forwardedMessage(_ message: Message) {
        run([.message(message, forwarded: true)])
    }

    /// Writes `steps` in order, and every step they add.
    private mutating func run(_ steps: [Step]) {
        var stack = Array(steps.reversed())
        while let step = stack.popLast() {
            switch step {
            case .message(let message, let forwarded):
                messageHead(message, forwarded: forwarded)
                stack.append(.messageEnd(message))
                stack.append(contentsOf: message.elems.reversed().map { .element($0) })
            case .messageEnd(let message):
                messageTail(message)
            case .element(let elem):
                if case .merger(let merger)? = elem.kind, merger.jsonMsgKey.isEmpty {
                    relayHead(merger)
                    stack.append(.relayEnd)
                    if !leavesOutForwardedMessages {
                        stack.append(contentsOf: merger.messages.reversed().map { .message($0, forwarded: true) })
                    }
                } else {
                    element(elem)
                }
            case .relayEnd:
                json.endArray()
                json.endObject()
                json.endObject()
            case .endArray:
                json.endArray()
            case .endObject:
                json.endObject()
            }
        }
    }

    private func hasEnvelope(_ message: Message) -> Bool {
        !message.sender.isEmpty || !message.receiver.isEmpty || !message.groupID.isEmpty || message.seq != 0
            || message.random != 0 || message.timestamp != 0 || !message.cloudCustomData.isEmpty
            || message.offlinePushInfo.map(isEmpty) == false
    }

    /// `{`, the keys before `MsgBody`, and `"MsgBody":[`.
    private mutating func messageHead(_ message: Message, forwarded: Bool) {
        json.beginObject()
        text("From_Account", message.sender, always: forwarded)
        text("To_Account", message.receiver)
        text("GroupId", message.groupID)
        for (key, value) in [
            ("MsgSeq", message.seq), ("MsgRandom", UInt64(message.random)),
            ("MsgTimeStamp", UInt64(message.timestamp)),
        ] where forwarded || value != 0 {
            json.key(key)
            json.literal(String(value))
        }
        json.key("MsgBody")
        json.beginArray()
    }

    /// `]`, the keys after `MsgBody`, and `}`.
    private mutating func messageTail(_ message: Message) {
        json.endArray()
        text("CloudCustomData", String(decoding: message.cloudCustomData, as: UTF8.self))
        if let push = message.offlinePushInfo, !isEmpty(push) {
            json.key("OfflinePushInfo")
            offlinePush(push)
        }
        json.endObject()
    }

    private mutating func text(_ key: String, _ value: String, always: Bool = false) {
        guard always || !value.isEmpty else { return }
        json.key(key)
        json.string(value)
    }

    /// A relay element up to and including the opening of its `MsgList`
    /// (the keys of ``RESTForms/relay`` before it, in order).
    private mutating func relayHead(_ merger: MergerElem) {
        json.beginObject()
        json.key("MsgType")
        json.string(RESTElemType.relay.rawValue)
        json.key("MsgContent")
        json.beginObject()
        json.key("Title")
        json.string(merger.title)
        json.key("MsgNum")
        json.literal(String(merger.msgNum != 0 ? merger.msgNum : UInt32(clamping: merger.messages.count)))
        json.key("CompatibleText")
        json.string(merger.compatibleText)
        json.key("AbstractList")
        json.beginArray()
        for line in merger.abstracts { json.string(line) }
        json.endArray()
        json.key("MsgList")
        json.beginArray()
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
        if !tableElement(elem.kind) {
            switch elem.kind {
            case .image(let image): content(.image) { $0.image(image) }
            case .merger(let merger): content(.relay) { $0.storedRelay(merger) }
            default: preconditionFailure("RESTRepresentability admits only REST element kinds")
            }
        }
        json.endObject()
    }

    mutating func content(_ type: RESTElemType, _ body: (inout RESTWriter) -> Void) {
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

    /// A relay whose messages are stored apart: `JsonMsgKey` instead of
    /// `MsgList`.
    private mutating func storedRelay(_ merger: MergerElem) {
        form(RESTForms.relay, merger) { writer, key in
            guard key == "AbstractList" else { return false }
            writer.json.key(key)
            writer.json.beginArray()
            for line in merger.abstracts { writer.json.string(line) }
            writer.json.endArray()
            return true
        }
    }

    /// Writes an object of `form`: required keys always, group keys when the
    /// group is in use, optional keys when not the default, nested keys
    /// through `nested` (which returns whether it wrote anything).
    mutating func form<Model>(
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
