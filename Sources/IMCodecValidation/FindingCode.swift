import IMCodec
import IMCodecREST

/// The stable code of a validation finding, such as `limit.group.name-bytes`.
///
/// Codes are dotted lowercase strings shared by every implementation of the
/// format and listed in `Sources/IMCodecValidation/IMCodecValidation.docc/LimitsAndProfiles.md` with the docs/LIMITS.md
/// rows they enforce. The first component says what kind of rule was broken:
///
/// - `limit.*`: a size or count is above its limit; the finding carries the
///   limit and the observed value.
/// - `range.*`: a number is outside its physical range.
/// - `format.*`: a string does not have the documented shape.
/// - `rule.*`: fields contradict each other (a field set where the
///   documentation says it never is, or missing where it always is).
/// - `enum.*`: a value outside the documented set; always a warning, since
///   newer data may use values this schema does not name.
/// - `code.*`: a result code the documents do not name; a warning, for the
///   same reason.
///
/// New codes may be added in later releases, so switch over codes with a
/// `default`.
public struct FindingCode: Hashable, Sendable, CustomStringConvertible {
    /// The code's string form, such as `limit.group.name-bytes`.
    public let rawValue: String

    /// Creates a code from its string form.
    ///
    /// - Parameter rawValue: The dotted lowercase code.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The code's string form.
    public var description: String { rawValue }
}

extension FindingCode {
    // MARK: Message elems (docs/LIMITS.md M1–M18)

    /// A file elem's size is above ``ValidationLimits/maxFileBytes`` (M1).
    public static let fileSize = Self("limit.file.size")
    /// A video elem's size is above ``ValidationLimits/maxVideoBytes`` (M1).
    public static let videoSize = Self("limit.video.size")
    /// An image level's size is above ``ValidationLimits/maxImageBytes`` (M1).
    public static let imageSize = Self("limit.image.size")
    /// A sound elem's size is above ``ValidationLimits/maxSoundBytes`` (M1).
    public static let soundSize = Self("limit.sound.size")
    /// A merger elem combines more messages than
    /// ``ValidationLimits/maxMergerMessages`` (M2).
    public static let mergerMessages = Self("limit.merger.messages")
    /// A message in a merger's list holds a group tips elem (M3).
    public static let mergerContainsGroupTips = Self("rule.merger.contains-group-tips")
    /// Mergers nest deeper than ``ValidationLimits/maxMergerDepth`` layers (M4).
    public static let mergerDepth = Self("limit.merger.depth")
    /// A merger has more abstract lines than
    /// ``ValidationLimits/maxMergerAbstracts`` (M5).
    public static let mergerAbstracts = Self("limit.merger.abstracts")
    /// A merger abstract line is longer than
    /// ``ValidationLimits/maxMergerAbstractLength`` UTF-16 code units (M5).
    public static let mergerAbstractLength = Self("limit.merger.abstract-length")
    /// A merger has no compatible text while
    /// ``ValidationLimits/requiresMergerCompatibleText`` is set (M5).
    public static let mergerCompatibleTextMissing = Self("rule.merger.compatible-text-missing")
    /// A merger states a message count (`msgNum`, REST `MsgNum`) other than
    /// the number of messages it carries.
    public static let mergerMsgNum = Self("rule.merger.msg-num")
    /// A merger has no title, which the SDK displays it by (M19).
    public static let mergerTitleMissing = Self("rule.merger.title-missing")
    /// A merger has no abstract line, which the SDK displays it by (M19).
    public static let mergerAbstractsMissing = Self("rule.merger.abstracts-missing")
    /// A message's @ type does not follow from its @ user list: set on a
    /// message without one, @ all without the @-all user ID
    /// (`Message/atAllUserID`), or @ me without another user ID (M20).
    public static let atTypeMismatch = Self("rule.at.type-mismatch")
    /// A merger carries messages and also the key of messages stored apart
    /// (`jsonMsgKey`, REST `JsonMsgKey`): it has one or the other.
    public static let mergerKeyWithMessages = Self("rule.merger.key-with-messages")
    /// An image elem holds a second level of the same type (M6).
    public static let imageDuplicateLevel = Self("rule.image.duplicate-level")
    /// A large image's shorter side is not the 720 px the SDK scales it to,
    /// or the original's when that is smaller (M7). A warning.
    public static let imageLargeSize = Self("rule.image.large-size")
    /// A thumbnail's shorter side is not the 198 px the SDK scales it to, or
    /// the original's when that is smaller (M7). A warning.
    public static let imageThumbnailSize = Self("rule.image.thumbnail-size")
    /// A location's latitude is outside [-90, 90] or not a number (M9).
    public static let locationLatitude = Self("range.location.latitude")
    /// A location's longitude is outside [-180, 180] or not a number (M9).
    public static let locationLongitude = Self("range.location.longitude")
    /// A message with an @ user list is not a group message (M10).
    public static let atNotGroupMessage = Self("rule.at.not-group-message")
    /// A message with an @ user list holds an elem that is not text, or no
    /// elem at all (M10).
    public static let atTextOnly = Self("rule.at.text-only")
    /// A message with targeted receivers is not a group message (M11).
    public static let targetedNotGroupMessage = Self("rule.targeted.not-group-message")
    /// A message with targeted receivers is also an @ message (M11).
    public static let targetedWithAt = Self("rule.targeted.with-at")
    /// A message with targeted receivers goes to an AVChatRoom or Community
    /// group (M11).
    public static let targetedGroupType = Self("rule.targeted.group-type")
    /// A message names neither a receiver nor a group (M12).
    public static let messageTargetMissing = Self("rule.message.target-missing")
    /// A message names both a receiver and a group (M12).
    public static let messageTargetAmbiguous = Self("rule.message.target-ambiguous")
    /// A message's body is larger than ``ValidationLimits/maxMessageBodyBytes`` (M13).
    public static let messageBodyBytes = Self("limit.message.body-bytes")
    /// A message holds more custom elems than
    /// ``ValidationLimits/maxCustomElems`` (M14).
    public static let messageCustomElems = Self("limit.message.custom-elems")
    /// A custom elem's desc and ext together are longer than
    /// ``ValidationLimits/maxCustomDescExtBytes`` (M15).
    public static let customDescExtBytes = Self("limit.custom.desc-ext-bytes")
    /// A message holds no elem (M17); on a REST document, an empty `MsgBody`.
    public static let messageElemsMissing = Self("rule.message.elems-missing")
    /// An image elem carries no level (M18); on a REST document, an empty
    /// `ImageInfoArray`.
    public static let imageLevelsMissing = Self("rule.image.levels-missing")

