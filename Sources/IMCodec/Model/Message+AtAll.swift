extension Message {
    /// The user ID that mentions every member of the group in
    /// ``atUserList``: `kImSDK_MesssageAtALL` of the SDK headers, with the
    /// SDK's spelling.
    ///
    /// A message whose @ list holds it is an @ all message; its
    /// ``atType`` is ``GroupAtType/atAll`` or, when the list also names the
    /// logged-in user, ``GroupAtType/atAllAtMe``.
    public static let atAllUserID = "__kImSDK_MesssageAtALL__"

    /// Whether ``atUserList`` mentions every member, by holding
    /// ``atAllUserID``.
    public var mentionsAllMembers: Bool { atUserList.contains(where: Self.isAtAllUserID) }

    /// Whether `userID` is ``atAllUserID``. User IDs compare as bytes, as
    /// the SDK compares them: a canonically equivalent spelling (a Kelvin
    /// sign for the K) is another user ID.
    package static func isAtAllUserID(_ userID: String) -> Bool { userID.utf8.elementsEqual(atAllUserID.utf8) }
}
