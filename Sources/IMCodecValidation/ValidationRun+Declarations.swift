import IMCodec

extension ValidationRun {
    // MARK: Reading fields

    /// The value a reference names, read from frame `depth`'s message; `nil`
    /// when it crosses an absent message or finds no enclosing one (the field
    /// then reads its default).
    func read(_ index: Int32, at depth: Int) -> ReflectedScalar? {
        let reference = table.references[Int(index)]
        if reference.directSlot >= 0 {
            let frame = frames[depth]
            return frame.access.reflectedScalar(at: frame.pointer, Int(reference.directSlot))
        }
        var start = depth
        if reference.enclosing >= 0 {
            let enclosing = Int(reference.enclosing)
            start = enclosingFrame(of: enclosing, below: depth)
            if start < 0 {
                if reference.slots.isEmpty, reference.oneofSlots.isEmpty, nodeHasEnclosing(enclosing) {
                    return .present
                }
                return nil
            }
            if reference.slots.isEmpty && reference.oneofSlots.isEmpty { return .present }
        }
        let frame = frames[start]
        if reference.oneofSlots.isEmpty && reference.slots.count == 1 {
            return frame.access.reflectedScalar(at: frame.pointer, table.ints[Int(reference.slots.start)])
        }
        if reference.slots.isEmpty {
            for entry in reference.oneofSlots.indices
            where isSet(frame.access.reflectedScalar(at: frame.pointer, table.ints[entry])) {
                return .present
            }
            return .absent
        }
        let slots = table.ints[reference.slots.indices]
        var reader = PathReader(slots: slots.dropFirst(), oneofSlots: table.ints[reference.oneofSlots.indices])
        frame.access.reflectedVisit(at: frame.pointer, slots[slots.startIndex], at: -1, &reader)
        return reader.result
    }

    /// Reads the rest of a reference's path below a message field.
    struct PathReader: ReflectedVisitor {
        var slots: ArraySlice<Int>
        let oneofSlots: ArraySlice<Int>
        var result: ReflectedScalar?

        init(slots: ArraySlice<Int>, oneofSlots: ArraySlice<Int>) {
            self.slots = slots
            self.oneofSlots = oneofSlots
        }

        mutating func visit<Value: ReflectedMessage>(_ message: UnsafePointer<Value>) {
            guard let slot = slots.first else {
                result = .absent
                for slot in oneofSlots where ValidationRun.isSet(message.reflectedScalar(slot)) {
                    result = .present
                }
                return
            }
            if slots.count == 1 && oneofSlots.isEmpty {
                result = message.reflectedScalar(slot)
                return
            }
            var next = PathReader(slots: slots.dropFirst(), oneofSlots: oneofSlots)
            message.reflectedVisit(slot, at: -1, &next)
            result = next.result
        }
    }

    /// Whether a value is set: not its proto3 default.
    static func isSet(_ value: ReflectedScalar?) -> Bool {
        switch value {
        case nil, .absent?: false
        case .present?: true
        case .bool(let flag)?: flag
        case .int(let number)?: number != 0
        case .uint(let number)?: number != 0
        case .double(let number)?: number != 0
        case .string(let text)?: !text.isEmpty
        case .bytes(let bytes)?: !bytes.isEmpty
        case .strings(let list)?: !list.isEmpty
        case .count(let count)?: count > 0
        }
    }

    func isSet(_ value: ReflectedScalar?) -> Bool { Self.isSet(value) }

    /// Whether two strings have the same UTF-8 bytes (not merely canonically
    /// equivalent characters, as `==` compares them): lengths first, which
    /// settles most comparisons without reading a byte.
    static func sameBytes(_ left: String, _ right: String) -> Bool {
        left.utf8.count == right.utf8.count && left.utf8.elementsEqual(right.utf8)
    }

    /// A number as findings carry it; 0 for what is not a number.
    static func number(_ value: ReflectedScalar?) -> Int64 {
        switch value {
        case .int(let number)?: number
        case .uint(let number)?: Int64(clamping: number)
        case .double(let number)?: Int64(exactly: number.rounded(.towardZero)) ?? 0
        case .bool(let flag)?: flag ? 1 : 0
        case .count(let count)?: Int64(count)
        case .strings(let list)?: Int64(list.count)
        default: 0
        }
    }

