/// The value names of every enum of the schema, for messages about a JSON
/// enum value the schema does not name.
///
/// proto3 scopes enum value names by package, so each name belongs to one
/// enum: the names a decoder's lookup accepts are exactly its enum's.
/// `SchemaEnumNamesTests` checks that every generated enum is listed.
enum SchemaEnumNames {
    /// Each enum's Swift name and its value names, in declaration order.
    static let all: [(type: String, names: [String])] = [
        ("Priority", Priority.knownValues.compactMap(\.protoName)),
        ("ImageLevelType", ImageLevelType.knownValues.compactMap(\.protoName)),
        ("ImageFormat", ImageFormat.knownValues.compactMap(\.protoName)),
        ("Gender", Gender.knownValues.compactMap(\.protoName)),
        ("FriendAllowType", FriendAllowType.knownValues.compactMap(\.protoName)),
        ("GroupMemberRole", GroupMemberRole.knownValues.compactMap(\.protoName)),
        ("GroupTipsType", GroupTipsType.knownValues.compactMap(\.protoName)),
        ("GroupInfoChangeType", GroupInfoChangeType.knownValues.compactMap(\.protoName)),
        ("GroupSystemType", GroupSystemType.knownValues.compactMap(\.protoName)),
        ("SnsSystemType", SnsSystemType.knownValues.compactMap(\.protoName)),
        ("ProfileSystemType", ProfileSystemType.knownValues.compactMap(\.protoName)),
        ("ConnectionState", ConnectionState.knownValues.compactMap(\.protoName)),
        ("ConnectionStatusCode", ConnectionStatusCode.knownValues.compactMap(\.protoName)),
        ("ImErrorCode", ImErrorCode.knownValues.compactMap(\.protoName)),
        ("FriendStatus", FriendStatus.knownValues.compactMap(\.protoName)),
        ("GroupMemberStatus", GroupMemberStatus.knownValues.compactMap(\.protoName)),
        ("GroupAtType", GroupAtType.knownValues.compactMap(\.protoName)),
        ("ConversationType", ConversationType.knownValues.compactMap(\.protoName)),
        ("ReceiveMessageOpt", ReceiveMessageOpt.knownValues.compactMap(\.protoName)),
        ("ReadMembersFilter", ReadMembersFilter.knownValues.compactMap(\.protoName)),
        ("UserStatusType", UserStatusType.knownValues.compactMap(\.protoName)),
        ("FriendResponseType", FriendResponseType.knownValues.compactMap(\.protoName)),
        ("FriendCheckType", FriendCheckType.knownValues.compactMap(\.protoName)),
        ("FriendRelationType", FriendRelationType.knownValues.compactMap(\.protoName)),
        ("PendencyType", PendencyType.knownValues.compactMap(\.protoName)),
        ("FriendDeleteType", FriendDeleteType.knownValues.compactMap(\.protoName)),
        ("GroupAddOpt", GroupAddOpt.knownValues.compactMap(\.protoName)),
        ("GroupSearchableType", GroupSearchableType.knownValues.compactMap(\.protoName)),
        ("GroupMemberVisibleType", GroupMemberVisibleType.knownValues.compactMap(\.protoName)),
        ("GroupReceiveMessageOpt", GroupReceiveMessageOpt.knownValues.compactMap(\.protoName)),
        ("GroupMemberFilter", GroupMemberFilter.knownValues.compactMap(\.protoName)),
        ("GroupMemberInfoFlag", GroupMemberInfoFlag.knownValues.compactMap(\.protoName)),
        ("GroupPendencyGetType", GroupPendencyGetType.knownValues.compactMap(\.protoName)),
        ("GroupPendencyHandleStatus", GroupPendencyHandleStatus.knownValues.compactMap(\.protoName)),
        ("GroupPendencyHandleResult", GroupPendencyHandleResult.knownValues.compactMap(\.protoName)),
    ]

    /// The enum whose names `lookup` accepts, with its names, or nil when
    /// it is none of the listed ones.
    static func enumeration(acceptedBy lookup: (String) -> Int32?) -> (type: String, names: [String])? {
        all.first { entry in entry.names.first.map { lookup($0) != nil } ?? false }
    }
}
