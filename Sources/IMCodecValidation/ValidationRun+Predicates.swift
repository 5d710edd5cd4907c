import IMCodec

/// The fields the named predicates read, resolved once per table.
struct PredicateFields: Sendable {
    /// `ImageLevel`'s `type`, `width` and `height`.
    var levelType = -1, levelWidth = -1, levelHeight = -1
    /// The `ImageElem` type and its `levels`.
    var imageElem = -1, imageLevels = -1
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
        let level = type("ImageLevel")
        levelType = slot(level, "type")
        levelWidth = slot(level, "width")
        levelHeight = slot(level, "height")
        imageElem = type("ImageElem")
        imageLevels = slot(imageElem, "levels")
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
            guard case .number(let most) = bound else { return }
            let fields = table.predicateFields
            let field = { (slot: Int) in Self.number(frame.access.reflectedScalar(at: frame.pointer, slot)) }
            guard let side = Self.shortSide(field(fields.levelWidth), field(fields.levelHeight)) else { return }
            var originalSide: Int64?
            let image = enclosingFrame(of: fields.imageElem, below: depth)
            if image >= 0 {
                let levels = Self.count(
                    frames[image].access.reflectedScalar(at: frames[image].pointer, fields.imageLevels))
                for index in 0..<levels {
                    let entry = { (slot: Int) in
                        Self.number(self.probe(.scalar(slot), slot: fields.imageLevels, index: index, at: image).scalar)
                    }
                    if entry(fields.levelType) == fields.original {
                        originalSide = Self.shortSide(entry(fields.levelWidth), entry(fields.levelHeight))
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

    /// A check whose `predicate` names its rule.
    func applyPredicate(
        _ predicate: RuleTable.Predicate, check: RuleTable.Check, at depth: Int, place: (depth: Int, path: [Component])
    ) {
        guard predicate == .atType else { return }
        let fields = table.predicateFields
        let frame = frames[depth]
        let type = Self.number(frame.access.reflectedScalar(at: frame.pointer, fields.atType))
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
        if !follows { report(check.code, at: place.depth, place.path) }
    }

    /// A level's shorter side; `nil` when its width or height is 0.
    private static func shortSide(_ width: Int64, _ height: Int64) -> Int64? {
        width > 0 && height > 0 ? min(width, height) : nil
    }
}