    /// The entry count of a repeated field.
    static func count(_ value: ReflectedScalar?) -> Int {
        switch value {
        case .count(let count)?: count
        case .strings(let list)?: list.count
        default: 0
        }
    }

    // MARK: Conditions

    /// Whether a condition holds in frame `depth`'s message.
    func holds(_ condition: RuleTable.Condition, at depth: Int) -> Bool {
        let value = read(condition.reference, at: depth)
        let result: Bool
        if condition.present >= 0 {
            result = isSet(value) == (condition.present == 1)
        } else {
            let numbers = condition.numbers.indices
            switch value {
            case .int(let number)?: result = numbers.contains { table.numbers[$0] == number }
            case .uint(let number)?: result = numbers.contains { UInt64(exactly: table.numbers[$0]) == number }
            case .double(let number)?: result = numbers.contains { Double(table.numbers[$0]) == number }
            case .string(let text)?:
                result = condition.strings.indices.contains { Self.sameBytes(table.strings[$0], text) }
            case nil:
                // The default: 0 or "".
                let field = table.references[Int(condition.reference)].field
                result =
                    field >= 0 && table.fields[Int(field)].kind == .string
                    ? condition.strings.indices.contains { table.strings[$0].isEmpty }
                    : numbers.contains { table.numbers[$0] == 0 }
            default: result = false
            }
        }
        return result != condition.negate
    }

    /// Whether every condition of a span of the table's conditions holds in
    /// frame `depth`'s message.
    func allHold(_ conditions: RuleTable.Span, at depth: Int) -> Bool {
        for index in conditions.indices where !holds(table.conditions[index], at: depth) { return false }
        return true
    }

    // MARK: Entries

    /// What is asked of one entry of a repeated message field.
    enum EntryQuery {
        /// Whether every condition holds in the entry.
        case conditions(RuleTable.Span)
        /// Whether the referenced field of the entry is set.
        case isSet(Int32)
        /// A field's value.
        case scalar(Int)
        /// The entry's canonical size, the given fields of its direct
        /// sub-messages left out (a span of the table's exclusion sites).
        case encodedSize(RuleTable.Span)
    }

    /// Asks `query` of one entry, with the entry as a frame below the current one.
    struct EntryProbe: ReflectedVisitor {
        unowned(unsafe) let run: ValidationRun
        let slot: Int
        let index: Int
        let query: EntryQuery
        var flag = false
        var scalar: ReflectedScalar = .absent
        var size = 0

        init(run: ValidationRun, slot: Int, index: Int, query: EntryQuery) {
            self.run = run
            self.slot = slot
            self.index = index
            self.query = query
        }

        mutating func visit<Value: ReflectedMessage>(_ entry: UnsafePointer<Value>) {
            switch query {
            case .scalar(let field):
                scalar = entry.reflectedScalar(field)
            case .encodedSize(let excluded):
                size = run.encodedSize(of: entry, excluding: excluded)
            case .conditions(let conditions):
                flag = run.inFrame(entry, slot: slot, index: index) { run.allHold(conditions, at: $0) }
            case .isSet(let reference):
                flag = run.inFrame(entry, slot: slot, index: index) { run.isSet(run.read(reference, at: $0)) }
            }
        }
    }

    /// Runs `body` with `value` as a frame below the current one; `body` gets its depth.
    func inFrame<Value: ReflectedMessage, Result>(
        _ value: UnsafePointer<Value>, slot: Int, index: Int, _ body: (Int) -> Result
    ) -> Result {
        frames.append(
            Frame(
                type: Value.reflectedType, slot: slot, index: index, pointer: UnsafeRawPointer(value),
                access: Value.self))
        defer { frames.removeLast() }
        return body(frames.count - 1)
    }

    /// Asks `query` of entry `index` of field `slot` of frame `depth`'s message.
    func probe(_ query: EntryQuery, slot: Int, index: Int, at depth: Int) -> EntryProbe {
        var probe = EntryProbe(run: self, slot: slot, index: index, query: query)
        let frame = frames[depth]
        frame.access.reflectedVisit(at: frame.pointer, slot, at: index, &probe)
        return probe
    }

