import IMCodec

/// One pass of the validator over a message, batch or event: the rule engine
/// that executes the constraint declarations of `Schemas/` as a compiled
/// ``RuleTable`` holds them (docs/spec/validation.md, "Reading the
/// declarations"). It names no limit, field or finding code of its own but
/// for the three named predicates (`ValidationRun+Predicates.swift`).
///
/// The walk visits a message's declarations, then its message fields in
/// field order, each entry of a repeated one. Fields whose entries can hold
/// their holder's type again (a merger's messages) are not visited by
/// recursion: their lists wait on ``pending`` and are visited after the
/// message that holds them, in document order, so a value nested any depth
/// cannot overflow the stack. The visit of every other field recurses only
/// as deep as the schema's types nest.
///
/// Run with the library's table, a message is visited by its type's compiled
/// visit (`ValidationRun+Compiled.swift`, generated from the same table by
/// `scripts/codegen/generate_swift_compiled.py`): the same declarations in
/// the same order, each field read in place by its property, and each
/// declaration of a form the generator does not write out handed to this
/// engine's code for that entry (``apply(_:field:to:at:)``,
/// ``run(_:at:)``). Any other table is read entry by entry.
///
/// Paths are not built while walking: the position is the stack of
/// ``frames`` below the current node, and a node (a message that waited on
/// ``pending``, or the root) sits in a tree of ``nodes``; a ``FieldPath`` is
/// made only when a finding is reported.
final class ValidationRun {
    /// A message being visited: where it sits below the frame above it, and
    /// the value itself, reachable while its visit runs.
    struct Frame {
        /// Its type.
        var type: Int
        /// Its field's slot in the frame above; -1 for a node's root.
        var slot: Int
        /// Its index in that field; -1 for a singular field.
        var index: Int
        /// The value, valid while the frame is on the stack.
        var pointer: UnsafeRawPointer
        /// Reads the value at ``pointer``.
        var access: any ReflectedMessage.Type
    }

    /// One step of a node's position: field `slot` of a message of type
    /// `holder`, entry `index` (-1 for a singular field).
    struct Step {
        var holder: Int
        var slot: Int
        var index: Int
    }

    /// A node: a message visited from ``pending``, placed below its parent
    /// node by ``steps``.
    struct PathNode {
        /// The parent node; 0 is the root of the validated value.
        var parent: Int
        /// Its steps in ``steps``.
        var steps: Range<Int>
    }

    /// The entries of a deferred field, waiting to be visited in order.
    struct PendingList {
        /// The field's entries.
        var list: any ReflectedList
        /// The index of the next entry to visit.
        var next: Int
        /// The node of the field's holder (its steps end at the holder).
        var holderNode: Int
        /// The node the holder's frames were below.
        var parent: Int
        /// The last index on the way from that node to the holder (the
        /// merger elem's index in its message's elems).
        var elem: Int
        /// The holder's type and the field's slot.
        var holder: Int
        var slot: Int
        /// How many messages of the holder's type hold the field's entries,
        /// the holder included.
        var layer: Int
    }

    /// Where a forwarded message stands, as ``forwarded`` is asked for it.
    struct ForwardedPlace {
        /// The node of the message whose merger forwards it.
        var parent: Int
        /// The index of the merger elem in that message.
        var elem: Int
        /// The message's index in the merger's list.
        var index: Int
        /// The node made for the message.
        var node: Int
    }

