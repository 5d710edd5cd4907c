/// The numbers and sets the validator checks messages and events against.
///
/// Every documented limit of `reference/limits.md` is a named field. An
/// optional field set to `nil` turns its rule off; that is how a profile
/// without the rule is expressed. Start from a profile and override any
/// field:
///
/// ```swift
/// var limits = ValidationLimits.current
/// limits.maxGroupNameBytes = 100   // the newest SDK documentation
/// let findings = Validator.validate(message, limits: limits)
/// ```
///
/// The defaults of ``init()`` are the ``seed`` profile: the numbers of the
/// documents this project was created from. ``current`` holds the numbers of
/// the newer public documentation. `docs/VALIDATION.md` gives the source of
/// every number. Byte limits count UTF-8 bytes; sizes written in MB or KB
/// are binary (1 MB = 1,048,576 bytes, 1 KB = 1,024 bytes).
public struct ValidationLimits: Sendable, Hashable {
    // MARK: Message elems

    /// The largest file elem, in bytes (M1). Seed and current: 100 MB.
    public var maxFileBytes: Int? = 100 << 20
    /// The largest video elem, in bytes (M1). Seed: no limit; current: 100 MB.
    public var maxVideoBytes: Int? = nil
    /// The largest image level, in bytes (M1). Seed: no limit; current: 28 MB.
    public var maxImageBytes: Int? = nil
    /// The largest sound elem, in bytes (M1). Seed: no limit; current: 28 MB.
    public var maxSoundBytes: Int? = nil
    /// The most messages one merger elem combines (M2). Seed and current: 300.
    public var maxMergerMessages: Int? = 300
    /// The most merger layers: the messages of a merger in a top-level
    /// message are layer 1, and a message at layer `maxMergerDepth + 1` is
    /// too deep (M4). Seed: no limit; current: 100.
    public var maxMergerDepth: Int? = nil
    /// The most abstract lines of a merger (M5). Seed: no limit; current: 5.
    public var maxMergerAbstracts: Int? = nil
    /// The longest merger abstract line, in UTF-16 code units, the unit of
    /// the SDKs' string length (M5). Seed: no limit; current: 100.
    public var maxMergerAbstractLength: Int? = nil
    /// Whether a merger must carry compatible text for older clients (M5).
    /// Seed: no; current: yes.
    public var requiresMergerCompatibleText: Bool = false
    /// The shorter side, in pixels, of a large image scaled from a bigger
    /// original (M7). Seed and current: 720.
    public var largeImageShortSide: Int? = 720
    /// The shorter side, in pixels, of a thumbnail scaled from a bigger
    /// original (M7). Seed and current: 198.
    public var thumbnailShortSide: Int? = 198
    /// The largest message body, in bytes: the canonical protobuf size of the
    /// message's `elems`, where a merger elem counts without its nested
    /// messages (each of which is measured on its own) (M13). Seed: no
    /// limit; current: 12 KB.
    public var maxMessageBodyBytes: Int? = nil
    /// The most custom elems one message holds (M14). Seed: no limit; current: 1.
    public var maxCustomElems: Int? = nil
    /// The most UTF-8 bytes of a custom elem's desc and ext together (M15).
    /// Seed: no limit; current: 3 KB.
    public var maxCustomDescExtBytes: Int? = nil
    /// The value every REST download flag must have (`Download_Flag`,
    /// `VideoDownloadFlag`, `ThumbDownloadFlag`: 2, "download through the
    /// URL"); checked by ``RESTValidator`` on REST documents. Seed: not
    /// checked; current: 2.
    public var restDownloadFlag: UInt32? = nil
    /// The image format codes a REST `ImageFormat` may have (M8); checked by
    /// ``RESTValidator`` on REST documents. Seed: not checked; current: JPG 1,
    /// GIF 2, PNG 3, BMP 4, other 255.
    public var restImageFormats: Set<Int32>? = nil

    // MARK: Groups

