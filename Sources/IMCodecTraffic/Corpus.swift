import IMCodec

/// A seeded model of IM traffic: the messages every benchmark runs on (the
/// default seed), and, from other seeds, training data for preset
/// dictionaries (`docs/DICTIONARY.md`).
///
/// The mix follows what an IM client sends and receives: mostly short text
/// (English, Chinese, emoji, mentions), custom JSON signalling, images with
/// their three levels, sound, video, files, locations, stickers, forwarded
/// chat history (mergers of 5 to 20 messages), group tips and system
/// notifications. One-to-one and group messages are mixed; some carry
/// offline-push settings or cloud custom data.
public struct Corpus: Sendable {
    /// The seed of the default corpus.
    public static let defaultSeed: UInt64 = 0x1AC0_DEC0_2024_0008

    /// The realistic traffic: `count` messages.
    public let messages: [Message]
    /// One message holding a merger of 300 messages.
    public let merger: Message
    /// The traffic cut into history pages of 20 messages.
    public let batches: [MessageBatch]

    /// Generates a corpus.
    ///
    /// - Parameters:
    ///   - seed: The generator's seed; equal seeds give equal corpora.
    ///   - count: How many messages of traffic.
    public init(seed: UInt64 = Corpus.defaultSeed, count: Int = 1_000) {
        var maker = MessageMaker(seed: seed)
        var messages: [Message] = []
        messages.reserveCapacity(count)
        for index in 0..<count { messages.append(maker.message(index: index)) }
        self.messages = messages
        merger = maker.mergerMessage(index: count, nested: 300)
        batches = stride(from: 0, to: count, by: 20).map { start in
            MessageBatch(messages: Array(messages[start..<min(start + 20, count)]))
        }
    }

    /// The canonical encodings of ``messages``.
    public var payloads: [[UInt8]] { messages.map { $0.serializedBytes() } }
}

/// Builds one realistic message at a time.
struct MessageMaker {
    var random: SeededGenerator
    let users: [String]
    let nicknames = [
        "Alice", "Bob", "小明", "王芳", "李雷", "韩梅梅", "Chen Wei", "Zhang San", "🐱 Kitty", "阿杰", "Lucy",
        "产品经理-刘", "Tom", "小雨", "Zoe",
    ]
    let groups = [
        "@TGS#2FHJB3AQ7", "@TGS#1KXZQ9PLM", "group_dev_team", "@TGS#3QWERTY12", "family_2024", "@TGS#aOK8R3EMW",
    ]
    let groupTypes = ["Work", "Public", "Meeting", "Community", "AVChatRoom"]

    init(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        users = (0..<60).map { _ in "user_\(random.int(10_000...99_999))" }
        self.random = random
    }

    static let englishPhrases = [
        "ok", "Sounds good", "see you at 3", "can you send me the file?", "Thanks!", "lol", "on my way",
        "Did you see the latest build?", "meeting moved to 4pm", "I'll check and get back to you", "yes", "no worries",
        "Happy birthday!!", "where are you?", "brb", "Let's ship it today", "the link doesn't open for me",
        "just landed", "call me when you're free", "good night",
    ]
    static let chinesePhrases = [
        "好的", "收到，谢谢！", "在吗？", "明天见", "晚上一起吃饭吗", "我到了", "哈哈哈", "辛苦了", "稍等一下",
        "这个需求下周上线", "文件已经发你邮箱了", "周末去爬山吗", "开会了开会了", "今天好热啊", "没问题",
        "我看一下", "麻烦确认一下订单", "生日快乐！", "路上堵车，晚点到", "早点休息",
    ]
    static let emoji = ["😂", "👍", "🙏", "❤️", "🎉", "😅", "🤔", "👋", "🔥", "😭", "🥳", "👀", "✅", "💯"]

    mutating func text() -> String {
        var parts: [String] = []
        for _ in 0..<random.int(1...3) {
            switch random.int(0...9) {
            case 0...4: parts.append(random.pick(Self.chinesePhrases))
            case 5...8: parts.append(random.pick(Self.englishPhrases))
            default: parts.append(random.pick(Self.emoji))
            }
        }
        if random.chance(25) { parts.append(String(repeating: random.pick(Self.emoji), count: random.int(1...3))) }
        return parts.joined(separator: random.chance(50) ? " " : "，")
    }

    mutating func user() -> String { random.pick(users) }

    mutating func uuid() -> String { "\(random.int(1_400_000_000...1_400_999_999))_\(random.hex(32))" }