    /// The compiled declarations.
    let table: RuleTable
    /// The limits checked: the caller's value, borrowed for the run's life
    /// (``Validator`` makes a run inside `withUnsafePointer(to:)`), so that
    /// starting a run copies and retains none of it.
    let limits: UnsafePointer<ValidationLimits>
    /// Whether messages are visited by the compiled visits, which were
    /// generated from the library's table: true for a run of that table
    /// unless the run was made to read the table instead.
    let isCompiled: Bool
    /// Limit values read from the table for one profile instead of from
    /// ``limits``, by limit index; `nil` for the library's runs.
    let tableBounds: [LimitBound]?
    /// The findings, in the order they were found.
    @exclusivity(unchecked) private(set) var findings: [ValidationFinding] = []
    /// The messages being visited below the current node, outermost first.
    @exclusivity(unchecked) var frames: [Frame] = []
    /// Emptied frame stacks of nodes whose visit ended, kept for the next
    /// node's visit so that visiting a node allocates no stack.
    @exclusivity(unchecked) private var spareFrames: [[Frame]] = []
    /// The steps of every node.
    @exclusivity(unchecked) var steps: [Step] = []
    /// Nodes below the root; node `n` is `nodes[n - 1]`.
    @exclusivity(unchecked) var nodes: [PathNode] = []
    /// The node the frames are below; 0 is the root.
    @exclusivity(unchecked) var node = 0
    /// The layer of the current node's root, for layer limits: how many
    /// messages of the deferring holder's type hold it.
    @exclusivity(unchecked) var nodeLayer = 0
    /// Deferred lists still to visit, the next one last.
    @exclusivity(unchecked) var pending: [PendingList] = []
    /// Added to the index of the root's own entries in paths (a batch
    /// validated one message at a time).
    @exclusivity(unchecked) var rootIndexOffset = 0
    /// Gives each merger's messages as the walk reaches them, when the
    /// mergers hold stand-ins (as many empty messages as they forward)
    /// instead of their messages; `nil` when they hold their messages.
    var forwarded: ((ForwardedPlace) -> Message)?

    /// Creates a run.
    ///
    /// - Parameters:
    ///   - limits: The limits to check against.
    ///   - table: The declarations to execute.
    ///   - profile: When given, the limits' values are the table's for
    ///     this profile instead of `limits`.
    ///   - compiled: Whether the library's table is executed by the
    ///     compiled visits (false: by reading the table, as for any other).
    init(
        limits: UnsafePointer<ValidationLimits>, table: RuleTable = .library, profile: String? = nil,
        compiled: Bool = true
    ) {
        self.limits = limits
        self.table = table
        self.isCompiled = compiled && table === RuleTable.library
        self.tableBounds = profile.map { profile in
            table.declared.limits.map { LimitBound(declared: $0, profile: profile) }
        }
        // Room for the frames of a message's elems and what they hold
        // (message, elem, image, level, a probed entry, one to spare); a
        // deeper value grows the stack.
        frames.reserveCapacity(6)
    }

    /// The value of a number limit, index `limit` in the table: `value`
    /// (the limits' property, which the compiled visits read in place),
    /// unless the run reads the table's values for a profile.
    @inline(__always) func number(_ limit: Int, _ value: Int?) -> Int? {
        guard let tableBounds else { return value }
        if case .number(let number) = tableBounds[limit] { return number }
        return nil
    }

    /// Whether a flag limit, index `limit` in the table, is set: `value`
    /// unless the run reads the table's values for a profile.
    @inline(__always) func flag(_ limit: Int, _ value: Bool) -> Bool {
        guard let tableBounds else { return value }
        if case .flag = tableBounds[limit] { return true }
        return false
    }

    /// The strings of a string-set limit, index `limit` in the table:
    /// `value` unless the run reads the table's values for a profile.
    @inline(__always) func strings(_ limit: Int, _ value: Set<String>?) -> Set<String>? {
        guard let tableBounds else { return value }
        if case .strings(let strings) = tableBounds[limit] { return strings }
        return nil
    }

    /// The value of limit property `property` (``ValidationLimits/boundNames``).
    func limitBound(_ property: Int) -> LimitBound {
        ValidationLimits.bound(property, of: limits)
    }

    // MARK: Entry points

    /// Validates `message` and every message nested in its mergers.
    func validate(message: Message) {
        visitRoot(message)
    }

    /// Validates a batch, one message at a time (``validate(batchMessage:at:)``).
    func validate(batch: MessageBatch) {
        for (index, message) in batch.messages.enumerated() {
            validate(batchMessage: message, at: index)
        }
    }