    /// An entry's canonical size with the fields of its direct sub-messages
    /// that `sites` (a span of the table's exclusion sites) name left out.
    func encodedSize<Value: ReflectedMessage>(
        of entry: UnsafePointer<Value>, excluding sites: RuleTable.Span
    ) -> Int {
        let type = Value.reflectedType
        var copy: Value?
        for index in sites.indices {
            let site = table.exclusionSites[index]
            guard site.holder == type, isSet(entry.reflectedScalar(site.slot)) else { continue }
            if copy == nil { copy = entry.pointee }
            copy?.reflectedClear(site.slot, inMessage: site.child)
        }
        // Measured in place unless a field had to be left out.
        if let copy { return copy.serializedSize }
        return Value._serializedSize(at: entry)
    }

    // MARK: Declarations

    /// Applies a message type's declarations to the current frame's value:
    /// its limits, its checks, then each field's rules.
    func applyDeclarations<Value: ReflectedMessage>(of type: RuleTable.MessageType, to value: UnsafePointer<Value>) {
        let depth = frames.count - 1
        for index in type.limits.indices {
            apply(table.applied[index], field: -1, to: value, at: depth)
        }
        for index in type.checks.indices {
            let check = table.checks[index]
            if allHold(check.when, at: depth) { run(check, at: depth) }
        }
        for index in type.fieldRules.indices {
            let rules = table.fieldRules[index]
            if rules.readsValue {
                apply(rules, type: Value.reflectedType, value: value.reflectedScalar(rules.slot), at: depth)
            }
            for applied in rules.applied.indices {
                apply(table.applied[applied], field: rules.slot, to: value, at: depth)
            }
        }
    }

    /// The field rules of one field.
    func apply(_ rules: RuleTable.FieldRules, type: Int, value: ReflectedScalar, at depth: Int) {
        func path() -> [Component] { [.field(table.json(type, rules.slot))] }
        if rules.nonEmpty >= 0, !isSet(value) {
            report(rules.nonEmpty, at: depth, path())
        }
        if rules.rangeCode >= 0 {
            var inside = false
            if case .double(let number) = value {
                inside = number.isFinite && number >= rules.rangeMin && number <= rules.rangeMax
            }
            if !inside {
                report(
                    rules.rangeCode, at: depth, path(),
                    limit: Int64(max(abs(rules.rangeMin), abs(rules.rangeMax)).rounded(.towardZero)))
            }
        }
        let number = Self.number(value)
        if rules.definedEnum >= 0, !table.contains(number, inSet: rules.definedEnum) {
            report(table.definedEnumCode, at: depth, path(), actual: number)
        }
        if rules.isDiscriminator, number == 0, allHold(rules.discriminatorWhen, at: depth) {
            report(table.discriminatorCode, at: depth, path(), actual: 0)
        }
        if rules.namedValuesCode >= 0, !table.contains(number, inSet: rules.namedValues) {
            report(rules.namedValuesCode, at: depth, path(), actual: number)
        }
    }

    /// A limit's value in this run.
    func bound(_ limit: Int) -> LimitBound {
        if let tableBounds { return tableBounds[limit] }
        let property = table.limits[limit].property
        return property < 0 ? .none : limitBound(property)
    }

