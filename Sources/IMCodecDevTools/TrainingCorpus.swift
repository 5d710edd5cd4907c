import IMCodec
import IMCodecTraffic

/// A deterministic synthetic corpus of realistic IM traffic, for training
/// and evaluating preset dictionaries.
///
/// It is made from phrase banks and value shapes of the Tencent IM SDK
/// documents the schema comes from: one-to-one and group text in Chinese,
/// English and emoji, custom (signaling) JSON, images with three levels,
/// sound, video, files, locations, faces, forwarded (merger) messages, group
/// tips and system notices, relationship-chain and profile notices, read
/// receipts and recalls. It is not the benchmark corpus: it has its own
/// generator and seeds, so a dictionary trained on it is not tested on the
/// very messages it was made from.
struct TrainingCorpus {
    /// SplitMix64, so a seed always yields the same corpus on every platform.
    private var random: SeededGenerator
    private var clock: Int64 = 1_700_000_000
    private var sequence: UInt64 = 1

    /// Creates a generator; equal seeds give equal corpora.
    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    /// The payloads of `count` frames: mostly messages, some batches and events.
    mutating func payloads(count: Int) -> [FramePayload] {
        (0..<count).map { _ in payload() }
    }

    mutating func payload() -> FramePayload {
        switch below(100) {
        case ..<88: .message(message(depth: 0))
        case ..<94: .batch(MessageBatch(messages: (0..<(2 + below(8))).map { _ in message(depth: 0) }))
        default: .event(event())
        }
    }

    // MARK: Random choices

    private mutating func next() -> UInt64 { random.next() }

    private mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    private mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    private mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    private mutating func hex(_ count: Int) -> String {
        let digits = Array("0123456789abcdef")
        return String((0..<count).map { _ in digits[below(16)] })
    }

    private mutating func uuid() -> String {
        "\(hex(8))-\(hex(4))-4\(hex(3))-\(pick(["8", "9", "a", "b"]))\(hex(3))-\(hex(12))"
    }

    // MARK: Identities

    private static let nicknames = [
        "小明", "李雷", "韩梅梅", "王小二", "张伟", "Alice", "Bob", "Carol", "安娜", "老周", "Kevin", "陈思思", "大橘", "Momo",
        "阿杰", "林夕", "Sunny", "子涵", "浩然", "Lucy",
    ]
    private static let groupNames = [
        "产品研发群", "周末羽毛球", "家族群❤️", "2024届同学会", "技术交流", "Design Team", "项目对接-上海", "读书会📚",
        "客服支持", "AVChatRoom 直播间",
    ]
    private static let groupTypes = ["Public", "Private", "ChatRoom", "AVChatRoom", "Work", "Community"]