    // MARK: Groups (docs/LIMITS.md G1–G17)

    /// A message's, group profile's or group creation's group type is not in
    /// ``ValidationLimits/groupTypes`` (G1).
    /// A warning.
    public static let unknownGroupType = Self("enum.unknown-group-type")
    /// A group tips elem, a group profile (`maxMemberNum` or `memberNum`) or a
    /// group creation (`maxMemberNum`) reports more members than the group
    /// type allows (G2).
    public static let groupMembers = Self("limit.group.members")
    /// A group name is longer than ``ValidationLimits/maxGroupNameBytes`` (G3).
    public static let groupNameBytes = Self("limit.group.name-bytes")
    /// A group introduction is longer than
    /// ``ValidationLimits/maxGroupIntroductionBytes`` (G4).
    public static let groupIntroductionBytes = Self("limit.group.introduction-bytes")
    /// A group notification is longer than
    /// ``ValidationLimits/maxGroupNotificationBytes`` (G5).
    public static let groupNotificationBytes = Self("limit.group.notification-bytes")
    /// A group face URL is longer than ``ValidationLimits/maxGroupFaceURLBytes`` (G6).
    public static let groupFaceURLBytes = Self("limit.group.face-url-bytes")
    /// A member name card is longer than ``ValidationLimits/maxNameCardBytes`` (G7).
    public static let groupNameCardBytes = Self("limit.group.name-card-bytes")
    /// A group tips elem carries a member count but is not an invite, quit
    /// or kicked tip (G9).
    public static let groupTipsMemberCountType = Self("rule.group-tips.member-count-type")
    /// A group tips elem carries group changes but is not an info-change tip (G9).
    public static let groupTipsGroupChangeListType = Self("rule.group-tips.group-change-list-type")
    /// A group tips elem carries member changes but is not a member-info-change
    /// tip (G9).
    public static let groupTipsMemberChangeListType = Self("rule.group-tips.member-change-list-type")
    /// A group tips elem carries a user list but is not an invite, quit,
    /// kicked, set-admin or cancel-admin tip (G9).
    public static let groupTipsUserListType = Self("rule.group-tips.user-list-type")
    /// A user ID appears twice in a group tips elem's `changedUserInfo` or
    /// `changedGroupMemberInfo`, which the SDK holds as dictionaries (G18).
    public static let groupTipsDuplicateIdentifier = Self("rule.group-tips.duplicate-identifier")
    /// A name or owner change carries no value (G10).
    public static let groupChangeValueMissing = Self("rule.group-change.value-missing")
    /// A group change that is not a custom-field change names a key (G10).
    public static let groupChangeKeyType = Self("rule.group-change.key-type")
    /// A custom-field change names no key (G10, G15).
    public static let groupChangeKeyMissing = Self("rule.group-change.key-missing")
    /// A group system elem carries user data but is not of the custom type
    /// 0xff (G12).
    public static let groupSystemUserDataType = Self("rule.group-system.user-data-type")
    /// An operator platform is not in ``ValidationLimits/operatorPlatforms``
    /// (G13). A warning.
    public static let unknownPlatform = Self("enum.unknown-platform")
    /// A group ID is longer than ``ValidationLimits/maxGroupIDBytes`` (G14).
    public static let groupIDBytes = Self("limit.group.id-bytes")
    /// A group ID holds a byte outside printable ASCII 0x20–0x7E (G14).
    public static let groupIDCharacters = Self("format.group.id-characters")
    /// A custom group ID given at creation starts with
    /// ``ValidationLimits/reservedGroupIDPrefix``, the prefix of
    /// server-assigned IDs (G14).
    public static let groupIDPrefix = Self("format.group.id-prefix")
    /// A group profile's member count is above its own maximum member count
    /// (G2); the finding's limit is that maximum.
    public static let groupMemberNum = Self("limit.group.member-num")
    /// A group tips elem changes more group custom fields than
    /// ``ValidationLimits/maxGroupCustomFields`` (G15).
    public static let groupCustomFields = Self("limit.group.custom-fields")
    /// A group custom field key is longer than
    /// ``ValidationLimits/maxGroupCustomKeyBytes`` (G15).
    public static let groupCustomKeyBytes = Self("limit.group.custom-key-bytes")
    /// A group custom field value is longer than
    /// ``ValidationLimits/maxGroupCustomValueBytes`` (G15).
    public static let groupCustomValueBytes = Self("limit.group.custom-value-bytes")
    /// A member holds more custom fields than
    /// ``ValidationLimits/maxMemberCustomFields`` (G16).
    public static let memberCustomFields = Self("limit.member.custom-fields")
    /// A member custom field value is longer than
    /// ``ValidationLimits/maxMemberCustomValueBytes`` (G16).
    public static let memberCustomValueBytes = Self("limit.member.custom-value-bytes")
    /// A member-info-change tip gives a member the owner role; ownership only
    /// moves by transfer (G19).
    public static let groupTipsOwnerRole = Self("rule.group-tips.owner-role")
    /// A set-admin or cancel-admin tip, or a grant-admin or cancel-admin
    /// notice, in an AVChatRoom group, which has no role changes (G20).
    public static let avChatRoomRoleChange = Self("rule.avchatroom.role-change")
    /// An owner change in an AVChatRoom group, whose ownership cannot be
    /// transferred (G20).
    public static let avChatRoomOwnerTransfer = Self("rule.avchatroom.owner-transfer")
    /// An invited-to-group or invite-request notice in an AVChatRoom group,
    /// which does not support adding members (G20).
    public static let avChatRoomMemberAddition = Self("rule.avchatroom.member-addition")

