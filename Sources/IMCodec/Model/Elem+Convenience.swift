extension Elem {
    /// Creates an elem of the given kind.
    ///
    /// ```swift
    /// let elem = Elem(.location(LocationElem(desc: "Tencent Building", longitude: 113.93, latitude: 22.54)))
    /// ```
    public init(_ kind: Kind) {
        self.init(kind: kind)
    }

    /// A text elem.
    ///
    /// - Parameter text: The text.
    /// - Returns: An elem of kind ``Kind/text(_:)``.
    public static func text(_ text: String) -> Elem {
        Elem(kind: .text(TextElem(text: text)))
    }

    /// A custom (signaling) elem.
    ///
    /// - Parameters:
    ///   - data: The app's bytes.
    ///   - desc: The offline-push text.
    /// - Returns: An elem of kind ``Kind/custom(_:)``.
    public static func custom(_ data: [UInt8], desc: String = "") -> Elem {
        Elem(kind: .custom(CustomElem(data: data, desc: desc)))
    }
}

extension Message {
    /// Whether this is a group message: it names a group rather than a receiver.
    public var isGroupMessage: Bool { !groupID.isEmpty }
}