    /// Validates the message at `index` of a batch, with the batch's rules
    /// on it, at `messages[index]`: a batch's findings are those of its
    /// messages in order, so a reader may validate them one at a time.
    func validate(batchMessage message: Message, at index: Int) {
        rootIndexOffset = index
        visitRoot(MessageBatch(messages: [message]))
        rootIndexOffset = 0
    }

    /// Validates an event.
    func validate(event: Event) {
        visitRoot(event)
    }

    /// Validates the content of a frame: a message, a batch or an event.
    func validate(payload: FramePayload) {
        switch payload {
        case .message(let message): validate(message: message)
        case .batch(let batch): validate(batch: batch)
        case .event(let event): validate(event: event)
        }
    }

    // MARK: The walk

    /// Visits the root value and every list it defers.
    private func visitRoot<Value: ReflectedMessage>(_ value: Value) {
        node = 0
        nodeLayer = 0
        frames.removeAll(keepingCapacity: true)
        withUnsafePointer(to: value) { visitDraining($0, slot: -1, index: -1) }
    }

    /// Visits a message, then the lists deferred below it.
    func visitDraining<Value: ReflectedMessage>(_ value: UnsafePointer<Value>, slot: Int, index: Int) {
        let mark = pending.count
        visit(value, slot: slot, index: index)
        drain(downTo: mark)
    }

    /// Visits the deferred lists above `mark` on ``pending``, each entry as
    /// the root of a node of its own, until none is left above `mark`.
    func drain(downTo mark: Int) {
        guard pending.count > mark else { return }
        var savedFrames = spareFrames.popLast() ?? []
        swap(&frames, &savedFrames)
        let savedNode = node
        let savedLayer = nodeLayer
        while pending.count > mark {
            var list = pending.removeLast()
            let index = list.next
            list.next += 1
            if list.next < list.list.count { pending.append(list) }
            let start = steps.count
            steps.append(Step(holder: list.holder, slot: list.slot, index: index))
            nodes.append(PathNode(parent: list.holderNode, steps: start..<steps.count))
            node = nodes.count
            nodeLayer = list.layer
            if let forwarded {
                let message = forwarded(
                    ForwardedPlace(parent: list.parent, elem: list.elem, index: index, node: node))
                withUnsafePointer(to: message) { visit($0, slot: -1, index: -1) }
            } else {
                var visitor = RootVisitor(run: self)
                list.list.reflectedVisit(at: index, &visitor)
            }
        }
        swap(&frames, &savedFrames)
        savedFrames.removeAll(keepingCapacity: true)
        spareFrames.append(savedFrames)
        node = savedNode
        nodeLayer = savedLayer
    }

    /// Hands a deferred entry to ``visit(_:slot:index:)`` as a node's root.
    private struct RootVisitor: ReflectedVisitor {
        unowned(unsafe) let run: ValidationRun

        mutating func visit<Value: ReflectedMessage>(_ message: UnsafePointer<Value>) {
            run.visit(message, slot: -1, index: -1)
        }
    }

    /// Visits a field's message in place, one level below the current frame.
    struct ChildVisitor: ReflectedVisitor {
        unowned(unsafe) let run: ValidationRun
        let slot: Int
        let index: Int
        let drains: Bool

        mutating func visit<Value: ReflectedMessage>(_ message: UnsafePointer<Value>) {
            if drains {
                run.visitDraining(message, slot: slot, index: index)
            } else {
                run.visit(message, slot: slot, index: index)
            }
        }
    }

