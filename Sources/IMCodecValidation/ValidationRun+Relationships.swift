import IMCodec

extension ValidationRun {
    /// F2–F5, F8: a relationship-chain system elem at the current position.
    mutating func visit(snsSystem sns: SnsSystemElem) {
        let type = sns.type.rawValue
        if type == 0 {
            report(
                .unspecifiedEnumValue, at: "type", actual: 0, "relationship-chain system type is left unspecified (0)")
        } else if !limits.snsSystemTypes.contains(type) {
            report(
                .unknownEnumValue, at: "type", actual: Int64(type),
                "relationship-chain system type \(type) is not a documented value")
        }
        push("users")
        for (index, user) in sns.users.enumerated() {
            push(index: index)
            if user.identifier.isEmpty {
                report(.snsIdentifierMissing, at: "identifier", "a relationship change without a user")
            } else {
                checkUserID(user.identifier, at: "identifier")
            }
            if !user.wording.isEmpty && sns.type != .addFriendReq {
                report(.snsWordingType, at: "wording", "a wording on a \(sns.type) change; only add requests carry one")
            }
            checkCount(
                user.wording.utf8.count, against: limits.maxFriendWordingBytes, .snsWordingBytes, at: "wording",
                what: "the wording")
            if !user.source.isEmpty && sns.type != .addFriendReq {
                report(
                    .snsSourceType, at: "source", "an add source on a \(sns.type) change; only add requests carry one")
            }
            checkAddSource(user.source, at: "source")
            pop()
        }
        pop()
    }

    /// F3: the declared prefix followed by a bounded number of English letters.
    /// An empty source is unset; a bare prefix names no source.
    mutating func checkAddSource(_ source: String, at field: StaticString) {
        guard !source.isEmpty, let prefix = limits.addSourcePrefix else { return }
        let bytes = source.utf8
        guard bytes.starts(with: prefix.utf8) else {
            report(.snsSourceFormat, at: field, "the add source does not start with \"\(prefix)\"")
            return
        }
        let name = bytes.dropFirst(prefix.utf8.count)
        let upper = UInt8(ascii: "A")...UInt8(ascii: "Z")
        let lower = UInt8(ascii: "a")...UInt8(ascii: "z")
        let isLetter: (UInt8) -> Bool = { upper.contains($0) || lower.contains($0) }
        if name.isEmpty || !name.allSatisfy(isLetter) {
            report(.snsSourceFormat, at: field, "the add source name after the prefix is not English letters")
        }
        checkCount(
            name.count, against: limits.maxAddSourceBytes, .snsSourceBytes, at: field, what: "the add source name")
    }

    /// F6, F7, F8: a profile-change system elem at the current position.
    mutating func visit(profileSystem profile: ProfileSystemElem) {
        checkDiscriminator(profile.type.isKnown, profile.type.rawValue, at: "type", what: "profile system type")
        checkUserID(profile.fromUser, at: "fromUser")
        checkProfileBytes(profile.nickname.utf8.count, at: "nickname")
    }

    /// F7, F8, F10: a user profile at the current position.
    mutating func visit(profile: UserProfile) {
        checkUserID(profile.identifier, at: "identifier")
        checkProfileBytes(profile.nickname.utf8.count, at: "nickname")
        checkEnum(profile.allowType.isKnown, profile.allowType.rawValue, at: "allowType", what: "allow type")
        checkProfileBytes(profile.faceURL.utf8.count, at: "faceUrl")
        checkProfileBytes(profile.selfSignature.count, at: "selfSignature")
        checkEnum(profile.gender.isKnown, profile.gender.rawValue, at: "gender", what: "gender")
        checkProfileBytes(profile.location.count, at: "location")
        let prefix = limits.profileCustomKeyPrefix
        guard limits.maxProfileStringBytes != nil || prefix != nil else { return }
        push("customInfo")
        for (index, entry) in profile.customInfo.enumerated() {
            push(index: index)
            if let prefix, !entry.key.utf8.starts(with: prefix.utf8) {
                report(.profileCustomKeyFormat, at: "key", "the custom field key does not start with \"\(prefix)\"")
            }
            if case .data(let data) = entry.value {
                checkProfileBytes(data.count, at: "data")
            }
            pop()
        }
        pop()
    }
}
