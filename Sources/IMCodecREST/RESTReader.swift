import IMCodec

/// One walk over a REST document: builds the model and collects every
/// problem, in document order (docs/spec/rest.md, "Strictness").
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
/// A reader may also leave the queued lists in the document and hand them
/// out, to be read a message at a time
/// (``messageLeavingForwarded(document:)``), or keep no message at all
/// (``keepsMessages``) when it looks only for problems.
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
        /// The offset of the list's `[` in the document.
        var start: Int
        var location: Location
        var layer: Int
        var owner: Int
        var elem: Int
        /// The relay's `MsgNum`, when read, and where a mismatch with the
        /// list's length is reported: the relay object's end.
        var msgNum: (value: UInt32, location: Location)?
    }

    /// The forwarded messages of one merger: the merger is elem `elem` of
    /// message `owner`; `children` are message ids.
    private struct Link {
        var owner: Int
        var elem: Int
        var children: [Int]
    }

    let limits: DecodingLimits
    /// The document being read, set by the entry points for their call,
    /// behind a pointer: the walk reads it at every step, and a stored
    /// property of a class pays a dynamic exclusivity check at each access.
    private let reading = UnsafeMutablePointer<JSONReader>.allocate(capacity: 1)

    /// The document being read.
    private var json: JSONReader {
        _read { yield reading.pointee }
        _modify { yield &reading.pointee }
    }
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

    /// Whether the messages read are kept and put together: a walk that
    /// only looks for problems keeps none, and holds one message at a time.
    let keepsMessages: Bool

    /// Creates a reader.
    ///
    /// - Parameters:
    ///   - limits: Bounds while reading.
    ///   - keep: How many problems to keep.
    ///   - keepsMessages: Whether the messages read are kept: `false` for a
    ///     walk that only finds the problems (and the download flags and
    ///     image formats), whose messages come back empty.
    package init(limits: DecodingLimits, keep: Int, keepsMessages: Bool = true) {
        self.limits = limits
        self.keep = max(keep, 0)
        self.keepsMessages = keepsMessages
        reading.initialize(to: JSONReader())
    }

    deinit {
        reading.deinitialize(count: 1)
        reading.deallocate()
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

    /// Paths of the envelope keys skipped (docs/spec/rest.md, "Envelope-only keys"), in document order.
    var skippedKeys: [FieldPath] {
        skipped.sorted { $0.order.lexicographicallyPrecedes($1.order) }.map(\.path)
    }

    /// The JSON nesting a document may reach: a merger layer takes five
    /// levels (message, `MsgBody`, element, `MsgContent`, `MsgList`); eight
    /// leave room for push-info objects.
    static func maxNesting(for limits: DecodingLimits) -> Int {
        let (layers, overflow) = limits.maxDepth.addingReportingOverflow(1)
        let (nesting, tooDeep) = layers.multipliedReportingOverflow(by: 8)
        return overflow || tooDeep || nesting > Int.max - 8 ? .max : nesting + 8
    }

    /// The members whose objects and arrays the walk steps over and comes
    /// back to: an element's `MsgContent`, read once its `MsgType` is known
    /// wherever it stands, and a relay's `MsgList`, queued. The first pass
    /// over the document records their extents, so that stepping over one
    /// costs nothing however much it holds (``JSONDocumentIndex``).
    package static let extentKeys = ["MsgContent", "MsgList"]

    /// Checks `utf8` as a REST document under `limits` and calls `body` with
    /// a reader at its root.
    ///
    /// - Throws: `limit.document-size`, `json.syntax`, `json.depth`, then
    ///   what `body` throws.
    package static func withDocument<Result>(
        _ utf8: some Collection<UInt8>, limits: DecodingLimits,
        _ body: (inout JSONReader) throws(IMCodecError) -> Result
    ) throws(IMCodecError) -> Result {
        try JSONDocument.read(
            utf8, limits: limits, maxNesting: maxNesting(for: limits), extentKeys: extentKeys, body)
    }

    // MARK: Documents

    /// Reads a message: a bare `MsgBody` array or a message object.
    package func message(document reader: inout JSONReader) -> Message {
        json = reader
        defer { reader = json }
        guard let id = documentMessage() else { return Message() }
        return assemble(id)
    }

    /// Reads the document's message, a bare `MsgBody` array or a message
    /// object, into a new id, its relays' `MsgList`s queued; `nil` (and a
    /// problem) when the document holds neither.
    private func documentMessage() -> Int? {
        switch json.kind() {
        case .array:
            let id = reserve()
            var message = Message()
            message.elems = elems(at: Location.root.member("MsgBody", 0), layer: 0, owner: id)
            built[id] = keepsMessages ? message : Message()
            return id
        case .object where messageListKey() == nil:
            return message(at: .root, layer: 0, forwarded: false)
        case .object:
            report(.restType, .root, "expected a MsgBody array or a message object, found a message list")
        case let kind:
            report(.restType, .root, "expected a MsgBody array or a message object, found \(kind.typeName)")
        }
        json.skipValue()
        return nil
    }

    /// Reads a message list: `{"MsgList": [...]}` or `{"RspMsgList": [...]}`.
    ///
    /// With `body`, each message is handed to it as soon as it and the
    /// messages forwarded in it are read, and then dropped: the batch
    /// returned is empty, and the walk holds one message at a time. Problems
    /// are found and kept as without it.
    ///
    /// - Parameters:
    ///   - reader: A reader at the document's root.
    ///   - body: Called with each message and its index in the batch.
    package func batch(document reader: inout JSONReader, each body: (Message, Int) -> Void) -> MessageBatch {
        withoutActuallyEscaping(body) { body in batch(document: &reader, handingTo: body) }
    }

    /// Reads a message list: `{"MsgList": [...]}` or `{"RspMsgList": [...]}`.
    package func batch(document reader: inout JSONReader) -> MessageBatch {
        batch(document: &reader, handingTo: nil)
    }

    /// Reads a message list as ``batch(document:each:)`` does, handing each
    /// message to `body` without its forwarded messages, as
    /// ``messageLeavingForwarded(document:)`` reads a message: with its
    /// relays' lists, which `body` may read with ``forwardedMessage(in:at:)``
    /// before it returns.
    ///
    /// - Parameters:
    ///   - reader: A reader at the document's root.
    ///   - body: Called with each message, its relays' lists and its index
    ///     in the batch.
    package func batchLeavingForwarded(
        document reader: inout JSONReader, each body: (Message, [ForwardedList], Int) -> Void
    ) {
        withoutActuallyEscaping(body) { body in _ = batch(document: &reader, handingTo: nil, leavingForwarded: body) }
    }

    private func batch(
        document reader: inout JSONReader, handingTo body: ((Message, Int) -> Void)?,
        leavingForwarded leaving: ((Message, [ForwardedList], Int) -> Void)? = nil
    ) -> MessageBatch {
        json = reader
        defer { reader = json }
        let kind = json.kind()
        guard kind == .object, let listKey = messageListKey() else {
            let found =
                switch kind {
                case .object: "a message object"
                case .array: "a MsgBody array"
                default: kind.typeName
                }
            report(.restType, .root, "expected a message list (an object with MsgList or RspMsgList), found \(found)")
            json.skipValue()
            return MessageBatch()
        }
        // The list's GroupId applies to its messages, wherever it stands: it
        // is found ahead of the walk, which reads it again for its problems.
        var groupID = ""
        var lookahead = json
        lookahead.beginObject()
        while let key = lookahead.nextKey() {
            if key == "GroupId" {
                if case .string(let value) = lookahead.scalar() { groupID = value }
                break
            }
            lookahead.skipValue()
        }
        func grouped(_ message: Message) -> Message {
            guard !groupID.isEmpty && message.groupID.isEmpty else { return message }
            var message = message
            message.groupID = groupID
            return message
        }
        var ids: [Int] = []
        var delivered = 0
        walkObject(at: .root, known: [listKey, "GroupId"], skippable: RESTForms.envelopeOnlyKeys) { key, location in
            if key == "GroupId" {
                _ = self.string(at: location)
            } else if self.isArray(at: location) {
                if let count = self.json.longCount(), count > self.limits.maxBatchMessages {
                    self.report(
                        .limitBatchMessages, location, "the list holds \(self.described(count)) messages",
                        limit: self.limits.maxBatchMessages, observed: count)
                    return
                }
                self.forEachEntry(at: location) { entryLocation in
                    guard self.isObject(at: entryLocation) else { return }
                    let id = self.message(at: entryLocation, layer: 0, forwarded: false)
                    if let leaving {
                        // Its forwarded messages are read by `leaving`, and
                        // the walk goes on where it was.
                        let (message, lists) = self.leavingForwarded(id)
                        let resume = self.json.position
                        leaving(grouped(message), lists, delivered)
                        self.json.position = resume
                        delivered += 1
                        return
                    }
                    guard let body else {
                        ids.append(id)
                        return
                    }
                    // Its forwarded messages are read now, and the walk
                    // goes on where it was.
                    let resume = self.json.position
                    let message = self.assemble(id)
                    self.json.position = resume
                    self.built.removeSubrange(id...)
                    body(grouped(message), delivered)
                    delivered += 1
                }
            }
        }
        readPending()
        var batch = MessageBatch()
        batch.messages = ids.map { grouped(assembled($0)) }
        return batch
    }

    /// Whether the object at the reader's position is a message list: it
    /// has `MsgList` or `RspMsgList` and no `MsgBody`.
    package func isMessageList(_ reader: JSONReader) -> Bool {
        json = reader
        return messageListKey() != nil
    }

    /// The key of a message list's list, the first of `MsgList` and
    /// `RspMsgList` in the root object at the reader's position, or `nil`
    /// when the object is not a message list (it has neither, or a
    /// `MsgBody`). The reader does not move.
    package func messageListKey(_ reader: JSONReader) -> String? {
        json = reader
        return messageListKey()
    }

    private func messageListKey() -> String? {
        var lookahead = json
        lookahead.beginObject()
        var listKey: String?
        while let key = lookahead.nextKey() {
            if key == "MsgBody" { return nil }
            if listKey == nil && RESTForms.messageListKeys.contains(key) { listKey = key }
            lookahead.skipValue()
        }
        return listKey
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
            json.position = list.start
            let count = forEachEntry(at: list.location) { location in
                guard isObject(at: location) else { return }
                children.append(message(at: location, layer: list.layer, forwarded: true))
            }
            links.append(Link(owner: list.owner, elem: list.elem, children: children))
            if let msgNum = list.msgNum, Int(msgNum.value) != count {
                report(
                    .restRelayMsgNum, msgNum.location, "MsgNum is \(msgNum.value) but MsgList holds \(count) messages")
            }
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

    // MARK: Forwarded messages one at a time

    /// The forwarded messages of one relay, left in the document to be
    /// read one at a time with ``forwardedMessage(in:at:)``.
    package struct ForwardedList {
        /// The index of the relay's element in its message's elems.
        package let elem: Int
        /// Where each forwarded message's object starts in the document.
        fileprivate let starts: [Int]
        fileprivate let location: Location
        fileprivate let layer: Int

        /// The number of forwarded messages.
        package var count: Int { starts.count }
    }

    /// Reads the document's message, a bare `MsgBody` array or a message
    /// object, without its forwarded messages: each relay's `merger.messages`
    /// holds as many empty messages as its `MsgList` holds, and the lists
    /// come back, in elem order, to be read with
    /// ``forwardedMessage(in:at:)`` while the document is open. So a relay
    /// nested any depth costs one message per layer, not the whole tree.
    ///
    /// Meant for a document without problems (as a first walk finds them),
    /// on a reader that keeps its messages.
    ///
    /// - Parameter reader: A reader at the document's root.
    /// - Returns: The message and its relays' lists; an empty message and no
    ///   list when the document holds no message.
    package func messageLeavingForwarded(document reader: inout JSONReader) -> (
        message: Message, lists: [ForwardedList]
    ) {
        json = reader
        defer { reader = json }
        guard let id = documentMessage() else {
            built.removeAll()
            pending.removeAll()
            return (Message(), [])
        }
        return leavingForwarded(id)
    }

    /// Reads forwarded message `index` of `list` as
    /// ``messageLeavingForwarded(document:)`` reads the document's: its own
    /// relays' lists come back with it.
    ///
    /// - Parameters:
    ///   - list: A list returned with the message that holds it.
    ///   - index: The message's index in the list.
    /// - Returns: The message and its relays' lists.
    package func forwardedMessage(in list: ForwardedList, at index: Int) -> (
        message: Message, lists: [ForwardedList]
    ) {
        json.position = list.starts[index]
        let id = message(at: list.location.entry(index), layer: list.layer, forwarded: true)
        return leavingForwarded(id)
    }

    /// Message `id`, just read, with an empty message in its relays for
    /// each forwarded one, and its queued lists.
    private func leavingForwarded(_ id: Int) -> (message: Message, lists: [ForwardedList]) {
        precondition(keepsMessages, "a reader that keeps no message has none to hand out")
        var message = built[id]
        built.removeAll(keepingCapacity: true)
        let queued = pending.sorted { $0.elem < $1.elem }
        pending.removeAll()
        let resume = json.position
        defer { json.position = resume }
        var lists: [ForwardedList] = []
        for list in queued {
            json.position = list.start
            var starts: [Int] = []
            forEachEntry(at: list.location) { location in
                guard self.isObject(at: location) else { return }
                starts.append(self.json.valueStart())
                // The relays inside are stepped over by their recorded extents.
                self.json.skipValueOverExtents()
            }
            if list.elem < message.elems.count, case .merger(var merger)? = message.elems[list.elem].kind {
                merger.messages = Array(repeating: Message(), count: starts.count)
                message.elems[list.elem].kind = .merger(merger)
            }
            lists.append(ForwardedList(elem: list.elem, starts: starts, location: list.location, layer: list.layer))
        }
        return (message, lists)
    }

    // MARK: Messages and elements

    /// Reads the message object at the reader's position into a new id.
    private func message(at location: Location, layer: Int, forwarded: Bool) -> Int {
        let id = reserve()
        let form = forwarded ? RESTForms.forwardedMessage : RESTForms.message
        var envelope = RESTEnvelope()
        var message = Message()
        let present = walkObject(
            at: location, known: form.names, skippable: RESTForms.envelopeOnlyKeys,
            aliases: RESTForms.messageAliases
        ) { key, memberLocation in
            switch key {
            case "MsgBody":
                if self.isArray(at: memberLocation) {
                    message.elems = self.elems(at: memberLocation, layer: layer, owner: id)
                }
            case "OfflinePushInfo":
                if self.isObject(at: memberLocation) {
                    let push = self.offlinePush(at: memberLocation)
                    message.offlinePushInfo = push == OfflinePushInfo() ? nil : push
                }
            default:
                self.read(as: form.key(key)!, into: &envelope, at: memberLocation)
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
        built[id] = keepsMessages ? message : Message()
        return id
    }

    private func offlinePush(at location: Location) -> OfflinePushInfo {
        var push = OfflinePushInfo()
        walkObject(at: location, known: RESTForms.offlinePush.names) { key, memberLocation in
            switch key {
            case "AndroidInfo":
                if self.isObject(at: memberLocation) {
                    let android = self.form(RESTForms.android, at: memberLocation, into: AndroidPushInfo())
                    push.android = android == AndroidPushInfo() ? nil : android
                }
            case "ApnsInfo":
                if self.isObject(at: memberLocation) {
                    let apns = self.form(RESTForms.apns, at: memberLocation, into: RESTApns())
                    push.iosSound = apns.sound
                    push.apns = apns.apns == ApnsPushInfo() ? nil : apns.apns
                }
            default:
                self.read(as: RESTForms.offlinePush.key(key)!, into: &push, at: memberLocation)
            }
        }
        return push
    }

    /// Reads the `MsgBody` array at the reader's position.
    private func elems(at location: Location, layer: Int, owner: Int) -> [Elem] {
        if let count = json.longCount(), count > limits.maxElems {
            report(
                .limitElems, location, "the body holds \(described(count)) elements",
                limit: limits.maxElems, observed: count)
            json.skipValue()
            return []
        }
        var elems: [Elem] = []
        forEachEntry(at: location) { entryLocation in
            let target = (owner: owner, elem: elems.count)
            if let kind = element(at: entryLocation, layer: layer, target: target) {
                elems.append(Elem(kind: kind))
            }
        }
        return elems
    }

    /// Reads the element at the reader's position.
    private func element(at location: Location, layer: Int, target: (owner: Int, elem: Int)) -> Elem.Kind? {
        guard isObject(at: location) else { return nil }
        // MsgType decides how MsgContent is read, wherever it stands: found
        // ahead of the walk, stepping over MsgContent by its recorded extent.
        var type: RESTElemType?
        var lookahead = json
        lookahead.beginObject()
        while let key = lookahead.nextKey() {
            if key == "MsgType" {
                if case .string(let name) = lookahead.scalar() { type = RESTElemType(rawValue: name) }
                break
            }
            lookahead.skipValue()
        }
        var kind: Elem.Kind?
        let present = walkObject(at: location, known: RESTForms.elementKeys) { key, memberLocation in
            if key == "MsgType" {
                guard let name = self.string(at: memberLocation), type == nil else { return }
                self.report(
                    .restMsgType, memberLocation,
                    "\"\(name)\" is not a REST element type (\(RESTElemType.allCases.map(\.rawValue).joined(separator: ", ")))"
                )
            } else if self.isObject(at: memberLocation), let type {
                kind = self.content(type, at: memberLocation, layer: layer, target: target)
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
        _ type: RESTElemType, at location: Location, layer: Int, target: (owner: Int, elem: Int)
    ) -> Elem.Kind {
        if let kind = tableContent(type, at: location) { return kind }
        switch type {
        case .image: return .image(image(at: location))
        case .relay: return .merger(relay(at: location, layer: layer, target: target))
        default: preconditionFailure("\(type) maps by its table (Generated/RESTTables.swift)")
        }
    }

    private func image(at location: Location) -> ImageElem {
        form(RESTForms.image, at: location, into: ImageElem()) { image, _, memberLocation in
            guard self.isArray(at: memberLocation), self.withinRepeated(at: memberLocation) else { return }
            self.forEachEntry(at: memberLocation) { entryLocation in
                guard self.isObject(at: entryLocation) else { return }
                image.levels.append(self.form(RESTForms.imageLevel, at: entryLocation, into: ImageLevel()))
            }
        }
    }

    private func relay(at location: Location, layer: Int, target: (owner: Int, elem: Int)) -> MergerElem {
        var queued: Int?
        var msgNumRead = false
        var hasList = false
        var keyPosition: (position: Int, empty: Bool)?
        let merger = form(RESTForms.relay, at: location, into: MergerElem()) { merger, key, memberLocation in
            guard self.isArray(at: memberLocation) else { return }
            if key == "AbstractList" {
                guard self.withinRepeated(at: memberLocation) else { return }
                self.forEachEntry(at: memberLocation) { entryLocation in
                    if let line = self.string(at: entryLocation) { merger.abstracts.append(line) }
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
            guard self.withinRepeated(at: memberLocation) else { return }
            let start = self.json.valueStart()
            queued = self.pending.count
            self.pending.append(
                PendingList(
                    start: start, location: memberLocation, layer: layer + 1, owner: target.owner, elem: target.elem))
            self.json.skipValue()
        } onRead: { key in
            if key == "MsgNum" { msgNumRead = true }
        } observe: { key, position in
            if key == "MsgList" { hasList = true }
            if key == "JsonMsgKey" && keyPosition == nil {
                var value = self.json
                keyPosition = (position, value.kind() == .string && value.readString().isEmpty)
            }
        }
        // An empty key names no stored list, and the model, where "" is the
        // absent key, could not give it back.
        if let keyPosition, keyPosition.empty {
            report(
                .restRange, location.member("JsonMsgKey", keyPosition.position),
                "JsonMsgKey names where the forwarded messages are stored and cannot be empty")
        }
        // After the missing keys of the table, which take sequence numbers
        // up to the number of keys.
        let sequence = RESTForms.relay.keys.count
        let hasKey = keyPosition != nil
        if !hasList && !hasKey {
            report(.restMissingKey, location.end("MsgList", sequence), "a relay element needs MsgList or JsonMsgKey")
        }
        if hasList && hasKey {
            report(
                .restRelayListAndKey, location.end(nil, sequence + 1),
                "a relay element has MsgList or JsonMsgKey, not both")
        }
        // The list's length is known once it is read; the mismatch is
        // reported then, at its place in document order.
        if let queued, msgNumRead {
            pending[queued].msgNum = (merger.msgNum, location.end("MsgNum", sequence + 2))
        }
        return merger
    }

    /// The number of entries of an array, as a problem's reason states it:
    /// the first pass counts at most ``DecodingLimits/largestCount`` + 1
    /// entries of an array, so an array that long holds at least that many.
    private func described(_ count: Int) -> String {
        count > limits.largestCount ? "more than \(limits.largestCount)" : "\(count)"
    }

    /// Whether the array at the reader's position is within
    /// ``DecodingLimits/maxRepeated``; reports it when it is not.
    private func withinRepeated(at location: Location) -> Bool {
        guard let count = json.longCount(), count > limits.maxRepeated else { return true }
        report(
            .limitRepeated, location, "the array holds \(described(count)) entries",
            limit: limits.maxRepeated, observed: count)
        return false
    }

    /// Reads the entries of the array at the reader's position, calling
    /// `body` at each with its location; an entry `body` leaves unread is
    /// stepped over.
    ///
    /// - Returns: The number of entries.
    @discardableResult
    private func forEachEntry(at location: Location, _ body: (Location) -> Void) -> Int {
        let entries = location.settled()
        json.beginArray()
        var index = 0
        while json.nextEntry() {
            let start = json.valueStart()
            body(entries.entry(index))
            if json.position == start { json.skipValue() }
            index += 1
        }
        return index
    }

    // MARK: Forms

    /// Reads the object at the reader's position into `model`: scalar keys
    /// by the table, nested ones through `nested`; then reports absent keys.
    func form<Model>(
        _ form: RESTForm<Model>,
        at location: Location,
        into model: Model,
        nested: (inout Model, String, Location) -> Void = { _, _, _ in },
        onRead: (String) -> Void = { _ in },
        observe: (String, Int) -> Void = { _, _ in }
    ) -> Model {
        var model = model
        let present = walkObject(at: location, known: form.names, observe: observe) { key, memberLocation in
            let spec = form.key(key)!
            if case .nested = spec.value {
                nested(&model, key, memberLocation)
            } else if self.read(as: spec, into: &model, at: memberLocation) {
                onRead(key)
            }
        }
        checkPresence(form, present, at: location)
        return model
    }

    /// Reports, in table order, every required key that is absent and every
    /// group key absent while another key of its group is present. `present`
    /// is what ``walkObject(at:known:skippable:aliases:observe:visit:)``
    /// returned for `known: form.names`, so its positions are those of
    /// `form.keys`.
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

    /// Reads one scalar key at the reader's position; reports a problem and
    /// returns false when its value does not fit.
    @discardableResult
    private func read<Model>(as key: RESTKey<Model>, into model: inout Model, at location: Location) -> Bool {
        switch key.value {
        case .string(let field):
            guard let text = string(at: location) else { return false }
            model[keyPath: field] = text
        case .text(let field):
            guard let text = string(at: location) else { return false }
            model[keyPath: field] = Array(text.utf8)
        case .uint32(let field):
            guard let number = integer(at: location, in: 0...Int64(UInt32.max)) else { return false }
            model[keyPath: field] = UInt32(number)
            if key.name.hasSuffix("Download_Flag") || key.name.hasSuffix("DownloadFlag") {
                downloadFlags.append((location.path, UInt32(number)))
            }
        case .int32(let field):
            guard let number = integer(at: location, in: Int64(Int32.min)...Int64(Int32.max)) else {
                return false
            }
            model[keyPath: field] = Int32(number)
        case .double(let field):
            guard let number = double(at: location) else { return false }
            model[keyPath: field] = number
        case .imageFormat(let field):
            guard let number = integer(at: location, in: 0...Int64(Int32.max)) else { return false }
            model[keyPath: field] = ImageFormat(rawValue: Int32(number))
            imageFormats.append((location.path, Int32(number)))
        case .levelType(let field):
            guard let number = integer(at: location, in: 0...Int64(UInt32.max)) else { return false }
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

    /// Walks the members of the object at the reader's position in document
    /// order: reports duplicate, unknown and mis-cased keys, records
    /// skippable ones, and hands every known key's first occurrence to
    /// `visit`, with the reader at its value. A key of `aliases` stands for
    /// the known key it names (and is a duplicate of it). `observe` sees
    /// every member's key and position first, with the reader at its value.
    /// A value `visit` leaves unread, and every other value, is stepped over.
    /// Returns the known keys present.
    @discardableResult
    private func walkObject(
        at location: Location,
        known: [String],
        skippable: Set<String> = [],
        aliases: [String: String] = [:],
        observe: (String, Int) -> Void = { _, _ in },
        visit: (String, Location) -> Void
    ) -> PresentKeys {
        // Known keys are tracked by their position in `known`, without a
        // hash table per object; any other key seen is remembered in a set
        // made only when such a key occurs.
        var seenKnown: UInt64 = 0
        var seenOther = Set<String>()
        precondition(known.count <= 64, "a REST form has at most 64 keys")
        var present = PresentKeys()
        let object = location.settled()
        json.beginObject()
        var position = 0
        while let memberKey = json.nextKey() {
            defer { position += 1 }
            let start = json.valueStart()
            observe(memberKey, position)
            let memberLocation = object.member(memberKey, position)
            let key = aliases.isEmpty ? memberKey : aliases[memberKey] ?? memberKey
            let knownPosition = known.firstIndex(of: key)
            let first: Bool
            if let knownPosition {
                first = seenKnown & (1 << knownPosition) == 0
                seenKnown |= 1 << knownPosition
            } else {
                first = seenOther.insert(key).inserted
            }
            if !first {
                report(.restDuplicateKey, memberLocation, "\(memberKey) gives \(key) a second time")
            } else if let knownPosition {
                present.bits |= 1 << knownPosition
                visit(key, memberLocation)
            } else if skippable.contains(memberKey) {
                let (path, order) = memberLocation.resolved
                skipped.append((order, path))
            } else if let match = (known + aliases.keys).first(where: { $0.lowercased() == memberKey.lowercased() }) {
                // Counted as present: the key is there, misspelt, and is not also missing.
                if let matched = known.firstIndex(of: aliases[match] ?? match) { present.bits |= 1 << matched }
                report(.restKeyCase, memberLocation, "keys are case-sensitive: \(memberKey) should be \(match)")
            } else {
                report(
                    .restUnknownKey, memberLocation,
                    "\(memberKey) is not a key of this object (\(known.joined(separator: ", ")))")
            }
            if json.position == start { json.skipValue() }
        }
        return present
    }

    // MARK: Values

    /// Reads a string at the reader's position; reports any other value,
    /// which it leaves unread when it is an array or an object.
    private func string(at location: Location) -> String? {
        let value = json.scalar()
        if case .string(let text) = value { return text }
        report(.restType, location, "expected a string, found \(value.typeName)")
        return nil
    }

    /// Whether the value at the reader's position is an object; reports it
    /// when it is not. Nothing is read.
    private func isObject(at location: Location) -> Bool {
        let kind = json.kind()
        if kind == .object { return true }
        report(.restType, location, "expected an object, found \(kind.typeName)")
        return false
    }

    /// Whether the value at the reader's position is an array; reports it
    /// when it is not. Nothing is read.
    private func isArray(at location: Location) -> Bool {
        let kind = json.kind()
        if kind == .array { return true }
        report(.restType, location, "expected an array, found \(kind.typeName)")
        return false
    }

    /// An integer literal in `range`: no fraction, no exponent.
    private func integer(at location: Location, in range: ClosedRange<Int64>) -> Int64? {
        let value = json.scalar()
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

    private func double(at location: Location) -> Double? {
        let value = json.scalar()
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
