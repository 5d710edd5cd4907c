import IMCodec

/// The REST message fields that sit beside `MsgBody`, in REST's own types
/// (the model's `seq` and `timestamp` are wider than REST's uint32).
package struct RESTEnvelope {
    var sender = ""
    var receiver = ""
    var groupID = ""
    var seq: UInt32 = 0
    var random: UInt32 = 0
    var timestamp: UInt32 = 0
    /// `CloudCustomData`: a JSON string, kept as its UTF-8 bytes.
    var cloudCustomData: [UInt8] = []
}

/// `ApnsInfo`: its `Sound` is the model's `offline_push_info.ios_sound`, the
/// rest is `offline_push_info.apns`.
package struct RESTApns {
    var sound = ""
    var apns = ApnsPushInfo()
}

/// The key tables of Sources/IMCodecREST/IMCodecREST.docc/REST.md.
package enum RESTForms {
    /// A message object at the top of a document or in a message list.
    package static let message = envelope(required: ["MsgBody"])
    /// A `MsgList` entry of a `TIMRelayElem`.
    static let forwardedMessage = envelope(
        required: ["From_Account", "MsgSeq", "MsgRandom", "MsgTimeStamp", "MsgBody"])

    private static func envelope(required: Set<String>) -> RESTForm<RESTEnvelope> {
        func key(_ name: String, _ field: String, _ value: RESTKey<RESTEnvelope>.Value) -> RESTKey<RESTEnvelope> {
            RESTKey(name, field, value, required.contains(name) ? .required : .optional)
        }
        return RESTForm([
            key("From_Account", "sender", .string(\.sender)),
            key("To_Account", "receiver", .string(\.receiver)),
            key("GroupId", "groupId", .string(\.groupID)),
            key("MsgSeq", "seq", .uint32(\.seq)),
            key("MsgRandom", "random", .uint32(\.random)),
            key("MsgTimeStamp", "timestamp", .uint32(\.timestamp)),
            key("MsgBody", "elems", .nested),
            key("CloudCustomData", "cloudCustomData", .text(\.cloudCustomData)),
            key("OfflinePushInfo", "offlinePushInfo", .nested),
        ])
    }

    /// Keys of callbacks and history answers that describe the delivery, not
    /// the message: accepted in message objects and message lists, skipped.
    static let envelopeOnlyKeys: Set<String> = [
        "CallbackCommand", "MsgTime", "MsgKey", "OnlineOnlyFlag", "SendMsgResult", "ErrorInfo", "ErrorCode",
        "ErrorDisplay", "ActionStatus", "UnreadMsgNum", "EventTime", "SyncOtherMachine", "MsgLifeTime",
        "SendMsgControl", "ForbidCallbackControl", "SupportMessageExtension", "IsPlaceMsg", "IsSystemMsg",
        "MsgPriority", "MsgFlagBits", "IsPeerRead", "IsFinished", "Complete", "MsgCnt", "LastMsgTime",
        "LastMsgKey", "Operator_Account", "TopicId", "Type", "SyncFromOldSystem",
    ]

    /// Other spellings of message keys: group send requests and group
    /// callbacks write `Random` for `MsgRandom`.
    static let messageAliases = ["Random": "MsgRandom"]

    package static let offlinePush = RESTForm<OfflinePushInfo>([
        RESTKey("PushFlag", "pushFlag", .uint32(\.pushFlag), .optional),
        RESTKey("Title", "title", .string(\.title), .optional),
        RESTKey("Desc", "desc", .string(\.desc), .optional),
        RESTKey("Ext", "ext", .string(\.ext), .optional),
        RESTKey("AndroidInfo", "android", .nested, .optional),
        RESTKey("ApnsInfo", "apns", .nested, .optional),
    ])

    package static let android = RESTForm<AndroidPushInfo>([
        RESTKey("Sound", "sound", .string(\.sound), .optional),
        RESTKey("HuaWeiChannelID", "huaweiChannelId", .string(\.huaweiChannelID), .optional),
        RESTKey("XiaoMiChannelID", "xiaomiChannelId", .string(\.xiaomiChannelID), .optional),
        RESTKey("OPPOChannelID", "oppoChannelId", .string(\.oppoChannelID), .optional),
        RESTKey("GoogleChannelID", "googleChannelId", .string(\.googleChannelID), .optional),
        RESTKey("VIVOClassification", "vivoClassification", .uint32(\.vivoClassification), .optional),
        RESTKey("HuaWeiImportance", "huaweiImportance", .string(\.huaweiImportance), .optional),
        RESTKey("ExtAsHuaweiIntentParam", "extAsHuaweiIntentParam", .uint32(\.extAsHuaweiIntentParam), .optional),
        RESTKey("HuaWeiCategory", "huaweiCategory", .string(\.huaweiCategory), .optional),
    ])

    package static let apns = RESTForm<RESTApns>([
        RESTKey("Sound", "", .string(\.sound), .optional),
        RESTKey("BadgeMode", "badgeMode", .uint32(\.apns.badgeMode), .optional),
        RESTKey("Title", "title", .string(\.apns.title), .optional),
        RESTKey("SubTitle", "subTitle", .string(\.apns.subTitle), .optional),
        RESTKey("Image", "image", .string(\.apns.image), .optional),
        RESTKey("MutableContent", "mutableContent", .uint32(\.apns.mutableContent), .optional),
    ])

    /// `{"MsgType", "MsgContent"}`.
    static let elementKeys = ["MsgType", "MsgContent"]

    package static let text = RESTForm<TextElem>([RESTKey("Text", "text", .string(\.text))])

    package static let location = RESTForm<LocationElem>([
        RESTKey("Desc", "desc", .string(\.desc)),
        RESTKey("Latitude", "latitude", .double(\.latitude)),
        RESTKey("Longitude", "longitude", .double(\.longitude)),
    ])

    package static let face = RESTForm<FaceElem>([
        RESTKey("Index", "index", .int32(\.index)),
        RESTKey("Data", "data", .text(\.data), .optional),
    ])

    package static let custom = RESTForm<CustomElem>([
        RESTKey("Data", "data", .text(\.data)),
        RESTKey("Desc", "desc", .string(\.desc), .optional),
        RESTKey("Ext", "ext", .string(\.ext), .optional),
        RESTKey("Sound", "sound", .string(\.sound), .optional),
    ])

    package static let sound = RESTForm<SoundElem>([
        RESTKey("Url", "url", .string(\.url), .group),
        RESTKey("UUID", "uuid", .string(\.uuid)),
        RESTKey("Size", "size", .uint32(\.size)),
        RESTKey("Second", "duration", .uint32(\.duration)),
        RESTKey("Download_Flag", "downloadFlag", .uint32(\.downloadFlag), .group),
    ])

    package static let image = RESTForm<ImageElem>([
        RESTKey("UUID", "uuid", .string(\.uuid)),
        RESTKey("ImageFormat", "format", .imageFormat(\.format)),
        RESTKey("ImageInfoArray", "levels", .nested),
    ])

    package static let imageLevel = RESTForm<ImageLevel>([
        RESTKey("Type", "type", .levelType(\.type)),
        RESTKey("Size", "size", .uint32(\.size)),
        RESTKey("Width", "width", .uint32(\.width)),
        RESTKey("Height", "height", .uint32(\.height)),
        RESTKey("URL", "url", .string(\.url)),
    ])

    package static let file = RESTForm<FileElem>([
        RESTKey("Url", "url", .string(\.url), .group),
        RESTKey("UUID", "uuid", .string(\.uuid)),
        RESTKey("FileSize", "size", .uint32(\.size)),
        RESTKey("FileName", "name", .string(\.name)),
        RESTKey("Download_Flag", "downloadFlag", .uint32(\.downloadFlag), .group),
    ])

    package static let video = RESTForm<VideoElem>([
        RESTKey("VideoUrl", "videoUrl", .string(\.videoURL), .group),
        RESTKey("VideoUUID", "videoUuid", .string(\.videoUUID)),
        RESTKey("VideoSize", "videoSize", .uint32(\.videoSize)),
        RESTKey("VideoSecond", "videoDuration", .uint32(\.videoDuration)),
        RESTKey("VideoFormat", "videoFormat", .string(\.videoFormat)),
        RESTKey("VideoDownloadFlag", "videoDownloadFlag", .uint32(\.videoDownloadFlag), .group),
        RESTKey("ThumbUrl", "snapshotUrl", .string(\.snapshotURL), .group),
        RESTKey("ThumbUUID", "snapshotUuid", .string(\.snapshotUUID)),
        RESTKey("ThumbSize", "snapshotSize", .uint32(\.snapshotSize)),
        RESTKey("ThumbWidth", "snapshotWidth", .uint32(\.snapshotWidth)),
        RESTKey("ThumbHeight", "snapshotHeight", .uint32(\.snapshotHeight)),
        RESTKey("ThumbFormat", "snapshotFormat", .string(\.snapshotFormat)),
        RESTKey("ThumbDownloadFlag", "snapshotDownloadFlag", .uint32(\.snapshotDownloadFlag), .group),
    ])

    /// `MsgList` and `JsonMsgKey` are each optional here; exactly one of them
    /// must be present, which the reader checks itself.
    package static let relay = RESTForm<MergerElem>([
        RESTKey("Title", "title", .string(\.title)),
        RESTKey("MsgNum", "msgNum", .uint32(\.msgNum)),
        RESTKey("CompatibleText", "compatibleText", .string(\.compatibleText)),
        RESTKey("AbstractList", "abstracts", .nested),
        RESTKey("MsgList", "messages", .nested, .optional),
        RESTKey("JsonMsgKey", "jsonMsgKey", .string(\.jsonMsgKey), .optional),
    ])
}

/// The REST element types (`MsgType`) and the elem kinds they map to.
package enum RESTElemType: String, CaseIterable {
    case text = "TIMTextElem"
    case location = "TIMLocationElem"
    case face = "TIMFaceElem"
    case custom = "TIMCustomElem"
    case sound = "TIMSoundElem"
    case image = "TIMImageElem"
    case file = "TIMFileElem"
    case video = "TIMVideoFileElem"
    case relay = "TIMRelayElem"

    /// The proto3 JSON name of the elem kind, for translating validator paths.
    package var kindField: String {
        switch self {
        case .text: "text"
        case .location: "location"
        case .face: "face"
        case .custom: "custom"
        case .sound: "sound"
        case .image: "image"
        case .file: "file"
        case .video: "video"
        case .relay: "merger"
        }
    }
}
