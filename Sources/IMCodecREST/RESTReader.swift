import IMCodec

/// One walk over a REST document: builds the model and collects every
/// problem, in document order (Sources/IMCodecREST/IMCodecREST.docc/REST.md, "Strictness").
///
/// A problem does not stop the walk: the member is skipped and the walk goes
/// on, so a validation run reports everything at once (the first ``keep``
/// problems, and how many there are). The model built alongside is complete
/// only when ``problemCount`` is 0.
///
/// The walk uses no stack per merger layer: the `MsgList` of a relay is
/// queued instead of read where it stands, every message is built into
/// ``built`` under an id, and ``assemble(_:)`` puts forwarded messages into
/// their mergers once all are read. Problems carry their place in document
/// order (``Location/order``), so queuing does not change which comes first.
package final class RESTReader {
    /// Where a value is: its JSON path, and its place in document order as
    /// member and entry positions from the root (compared lexicographically).
    ///
    /// Both are built only when asked for, by a problem or a recorded key:
    /// most members are read without either. A location is its last step,
    /// held by value, over the steps before it, shared; so naming a member or
    /// an entry allocates nothing, and ``settled()`` shares the last step
    /// once for an object or array whose members or entries are named.
    struct Location: Sendable {
        /// One step down from the root.
        enum Step: Sendable {
            /// The member `name`, the `position`-th of its object.
            case member(String, position: Int)
            /// Entry `index` of an array.
            case entry(Int)
            /// The key `name` (or the object itself) at the object's end,
            /// after every member, `sequence`-th of the problems found there.
            case end(String?, sequence: Int)

            /// How many entries the step adds to ``Location/order``.
            var places: Int {
                if case .end = self { 2 } else { 1 }
            }
        }

        /// A shared step and the steps before it.
        final class Node: Sendable {
            let parent: Node?
            let step: Step
            /// The length of ``Location/order`` through this step.
            let places: Int

            init(parent: Node?, step: Step) {
                self.parent = parent
                self.step = step
                self.places = (parent?.places ?? 0) + step.places
            }
        }

        private let parent: Node?
        private let last: Step?

        static let root = Location(parent: nil, last: nil)

        /// The member `name`, the `position`-th of its object.
        func member(_ name: String, _ position: Int) -> Location {
            Location(parent: shared, last: .member(name, position: position))
        }

        /// Entry `index` of an array.
        func entry(_ index: Int) -> Location {
            Location(parent: shared, last: .entry(index))
        }

        /// The key `name` of this object, at the object's end: after every
        /// member, for problems found once the members are read.
        func end(_ name: String?, _ sequence: Int) -> Location {
            Location(parent: shared, last: .end(name, sequence: sequence))
        }

        /// The same location with its last step shared, so that the many
        /// locations under it share it instead of each copying it.
        func settled() -> Location {
            Location(parent: shared, last: nil)
        }

        /// The shared steps before the last: what every location named in
        /// one object or array has in common.
        var container: Node? { parent }

        /// Every step as a shared node.
        private var shared: Node? {
            guard let last else { return parent }
            return Node(parent: parent, step: last)
        }

        /// Calls `body` with every step, innermost first, and whether it is
        /// the outermost.
        private func forEachStepInward(_ body: (Step, _ outermost: Bool) -> Void) {
            if let last { body(last, parent == nil) }
            // `parent` holds the chain for the whole walk, so stepping along
            // it needs no reference counting.
            unowned(unsafe) var node = parent
            while let current = node {
                body(current.step, current.parent == nil)
                node = current.parent
            }
        }

        /// The JSON path (`MsgBody[0].MsgContent.Text`) and the place in
        /// document order.
        var resolved: (path: FieldPath, order: [Int]) { (path, order) }

        /// The JSON path (`MsgBody[0].MsgContent.Text`): counted, then
        /// filled from its end, so its components are allocated once.
        var path: FieldPath {
            var count = 0
            forEachStepInward { step, _ in
                if case .end(nil, _) = step { return }
                count += 1
            }
            guard count > 0 else { return FieldPath() }
            var components = [FieldPath.Component](repeating: .index(0), count: count)
            var end = count
            forEachStepInward { step, _ in
                switch step {
                case .member(let name, _), .end(let name?, _):
                    end -= 1
                    components[end] = .field(name)
                case .entry(let index):
                    end -= 1
                    components[end] = .index(index)
                case .end(nil, _):
                    break
                }
            }
            return FieldPath(components)
        }

        /// The place in document order: a position or index per step, and
        /// `Int.max` then the sequence number for a place at an object's end.
        var order: [Int] { withOrder { Array($0) } }

        /// Calls `body` with ``order`` in a buffer that lives for the call
        /// and is not allocated on the heap.
        func withOrder<Result>(_ body: (UnsafeBufferPointer<Int>) -> Result) -> Result {
            let count = (parent?.places ?? 0) + (last?.places ?? 0)
            return withUnsafeTemporaryAllocation(of: Int.self, capacity: count) { buffer in
                var end = count
                forEachStepInward { step, _ in
                    switch step {
                    case .member(_, let position):
                        end -= 1
                        buffer[end] = position
                    case .entry(let index):
                        end -= 1
                        buffer[end] = index
                    case .end(_, let sequence):
                        end -= 2
                        buffer[end] = Int.max
                        buffer[end + 1] = sequence
                    }
                }
                return body(UnsafeBufferPointer(buffer))
            }
        }

        /// Where this location stands against the place `order`: whether it
        /// comes before it, and whether every location sharing its
        /// ``container`` comes after it.
        func placed(against order: [Int]) -> (before: Bool, restAfter: Bool) {
            let shared = parent?.places ?? 0
            return withOrder { mine in
                var index = 0
                while index < mine.count, index < order.count, mine[index] == order[index] { index += 1 }
                if index == mine.count { return (mine.count < order.count, false) }
                // `order` is a prefix of this place, and of all of them if the shared steps cover it.
                if index == order.count { return (false, shared >= order.count) }
                let before = mine[index] < order[index]
                return (before, !before && index < shared)
            }
        }
    }

    /// A relay's `MsgList` waiting to be read.
    private struct PendingList {
        var entries: [JSONValue]
        var location: Location
        var layer: Int
        var owner: Int
        var elem: Int
    }

    /// The forwarded messages of one merger: the merger is elem `elem` of
    /// message `owner`; `children` are message ids.
    private struct Link {
        var owner: Int
        var elem: Int
        var children: [Int]
    }

    let limits: DecodingLimits
    /// The problems kept so far, in the order they were found: the first
    /// ones in document order once ``compact()`` has run, and any found
    /// since that come before ``threshold``.
    private var found: [(order: [Int], error: IMCodecError)] = []
    /// The place of the last problem kept by ``compact()``: a problem not
    /// before it cannot be among the first ``keep``.
    private var threshold: [Int]?
    /// A container whose every location is past ``threshold``, so that the
    /// problems of one object are passed over with one comparison.
    private var passedOver: Location.Node?
    private var skipped: [(order: [Int], path: FieldPath)] = []
    /// Every message read, by id; forwarded messages are put into their
    /// mergers by ``assemble(_:)``.
    private var built: [Message] = []
    private var pending: [PendingList] = []
    private var links: [Link] = []
    /// Every download flag read, with its path, for the REST-measured rules.
    package private(set) var downloadFlags: [(path: FieldPath, value: UInt32)] = []
    /// Every image format read, with its path.
    package private(set) var imageFormats: [(path: FieldPath, value: Int32)] = []

    /// How many problems the walk keeps: the first ones in document order,
    /// 1 for an import, which throws it. The others are only counted
    /// (``problemCount``): they cost no path and no reason.
    package let keep: Int
    /// Every problem found, kept or not.
    package private(set) var problemCount = 0

    package init(limits: DecodingLimits, keep: Int) {
        self.limits = limits
        self.keep = max(keep, 0)
    }

    /// The first ``keep`` problems, in document order.
    package var problems: [IMCodecError] {
        if let sortedProblems { return sortedProblems }
        sortFound()
        let first = found.prefix(keep).map(\.error)
        sortedProblems = first
        return first
    }

    /// ``problems`` once sorted, until another is found.
    private var sortedProblems: [IMCodecError]?

    /// Puts ``found`` in document order. The sort is stable: problems at one
    /// place keep the order they were found in.
    private func sortFound() {
        // Problems are mostly found in document order; only the forwarded
        // messages read after their outer message are not.
        let inOrder = found.indices.dropFirst().allSatisfy {
            !found[$0].order.lexicographicallyPrecedes(found[$0 - 1].order)
        }
        guard !inOrder else { return }
        found = found.enumerated().sorted { lhs, rhs in
            lhs.element.order == rhs.element.order
                ? lhs.offset < rhs.offset : lhs.element.order.lexicographicallyPrecedes(rhs.element.order)
        }.map(\.element)
    }

    /// Keeps the first ``keep`` problems of ``found`` and remembers where
    /// the last of them is. Run each time ``found`` doubles past ``keep``,
    /// so a problem is sorted a bounded number of times.
    private func compact() {
        sortFound()
        found.removeLast(found.count - keep)
        threshold = found.last?.order
        passedOver = nil
    }

    /// Paths of the envelope keys skipped (Sources/IMCodecREST/IMCodecREST.docc/REST.md, "Envelope keys that
    /// are not part of the message"), in document order.
    var skippedKeys: [FieldPath] {
        skipped.sorted { $0.order.lexicographicallyPrecedes($1.order) }.map(\.path)
    }

    /// The JSON nesting a document may reach: a merger layer takes five
    /// levels (message, `MsgBody`, element, `MsgContent`, `MsgList`); eight
    /// leave room for push-info objects.
    static func maxNesting(for limits: DecodingLimits) -> Int {
        8 * (limits.maxDepth + 1) + 8
    }

    // MARK: Documents

    /// Reads a message: a bare `MsgBody` array or a message object.
    package func message(document root: JSONValue) -> Message {
        switch root {
        case .array(let entries):
            let id = reserve()
            var message = Message()
            message.elems = elems(entries, at: Location.root.member("MsgBody", 0), layer: 0, owner: id)
            built[id] = message
            return assemble(id)
        case .object(let members) where !isMessageList(members):
            return assemble(message(members, at: .root, layer: 0, forwarded: false))
        case .object:
            report(.restType, .root, "expected a MsgBody array or a message object, found a message list")
        default:
            report(.restType, .root, "expected a MsgBody array or a message object, found \(root.typeName)")
        }
        return Message()
    }

    /// Reads a message list: `{"MsgList": [...]}` or `{"RspMsgList": [...]}`.
    package func batch(document root: JSONValue) -> MessageBatch {
        guard case .object(let members) = root, isMessageList(members) else {
            let found =
                switch root {
                case .object: "a message object"
                case .array: "a MsgBody array"
                default: root.typeName
                }
            report(.restType, .root, "expected a message list (an object with MsgList or RspMsgList), found \(found)")
            return MessageBatch()
        }
        let listKey = members.first { $0.key == "MsgList" || $0.key == "RspMsgList" }!.key
        var groupID: String?
        var ids: [Int] = []
        walkObject(members, at: .root, known: [listKey, "GroupId"], skippable: RESTForms.envelopeOnlyKeys) {
            key, value, location in
            if key == "GroupId" {
                groupID = self.string(value, at: location)
            } else if let entries = self.array(value, at: location) {
                guard entries.count <= self.limits.maxBatchMessages else {
                    self.report(
                        .limitBatchMessages, location, "the list holds \(self.described(entries.count)) messages",
                        limit: self.limits.maxBatchMessages, observed: entries.count)
                    return
                }
                let list = location.settled()
                for (index, entry) in entries.enumerated() {
                    let entryLocation = list.entry(index)
                    guard let fields = self.object(entry, at: entryLocation) else { continue }
                    ids.append(self.message(fields, at: entryLocation, layer: 0, forwarded: false))
                }
            }
        }
        readPending()
        var batch = MessageBatch()
        batch.messages = ids.map { assembled($0) }
        if let groupID, !groupID.isEmpty {
            for index in batch.messages.indices where batch.messages[index].groupID.isEmpty {
                batch.messages[index].groupID = groupID
            }
        }
        return batch
    }

    /// A root object is a message list when it has `MsgList` or `RspMsgList`
    /// and no `MsgBody`.
    package func isMessageList(_ members: [JSONValue.Member]) -> Bool {
        !members.contains { $0.key == "MsgBody" }
            && members.contains { $0.key == "MsgList" || $0.key == "RspMsgList" }
    }

    // MARK: Forwarded messages

    private func reserve() -> Int {
        built.append(Message())
        return built.count - 1
    }

    /// Reads every queued `MsgList`; reading one may queue more.
    private func readPending() {
        while let list = pending.popLast() {
            var children: [Int] = []
            let listLocation = list.location.settled()
            for (index, entry) in list.entries.enumerated() {
                let location = listLocation.entry(index)
                guard let fields = object(entry, at: location) else { continue }
                children.append(message(fields, at: location, layer: list.layer, forwarded: true))
            }
            links.append(Link(owner: list.owner, elem: list.elem, children: children))
        }
    }

    /// Reads what is queued and returns message `id` with every forwarded
    /// message in place.
    private func assemble(_ id: Int) -> Message {
        readPending()
        return assembled(id)
    }

    /// Message `id` with its forwarded messages in place. Forwarded messages
    /// have higher ids than the message whose merger holds them, so filling
    /// mergers from the highest owner down completes every child before its
    /// parent takes it.
    private func assembled(_ id: Int) -> Message {
        if !links.isEmpty {
            for link in links.sorted(by: { $0.owner > $1.owner }) {
                guard link.elem < built[link.owner].elems.count,
                    case .merger(var merger)? = built[link.owner].elems[link.elem].kind
                else { continue }
                merger.messages = link.children.map { built[$0] }
                built[link.owner].elems[link.elem].kind = .merger(merger)
            }
            links.removeAll()
        }
        return built[id]
    }

    // MARK: Messages and elements

    /// Reads a message object into a new id.
    private func message(_ members: [JSONValue.Member], at location: Location, layer: Int, forwarded: Bool) -> Int {
        let id = reserve()
        let form = forwarded ? RESTForms.forwardedMessage : RESTForms.message
        var envelope = RESTEnvelope()
        var message = Message()
        let present = walkObject(
            members, at: location, known: form.names, skippable: RESTForms.envelopeOnlyKeys,
            aliases: RESTForms.messageAliases
        ) { key, value, memberLocation in
            switch key {
            case "MsgBody":
                if let entries = self.array(value, at: memberLocation) {
                    message.elems = self.elems(entries, at: memberLocation, layer: layer, owner: id)
                }
            case "OfflinePushInfo":
                if let fields = self.object(value, at: memberLocation) {
                    let push = self.offlinePush(fields, at: memberLocation)
                    message.offlinePushInfo = push == OfflinePushInfo() ? nil : push
                }
            default:
                self.read(value, as: form.key(key)!, into: &envelope, at: memberLocation)
            }
        }
        checkPresence(form, present, at: location)
        message.sender = envelope.sender
        message.receiver = envelope.receiver
        message.groupID = envelope.groupID
        message.seq = UInt64(envelope.seq)
        message.random = envelope.random
        message.timestamp = Int64(envelope.timestamp)
        message.cloudCustomData = envelope.cloudCustomData
        built[id] = message
        return id
    }

    private func offlinePush(_ members: [JSONValue.Member], at location: Location) -> OfflinePushInfo {
        var push = OfflinePushInfo()
        walkObject(members, at: location, known: RESTForms.offlinePush.names) { key, value, memberLocation in
            switch key {
            case "AndroidInfo":
                if let fields = self.object(value, at: memberLocation) {
                    let android = self.form(RESTForms.android, fields, at: memberLocation, into: AndroidPushInfo())
                    push.android = android == AndroidPushInfo() ? nil : android
                }
            case "ApnsInfo":
                if let fields = self.object(value, at: memberLocation) {
                    let apns = self.form(RESTForms.apns, fields, at: memberLocation, into: RESTApns())
                    push.iosSound = apns.sound
                    push.apns = apns.apns == ApnsPushInfo() ? nil : apns.apns
                }
            default:
                self.read(value, as: RESTForms.offlinePush.key(key)!, into: &push, at: memberLocation)
            }
        }
        return push
    }

    private func elems(_ entries: [JSONValue], at location: Location, layer: Int, owner: Int) -> [Elem] {
        guard entries.count <= limits.maxElems else {
            report(
                .limitElems, location, "the body holds \(described(entries.count)) elements",
                limit: limits.maxElems, observed: entries.count)
            return []
        }
        var elems: [Elem] = []
        elems.reserveCapacity(entries.count)
        let body = location.settled()
        for (index, entry) in entries.enumerated() {
            let target = (owner: owner, elem: elems.count)
            if let kind = element(entry, at: body.entry(index), layer: layer, target: target) {
                elems.append(Elem(kind: kind))
            }
        }
        return elems
    }

    private func element(
        _ value: JSONValue, at location: Location, layer: Int, target: (owner: Int, elem: Int)
    ) -> Elem.Kind? {
        guard let members = object(value, at: location) else { return nil }
        // MsgType decides how MsgContent is read, wherever it stands.
        var type: RESTElemType?
        if let member = members.first(where: { $0.key == "MsgType" }), case .string(let name) = member.value {
            type = RESTElemType(rawValue: name)
        }
        var kind: Elem.Kind?
        let present = walkObject(members, at: location, known: RESTForms.elementKeys) { key, value, memberLocation in
            if key == "MsgType" {
                guard let name = self.string(value, at: memberLocation), type == nil else { return }
                self.report(
                    .restMsgType, memberLocation,
                    "\"\(name)\" is not a REST element type (\(RESTElemType.allCases.map(\.rawValue).joined(separator: ", ")))"
                )
            } else if let fields = self.object(value, at: memberLocation), let type {
                kind = self.content(type, fields, at: memberLocation, layer: layer, target: target)
            }
        }
        if present.count < RESTForms.elementKeys.count {
            let object = location.settled()
            for (sequence, key) in RESTForms.elementKeys.enumerated() where !present.contains(sequence) {
                report(.restMissingKey, object.end(key, sequence), "an element needs \(key)")
            }
        }
        return kind
    }

    private func content(
        _ type: RESTElemType, _ members: [JSONValue.Member], at location: Location, layer: Int,
        target: (owner: Int, elem: Int)
    ) -> Elem.Kind {
        switch type {
        case .text: .text(form(RESTForms.text, members, at: location, into: TextElem()))
        case .location: .location(form(RESTForms.location, members, at: location, into: LocationElem()))
        case .face: .face(form(RESTForms.face, members, at: location, into: FaceElem()))
        case .custom: .custom(form(RESTForms.custom, members, at: location, into: CustomElem()))
        case .sound: .sound(form(RESTForms.sound, members, at: location, into: SoundElem()))
        case .file: .file(form(RESTForms.file, members, at: location, into: FileElem()))
        case .video: .video(form(RESTForms.video, members, at: location, into: VideoElem()))
        case .image: .image(image(members, at: location))
        case .relay: .merger(relay(members, at: location, layer: layer, target: target))
        }
    }

    private func image(_ members: [JSONValue.Member], at location: Location) -> ImageElem {
        form(RESTForms.image, members, at: location, into: ImageElem()) { image, _, value, memberLocation in
            guard let entries = self.array(value, at: memberLocation), self.withinRepeated(entries, at: memberLocation)
            else { return }
            let levels = memberLocation.settled()
            for (index, entry) in entries.enumerated() {
                let entryLocation = levels.entry(index)
                guard let fields = self.object(entry, at: entryLocation) else { continue }
                image.levels.append(self.form(RESTForms.imageLevel, fields, at: entryLocation, into: ImageLevel()))
            }
        }
    }

    private func relay(
        _ members: [JSONValue.Member], at location: Location, layer: Int, target: (owner: Int, elem: Int)
    ) -> MergerElem {
        var listLength: Int?
        var msgNumRead = false
        let merger = form(RESTForms.relay, members, at: location, into: MergerElem()) {
            merger, key, value, memberLocation in
            guard let entries = self.array(value, at: memberLocation) else { return }
            if key == "AbstractList" {
                guard self.withinRepeated(entries, at: memberLocation) else { return }
                let lines = memberLocation.settled()
                for (index, entry) in entries.enumerated() {
                    if let line = self.string(entry, at: lines.entry(index)) { merger.abstracts.append(line) }
                }
                return
            }
            guard layer + 1 <= self.limits.maxDepth else {
                self.report(
                    .limitDepth, memberLocation,
                    "forwarded messages would be at merger layer \(layer + 1); at most \(self.limits.maxDepth) are allowed",
                    limit: self.limits.maxDepth, observed: layer + 1)
                return
            }
            guard self.withinRepeated(entries, at: memberLocation) else { return }
            listLength = entries.count
            self.pending.append(
                PendingList(
                    entries: entries, location: memberLocation, layer: layer + 1, owner: target.owner,
                    elem: target.elem))
        } onRead: { key in
            if key == "MsgNum" { msgNumRead = true }
        }
        let hasList = members.contains { $0.key == "MsgList" }
        let keyPosition = members.firstIndex { $0.key == "JsonMsgKey" }
        let hasKey = keyPosition != nil
        // An empty key names no stored list, and the model, where "" is the
        // absent key, could not give it back.
        if let keyPosition, case .string("") = members[keyPosition].value {
            report(
                .restRange, location.member("JsonMsgKey", keyPosition),
                "JsonMsgKey names where the forwarded messages are stored and cannot be empty")
        }
        // After the missing keys of the table, which take sequence numbers
        // up to the number of keys.
        let sequence = RESTForms.relay.keys.count
        if !hasList && !hasKey {
            report(.restMissingKey, location.end("MsgList", sequence), "a relay element needs MsgList or JsonMsgKey")
        }
        if hasList && hasKey {
            report(
                .restRelayListAndKey, location.end(nil, sequence + 1),
                "a relay element has MsgList or JsonMsgKey, not both")
        }
        if let listLength, msgNumRead, Int(merger.msgNum) != listLength {
            report(
                .restRelayMsgNum, location.end("MsgNum", sequence + 2),
                "MsgNum is \(merger.msgNum) but MsgList holds \(listLength) messages")
        }
        return merger
    }

    /// The number of entries of an array, as a problem's reason states it:
    /// the parser keeps at most ``DecodingLimits/largestCount`` + 1 entries
    /// of an array, so an array that long holds at least that many.
    private func described(_ count: Int) -> String {
        count > limits.largestCount ? "more than \(limits.largestCount)" : "\(count)"
    }

    private func withinRepeated(_ entries: [JSONValue], at location: Location) -> Bool {
        guard entries.count <= limits.maxRepeated else {
            report(
                .limitRepeated, location, "the array holds \(described(entries.count)) entries",
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
        at location: Location,
        into model: Model,
        nested: (inout Model, String, JSONValue, Location) -> Void = { _, _, _, _ in },
        onRead: (String) -> Void = { _ in }
    ) -> Model {
        var model = model
        let present = walkObject(members, at: location, known: form.names) { key, value, memberLocation in
            let spec = form.key(key)!
            if case .nested = spec.value {
                nested(&model, key, value, memberLocation)
            } else if self.read(value, as: spec, into: &model, at: memberLocation) {
                onRead(key)
            }
        }
        checkPresence(form, present, at: location)
        return model
    }

    /// Reports, in table order, every required key that is absent and every
    /// group key absent while another key of its group is present. `present`
    /// is what ``walkObject(_:at:known:skippable:aliases:visit:)`` returned
    /// for `known: form.names`, so its positions are those of `form.keys`.
    private func checkPresence<Model>(_ form: RESTForm<Model>, _ present: PresentKeys, at location: Location) {
        let groupStarted = present.bits & form.groupBits != 0
        var missing = (form.requiredBits | (groupStarted ? form.groupBits : 0)) & ~present.bits
        guard missing != 0 else { return }
        let object = location.settled()
        while missing != 0 {
            let sequence = missing.trailingZeroBitCount
            missing &= missing - 1
            let key = form.keys[sequence]
            if key.presence == .required {
                report(.restMissingKey, object.end(key.name, sequence), "\(key.name) is required")
            } else {
                report(
                    .restMissingKey, object.end(key.name, sequence), "\(given(form, present)) needs \(key.name) as well"
                )
            }
        }
    }

    /// The group keys present, in table order, for a reason.
    private func given<Model>(_ form: RESTForm<Model>, _ present: PresentKeys) -> String {
        form.keys.indices.filter { form.groupBits & present.bits & (1 << $0) != 0 }
            .map { form.keys[$0].name }.joined(separator: ", ")
    }

    /// Reads one scalar key; reports a problem and returns false when its
    /// value does not fit.
    @discardableResult
    private func read<Model>(_ value: JSONValue, as key: RESTKey<Model>, into model: inout Model, at location: Location)
        -> Bool
    {
        switch key.value {
        case .string(let field):
            guard let text = string(value, at: location) else { return false }
            model[keyPath: field] = text
        case .text(let field):
            guard let text = string(value, at: location) else { return false }
            model[keyPath: field] = Array(text.utf8)
        case .uint32(let field):
            guard let number = integer(value, at: location, in: 0...Int64(UInt32.max)) else { return false }
            model[keyPath: field] = UInt32(number)
            if key.name.hasSuffix("Download_Flag") || key.name.hasSuffix("DownloadFlag") {
                downloadFlags.append((location.path, UInt32(number)))
            }
        case .int32(let field):
            guard let number = integer(value, at: location, in: Int64(Int32.min)...Int64(Int32.max)) else {
                return false
            }
            model[keyPath: field] = Int32(number)
        case .double(let field):
            guard let number = double(value, at: location) else { return false }
            model[keyPath: field] = number
        case .imageFormat(let field):
            guard let number = integer(value, at: location, in: 0...Int64(Int32.max)) else { return false }
            model[keyPath: field] = ImageFormat(rawValue: Int32(number))
            imageFormats.append((location.path, Int32(number)))
        case .levelType(let field):
            guard let number = integer(value, at: location, in: 0...Int64(UInt32.max)) else { return false }
            guard (1...3).contains(number) else {
                report(.restRange, location, "Type \(number) is not 1 (original), 2 (large) or 3 (thumbnail)")
                return false
            }
            model[keyPath: field] = ImageLevelType(rawValue: Int32(number))
        case .nested:
            return false
        }
        return true
    }

    // MARK: Objects

    /// The known keys found in an object: a set over the positions of its
    /// list of known keys, which has at most 64.
    struct PresentKeys {
        fileprivate(set) var bits: UInt64 = 0

        /// Whether the known key at `position` is present.
        func contains(_ position: Int) -> Bool {
            bits & (1 << position) != 0
        }

        /// How many known keys are present.
        var count: Int { bits.nonzeroBitCount }
    }

    /// Walks an object's members in document order: reports duplicate,
    /// unknown and mis-cased keys, records skippable ones, and hands every
    /// known key's first occurrence to `visit`. A key of `aliases` stands for
    /// the known key it names (and is a duplicate of it). Returns the known
    /// keys present.
    @discardableResult
    private func walkObject(
        _ members: [JSONValue.Member],
        at location: Location,
        known: [String],
        skippable: Set<String> = [],
        aliases: [String: String] = [:],
        visit: (String, JSONValue, Location) -> Void
    ) -> PresentKeys {
        // Known keys are tracked by their position in `known`, without a
        // hash table per object; any other key seen is remembered in a set
        // made only when such a key occurs.
        var seenKnown: UInt64 = 0
        var seenOther = Set<String>()
        precondition(known.count <= 64, "a REST form has at most 64 keys")
        var present = PresentKeys()
        let object = location.settled()
        for (position, member) in members.enumerated() {
            let memberLocation = object.member(member.key, position)
            let key = aliases.isEmpty ? member.key : aliases[member.key] ?? member.key
            let knownPosition = known.firstIndex(of: key)
            let first: Bool
            if let knownPosition {
                first = seenKnown & (1 << knownPosition) == 0
                seenKnown |= 1 << knownPosition
            } else {
                first = seenOther.insert(key).inserted
            }
            guard first else {
                report(.restDuplicateKey, memberLocation, "\(member.key) gives \(key) a second time")
                continue
            }
            if let knownPosition {
                present.bits |= 1 << knownPosition
                visit(key, member.value, memberLocation)
            } else if skippable.contains(member.key) {
                let (path, order) = memberLocation.resolved
                skipped.append((order, path))
            } else if let match = (known + aliases.keys).first(where: { $0.lowercased() == member.key.lowercased() }) {
                // Counted as present: the key is there, misspelt, and is not also missing.
                if let matched = known.firstIndex(of: aliases[match] ?? match) { present.bits |= 1 << matched }
                report(.restKeyCase, memberLocation, "keys are case-sensitive: \(member.key) should be \(match)")
            } else {
                report(
                    .restUnknownKey, memberLocation,
                    "\(member.key) is not a key of this object (\(known.joined(separator: ", ")))")
            }
        }
        return present
    }

    // MARK: Values

    private func string(_ value: JSONValue, at location: Location) -> String? {
        if case .string(let text) = value { return text }
        report(.restType, location, "expected a string, found \(value.typeName)")
        return nil
    }

    private func object(_ value: JSONValue, at location: Location) -> [JSONValue.Member]? {
        if case .object(let members) = value { return members }
        report(.restType, location, "expected an object, found \(value.typeName)")
        return nil
    }

    private func array(_ value: JSONValue, at location: Location) -> [JSONValue]? {
        if case .array(let entries) = value { return entries }
        report(.restType, location, "expected an array, found \(value.typeName)")
        return nil
    }

    /// An integer literal in `range`: no fraction, no exponent.
    private func integer(_ value: JSONValue, at location: Location, in range: ClosedRange<Int64>) -> Int64? {
        guard case .number(let literal) = value else {
            report(.restType, location, "expected an integer, found \(value.typeName)")
            return nil
        }
        guard !literal.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) else {
            report(.restType, location, "expected an integer, found \(literal)")
            return nil
        }
        guard let number = Int64(literal), range.contains(number) else {
            report(.restRange, location, "\(literal) is outside \(range.lowerBound)...\(range.upperBound)")
            return nil
        }
        return number
    }

    private func double(_ value: JSONValue, at location: Location) -> Double? {
        guard case .number(let literal) = value else {
            report(.restType, location, "expected a number, found \(value.typeName)")
            return nil
        }
        guard let number = Double(literal), number.isFinite else {
            report(.restRange, location, "\(literal) is outside the range of a double")
            return nil
        }
        return number
    }

    // MARK: Reporting

    private func report(
        _ code: IMCodecError.Code, _ location: Location, _ reason: @autoclosure () -> String, limit: Int? = nil,
        observed: Int? = nil
    ) {
        problemCount += 1
        guard keep > 0 else { return }
        // Of two problems at one place the one found first comes first, so
        // one at the threshold's place is not among the first `keep` either.
        if let threshold {
            if let container = location.container, container === passedOver { return }
            let place = location.placed(against: threshold)
            guard place.before else {
                if place.restAfter { passedOver = location.container }
                return
            }
        }
        let (path, order) = location.resolved
        let error = IMCodecError(
            code, path: path, reason: reason(), limit: limit.map(Int64.init), observed: observed.map(Int64.init))
        found.append((order, error))
        sortedProblems = nil
        // Written so that a `keep` of Int.max, every problem, cannot overflow.
        if found.count - keep >= keep { compact() }
    }
}