    private mutating func userID() -> String {
        switch below(4) {
        case 0: "user_\(10_000 + below(90_000))"
        case 1: "u\(100_000_000 + below(900_000_000))"
        case 2: "\(pick(["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]))\(below(1_000))"
        default: "1400\(below(1_000_000))_\(hex(6))"
        }
    }

    private mutating func groupID() -> String {
        chance(70) ? "@TGS#\(chance(50) ? "1" : "2")\(hex(9).uppercased())" : "group_\(below(100_000))"
    }

    private mutating func messageID(sender: String) -> String {
        chance(60)
            ? "\(144_115_000_000_000_000 + UInt64(below(1_000_000_000)))-\(clock)-\(below(1 << 30))"
            : "\(sender)-\(clock)-\(hex(8))"
    }

    // MARK: Text

    private static let chinese = [
        "你好", "在吗？", "好的，收到", "明天上午十点开会，记得带电脑", "哈哈哈哈哈", "我到了，你在哪儿", "这个方案我再看看",
        "晚上一起吃饭吗", "已经发给你了，查收一下", "谢谢大家的支持！", "请大家注意群公告", "周报已提交", "辛苦了",
        "这个问题我们明天再讨论", "收到，马上处理", "图片太模糊了，能再发一张吗", "生日快乐🎂", "新年快乐，万事如意",
        "会议链接已更新", "麻烦确认一下地址", "快递已经到楼下了", "今天的直播几点开始？", "好的没问题👌", "我们下周见",
        "这个功能什么时候上线", "已读", "稍等一下", "文件太大发不了", "我先下线了", "路上堵车，晚到十分钟",
    ]
    private static let english = [
        "hi", "ok", "thanks!", "See you tomorrow", "Let me check and get back to you", "Sounds good 👍",
        "Can you send me the file?", "Meeting moved to 3pm", "lol", "On my way", "Happy birthday!!! 🎉",
        "Did you get my message?", "Please review the PR when you have time", "Great job everyone",
    ]
    private static let emoji = [
        "😀", "😂", "🤣", "😊", "😍", "👍", "🙏", "🎉", "❤️", "🔥", "😭", "🤔", "👌", "💪", "🐶",
        "👨‍👩‍👧", "🇨🇳", "[微笑]", "[呲牙]", "[OK]",
    ]

    private mutating func text() -> String {
        var parts: [String] = []
        for _ in 0..<(1 + below(chance(15) ? 6 : 2)) {
            switch below(10) {
            case ..<6: parts.append(pick(Self.chinese))
            case ..<8: parts.append(pick(Self.english))
            default: parts.append(pick(Self.emoji))
            }
            if chance(25) { parts.append(pick(Self.emoji)) }
        }
        return parts.joined(separator: chance(50) ? "" : " ")
    }

    // MARK: Messages

    private mutating func message(depth: Int) -> Message {
        let sender = userID()
        clock += Int64(below(600))
        sequence += 1
        var message = Message(
            msgID: messageID(sender: sender), sender: sender, timestamp: clock, seq: sequence,
            random: UInt32(truncatingIfNeeded: next()))
        if chance(55) {
            message.groupID = groupID()
            if chance(40) { message.groupType = pick(Self.groupTypes) }
            if chance(8) {
                message.atUserList = (0..<(1 + below(3))).map { _ in chance(20) ? "__kImSDK_MesssageAtALL__" : userID()
                }
            }
        } else {
            message.receiver = userID()
            if chance(20) { message.needReadReceipt = true }
        }
        if chance(5) { message.priority = pick([.high, .normal, .low]) }
        if chance(4) { message.onlineUserOnly = true }
        if chance(3) { message.excludedFromUnreadCount = true }
        if chance(15) {
            message.offlinePushInfo = OfflinePushInfo(
                title: pick(Self.nicknames), desc: chance(50) ? text() : "[图片]",
                ext: chance(50)
                    ? "{\"entity\":{\"action\":1,\"chatType\":\(below(2) + 1),\"sender\":\"\(sender)\"}}" : "",
                iosSound: chance(30) ? "default" : "")
        }
        if chance(12) {
            message.cloudCustomData = Array(
                pick([
                    "{\"messageReply\":{\"messageID\":\"\(messageID(sender: sender))\",\"messageAbstract\":\"\(pick(Self.chinese))\",\"messageSender\":\"\(pick(Self.nicknames))\",\"messageType\":1,\"version\":1}}",
                    "{\"messageFeature\":{\"needTyping\":1,\"version\":1}}",
                    "{\"translate\":\"\(pick(Self.english))\"}",
                ]).utf8)
        }
        message.elems = elems(depth: depth)
        return message
    }

    private mutating func elems(depth: Int) -> [Elem] {
        let roll = below(100)
        switch roll {
        case ..<58:
            var elems = [Elem(kind: .text(TextElem(text: text())))]
            if chance(6) {
                elems.append(Elem(kind: .face(FaceElem(index: Int32(below(200)), data: Array("tt\(below(100))".utf8)))))
            }
            if chance(4) { elems.append(Elem(kind: .text(TextElem(text: text())))) }
            return elems
        case ..<68: return [Elem(kind: .image(image()))]
        case ..<72: return [Elem(kind: .sound(sound()))]
        case ..<76: return [Elem(kind: .video(video()))]
        case ..<79: return [Elem(kind: .file(file()))]
        case ..<81: return [Elem(kind: .location(location()))]
        case ..<83:
            return [Elem(kind: .face(FaceElem(index: Int32(below(100)), data: Array("[\(pick(Self.emoji))]".utf8))))]
        case ..<90: return [Elem(kind: .custom(custom()))]
        case ..<94 where depth < 2: return [Elem(kind: .merger(merger(depth: depth)))]
        case ..<97: return [Elem(kind: .groupTips(groupTips()))]
        case ..<98: return [Elem(kind: .groupSystem(groupSystem()))]
        case ..<99: return [Elem(kind: .snsSystem(sns()))]
        default:
            return [
                Elem(
                    kind: .profileSystem(
                        ProfileSystemElem(
                            type: .friendProfileChange, fromUser: userID(), nickname: pick(Self.nicknames))))
            ]
        }
    }

    private static let hosts = [
        "https://cos.ap-shanghai.myqcloud.com/", "https://cos.ap-guangzhou.myqcloud.com/",
        "https://im-media-1250000000.cos.ap-beijing.myqcloud.com/", "https://cdn.example-im.com/",
    ]

    private mutating func mediaURL(_ kind: String, _ name: String, _ suffix: String) -> String {
        "\(pick(Self.hosts))\(kind)/\(1_400_000_000 + below(1_000_000))/\(name)\(suffix)"
    }

    private mutating func image() -> ImageElem {
        let id = chance(50) ? uuid() : "1400\(below(1_000_000))_\(hex(32))"
        let format: ImageFormat = pick([.jpg, .jpg, .png, .gif])
        let suffix = format == .png ? ".png" : format == .gif ? ".gif" : ".jpg"
        let width = UInt32(pick([1080, 1280, 1440, 750, 828, 3024]))
        let height = UInt32(pick([1920, 1280, 2560, 1334, 1792, 4032]))
        let size = UInt32(200_000 + below(3_000_000))
        let levels: [ImageLevel] = [
            ImageLevel(
                type: .original, uuid: id, size: size, width: width, height: height, url: mediaURL("image", id, suffix)),
            ImageLevel(
                type: .large, uuid: "\(id)_large", size: size / 3, width: 720, height: height * 720 / width,
                url: mediaURL("image", id, "\(suffix)?imageMogr2/thumbnail/720x")),
            ImageLevel(
                type: .thumbnail, uuid: "\(id)_thumb", size: size / 40, width: 198, height: height * 198 / width,
                url: mediaURL("image", id, "\(suffix)?imageMogr2/thumbnail/198x")),
        ]
        return ImageElem(uuid: id, format: format, levels: levels)
    }

    private mutating func sound() -> SoundElem {
        let id = uuid()
        return SoundElem(
            uuid: id, url: mediaURL("sound", id, pick([".m4a", ".aac", ".amr"])),
            size: UInt32(5_000 + below(200_000)), duration: UInt32(1 + below(60)))
    }

    private mutating func video() -> VideoElem {
        let id = uuid()
        let snapshot = uuid()
        return VideoElem(
            videoUUID: id, videoURL: mediaURL("video", id, ".mp4"), videoSize: UInt32(1_000_000 + below(50_000_000)),
            videoDuration: UInt32(3 + below(300)), videoFormat: "mp4", snapshotUUID: snapshot,
            snapshotURL: mediaURL("image", snapshot, ".jpg"), snapshotSize: UInt32(20_000 + below(200_000)),
            snapshotWidth: 720, snapshotHeight: UInt32(pick([1280, 960, 405])), snapshotFormat: "jpg")
    }

    private static let fileNames = [
        "季度报告.pdf", "会议纪要-0612.docx", "合同扫描件.pdf", "设计稿v3.sketch", "Q3 roadmap.xlsx", "photo_archive.zip",
        "简历-张伟.pdf", "invoice_2024_0815.pdf", "需求文档.md", "安装包.apk",
    ]

    private mutating func file() -> FileElem {
        let id = uuid()
        let name = pick(Self.fileNames)
        return FileElem(
            uuid: id, url: mediaURL("file", id, "/" + name), name: name, size: UInt32(10_000 + below(20_000_000)))
    }

    private static let places = [
        "北京市海淀区中关村大街1号", "上海市浦东新区世纪大道100号", "深圳市南山区科技园", "广州塔", "杭州西湖",
        "Shenzhen Bay Park", "成都市锦江区春熙路",
    ]

    private mutating func location() -> LocationElem {
        LocationElem(
            desc: pick(Self.places), longitude: 113.9 + Double(below(1_000_000)) / 1e7,
            latitude: 22.5 + Double(below(1_000_000)) / 1e7)
    }

    private mutating func custom() -> CustomElem {
        let json: String
        switch below(5) {
        case 0:
            json =
                "{\"businessID\":\"order\",\"orderId\":\"\(hex(16))\",\"title\":\"\(pick(Self.chinese))\",\"price\":\"\(below(10_000)).\(below(100))\",\"imageUrl\":\"\(mediaURL("image", uuid(), ".jpg"))\",\"version\":4}"
        case 1:
            json =
                "{\"businessID\":\"av_call\",\"call_type\":\(1 + below(2)),\"room_id\":\(below(100_000_000)),\"action\":\(below(5)),\"duration\":\(below(3_600)),\"version\":4}"
        case 2:
            json =
                "{\"businessID\":\"text_link\",\"text\":\"\(pick(Self.chinese))\",\"link\":\"https://cloud.tencent.com/document/product/269/\(below(100_000))\",\"version\":4}"
        case 3:
            json =
                "{\"businessID\":\"user_typing_status\",\"typingStatus\":\(below(2)),\"version\":1,\"userAction\":14,\"actionParam\":\"EIMAMSG_InputStatus_Ing\"}"
        default:
            json =
                "{\"businessID\":\"group_create\",\"opUser\":\"\(pick(Self.nicknames))\",\"content\":\"创建群组\",\"cmd\":1,\"version\":4}"
        }
        return CustomElem(
            data: Array(json.utf8), desc: chance(50) ? pick(["[自定义消息]", "[订单]", "[通话]", "[链接]"]) : "",
            ext: chance(20) ? "{\"source\":\"app\"}" : "", sound: chance(5) ? "dingdong.aiff" : "")
    }

    private mutating func merger(depth: Int) -> MergerElem {
        let messages = (0..<(2 + below(5))).map { _ in message(depth: depth + 1) }
        let abstracts = messages.prefix(3).map { _ in "\(pick(Self.nicknames)): \(pick(Self.chinese))" }
        return MergerElem(
            title: pick(["群聊的聊天记录", "\(pick(Self.nicknames))和\(pick(Self.nicknames))的聊天记录", "Chat History"]),
            abstracts: Array(abstracts), compatibleText: "当前版本不支持该消息，请升级到最新版本",
            messages: messages)
    }

    private mutating func profile() -> UserProfile {
        UserProfile(
            identifier: userID(), nickname: pick(Self.nicknames),
            faceURL: chance(60) ? mediaURL("avatar", hex(16), ".png") : "", gender: pick([.unknown, .male, .female]),
            level: UInt32(below(10)), role: UInt32(below(3)))
    }

    private mutating func memberInfo(_ member: String) -> GroupMemberInfo {
        GroupMemberInfo(
            member: member, nameCard: chance(40) ? pick(Self.nicknames) : "",
            joinTime: clock - Int64(below(10_000_000)),
            role: pick([.member, .member, .admin, .owner]))
    }

    private mutating func groupTips() -> GroupTipsElem {
        let type: GroupTipsType = pick([
            .invite, .invite, .quit, .kicked, .setAdmin, .cancelAdmin, .infoChange, .memberInfoChange,
        ])
        let operatorID = userID()
        var tips = GroupTipsElem(
            groupID: groupID(), type: type, opUser: operatorID, groupName: pick(Self.groupNames),
            opUserInfo: profile(), platform: pick(["iOS", "Android", "Windows", "Mac", "Web", "RESTful API"]))
        switch type {
        case .invite, .quit, .kicked, .setAdmin, .cancelAdmin:
            tips.userList = (0..<(1 + below(4))).map { _ in userID() }
            tips.memberCount = UInt32(3 + below(500))
            tips.changedGroupMemberInfo = tips.userList.map {
                ChangedGroupMemberInfo(identifier: $0, info: memberInfo($0))
            }
        case .infoChange:
            tips.groupChangeList = [
                GroupChangeInfo(
                    type: pick([.name, .introduction, .notification, .faceUrl]),
                    value: pick(Self.groupNames + Self.chinese))
            ]
        default:
            tips.memberChangeList = [
                MemberChangeInfo(identifier: userID(), shutupTime: UInt32(pick([0, 600, 3_600, 86_400])))
            ]
        }
        tips.opGroupMemberInfo = memberInfo(operatorID)
        return tips
    }

    private mutating func groupSystem() -> GroupSystemElem {
        GroupSystemElem(
            type: pick([
                .addGroupRequest, .addGroupAccept, .kickOffFromGroup, .deleteGroup, .grantAdmin, .inviteToGroupRequest,
            ]),
            groupID: groupID(), user: userID(),
            msg: chance(60) ? pick(["我是\(pick(Self.nicknames))", "申请加入群聊", ""]) : "",
            msgKey: UInt64(below(1_000_000_000)), authKey: Array(hex(24).utf8), opUserInfo: profile(),
            platform: pick(["iOS", "Android", "Web"]))
    }

    private mutating func sns() -> SnsSystemElem {
        SnsSystemElem(
            type: pick([.addFriend, .delFriend, .addFriendReq]),
            users: (0..<(1 + below(2))).map { _ in
                SnsChangeInfo(
                    identifier: userID(), wording: chance(50) ? "你好，我是\(pick(Self.nicknames))" : "",
                    source: "AddSource_Type_\(pick(["iOS", "Android", "Web", "Search", "QRCode"]))")
            })
    }

    // MARK: Events

    private mutating func event() -> Event {
        switch below(4) {
        case 0:
            let receipts = (0..<(1 + below(4))).map { _ in
                chance(50)
                    ? MessageReceipt(
                        msgID: messageID(sender: userID()), userID: userID(), isPeerRead: true, timestamp: clock)
                    : MessageReceipt(
                        msgID: messageID(sender: userID()), groupID: groupID(), readCount: UInt64(below(200)),
                        unreadCount: UInt64(below(200)))
            }
            return Event(kind: .readReceipt(ReadReceiptEvent(receipts: receipts)))
        case 1:
            return Event(kind: .recall(RecallEvent(msgID: messageID(sender: userID()))))
        case 2:
            return Event(kind: .modification(ModificationEvent(message: message(depth: 1))))
        default:
            return Event(
                kind: .connection(
                    ConnectionEvent(
                        state: pick([.connected, .connecting, .failed, .disconnected]),
                        code: Int32(below(2)) * 6_208, text: chance(30) ? "network unreachable" : "")))
        }
    }
}
