import IMCodec

extension ValidationRun {
    /// F8: a user ID's length. Empty IDs are not checked: whether one is
    /// required is the rule of the field that holds it.
    mutating func checkUserID(_ id: String, at field: StaticString?) {
        checkCount(id.utf8.count, against: limits.maxUserIDBytes, .userIDBytes, at: field, what: "the user ID")
    }

    /// F8 for every entry of a list of user IDs.
    mutating func checkUserIDs(_ ids: [String], at field: StaticString) {
        guard let limit = limits.maxUserIDBytes else { return }
        push(field)
        for (index, id) in ids.enumerated() where id.utf8.count > limit {
            push(index: index)
            checkUserID(id, at: nil)
            pop()
        }
        pop()
    }

    /// G14: a group ID's length and characters (printable ASCII 0x20–0x7E).
    mutating func checkGroupID(_ id: String, at field: StaticString) {
        checkCount(id.utf8.count, against: limits.maxGroupIDBytes, .groupIDBytes, at: field, what: "the group ID")
        let printable = UInt8(ascii: " ")...UInt8(ascii: "~")
        if limits.requiresPrintableASCIIGroupID, let byte = id.utf8.first(where: { !printable.contains($0) }) {
            report(
                .groupIDCharacters, at: field, actual: Int64(byte),
                "the group ID holds byte 0x\(String(byte, radix: 16)), outside printable ASCII")
        }
    }

    /// F7: a profile string's or byte field's length.
    mutating func checkProfileBytes(_ count: Int, at field: StaticString) {
        checkCount(
            count, against: limits.maxProfileStringBytes, .profileStringBytes, at: field, what: "the profile field")
    }

    /// G13: an operator platform from the documented list; empty is unset.
    mutating func checkPlatform(_ platform: String, at field: StaticString) {
        guard !platform.isEmpty, let platforms = limits.operatorPlatforms, !platforms.contains(platform) else { return }
        report(.unknownPlatform, at: field, "platform \"\(platform)\" is not a documented one")
    }

    /// An enum value outside the schema's names.
    ///
    /// - Parameters:
    ///   - isKnown: Whether the schema names the value.
    ///   - rawValue: The value's number.
    ///   - field: The field.
    ///   - what: The field's meaning, for the reason.
    mutating func checkEnum(_ isKnown: Bool, _ rawValue: Int32, at field: StaticString, what: StaticString) {
        guard !isKnown else { return }
        report(.unknownEnumValue, at: field, actual: Int64(rawValue), "\(what) \(rawValue) is not a documented value")
    }

    /// A discriminating enum: 0 names no kind, and other values outside the
    /// schema's names are unknown.
    mutating func checkDiscriminator(_ isKnown: Bool, _ rawValue: Int32, at field: StaticString, what: StaticString) {
        if rawValue == 0 {
            report(.unspecifiedEnumValue, at: field, actual: 0, "\(what) is left unspecified (0)")
        } else {
            checkEnum(isKnown, rawValue, at: field, what: what)
        }
    }
}