    // MARK: Relationship chain and profiles (docs/LIMITS.md F1–F9)

    /// A friend remark is longer than ``ValidationLimits/maxFriendRemarkBytes`` (F1).
    public static let friendRemarkBytes = Self("limit.friend.remark-bytes")

    /// An add-friend wording is longer than
    /// ``ValidationLimits/maxFriendWordingBytes`` (F2).
    public static let snsWordingBytes = Self("limit.sns.wording-bytes")
    /// An add source does not start with ``ValidationLimits/addSourcePrefix``
    /// or its name is empty or not English letters (F3).
    public static let snsSourceFormat = Self("format.sns.source")
    /// An add source name (after the prefix) is longer than
    /// ``ValidationLimits/maxAddSourceBytes`` (F3).
    public static let snsSourceBytes = Self("limit.sns.source-bytes")
    /// A relationship change carries a wording but is not an add request (F5).
    public static let snsWordingType = Self("rule.sns.wording-type")
    /// A relationship change carries an add source but is not an add request
    /// (F5).
    public static let snsSourceType = Self("rule.sns.source-type")
    /// A relationship change names no user (F5).
    public static let snsIdentifierMissing = Self("rule.sns.identifier-missing")
    /// A profile string is longer than ``ValidationLimits/maxProfileStringBytes`` (F7).
    public static let profileStringBytes = Self("limit.profile.string-bytes")
    /// A user ID is longer than ``ValidationLimits/maxUserIDBytes`` (F8).
    public static let userIDBytes = Self("limit.user.id-bytes")
    /// A custom profile field key does not start with
    /// ``ValidationLimits/profileCustomKeyPrefix`` (F10).
    public static let profileCustomKeyFormat = Self("format.profile.custom-key")
    /// A friend-list entry's custom field key does not start with
    /// ``ValidationLimits/friendCustomKeyPrefix`` (F11).
    public static let friendCustomKeyFormat = Self("format.friend.custom-key")

