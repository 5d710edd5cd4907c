import IMCodec

extension IMCodecError.Code {
    // MARK: Tencent REST MsgBody codes (docs/spec/rest.md)

    /// A REST value has the wrong JSON type: a number where a string is
    /// expected or the reverse, `null`, a fraction where an integer is
    /// expected, or a document of none of the three shapes.
    public static let restType = Self("rest.type")
    /// A REST integer is outside its range, an image level `Type` is not
    /// 1, 2 or 3, or a `TIMRelayElem`'s `JsonMsgKey` is empty.
    public static let restRange = Self("rest.range")
    /// A required REST key is absent, or a key of a form's pair without the
    /// rest of the pair.
    public static let restMissingKey = Self("rest.missing-key")
    /// A REST object has a key its form does not have.
    public static let restUnknownKey = Self("rest.unknown-key")
    /// A REST key differs from a known key of its object only in letter case.
    public static let restKeyCase = Self("rest.key-case")
    /// A REST object names the same key twice.
    public static let restDuplicateKey = Self("rest.duplicate-key")
    /// `MsgType` is not one of the documented element types.
    public static let restMsgType = Self("rest.msg-type")
    /// A `TIMRelayElem` has both `MsgList` and `JsonMsgKey`.
    public static let restRelayListAndKey = Self("rest.relay-list-and-key")
    /// A `TIMRelayElem`'s `MsgNum` differs from the length of its `MsgList`.
    public static let restRelayMsgNum = Self("rest.relay-msg-num")
    /// A model value has no REST form (export); the path is a payload path.
    public static let restUnrepresentable = Self("rest.unrepresentable")
}