    /// Applies a message's declarations, then visits its message fields:
    /// by the type's compiled visit (`ValidationRun+Compiled.swift`) when
    /// the run executes the library's table, else by reading the table.
    func visit<Value: ReflectedMessage>(_ value: UnsafePointer<Value>, slot: Int, index: Int) {
        if isCompiled {
            visitCompiled(any: value, slot: slot, index: index)
            return
        }
        let type = Value.reflectedType
        let rules = table.types[type]
        let mark = pending.count
        frames.append(Frame(type: type, slot: slot, index: index, pointer: UnsafeRawPointer(value), access: Value.self))
        applyDeclarations(of: rules, to: value)
        descend(value, type: type, rules)
        frames.removeLast()
        if rules.isDeferredTarget, pending.count > mark + 1 {
            // The lists were queued in field order; the first must be visited first.
            pending[mark...].reverse()
        }
    }

    /// Visits the message fields of the current frame's value.
    private func descend<Value: ReflectedMessage>(
        _ value: UnsafePointer<Value>, type: Int, _ rules: RuleTable.MessageType
    ) {
        for entry in rules.children.indices {
            let field = table.children[entry]
            let slot = field.slot
            let drains = field.drains
            if !field.isRepeated {
                // A oneof's members are asked whether they are set first:
                // handing one over copies the oneof's value.
                if field.isOneofMember, !isSet(value.reflectedScalar(slot)) { continue }
                var visitor = ChildVisitor(run: self, slot: slot, index: -1, drains: drains)
                value.reflectedVisit(slot, at: -1, &visitor)
                continue
            }
            guard case .count(let count) = value.reflectedScalar(slot), count > 0 else { continue }
            if !rules.layerLimits.isEmpty, tooDeep(type: type, rules, slot: slot, at: frames.count - 1) { continue }
            if field.isDeferred, let list = value.pointee.reflectedList(slot) {
                deferList(list, slot: slot, layer: layers(of: frames.count - 1))
                continue
            }
            for index in 0..<count {
                var visitor = ChildVisitor(run: self, slot: slot, index: index, drains: drains)
                value.reflectedVisit(slot, at: index, &visitor)
            }
        }
    }

    /// Queues a deferred field's entries, with a node for their holder.
    func deferList(_ list: any ReflectedList, slot: Int, layer: Int) {
        let start = steps.count
        var elem = -1
        for level in frames.indices.dropFirst() {
            steps.append(Step(holder: frames[level - 1].type, slot: frames[level].slot, index: frames[level].index))
            if frames[level].index >= 0 { elem = frames[level].index }
        }
        nodes.append(PathNode(parent: node, steps: start..<steps.count))
        let holder = frames[frames.count - 1].type
        pending.append(
            PendingList(
                list: list, next: 0, holderNode: nodes.count, parent: node, elem: elem, holder: holder, slot: slot,
                layer: layer))
    }

    /// The layer of frame `depth`'s message: how many messages of its type
    /// are it and the messages that hold it.
    func layers(of depth: Int) -> Int {
        let type = frames[depth].type
        var layer = 0
        for frame in frames[...depth] where frame.type == type { layer += 1 }
        if node > 0, pendingHolderType(of: node) == type { layer += nodeLayer }
        return layer
    }

    /// The type of the holder whose deferred field node `node` is an entry of.
    private func pendingHolderType(of node: Int) -> Int {
        let steps = nodes[node - 1].steps
        return steps.isEmpty ? -1 : self.steps[steps.upperBound - 1].holder
    }

    // MARK: Enclosing messages

    /// The frame of the nearest message of `type` that holds frame `depth`'s
    /// message (excluded), or -1 when there is none among the frames.
    func enclosingFrame(of type: Int, below depth: Int) -> Int {
        var index = depth - 1
        while index >= 0 {
            if frames[index].type == type { return index }
            index -= 1
        }
        return -1
    }

    /// Whether a message of `type` holds the current node's root, among the
    /// messages above the node (whose values are no longer at hand).
    func nodeHasEnclosing(_ type: Int) -> Bool {
        var current = node
        while current > 0 {
            let path = nodes[current - 1]
            for step in steps[path.steps] where step.holder == type { return true }
            current = path.parent
        }
        return false
    }

    // MARK: Paths and reporting

    /// A path component below a frame.
    typealias Component = FieldPath.Component