    // MARK: Events (docs/LIMITS.md C1–C5)

    /// A connected or connecting event carries an error code or text (C1).
    public static let connectionCodeState = Self("rule.connection.code-state")
    /// A user-status event other than reconnect-failed carries an error code
    /// or text (C2).
    public static let userStatusCodeType = Self("rule.user-status.code-type")
    /// A read receipt names neither a user nor a group (C4).
    public static let receiptTargetMissing = Self("rule.receipt.target-missing")
    /// A read receipt names both a user and a group (C4).
    public static let receiptTargetAmbiguous = Self("rule.receipt.target-ambiguous")
    /// A group read receipt carries the one-to-one peer-read flag (C4).
    public static let receiptPeerReadOnGroup = Self("rule.receipt.peer-read-on-group")
    /// A one-to-one read receipt carries group read or unread counts (C4).
    public static let receiptCountsOnOneToOne = Self("rule.receipt.counts-on-one-to-one")
    /// A recall event names no message (C5).
    public static let recallMsgIDMissing = Self("rule.recall.msg-id-missing")
    /// A modification event carries no message (C5).
    public static let modificationMessageMissing = Self("rule.modification.message-missing")
    /// An event's error code is neither 0 nor a code the documents name
    /// (`ImErrorCode`). A warning: applications matching on codes will
    /// not recognise it (C6).
    public static let undocumentedCode = Self("code.undocumented")

    // MARK: Enum values

    /// An enum field holds a number outside the documented set. The value is
    /// kept (proto3 enums are open); a warning.
    public static let unknownEnumValue = Self("enum.unknown-value")
    /// A discriminating enum (an elem's or event's `type` or `state`) is left
    /// at 0, which names no documented kind. A warning.
    public static let unspecifiedEnumValue = Self("enum.unspecified")
    /// An elem or event has no kind this schema knows: it is empty or holds
    /// a kind from a newer schema as unknown fields. A warning.
    public static let unknownKind = Self("enum.unknown-kind")
}