    /// Applies a limit to field `field` of the current frame's value (or,
    /// without a field, to the value itself).
    func apply<Value: ReflectedMessage>(
        _ applied: RuleTable.Applied, field slot: Int, to value: UnsafePointer<Value>, at depth: Int
    ) {
        let limit = table.limits[Int(applied.limit)]
        if limit.isRESTOnly || limit.measure == .layers { return }
        let bound = bound(Int(applied.limit))
        if case .none = bound { return }
        guard allHold(applied.when, at: depth) else { return }
        let type = Value.reflectedType
        func path() -> [Component] { slot >= 0 ? [.field(table.json(type, slot))] : [] }
        if let predicate = limit.predicate {
            applyPredicate(predicate, limit: limit, bound: bound, field: slot, at: depth, path: path)
            return
        }
        guard slot >= 0 else { return }
        let field = table.field(type, slot)
        switch limit.measure {
        case .entries:
            guard case .number(let most) = bound else { return }
            let count = Self.count(value.reflectedScalar(slot))
            var counted = 0
            var excess = -1
            for index in 0..<count {
                if !applied.countWhen.isEmpty,
                    !probe(.conditions(applied.countWhen), slot: slot, index: index, at: depth).flag
                {
                    continue
                }
                if counted == most { excess = index }
                counted += 1
            }
            if counted > most {
                let at = applied.report == .firstExcess ? path() + [.index(excess)] : path()
                report(limit, at: depth, at, limit: Int64(most), actual: Int64(counted))
            }
        case .encodedBytes:
            guard case .number(let most) = bound else { return }
            let count = Self.count(value.reflectedScalar(slot))
            let tag = Self.varintSize(UInt64(field.number) << 3)
            var total = 0
            for index in 0..<count {
                let size = probe(.encodedSize(limit.excludeSites), slot: slot, index: index, at: depth).size
                total += tag + Self.varintSize(UInt64(size)) + size
            }
            if total > most {
                report(limit, at: depth, path(), limit: Int64(most), actual: Int64(total))
            }
        case .perKey:
            guard case .perKey(let perKey) = bound, applied.key >= 0,
                case .string(let name)? = read(applied.key, at: depth), let most = perKey[name]
            else { return }
            let measured = Self.number(value.reflectedScalar(slot))
            if measured > Int64(most) {
                report(limit, at: depth, path(), limit: Int64(most), actual: measured)
            }
        default:
            if applied.entryField >= 0 {
                let entryField = Int(applied.entryField)
                let entries = Self.count(value.reflectedScalar(slot))
                let sub = table.field(field.type, entryField)
                for index in 0..<entries {
                    let entry = probe(.scalar(entryField), slot: slot, index: index, at: depth).scalar
                    if sub.isOneofMember && !isSet(entry) { continue }
                    measure(limit, bound, entry, at: depth) {
                        path() + [.index(index), .field(table.json(field.type, entryField))]
                    }
                }
            } else if field.isRepeated {
                if case .strings(let list) = value.reflectedScalar(slot) {
                    for (index, entry) in list.enumerated() {
                        measure(limit, bound, .string(entry), at: depth) { path() + [.index(index)] }
                    }
                }
            } else if !applied.sumWith.isEmpty {
                guard case .number(let most) = bound else { return }
                var total = amount(limit, value.reflectedScalar(slot)) ?? 0
                for other in applied.sumWith.indices {
                    total += amount(limit, value.reflectedScalar(table.ints[other])) ?? 0
                }
                if total > Int64(most) {
                    report(
                        limit, at: depth, applied.report == .holder ? [] : path(), limit: Int64(most), actual: total)
                }
            } else {
                measure(limit, bound, value.reflectedScalar(slot), at: depth) {
                    applied.report == .holder ? [] : path()
                }
            }
        }
    }

    /// The amount a size measure counts in a value; `nil` when an
    /// `after_prefix` value does not start with its prefix.
    func amount(_ limit: RuleTable.Limit, _ value: ReflectedScalar) -> Int64? {
        switch limit.measure {
        case .utf8Bytes:
            var prefixBytes = 0
            if limit.afterPrefix >= 0 {
                guard case .string(let prefix) = bound(Int(limit.afterPrefix)), case .string(let text) = value,
                    text.utf8.starts(with: prefix.utf8)
                else { return nil }
                prefixBytes = prefix.utf8.count
            }
            switch value {
            case .string(let text): return Int64(text.utf8.count - prefixBytes)
            case .bytes(let bytes): return Int64(bytes.count)
            default: return 0
            }
        case .utf16Units:
            if case .string(let text) = value { return Int64(text.utf16.count) }
            return 0
        default:
            return Self.number(value)
        }
    }

