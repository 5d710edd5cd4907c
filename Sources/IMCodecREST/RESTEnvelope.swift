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