    /// The path of frame `depth`, followed by `extra`: its components
    /// counted first, so that the path is one array made at its size.
    func path(of depth: Int, _ extra: [Component] = []) -> FieldPath {
        var count = extra.count
        // The nodes above the frames, innermost first (none at the root:
        // then nothing is allocated for them).
        var chain: [Int] = []
        var current = node
        while current > 0 {
            chain.append(current)
            for step in steps[nodes[current - 1].steps] { count += step.index >= 0 ? 2 : 1 }
            current = nodes[current - 1].parent
        }
        if depth > 0 {
            for level in 1...depth { count += frames[level].index >= 0 ? 2 : 1 }
        }
        var components: [Component] = []
        components.reserveCapacity(count)
        var isRoot = true
        func add(_ holder: Int, _ slot: Int, _ index: Int) {
            components.append(.field(table.json(holder, slot)))
            if index >= 0 { components.append(.index(isRoot ? index + rootIndexOffset : index)) }
            isRoot = false
        }
        for current in chain.reversed() {
            for step in steps[nodes[current - 1].steps] { add(step.holder, step.slot, step.index) }
        }
        if depth > 0 {
            for level in 1...depth { add(frames[level - 1].type, frames[level].slot, frames[level].index) }
        }
        for component in extra {
            switch component {
            case .field(let name): components.append(.field(name))
            case .index(let index):
                components.append(.index(isRoot ? index + rootIndexOffset : index))
                isRoot = false
            }
        }
        return FieldPath(components)
    }

    /// Records a finding.
    ///
    /// - Parameters:
    ///   - code: The rule broken.
    ///   - severity: Its severity.
    ///   - depth: The frame the path starts at.
    ///   - extra: The components below that frame.
    ///   - limit: The limit crossed.
    ///   - actual: The observed value.
    func report(
        _ code: FindingCode, _ severity: ValidationFinding.Severity, at depth: Int, _ extra: [Component] = [],
        limit: Int64? = nil, actual: Int64? = nil
    ) {
        findings.append(
            .ofRule(code, path: path(of: depth, extra), severity: severity, limit: limit, actual: actual))
    }

    /// Records a finding of code `code` (an index in the table's codes),
    /// its severity the table's.
    func report(
        _ code: Int32, at depth: Int, _ extra: [Component] = [], limit: Int64? = nil, actual: Int64? = nil
    ) {
        report(
            table.codes[Int(code)], table.severities[Int(code)], at: depth, extra, limit: limit, actual: actual)
    }

    /// Records a finding of limit `limit`.
    func report(
        _ limit: RuleTable.Limit, at depth: Int, _ extra: [Component] = [], limit bound: Int64? = nil,
        actual: Int64? = nil
    ) {
        report(table.codes[Int(limit.code)], limit.severity, at: depth, extra, limit: bound, actual: actual)
    }
}

extension LimitBound {
    /// A limit's declared value in `profile`.
    init(declared limit: DeclaredRules.Limit, profile: String) {
        guard let value = limit.values[profile] else {
            self = .none
            return
        }
        switch value {
        case .null: self = .none
        case .bool(let flag): self = flag ? .flag : .none
        case .number(let text): self = Int(text).map { .number($0) } ?? .none
        case .string(let text): self = .string(text)
        case .array(let items):
            if limit.measure == .numberRange, items.count == 2, case .number(let low) = items[0],
                case .number(let high) = items[1], let low = Int32(low), let high = Int32(high)
            {
                self = .range(low...high)
            } else if limit.measure == .numberSet {
                self = .numbers(Set(items.compactMap { if case .number(let n) = $0 { Int32(n) } else { nil } }))
            } else {
                self = .strings(Set(items.compactMap { if case .string(let s) = $0 { s } else { nil } }))
            }
        case .object(let members):
            var table: [String: Int] = [:]
            for member in members { if case .number(let n) = member.value { table[member.key] = Int(n) } }
            self = .perKey(table)
        }
    }
}
