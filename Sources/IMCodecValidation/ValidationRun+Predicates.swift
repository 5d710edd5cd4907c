import IMCodec

/// The fields the named predicates read, resolved once per table.
struct PredicateFields: Sendable {
    /// `IMAGE_LEVEL_TYPE_ORIGINAL`.
    var original: Int64 = -1
    /// `Message`'s `at_type` and `at_user_list`.
    var atType = -1, atUserList = -1
    /// The `GroupAtType` values the at-type predicate knows.
    var atMe: Int64 = -1, atAll: Int64 = -1, atAllAtMe: Int64 = -1

    init() {}

    init(_ table: DeclaredRules) {
        func type(_ name: String) -> Int { table.types.firstIndex { $0.name == name } ?? -1 }
        func slot(_ type: Int, _ name: String) -> Int {
            type < 0 ? -1 : table.types[type].fields.firstIndex { $0.name == name } ?? -1
        }
        func value(_ enumeration: String, _ name: String) -> Int64 {
            guard let index = table.enumIndex[enumeration] else { return -1 }
            return table.enumNames[index].first { $0.value == name }?.key ?? -1
        }
        original = value("ImageLevelType", "IMAGE_LEVEL_TYPE_ORIGINAL")
        let message = type("Message")
        atType = slot(message, "at_type")
        atUserList = slot(message, "at_user_list")
        atMe = value("GroupAtType", "GROUP_AT_TYPE_AT_ME")
        atAll = value("GroupAtType", "GROUP_AT_TYPE_AT_ALL")
        atAllAtMe = value("GroupAtType", "GROUP_AT_TYPE_AT_ALL_AT_ME")
    }
}

// The named predicates (docs/spec/validation.md, "Named predicates"): the
// only rules the engine implements itself.
extension ValidationRun {
    /// A limit whose `predicate` names its rule.
    func applyPredicate(
        _ predicate: RuleTable.Predicate, limit: RuleTable.Limit, bound: LimitBound, field slot: Int, at depth: Int,
        path: () -> [Component]
    ) {
        let frame = frames[depth]
        switch predicate {
        case .scaledShortSide:
            // The rule reads an image level and the levels of its image
            // elem: the model's own fields, in place.
            guard case .number(let most) = bound, frame.type == ImageLevel.reflectedType else { return }
            let level = frame.pointer.assumingMemoryBound(to: ImageLevel.self)
            guard let side = Self.shortSide(Int64(level.pointee.width), Int64(level.pointee.height)) else { return }
            var originalSide: Int64?
            let image = enclosingFrame(of: ImageElem.reflectedType, below: depth)
            if image >= 0 {
                let original = table.predicateFields.original
                frames[image].pointer.assumingMemoryBound(to: ImageElem.self).pointee.levels.withUnsafeBufferPointer {
                    levels in
                    for index in levels.indices where Int64(levels[index].type.rawValue) == original {
                        originalSide = Self.shortSide(Int64(levels[index].width), Int64(levels[index].height))
                        break
                    }
                }
            }
            if let originalSide {
                let expected = min(Int64(most), originalSide)
                if side != expected {
                    report(limit, at: depth, path(), limit: expected, actual: side)
                }
            } else if side > Int64(most) {
                report(limit, at: depth, path(), limit: Int64(most), actual: side)
            }
        case .addSource:
            guard slot >= 0, case .string(let prefix) = bound,
                case .string(let value) = frame.access.reflectedScalar(at: frame.pointer, slot), !value.isEmpty
            else { return }
            guard value.utf8.starts(with: prefix.utf8) else {
                report(limit, at: depth, path())
                return
            }
            let name = value.utf8.dropFirst(prefix.utf8.count)
            let letters = UInt8(ascii: "A")...UInt8(ascii: "Z")
            let lower = UInt8(ascii: "a")...UInt8(ascii: "z")
            if name.isEmpty || name.contains(where: { !letters.contains($0) && !lower.contains($0) }) {
                report(limit, at: depth, path())
            }
        case .atType:
            break
        }
    }

    /// A check whose `predicate` names its rule; `place` gives where a
    /// finding is reported, asked for only when there is one.
    func applyPredicate(
        _ predicate: RuleTable.Predicate, check: RuleTable.Check, at depth: Int,
        place: () -> (depth: Int, path: [Component])
    ) {
        guard predicate == .atType else { return }
        let fields = table.predicateFields
        let frame = frames[depth]
        let type = Self.number(frame.access.reflectedScalar(at: frame.pointer, fields.atType))
        // Only the three mention types have a rule: the list is read for them alone.
        guard type == fields.atMe || type == fields.atAll || type == fields.atAllAtMe else { return }
        var mentionsAll = false
        var mentionsUser = false
        if case .strings(let list) = frame.access.reflectedScalar(at: frame.pointer, fields.atUserList) {
            for userID in list {
                if Message.isAtAllUserID(userID) { mentionsAll = true } else { mentionsUser = true }
            }
        }
        let follows: Bool
        switch type {
        case fields.atMe: follows = mentionsUser && !mentionsAll
        case fields.atAll: follows = mentionsAll
        case fields.atAllAtMe: follows = mentionsAll && mentionsUser
        default: return
        }
        if !follows {
            let target = place()
            report(check.code, at: target.depth, target.path)
        }
    }

    /// A level's shorter side; `nil` when its width or height is 0.
    private static func shortSide(_ width: Int64, _ height: Int64) -> Int64? {
        width > 0 && height > 0 ? min(width, height) : nil
    }
}