    /// The group types a message's `groupType` may name (G1); `nil` accepts
    /// any. Seed and current: Private, Public, ChatRoom, AVChatRoom,
    /// BChatRoom, Community.
    public var groupTypes: Set<String>? = ValidationLimits.documentedGroupTypes
    /// The most members a group of each type has, by group type name (G2);
    /// a type without an entry has no limit. Seed: 6,000 for Private, Public
    /// and ChatRoom; current: the same plus 100,000 for Community.
    public var maxGroupMembers: [String: Int] = ["Private": 6_000, "Public": 6_000, "ChatRoom": 6_000]
    /// The longest group name, in bytes (G3). Seed and current: 30.
    public var maxGroupNameBytes: Int? = 30
    /// The longest group introduction, in bytes (G4). Seed: 120; current: 240.
    public var maxGroupIntroductionBytes: Int? = 120
    /// The longest group notification, in bytes (G5). Seed: 150; current: 300.
    public var maxGroupNotificationBytes: Int? = 150
    /// The longest group face URL, in bytes (G6). Seed and current: 100.
    public var maxGroupFaceURLBytes: Int? = 100
    /// The longest member name card, in bytes (G7). Seed: no limit; current: 50.
    public var maxNameCardBytes: Int? = nil
    /// The operator platforms a group tips or group system elem may name
    /// (G13); `nil` accepts any. Seed and current: iOS, Android, Windows,
    /// Mac, Web, RESTful API, Unknown.
    public var operatorPlatforms: Set<String>? = ValidationLimits.documentedPlatforms
    /// The longest group ID, in bytes (G14). Seed: no limit; current: 48.
    public var maxGroupIDBytes: Int? = nil
    /// Whether group IDs must be printable ASCII, 0x20–0x7E (G14). Seed: no;
    /// current: yes.
    public var requiresPrintableASCIIGroupID: Bool = false
    /// The most group custom fields one group tips elem changes (G15). Seed:
    /// no limit; current: 10.
    public var maxGroupCustomFields: Int? = nil
    /// The longest group custom field key, in bytes (G15). Seed: no limit;
    /// current: 16.
    public var maxGroupCustomKeyBytes: Int? = nil
    /// The longest group custom field value, in bytes (G15). Seed: no limit;
    /// current: 512.
    public var maxGroupCustomValueBytes: Int? = nil
    /// The most custom fields of one group member (G16). Seed: no limit;
    /// current: 5.
    public var maxMemberCustomFields: Int? = nil
    /// The longest member custom field value, in bytes (G16). Seed: no limit;
    /// current: 64.
    public var maxMemberCustomValueBytes: Int? = nil

    // MARK: Relationship chain and profiles

    /// The longest add-friend wording, in bytes (F2). Seed and current: 120.
    public var maxFriendWordingBytes: Int? = 120
    /// The prefix every add source starts with (F3); `nil` turns the add
    /// source rules off. Seed and current: `AddSource_Type_`.
    public var addSourcePrefix: String? = "AddSource_Type_"
    /// The longest add source name after the prefix, in bytes of English
    /// letters (F3). Seed and current: 8.
    public var maxAddSourceBytes: Int? = 8
    /// The relationship-chain system types the documentation names (F4).
    /// Seed: 1…4; current: 1…14, the types the SDKs define.
    public var snsSystemTypes: ClosedRange<Int32> = 1...4
    /// The longest profile string (nickname, face URL, signature, location,
    /// custom value), in bytes (F7). Seed: no limit; current: 500.
    public var maxProfileStringBytes: Int? = nil
    /// The longest user ID, in bytes (F8). Seed: no limit; current: 32.
    public var maxUserIDBytes: Int? = nil

    /// Creates limits with the defaults: the ``seed`` profile.
    public init() {}
}

extension ValidationLimits {
    /// The group types the seed documents name: Private, Public, ChatRoom,
    /// AVChatRoom and BChatRoom (seed 004) and Community (seed 002).
    public static let documentedGroupTypes: Set<String> = [
        "Private", "Public", "ChatRoom", "AVChatRoom", "BChatRoom", "Community",
    ]

    /// The operator platforms seed 004 names.
    public static let documentedPlatforms: Set<String> = [
        "iOS", "Android", "Windows", "Mac", "Web", "RESTful API", "Unknown",
    ]
}
