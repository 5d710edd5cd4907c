// An elem of each kind by the kind's name, as `.text` and `.custom` are:
// `elems: [.image(ImageElem(...)), .face(FaceElem(index: 3))]`.
extension Elem {
    /// An image elem.
    ///
    /// - Returns: An elem of kind ``Kind/image(_:)``.
    public static func image(_ image: ImageElem) -> Elem { Elem(kind: .image(image)) }
    /// A sound elem.
    ///
    /// - Returns: An elem of kind ``Kind/sound(_:)``.
    public static func sound(_ sound: SoundElem) -> Elem { Elem(kind: .sound(sound)) }
    /// A video elem.
    ///
    /// - Returns: An elem of kind ``Kind/video(_:)``.
    public static func video(_ video: VideoElem) -> Elem { Elem(kind: .video(video)) }
    /// A file elem.
    ///
    /// - Returns: An elem of kind ``Kind/file(_:)``.
    public static func file(_ file: FileElem) -> Elem { Elem(kind: .file(file)) }
    /// A location elem.
    ///
    /// - Returns: An elem of kind ``Kind/location(_:)``.
    public static func location(_ location: LocationElem) -> Elem { Elem(kind: .location(location)) }
    /// A face (sticker) elem.
    ///
    /// - Returns: An elem of kind ``Kind/face(_:)``.
    public static func face(_ face: FaceElem) -> Elem { Elem(kind: .face(face)) }
    /// A merger (forwarded history) elem.
    ///
    /// - Returns: An elem of kind ``Kind/merger(_:)``.
    public static func merger(_ merger: MergerElem) -> Elem { Elem(kind: .merger(merger)) }
    /// A group tips elem.
    ///
    /// - Returns: An elem of kind ``Kind/groupTips(_:)``.
    public static func groupTips(_ tips: GroupTipsElem) -> Elem { Elem(kind: .groupTips(tips)) }
    /// A group system elem.
    ///
    /// - Returns: An elem of kind ``Kind/groupSystem(_:)``.
    public static func groupSystem(_ system: GroupSystemElem) -> Elem { Elem(kind: .groupSystem(system)) }
    /// A relationship-chain system elem.
    ///
    /// - Returns: An elem of kind ``Kind/snsSystem(_:)``.
    public static func snsSystem(_ system: SnsSystemElem) -> Elem { Elem(kind: .snsSystem(system)) }
    /// A profile system elem.
    ///
    /// - Returns: An elem of kind ``Kind/profileSystem(_:)``.
    public static func profileSystem(_ system: ProfileSystemElem) -> Elem { Elem(kind: .profileSystem(system)) }
}

extension Message {
    /// A one-to-one message: the fields a sender fills, the rest left at
    /// their defaults (set them afterwards as properties).
    ///
    /// ```swift
    /// var message = Message(from: "alice", to: "bob", elems: [.text("hi")])
    /// message.needReadReceipt = true
    /// ```
    ///
    /// - Parameters:
    ///   - sender: The sender's user id.
    ///   - receiver: The receiver's user id.
    ///   - elems: The content.
    ///   - msgID: The message id; empty until a server assigns one.
    public init(from sender: String, to receiver: String, elems: [Elem], msgID: String = "") {
        self.init()
        self.sender = sender
        self.receiver = receiver
        self.elems = elems
        self.msgID = msgID
    }

    /// A group message, the other fields left at their defaults.
    ///
    /// - Parameters:
    ///   - sender: The sender's user id.
    ///   - groupID: The group's id.
    ///   - elems: The content.
    ///   - msgID: The message id; empty until a server assigns one.
    public init(from sender: String, toGroup groupID: String, elems: [Elem], msgID: String = "") {
        self.init()
        self.sender = sender
        self.groupID = groupID
        self.elems = elems
        self.msgID = msgID
    }
}