    mutating func cosURL(_ uuid: String, _ suffix: String) -> String {
        "https://cos.ap-shanghai.myqcloud.com/\(random.hex(8))-\(random.int(1_250_000_000...1_259_999_999))/im/\(uuid)\(suffix)"
    }

    mutating func message(index: Int, allowMerger: Bool = true) -> Message {
        var message = envelope(index: index)
        let roll = random.int(0...99)
        let elem: Elem
        switch roll {
        case 0..<55: elem = .text(text())
        case 55..<63: elem = customElem()
        case 63..<73: elem = imageElem()
        case 73..<77: elem = soundElem()
        case 77..<80: elem = videoElem()
        case 80..<83: elem = fileElem()
        case 83..<85: elem = locationElem()
        case 85..<88: elem = faceElem()
        case 88..<92: elem = allowMerger ? mergerElem(nested: random.int(5...20)) : .text(text())
        case 92..<97: elem = groupTipsElem(message.groupID.isEmpty ? random.pick(groups) : message.groupID)
        case 97..<99: elem = groupSystemElem()
        default: elem = random.chance(50) ? snsSystemElem() : profileSystemElem()
        }
        message.elems.append(elem)
        // Text often travels with a sticker or a second line.
        if roll < 55 && random.chance(8) { message.elems.append(random.chance(50) ? faceElem() : .text(text())) }
        if roll < 55 && !message.groupID.isEmpty && random.chance(12) {
            message.atUserList = (0..<random.int(1...3)).map { _ in user() }
        }
        return message
    }

    mutating func envelope(index: Int) -> Message {
        var message = Message()
        let timestamp = 1_700_000_000 + Int64(index) * Int64(random.int(1...90))
        message.msgID =
            "\(random.int(144_115_200_000_000_000...144_115_299_999_999_999))-\(timestamp)-\(random.int(1...999_999_999))"
        message.sender = user()
        if random.chance(40) {
            message.groupID = random.pick(groups)
            if random.chance(50) { message.groupType = random.pick(groupTypes) }
        } else {
            message.receiver = user()
        }
        message.timestamp = timestamp
        message.seq = UInt64(10_000 + index)
        message.random = UInt32(truncatingIfNeeded: random.next())
        if random.chance(10) { message.priority = random.pick([.high, .normal, .low]) }
        if random.chance(10) { message.needReadReceipt = true }
        if random.chance(3) { message.excludedFromUnreadCount = true }
        if random.chance(3) { message.excludedFromLastMessage = true }
        if random.chance(2) { message.onlineUserOnly = true }
        if !message.groupID.isEmpty && random.chance(3) {
            message.targetedReceivers = (0..<random.int(1...4)).map { _ in user() }
        }
        if random.chance(20) { message.offlinePushInfo = pushInfo() }
        if random.chance(15) {
            message.cloudCustomData = Array(
                #"{"messageReply":{"messageID":"\#(random.hex(16))","messageAbstract":"\#(random.pick(Self.chinesePhrases))","messageSender":"\#(random.pick(nicknames))","messageType":1,"version":1}}"#
                    .utf8)
        }
        return message
    }