    /// Measures one value against a limit; reports at `path` below frame `depth`.
    func measure(
        _ limit: RuleTable.Limit, _ bound: LimitBound, _ value: ReflectedScalar, at depth: Int,
        _ path: () -> [Component]
    ) {
        switch limit.measure {
        case .utf8Bytes, .utf16Units, .value:
            guard case .number(let most) = bound, let measured = amount(limit, value), measured > Int64(most) else {
                return
            }
            report(limit, at: depth, path(), limit: Int64(most), actual: measured)
        case .flag:
            if !limit.charset.isEmpty {
                let charset = table.charsets[limit.charset.indices]
                let bytes: [UInt8]
                switch value {
                case .string(let text): bytes = Array(text.utf8)
                case .bytes(let raw): bytes = raw
                default: bytes = []
                }
                for byte in bytes where !charset.contains(where: { $0.contains(byte) }) {
                    report(limit, at: depth, path(), actual: Int64(byte))
                    break
                }
            } else if !isSet(value) {
                report(limit, at: depth, path())
            }
        case .stringSet:
            if case .strings(let set) = bound, case .string(let text) = value, !text.isEmpty, !set.contains(text) {
                report(limit, at: depth, path())
            }
        case .numberSet, .numberRange:
            let number = Self.number(value)
            let inside: Bool
            switch bound {
            case .range(let range): inside = Int64(range.lowerBound) <= number && number <= Int64(range.upperBound)
            case .numbers(let set): inside = Int32(exactly: number).map { set.contains($0) } ?? false
            default: return
            }
            if !inside { report(limit, at: depth, path(), actual: number) }
        case .prefix, .forbiddenPrefix:
            guard case .string(let prefix) = bound else { return }
            var text = ""
            if case .string(let value) = value { text = value }
            let starts = text.utf8.starts(with: prefix.utf8)
            if starts != (limit.measure == .prefix) { report(limit, at: depth, path()) }
        default:
            break
        }
    }

    /// A layer limit on repeated field `slot` of frame `depth`'s message: a
    /// list past the limit is reported once and not visited.
    func tooDeep(type: Int, _ rules: RuleTable.MessageType, slot: Int, at depth: Int) -> Bool {
        for pair in stride(from: rules.layerLimits.indices.lowerBound, to: rules.layerLimits.indices.upperBound, by: 2)
        where table.ints[pair] == slot {
            let index = table.ints[pair + 1]
            guard case .number(let most) = bound(index) else { continue }
            let layer = layers(of: depth)
            if layer > most {
                report(
                    table.limits[index], at: depth, [.field(table.json(type, slot))], limit: Int64(most),
                    actual: Int64(layer))
                return true
            }
        }
        return false
    }

    /// The bytes of a varint.
    static func varintSize(_ value: UInt64) -> Int {
        var size = 1
        var rest = value >> 7
        while rest != 0 {
            size += 1
            rest >>= 7
        }
        return size
    }

    // MARK: Checks

    /// The path a reference names below frame `depth` (the enclosing
    /// message's, for `^Type`).
    func place(of index: Int32, at depth: Int) -> (depth: Int, path: [Component]) {
        let reference = table.references[Int(index)]
        var start = depth
        if reference.enclosing >= 0 {
            start = enclosingFrame(of: Int(reference.enclosing), below: depth)
            if start < 0 { return (0, []) }
        }
        return (start, table.referencePaths[Int(index)])
    }

