extension ValidationLimits {
    /// The seed profile: the limits of the documents this project was created
    /// from. The default.
    public static let seed = ValidationLimits()

    /// The current profile: the limits of the newer public Tencent Cloud IM
    /// documentation (use limits page, REST message formats, SDK references).
    ///
    /// Raises the group introduction to 240 bytes and the notification to 300,
    /// and adds the rules the seeds do not have: image and sound 28 MB, video
    /// 100 MB, 12 KB message body, one custom elem, custom desc + ext 3 KB,
    /// merger depth 100 and abstracts (5 lines of 100), compatible text, name
    /// card 50 bytes, group ID rules, group and member custom fields, profile
    /// strings 500 bytes, user ID 32 bytes, Community groups of 100,000 and
    /// relationship-chain system types up to 14; on REST documents, download
    /// flags of 2 and the documented image format codes.
    public static let current: ValidationLimits = {
        var limits = ValidationLimits()
        limits.maxVideoBytes = 100 << 20
        limits.maxImageBytes = 28 << 20
        limits.maxSoundBytes = 28 << 20
        limits.maxMergerDepth = 100
        limits.maxMergerAbstracts = 5
        limits.maxMergerAbstractLength = 100
        limits.requiresMergerCompatibleText = true
        limits.maxMessageBodyBytes = 12 << 10
        limits.maxCustomElems = 1
        limits.maxCustomDescExtBytes = 3 << 10
        limits.restDownloadFlag = 2
        limits.restImageFormats = [1, 2, 3, 4, 255]
        limits.maxGroupMembers["Community"] = 100_000
        limits.maxGroupIntroductionBytes = 240
        limits.maxGroupNotificationBytes = 300
        limits.maxNameCardBytes = 50
        limits.maxGroupIDBytes = 48
        limits.requiresPrintableASCIIGroupID = true
        limits.maxGroupCustomFields = 10
        limits.maxGroupCustomKeyBytes = 16
        limits.maxGroupCustomValueBytes = 512
        limits.maxMemberCustomFields = 5
        limits.maxMemberCustomValueBytes = 64
        limits.snsSystemTypes = 1...14
        limits.maxProfileStringBytes = 500
        limits.maxUserIDBytes = 32
        return limits
    }()

    /// The names of the profiles, as the CLI's `--profile` spells them.
    public static let profileNames: [String] = ["seed", "current"]

    /// Looks up a profile by name.
    ///
    /// - Parameter name: `seed` or `current`.
    /// - Returns: The profile, or `nil` for any other name.
    public static func profile(named name: String) -> ValidationLimits? {
        switch name {
        case "seed": seed
        case "current": current
        default: nil
        }
    }
}