    mutating func pushInfo() -> OfflinePushInfo {
        var push = OfflinePushInfo()
        push.title = random.pick(nicknames)
        push.desc = random.pick(Self.chinesePhrases)
        if random.chance(50) { push.ext = #"{"entity":{"action":1,"chatType":1,"sender":"\#(user())"}}"# }
        if random.chance(30) { push.iosSound = "default" }
        if random.chance(40) {
            var android = AndroidPushInfo()
            android.oppoChannelID = "tuikit"
            android.huaweiCategory = "IM"
            android.vivoClassification = 1
            push.android = android
        }
        if random.chance(30) {
            var apns = ApnsPushInfo()
            apns.badgeMode = 1
            apns.mutableContent = 1
            push.apns = apns
        }
        return push
    }

    mutating func customElem() -> Elem {
        let json: String
        switch random.int(0...3) {
        case 0:
            json =
                #"{"businessID":"order","orderId":"O\#(random.int(100_000_000...999_999_999))","title":"\#(random.pick(["机械键盘", "Wireless earbuds", "保温杯 500ml", "Running shoes"]))","price":\#(random.int(10...2_000)).\#(random.int(0...99)),"status":\#(random.int(1...5)),"link":"https://shop.example.com/item/\#(random.hex(12))"}"#
        case 1:
            json =
                #"{"businessID":"av_call","call_id":"\#(random.hex(24))","action":\#(random.int(1...5)),"duration":\#(random.int(0...3_600)),"call_type":\#(random.int(1...2)),"room_id":\#(random.int(100_000...999_999)),"version":4}"#
        case 2:
            json =
                #"{"businessID":"text_link","text":"\#(random.pick(Self.chinesePhrases))","link":"https://cloud.tencent.com/document/product/269/\#(random.int(3_000...9_000))","version":4}"#
        default:
            json =
                #"{"businessID":"group_create","opUser":"\#(random.pick(nicknames))","content":"创建群组","cmd":1,"version":4}"#
        }
        var custom = CustomElem()
        custom.data = Array(json.utf8)
        if random.chance(60) { custom.desc = random.pick(["[订单]", "[通话]", "[链接]", "[自定义消息]"]) }
        if random.chance(30) { custom.ext = #"{"push":\#(random.int(0...1))}"# }
        if random.chance(5) { custom.sound = "ring.caf" }
        return Elem(kind: .custom(custom))
    }

    mutating func imageElem() -> Elem {
        var image = ImageElem()
        image.uuid = uuid()
        image.format = random.pick([.jpg, .png, .gif, .jpg, .jpg])
        let width = UInt32(random.int(480...4_032))
        let height = UInt32(random.int(480...4_032))
        let size = UInt32(random.int(80_000...6_000_000))
        let ext = image.format == .png ? ".png" : image.format == .gif ? ".gif" : ".jpg"
        image.levels = [
            ImageLevel(
                type: .original, uuid: image.uuid, size: size, width: width, height: height,
                url: cosURL(image.uuid, ext)),
            ImageLevel(
                type: .large, uuid: image.uuid, size: size / 4, width: min(width, 720),
                height: height * min(width, 720) / max(width, 1),
                url: cosURL(image.uuid, ext + "?imageMogr2/thumbnail/720x")),
            ImageLevel(
                type: .thumbnail, uuid: image.uuid, size: size / 40, width: 198,
                height: height * 198 / max(width, 1), url: cosURL(image.uuid, ext + "?imageMogr2/thumbnail/198x")),
        ]
        return Elem(kind: .image(image))
    }

    mutating func soundElem() -> Elem {
        var sound = SoundElem()
        sound.uuid = uuid()
        sound.url = cosURL(sound.uuid, ".m4a")
        sound.duration = UInt32(random.int(1...60))
        sound.size = sound.duration * UInt32(random.int(1_500...4_000))
        sound.downloadFlag = 2
        return Elem(kind: .sound(sound))
    }

    mutating func videoElem() -> Elem {
        var video = VideoElem()
        video.videoUUID = uuid()
        video.videoURL = cosURL(video.videoUUID, ".mp4")
        video.videoDuration = UInt32(random.int(2...300))
        video.videoSize = video.videoDuration * UInt32(random.int(100_000...400_000))
        video.videoFormat = "mp4"
        video.snapshotUUID = uuid()
        video.snapshotURL = cosURL(video.snapshotUUID, ".jpg")
        video.snapshotWidth = 720
        video.snapshotHeight = UInt32(random.int(400...1_280))
        video.snapshotSize = UInt32(random.int(20_000...200_000))
        video.snapshotFormat = "jpg"
        video.videoDownloadFlag = 2
        video.snapshotDownloadFlag = 2
        return Elem(kind: .video(video))
    }

    mutating func fileElem() -> Elem {
        var file = FileElem()
        file.uuid = uuid()
        file.name = random.pick([
            "季度报告-2024Q3.pdf", "design-spec v2.docx", "合同扫描件.zip", "screenshot_0412.png", "会议纪要.xlsx",
            "release-notes.txt",
        ])
        file.url = cosURL(file.uuid, "")
        file.size = UInt32(random.int(1_000...50_000_000))
        file.downloadFlag = 2
        return Elem(kind: .file(file))
    }

    mutating func locationElem() -> Elem {
        let places = [
            ("深圳市南山区腾讯滨海大厦", 113.9353, 22.5228), ("北京市海淀区中关村大街1号", 116.3164, 39.9835),
            ("上海市浦东新区世纪大道100号", 121.5055, 31.2345), ("Marina Bay Sands, Singapore", 103.8607, 1.2834),
        ]
        let place = random.pick(places)
        return Elem(
            kind: .location(
                LocationElem(
                    desc: place.0, longitude: place.1 + Double(random.int(-500...500)) / 100_000,
                    latitude: place.2 + Double(random.int(-500...500)) / 100_000)))
    }

    mutating func faceElem() -> Elem {
        let faces = ["[微笑]", "[大哭]", "[OK]", "[爱心]", "[强]", "tt00@2x", "yz05", "[捂脸]"]
        return Elem(kind: .face(FaceElem(index: Int32(random.int(0...120)), data: Array(random.pick(faces).utf8))))
    }

    mutating func mergerElem(nested count: Int) -> Elem {
        var merger = MergerElem()
        let names = (random.pick(nicknames), random.pick(nicknames))
        merger.title = random.chance(50) ? "\(names.0)和\(names.1)的聊天记录" : "Chat history of \(names.0) and \(names.1)"
        var messages: [Message] = []
        for index in 0..<count {
            var message = self.message(index: index, allowMerger: false)
            // Forwarded messages carry their content, not their push settings.
            message.offlinePushInfo = nil
            messages.append(message)
        }
        merger.abstracts = messages.prefix(3).map { message in
            let body: String =
                switch message.elems.first?.kind {
                case .text(let text)?: text.text
                case .image?: "[图片]"
                case .face?: "[表情]"
                case .file?: "[文件]"
                default: "[消息]"
                }
            return "\(message.sender): \(body)"
        }
        merger.compatibleText = "[聊天记录]"
        merger.msgNum = UInt32(count)
        merger.messages = messages
        return Elem(kind: .merger(merger))
    }

    mutating func mergerMessage(index: Int, nested: Int) -> Message {
        var message = envelope(index: index)
        message.elems = [mergerElem(nested: nested)]
        return message
    }

    mutating func profile() -> UserProfile {
        var profile = UserProfile()
        profile.identifier = user()
        profile.nickname = random.pick(nicknames)
        profile.faceURL = "https://avatar.example.com/\(random.hex(16)).png"
        if random.chance(30) { profile.gender = random.pick([.male, .female]) }
        return profile
    }

    mutating func groupTipsElem(_ groupID: String) -> Elem {
        var tips = GroupTipsElem()
        tips.groupID = groupID
        tips.type = random.pick([.invite, .quit, .kicked, .setAdmin, .infoChange, .memberInfoChange])
        tips.opUser = user()
        tips.opUserInfo = profile()
        switch tips.type {
        case .infoChange:
            tips.groupChangeList = [
                GroupChangeInfo(type: random.pick([.name, .notification, .introduction]), value: text())
            ]
        case .memberInfoChange:
            tips.memberChangeList = [MemberChangeInfo(identifier: user(), shutupTime: UInt32(random.int(60...86_400)))]
        default:
            tips.userList = (0..<random.int(1...5)).map { _ in user() }
        }
        tips.groupName = random.pick(["产品研发群", "Family ❤️", "周末羽毛球", "Project Apollo", "2024届校友会"])
        tips.memberCount = UInt32(random.int(3...500))
        tips.platform = random.pick(["iOS", "Android", "Web", "Windows"])
        return Elem(kind: .groupTips(tips))
    }

    mutating func groupSystemElem() -> Elem {
        var system = GroupSystemElem()
        system.type = random.pick([.addGroupRequest, .kickOffFromGroup, .invitedToGroup, .grantAdmin, .customInfo])
        system.groupID = random.pick(groups)
        system.user = user()
        system.msg = random.pick(["申请加入群组", "You were removed from the group", "欢迎加入", "custom notice"])
        if random.chance(50) { system.opUserInfo = profile() }
        system.platform = random.pick(["iOS", "Android", "Web"])
        return Elem(kind: .groupSystem(system))
    }

    mutating func snsSystemElem() -> Elem {
        var sns = SnsSystemElem()
        sns.type = random.pick([.addFriend, .addFriendReq, .delFriend])
        sns.users = (0..<random.int(1...2)).map { _ in
            SnsChangeInfo(
                identifier: user(), wording: random.pick(["我是小明", "Hi, let's connect", ""]),
                source: "AddSource_Type_Search")
        }
        return Elem(kind: .snsSystem(sns))
    }

    mutating func profileSystemElem() -> Elem {
        var system = ProfileSystemElem()
        system.type = .friendProfileChange
        system.fromUser = user()
        system.nickname = random.pick(nicknames)
        return Elem(kind: .profileSystem(system))
    }
}