    /// Runs a check whose conditions hold in frame `depth`'s message.
    func run(_ check: RuleTable.Check, at depth: Int) {
        func at() -> (depth: Int, path: [Component])? { check.at >= 0 ? place(of: check.at, at: depth) : nil }
        func fieldReference(_ entry: Int) -> Int32 { Int32(table.ints[Int(check.fields.start) + entry]) }
        switch check.form {
        case .absent:
            for entry in check.fields.indices {
                let reference = Int32(table.ints[entry])
                let value = read(reference, at: depth)
                guard isSet(value) else { continue }
                var actual: Int64?
                switch check.actual {
                case .count: actual = Int64(Self.count(value))
                case .value:
                    let field = table.references[Int(reference)].field
                    if field >= 0, table.fields[Int(field)].kind != .string, table.fields[Int(field)].kind != .bytes {
                        actual = Self.number(value)
                    }
                case .none: break
                }
                let target = at() ?? place(of: reference, at: depth)
                report(check.code, at: target.depth, target.path, actual: actual)
            }
        case .present:
            for entry in check.fields.indices where !isSet(read(Int32(table.ints[entry]), at: depth)) {
                let target = at() ?? place(of: Int32(table.ints[entry]), at: depth)
                report(check.code, at: target.depth, target.path)
            }
        case .atLeastOne, .atMostOne:
            var count = 0
            for entry in check.fields.indices where isSet(read(Int32(table.ints[entry]), at: depth)) { count += 1 }
            if (check.form == .atLeastOne && count == 0) || (check.form == .atMostOne && count > 1) {
                let target = at() ?? (depth: depth, path: [])
                report(check.code, at: target.depth, target.path)
            }
        case .equalsCount:
            guard check.fields.count == 2 else { return }
            let number = Self.number(read(fieldReference(0), at: depth))
            let count = Int64(Self.count(read(fieldReference(1), at: depth)))
            if number != count {
                let target = at() ?? place(of: fieldReference(0), at: depth)
                report(check.code, at: target.depth, target.path, limit: count, actual: number)
            }
        case .notAbove:
            guard check.fields.count == 2 else { return }
            let value = Self.number(read(fieldReference(0), at: depth))
            let ceiling = Self.number(read(fieldReference(1), at: depth))
            if ceiling != 0 && value > ceiling {
                let target = at() ?? place(of: fieldReference(0), at: depth)
                report(check.code, at: target.depth, target.path, limit: ceiling, actual: value)
            }
        case .unique, .entriesPresent, .entriesAbsent:
            runEntries(check, at: depth)
        case .predicate:
            if let predicate = check.predicate {
                applyPredicate(predicate, check: check, at: depth) { at() ?? (depth: depth, path: []) }
            }
        }
    }

    /// A value compared by ``RuleTable/Form/unique``.
    private enum Key: Hashable {
        case number(Int64)
        /// A string or bytes: strings compare as their UTF-8 bytes, not as
        /// canonically equivalent characters.
        case bytes([UInt8])
        case other
    }

    /// The checks over the entries of `fields[0]`.
    private func runEntries(_ check: RuleTable.Check, at depth: Int) {
        guard !check.fields.isEmpty, check.entryReference >= 0 else { return }
        let listIndex = Int32(table.ints[Int(check.fields.start)])
        let list = table.references[Int(listIndex)]
        guard list.enclosing < 0, list.slots.count == 1 else { return }
        let entryReference = check.entryReference
        let slot = table.ints[Int(list.slots.start)]
        let count = Self.count(read(listIndex, at: depth))
        // Paths are made only for a finding.
        func listPath() -> [Component] { table.referencePaths[Int(listIndex)] }
        func entryPath(_ index: Int) -> [Component] {
            listPath() + [.index(index)] + table.referencePaths[Int(entryReference)]
        }
        switch check.form {
        case .unique:
            let entrySlots = table.references[Int(entryReference)].slots
            guard !entrySlots.isEmpty else { return }
            let entrySlot = table.ints[Int(entrySlots.start)]
            var seen: Set<Key> = []
            for index in 0..<count {
                let value = probe(.scalar(entrySlot), slot: slot, index: index, at: depth).scalar
                let key: Key
                switch value {
                case .int(let number): key = .number(number)
                case .uint(let number): key = .number(Int64(bitPattern: number))
                case .string(let text): key = .bytes(Array(text.utf8))
                case .bytes(let bytes): key = .bytes(bytes)
                case .bool(let flag): key = .number(flag ? 1 : 0)
                default: key = .other
                }
                if check.hasNumbers, case .number(let number) = key,
                    !check.numbers.indices.contains(where: { table.numbers[$0] == number })
                {
                    continue
                }
                if !seen.insert(key).inserted {
                    report(check.code, at: depth, entryPath(index))
                }
            }
        case .entriesPresent:
            if count == 0 { report(check.code, at: depth, listPath()) }
            for index in 0..<count where !probe(.isSet(entryReference), slot: slot, index: index, at: depth).flag {
                report(check.code, at: depth, listPath() + [.index(index)])
            }
        case .entriesAbsent:
            for index in 0..<count where probe(.conditions(check.entryWhen), slot: slot, index: index, at: depth).flag {
                report(check.code, at: depth, entryPath(index))
            }
        default:
            break
        }
    }
}