extension FindingCode {
    /// The codes the validator reports as warnings: values outside documented
    /// sets, which newer data may legitimately use, and the image-size rule,
    /// which the documentation states as what SDKs do rather than as a
    /// requirement.
    static let warnings: Set<FindingCode> = [
        .unknownEnumValue, .unspecifiedEnumValue, .unknownKind, .unknownGroupType, .unknownPlatform,
        .imageLargeSize, .imageThumbnailSize, .undocumentedCode,
    ]

    /// The severity the validator gives findings of this code: ``ValidationFinding/Severity/warning``
    /// for every `enum.*` code, for `code.undocumented` and for `rule.image.large-size` and
    /// `rule.image.thumbnail-size`, ``ValidationFinding/Severity/error`` for
    /// every other code.
    public var severity: ValidationFinding.Severity {
        Self.warnings.contains(self) ? .warning : .error
    }
}

extension FindingCode {
    /// Every code this version of the validator reports, grouped as
    /// `Sources/IMCodecValidation/IMCodecValidation.docc/LimitsAndProfiles.md` lists them.
    public static let validatorCodes: [FindingCode] = [
        .fileSize, .videoSize, .imageSize, .soundSize, .mergerMessages, .mergerContainsGroupTips, .mergerDepth,
        .mergerAbstracts, .mergerAbstractLength, .mergerCompatibleTextMissing, .imageDuplicateLevel,
        .imageLargeSize, .imageThumbnailSize, .locationLatitude, .locationLongitude, .atNotGroupMessage,
        .atTextOnly, .targetedNotGroupMessage, .targetedWithAt, .targetedGroupType, .messageTargetMissing,
        .messageTargetAmbiguous, .messageBodyBytes, .messageCustomElems, .customDescExtBytes,
        .unknownGroupType, .groupMembers, .groupNameBytes, .groupIntroductionBytes, .groupNotificationBytes,
        .groupFaceURLBytes, .groupNameCardBytes, .groupTipsMemberCountType, .groupTipsGroupChangeListType,
        .groupTipsMemberChangeListType, .groupTipsUserListType, .groupTipsDuplicateIdentifier,
        .groupChangeValueMissing, .groupChangeKeyType, .groupChangeKeyMissing,
        .groupSystemUserDataType, .unknownPlatform, .groupIDBytes, .groupIDCharacters, .groupIDPrefix,
        .groupMemberNum, .groupCustomFields, .groupCustomKeyBytes, .groupCustomValueBytes, .memberCustomFields,
        .memberCustomValueBytes, .friendRemarkBytes, .snsWordingBytes, .snsSourceFormat, .snsSourceBytes,
        .snsWordingType, .snsSourceType, .snsIdentifierMissing,
        .profileStringBytes, .userIDBytes,
        .connectionCodeState, .userStatusCodeType, .receiptTargetMissing, .receiptTargetAmbiguous,
        .receiptPeerReadOnGroup, .receiptCountsOnOneToOne, .recallMsgIDMissing, .modificationMessageMissing,
        .unknownEnumValue, .unspecifiedEnumValue, .unknownKind,
        .mergerMsgNum, .mergerKeyWithMessages, .restDownloadFlag, .restImageFormat, .messageElemsMissing,
        .imageLevelsMissing, .mergerTitleMissing, .mergerAbstractsMissing, .atTypeMismatch, .groupTipsOwnerRole,
        .avChatRoomRoleChange, .avChatRoomOwnerTransfer, .avChatRoomMemberAddition, .profileCustomKeyFormat,
        .friendCustomKeyFormat,
        .undocumentedCode,
    ]
}

extension FindingCode {
    // MARK: REST rules (Sources/IMCodecREST/IMCodecREST.docc/REST.md, "Validation"), reported by RESTValidator

    /// A REST download flag (`Download_Flag`, `VideoDownloadFlag`,
    /// `ThumbDownloadFlag`) is not the value the profile requires (2).
    public static let restDownloadFlag = Self("rule.rest.download-flag")
    /// A REST `ImageFormat` is not one of the documented codes.
    public static let restImageFormat = Self("rule.rest.image-format")
}
