#!/usr/bin/env python3
"""Writes the payload vectors: Vectors/elems, events, envelope, batches, json
and the payload files of Vectors/malformed.

Every expectation comes from the documents, through scripts/vectors/common.py
(a small canonical encoder and proto3 JSON printer written from
docs/spec/payloads.md and the proto3 JSON mapping), or is built byte by byte below
with the reason in the case's comment. `swift test` re-derives every payload
expectation with swift-protobuf (Tests/IMCodecDifferentialTests/VectorOracleTests.swift),
so neither this script nor the library under test is trusted alone.

Run from anywhere: python3 scripts/vectors/make_payload_vectors.py
"""

import sys

sys.dont_write_bytecode = True  # keep scripts/ free of __pycache__

import base64

from common import (
    END_GROUP,
    FIXED32,
    FIXED64,
    LEN,
    HexValid,
    Invalid,
    SCHEMA,
    START_GROUP,
    VARINT,
    Valid,
    VectorFile,
    encode,
    f64,
    ld,
    report,
    tag,
    varint,
    vf,
)

PAYLOAD_DERIVATION = (
    "Inputs written by hand as proto3 JSON. Expected payloads and JSON computed by "
    "scripts/vectors/make_payload_vectors.py with its own canonical encoder and JSON printer "
    "(scripts/vectors/common.py, written from docs/spec/payloads.md and the proto3 JSON "
    "mapping, not from the Swift or C code); hand-built byte inputs are assembled field by "
    "field in that script with the rule they test in their comment. Every payload and JSON "
    "expectation is re-derived with swift-protobuf 1.39 by VectorOracleTests in `swift test`."
)

COMMON_FLAGS = {
    "UnknownField": "The input holds a field number the schema does not define (or a known number with "
    "the wrong wire type). The decoder keeps its raw bytes and writes them after all known fields; "
    "proto3 JSON has no place for them, so the expected JSON leaves them out.",
    "UnknownEnumValue": "An enum field holds a number the schema does not name. proto3 enums are open: "
    "the number survives decode and re-encode, and JSON prints it as a number.",
    "Defaults": "Fields set to their default (empty string or bytes, 0, false, the zero enum) are left out "
    "of the canonical payload and of the printed JSON.",
    "EmptyMessage": "A message field that is present but empty is still written (tag and zero length), and "
    "printed as {}.",
    "OneofDefault": "A oneof member set to its default value is still written, because setting it selects "
    "the member.",
    "NonCanonicalInput": "The input bytes are valid but not canonical (field order, non-minimal varints, "
    "repeated singular fields); the expected payload is the canonical re-encoding.",
    "NulInString": "A string holds U+0000. Valid proto3 and UTF-8; implementations that keep strings as C "
    "strings (protobuf-c) cannot represent it and list this case as a known failure.",
    "NegativeZero": "A double is -0.0. Its bit pattern is not zero, so proto3 writes it; protobuf-c compares "
    "the value with 0 and leaves it out, and lists this case as a known failure.",
    "MaxValues": "Integers at the ends of their range.",
    "NegativeInt32": "A negative int32 is written as a 10-byte sign-extended varint.",
    "Unicode": "Strings with multi-byte UTF-8 (CJK, emoji, combining marks).",
    "LongString": "A length prefix of two or more bytes.",
}


def b64(text):
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    return base64.b64encode(data).decode("ascii")


def msg_with_elem(kind, value):
    return {"elems": [{kind: value}]}


# ---------------------------------------------------------------------------
# Realistic samples with every field set
# ---------------------------------------------------------------------------

USER_PROFILE = {
    "identifier": "user_alice",
    "nickname": "Alice 爱丽丝",
    "allowType": "FRIEND_ALLOW_TYPE_NEED_CONFIRM",
    "faceUrl": "https://avatar.example.com/alice.png",
    "selfSignature": b64("Coffee first ☕"),
    "gender": "GENDER_FEMALE",
    "birthday": 19900412,
    "location": b64("Shenzhen"),
    "language": 2052,
    "level": 12,
    "role": 3,
    "customInfo": [
        {"key": "Tag_Profile_Custom_Hobby", "data": b64("climbing")},
        {"key": "Tag_Profile_Custom_Score", "number": "-42"},
    ],
}

GROUP_MEMBER_INFO = {
    "member": "user_bob",
    "nameCard": "Bob (admin)",
    "joinTime": "1700000000",
    "role": "GROUP_MEMBER_ROLE_ADMIN",
    "silentUntil": 1700003600,
    "customInfo": [{"key": "Tag_Member_Custom_Dept", "data": b64("R&D")}],
}

INNER_MESSAGE_1 = {
    "msgId": "144115233874815003-1700000001-1",
    "sender": "user_alice",
    "receiver": "user_bob",
    "timestamp": "1700000001",
    "elems": [{"text": {"text": "Are we still on for lunch?"}}],
}

INNER_MESSAGE_2 = {
    "msgId": "144115233874815004-1700000002-2",
    "sender": "user_bob",
    "receiver": "user_alice",
    "timestamp": "1700000002",
    "elems": [{"text": {"text": "Yes, 12:30 🍜"}}],
}

ELEMS = {
    "text": {"text": "Hello, 世界! 👋"},
    "custom": {
        "data": b64('{"action":"call","room":42}'),
        "desc": "Incoming call",
        "ext": '{"push":true}',
        "sound": "ring.caf",
    },
    "image": {
        "uuid": "img_5f3a9c",
        "format": "IMAGE_FORMAT_JPG",
        "levels": [
            {
                "type": "IMAGE_LEVEL_TYPE_ORIGINAL",
                "uuid": "img_5f3a9c_o",
                "size": 1048576,
                "width": 3024,
                "height": 4032,
                "url": "https://cos.example.com/img_5f3a9c/o.jpg",
            },
            {
                "type": "IMAGE_LEVEL_TYPE_LARGE",
                "uuid": "img_5f3a9c_l",
                "size": 120000,
                "width": 720,
                "height": 960,
                "url": "https://cos.example.com/img_5f3a9c/l.jpg",
            },
            {
                "type": "IMAGE_LEVEL_TYPE_THUMBNAIL",
                "uuid": "img_5f3a9c_t",
                "size": 9000,
                "width": 198,
                "height": 264,
                "url": "https://cos.example.com/img_5f3a9c/t.jpg",
            },
        ],
    },
    "sound": {"uuid": "snd_77", "url": "https://cos.example.com/snd_77.m4a", "size": 24576, "duration": 12,
              "isPlayed": True},
    "video": {
        "videoUuid": "vid_901",
        "videoUrl": "https://cos.example.com/vid_901.mp4",
        "videoSize": 52428800,
        "videoDuration": 95,
        "videoFormat": "mp4",
        "snapshotUuid": "snap_901",
        "snapshotUrl": "https://cos.example.com/snap_901.jpg",
        "snapshotSize": 40960,
        "snapshotWidth": 1280,
        "snapshotHeight": 720,
        "snapshotFormat": "jpg",
    },
    "file": {
        "uuid": "file_33",
        "url": "https://cos.example.com/file_33",
        "name": "季度报告 Q3.pdf",
        "size": 104857600,
    },
    "location": {"desc": "Tencent Binhai Building, Shenzhen", "longitude": 113.9353, "latitude": 22.5228},
    "face": {"index": 7, "data": b64("[smile]")},
    "merger": {
        "title": "Chat history of Alice and Bob",
        "abstracts": ["Alice: Are we still on for lunch?", "Bob: Yes, 12:30 🍜"],
        "compatibleText": "Please upgrade to view the chat history",
        "messages": [INNER_MESSAGE_1, INNER_MESSAGE_2],
        "layersOverLimit": True,
    },
    "groupTips": {
        "groupId": "@TGS#2C5SZEAEF",
        "type": "GROUP_TIPS_TYPE_INFO_CHANGE",
        "opUser": "user_alice",
        "userList": ["user_bob", "user_carol"],
        "groupName": "Weekend hikers",
        "groupChangeList": [
            {"type": "GROUP_INFO_CHANGE_TYPE_NAME", "value": "Weekend hikers"},
            {"type": "GROUP_INFO_CHANGE_TYPE_CUSTOM", "value": "north", "key": "Tag_Group_Region"},
        ],
        "memberChangeList": [{"identifier": "user_bob", "shutupTime": 600}],
        "opUserInfo": USER_PROFILE,
        "opGroupMemberInfo": GROUP_MEMBER_INFO,
        "changedUserInfo": [{"identifier": "user_alice", "profile": USER_PROFILE}],
        "changedGroupMemberInfo": [{"identifier": "user_bob", "info": GROUP_MEMBER_INFO}],
        "memberCount": 57,
        "platform": "iOS",
    },
    "groupSystem": {
        "type": "GROUP_SYSTEM_TYPE_CUSTOM_INFO",
        "groupId": "@TGS#2C5SZEAEF",
        "user": "user_alice",
        "msg": "Welcome, everyone",
        "msgKey": "9007199254740993",
        "authKey": b64("auth-key-0001"),
        "userData": b64('{"banner":"spring"}'),
        "opUserInfo": USER_PROFILE,
        "opGroupMemberInfo": GROUP_MEMBER_INFO,
        "platform": "Android",
    },
    "snsSystem": {
        "type": "SNS_SYSTEM_TYPE_ADD_FRIEND_REQ",
        "users": [
            {"identifier": "user_dave", "wording": "Hi, I'm Dave from the hiking group", "source": "AddSource_Type_Android"},
            {"identifier": "user_erin", "source": "AddSource_Type_Web"},
        ],
    },
    "profileSystem": {
        "type": "PROFILE_SYSTEM_TYPE_FRIEND_PROFILE_CHANGE",
        "fromUser": "user_alice",
        "nickname": "Alice 🌸",
    },
}

ELEM_TYPES = {f.json_name: f.type for f in SCHEMA.messages["Elem"]}

# Enum fields of each elem (json name -> unknown number to try) for the open-enum cases.
ELEM_ENUMS = {
    "image": [("format", {"format": 99}), ("levels.type", {"levels": [{"type": 7, "uuid": "x"}]})],
    "groupTips": [
        ("type", {"type": 12}),
        ("groupChangeList.type", {"groupChangeList": [{"type": 40, "value": "v"}]}),
        ("opUserInfo.allowType", {"opUserInfo": {"allowType": 3}}),
        ("opUserInfo.gender", {"opUserInfo": {"gender": 9}}),
        ("opGroupMemberInfo.role", {"opGroupMemberInfo": {"role": 500}}),
    ],
    "groupSystem": [("type", {"type": 15})],
    "snsSystem": [("type", {"type": 14})],
    "profileSystem": [("type", {"type": 2})],
}

ELEM_FILES = {
    "text": "TextElem: one string.",
    "custom": "CustomElem: app-defined bytes plus desc, ext and sound for offline push.",
    "image": "ImageElem with its original, large and thumbnail levels.",
    "sound": "SoundElem.",
    "video": "VideoElem with its snapshot.",
    "file": "FileElem.",
    "location": "LocationElem: description and two doubles.",
    "face": "FaceElem: an int32 index and bytes.",
    "merger": "MergerElem: title, abstracts, compatible text and nested messages.",
    "groupTips": "GroupTipsElem with user profiles, member infos and change lists.",
    "groupSystem": "GroupSystemElem with the operator's profile and member info.",
    "snsSystem": "SnsSystemElem: relationship-chain changes.",
    "profileSystem": "ProfileSystemElem.",
}

FILE_NAMES = {
    "groupTips": "group-tips",
    "groupSystem": "group-system",
    "snsSystem": "sns-system",
    "profileSystem": "profile-system",
}


def kebab(name):
    out = ""
    for ch in name:
        out += "-" + ch.lower() if ch.isupper() else ch
    return out


def default_value(field):
    t = field.type
    if field.repeated:
        return []
    if t == "string":
        return ""
    if t == "bytes":
        return ""
    if t in ("int32", "uint32"):
        return 0
    if t in ("int64", "uint64"):
        return "0"
    if t == "bool":
        return False
    if t == "double":
        return 0
    if t in SCHEMA.enums:
        return next(name for name, n in SCHEMA.enums[t].items() if n == 0)
    return None


def standard_cases(vf_, prefix, wrap, type_name, sample, kind="message"):
    """The cases every message type gets: full, empty, one per field, defaults."""
    later = [f.name for f in SCHEMA.messages[type_name] if f.json_name not in sample]
    comment = f"Every field of {type_name} set."
    if later:
        # The sample predates these fields; keeping it keeps this case's expectation
        # (a case id never changes meaning). rest_field_cases sets them.
        comment = (f"Every field of {type_name} set except {', '.join(later)}, added later "
                   f"({prefix}.all-fields-with-rest-fields sets them too).")
    vf_.payload_valid(f"{prefix}.all-fields", comment, kind, wrap(sample))
    vf_.payload_valid(
        f"{prefix}.empty",
        f"A present but empty {type_name}: written as a zero-length field, printed as {{}}.",
        kind,
        wrap({}),
        flags=["EmptyMessage"],
    )
    for field in SCHEMA.messages[type_name]:
        if field.json_name not in sample:
            continue
        vf_.payload_valid(
            f"{prefix}.field.{kebab(field.json_name)}",
            f"Only {type_name}.{field.name} (field {field.number}, {('repeated ' if field.repeated else '') + field.type}) set.",
            kind,
            wrap({field.json_name: sample[field.json_name]}),
        )
    defaults = {}
    for field in SCHEMA.messages[type_name]:
        if field.oneof is None and field.type not in SCHEMA.messages:
            defaults[field.json_name] = default_value(field)
    if defaults:
        vf_.payload_valid(
            f"{prefix}.explicit-defaults",
            f"Every scalar and repeated field of {type_name} spelled out at its default: all left out.",
            kind,
            wrap(defaults),
            flags=["Defaults"],
        )


def elem_message_bytes(kind_json, elem_body):
    """Message{elems:[Elem{<kind>: <elem_body bytes>}]} built by hand."""
    field = SCHEMA.field("Elem", kind_json)
    elem = ld(field.number, elem_body)
    return ld(18, elem)


def unknown_cases(vf_, prefix, kind_json, type_name, sample):
    """Unknown fields inside the elem's own message: kept, moved after the known fields."""
    known = encode(type_name, sample)
    unknown_varint = vf(99, 150)
    unknown_len = ld(1000, b"\x01\x02future")
    unknown_fixed32 = tag(77, FIXED32) + b"\x01\x00\x00\x80"
    unknown_fixed64 = tag(78, FIXED64) + b"\xff" * 8
    expected = elem_message_bytes(kind_json, known + unknown_varint + unknown_len)
    vf_.payload_hex_valid(
        f"{prefix}.unknown-fields-first",
        f"Unknown fields 99 (varint) and 1000 (bytes) before the known fields of {type_name}: kept, written last, in arrival order.",
        "message",
        elem_message_bytes(kind_json, unknown_varint + unknown_len + known),
        expected,
        msg_with_elem(kind_json, sample),
        flags=["UnknownField", "NonCanonicalInput"],
    )
    vf_.payload_hex_valid(
        f"{prefix}.unknown-fields-fixed",
        f"Unknown fixed32 (field 77) and fixed64 (field 78) fields after the known fields of {type_name}: kept as they are.",
        "message",
        elem_message_bytes(kind_json, known + unknown_fixed32 + unknown_fixed64),
        elem_message_bytes(kind_json, known + unknown_fixed32 + unknown_fixed64),
        msg_with_elem(kind_json, sample),
        flags=["UnknownField"],
    )


def write_elem_files():
    written = []
    for kind_json, description in ELEM_FILES.items():
        type_name = ELEM_TYPES[kind_json]
        name = FILE_NAMES.get(kind_json, kind_json)
        vf_ = VectorFile(
            "elems",
            name,
            f"{type_name} ({kind_json} elem)",
            description + " Each case is a Message holding the elem, so paths start at elems[0].",
            PAYLOAD_DERIVATION,
            COMMON_FLAGS,
        )
        prefix = f"elem.{name}"
        sample = ELEMS[kind_json]

        def wrap(value, k=kind_json):
            return msg_with_elem(k, value)

        standard_cases(vf_, prefix, wrap, type_name, sample)
        unknown_cases(vf_, prefix, kind_json, type_name, sample)
        for label, value in ELEM_ENUMS.get(kind_json, []):
            vf_.payload_valid(
                f"{prefix}.unknown-enum.{kebab(label).replace('.', '-')}",
                f"{type_name} {label} holds a number the schema does not name.",
                "message",
                wrap(value),
                flags=["UnknownEnumValue"],
            )
        extra_elem_cases(vf_, prefix, kind_json, wrap)
        rest_field_cases(vf_, prefix, kind_json, type_name, wrap)
        written.append(vf_.write())
    return written


# Fields the schema gained for the REST MsgBody mapping (Sources/IMCodecREST/IMCodecREST.docc/REST.md). They are
# not in ELEMS, so the older all-fields cases keep their expectations; here each
# is set alone, and all of them together with the rest of the sample.
REST_ELEM_FIELDS = {
    "sound": {"downloadFlag": 2},
    "file": {"downloadFlag": 2},
    "video": {"videoDownloadFlag": 2, "snapshotDownloadFlag": 2},
    "merger": {"msgNum": 2, "jsonMsgKey": "relay_144115233874815003_1700000003"},
}


def rest_field_cases(vf_, prefix, kind_json, type_name, wrap):
    extra = REST_ELEM_FIELDS.get(kind_json)
    if not extra:
        return
    for key, value in extra.items():
        field = SCHEMA.field(type_name, key)
        vf_.payload_valid(
            f"{prefix}.field.{kebab(key)}",
            f"Only {type_name}.{field.name} (field {field.number}, {field.type}) set: the REST "
            f"{'MsgNum' if key == 'msgNum' else 'JsonMsgKey' if key == 'jsonMsgKey' else 'download flag'} "
            "of Sources/IMCodecREST/IMCodecREST.docc/REST.md.",
            "message",
            wrap({key: value}),
        )
    every = dict(ELEMS[kind_json])
    every.update(extra)
    vf_.payload_valid(
        f"{prefix}.all-fields-with-rest-fields",
        f"Every field of {type_name} set, including {', '.join(SCHEMA.field(type_name, k).name for k in extra)} "
        "(the REST mapping's fields).",
        "message",
        wrap(every),
    )
    if kind_json == "merger":
        vf_.payload_valid(
            f"{prefix}.json-msg-key-form",
            "The REST JsonMsgKey form: 150 forwarded messages stored apart, so a key and a count and no messages.",
            "message",
            wrap({"title": "Chat history of Alice and Bob", "abstracts": ["Alice: lunch?", "Bob: 12:30"],
                  "compatibleText": "Please upgrade to view the chat history", "msgNum": 150,
                  "jsonMsgKey": "relay_144115233874815003_1700000003"}),
        )
    else:
        vf_.payload_valid(
            f"{prefix}.download-flags-max",
            f"Every download flag of {type_name} at 2^32 - 1.",
            "message",
            wrap({key: 4294967295 for key in extra}),
            flags=["MaxValues"],
        )


def extra_text_cases(prefix, wrap):
    """Cases of the text elem beyond the standard ones."""
    yield Valid(
  f"{prefix}.unicode",
  "CJK, emoji with a skin-tone modifier, a ZWJ sequence and a combining accent.",
  "message",
  wrap({"text": "你好，世界 👋🏽 👩‍👩‍👧 e\u0301"}),
  flags=["Unicode"],
  )
    yield Valid(
  f"{prefix}.escapes",
  "JSON escapes: quote, backslash, control characters, U+2028 and U+FFFF.",
  "message",
  wrap({"text": 'say "hi"\\ \n\t\r\b\f \u0001 \u001f \u2028 \uffff'}),
  )
    yield Valid(
  f"{prefix}.nul",
  "A text with U+0000 in the middle.",
  "message",
  wrap({"text": "before\u0000after"}),
  flags=["NulInString"],
  )
    yield Valid(
  f"{prefix}.length-128",
  "128 bytes of text: the first length that needs a 2-byte varint.",
  "message",
  wrap({"text": "a" * 128}),
  flags=["LongString"],
  )
    yield Valid(
  f"{prefix}.length-16384",
  "16,384 bytes of text: a 3-byte length varint, nested in 3-byte lengths.",
  "message",
  wrap({"text": ("0123456789abcdef" * 1024)}),
  flags=["LongString"],
  )
    yield Valid(
  f"{prefix}.several-in-order",
  "Three text elems: their order is kept.",
  "message",
  {"elems": [{"text": {"text": "one"}}, {"text": {"text": "two"}}, {"text": {"text": "three"}}]},
  )


def extra_custom_cases(prefix, wrap):
    """Cases of the custom elem beyond the standard ones."""
    yield Valid(
  f"{prefix}.binary-data",
  "Data with every byte value 0-255, including ones that are not UTF-8: bytes fields are not checked.",
  "message",
  wrap({"data": b64(bytes(range(256)))}),
  )


def extra_image_cases(prefix, wrap):
    """Cases of the image elem beyond the standard ones."""
    yield Valid(
  f"{prefix}.format-other",
  "IMAGE_FORMAT_OTHER is 255: a 2-byte varint.",
  "message",
  wrap({"format": "IMAGE_FORMAT_OTHER"}),
  )
    yield Valid(
  f"{prefix}.level-max-values",
  "A level with size, width and height at 2^32 - 1.",
  "message",
  wrap({"levels": [{"size": 4294967295, "width": 4294967295, "height": 4294967295}]}),
  flags=["MaxValues"],
  )
    yield Valid(
  f"{prefix}.empty-levels",
  "Three empty levels: each is written as a zero-length entry.",
  "message",
  wrap({"levels": [{}, {}, {}]}),
  flags=["EmptyMessage"],
  )


def extra_location_cases(prefix, wrap):
    """Cases of the location elem beyond the standard ones."""
    yield Valid(
  f"{prefix}.extremes",
  "Longitude -180 and latitude 90.",
  "message",
  wrap({"longitude": -180, "latitude": 90}),
  )
    yield Valid(
  f"{prefix}.negative-zero",
  "Longitude -0.0: written, since only the all-zero bit pattern is the default.",
  "message",
  wrap({"longitude": -0.0}),
  flags=["NegativeZero"],
  )
    yield Valid(
  f"{prefix}.smallest-subnormal",
  "Latitude 5e-324, the smallest positive double.",
  "message",
  wrap({"latitude": 5e-324}),
  )
    yield Valid(
  f"{prefix}.largest-double",
  "Longitude 1.7976931348623157e308.",
  "message",
  wrap({"longitude": 1.7976931348623157e308}),
  flags=["MaxValues"],
  )
    yield Valid(
  f"{prefix}.nan",
  "Latitude NaN (the quiet NaN 0x7FF8000000000000), printed as the string \"NaN\".",
  "message",
  wrap({"latitude": "NaN"}),
  )
    yield Valid(
  f"{prefix}.infinities",
  "Longitude +Infinity and latitude -Infinity, printed as strings.",
  "message",
  wrap({"longitude": "Infinity", "latitude": "-Infinity"}),
  )
    yield Valid(
  f"{prefix}.seventeen-digits",
  "0.1 + 0.2 = 0.30000000000000004: a double that needs 17 significant digits.",
  "message",
  wrap({"longitude": 0.30000000000000004}),
  )


def extra_face_cases(prefix, wrap):
    """Cases of the face elem beyond the standard ones."""
    yield Valid(
  f"{prefix}.negative-index",
  "Index -1: an int32 written as a 10-byte sign-extended varint.",
  "message",
  wrap({"index": -1}),
  flags=["NegativeInt32"],
  )
    yield Valid(
  f"{prefix}.int32-min",
  "Index -2147483648.",
  "message",
  wrap({"index": -2147483648}),
  flags=["NegativeInt32", "MaxValues"],
  )
    yield Valid(
  f"{prefix}.int32-max",
  "Index 2147483647.",
  "message",
  wrap({"index": 2147483647}),
  flags=["MaxValues"],
  )


def extra_merger_cases(prefix, wrap):
    """Cases of the merger elem beyond the standard ones."""
    nested = {"title": "outer", "messages": [{"elems": [{"merger": {"title": "inner", "messages": [INNER_MESSAGE_1]}}]}]}
    yield Valid(f"{prefix}.nested-two-layers", "A merger inside a merger.", "message", wrap(nested))
    yield Valid(
  f"{prefix}.empty-messages",
  "Two empty nested messages: each written as a zero-length entry.",
  "message",
  wrap({"messages": [{}, {}]}),
  flags=["EmptyMessage"],
  )
    yield Valid(
  f"{prefix}.empty-abstract",
  "An empty string in a repeated string field is still an entry.",
  "message",
  wrap({"abstracts": ["", "second"]}),
  )


def extra_group_tips_cases(prefix, wrap):
    """Cases of the groupTips elem beyond the standard ones."""
    yield Valid(
  f"{prefix}.invite",
  "An INVITE tip with the users and the new member count.",
  "message",
  {"groupId": "@TGS#2C5SZEAEF", "elems": [{"groupTips": {"groupId": "@TGS#2C5SZEAEF", "type": "GROUP_TIPS_TYPE_INVITE",
   "opUser": "user_alice", "userList": ["user_bob"], "memberCount": 3, "platform": "Web"}}]},
  )
    yield Valid(
  f"{prefix}.member-info-change",
  "A MEMBER_INFO_CHANGE tip muting a member for 2^32 - 1 seconds.",
  "message",
  wrap({"type": "GROUP_TIPS_TYPE_MEMBER_INFO_CHANGE",
        "memberChangeList": [{"identifier": "user_bob", "shutupTime": 4294967295}]}),
  flags=["MaxValues"],
  )
    yield Valid(
  f"{prefix}.custom-info-number-zero",
  "A custom-info entry whose number member is 0: a set oneof member is written even at its default.",
  "message",
  wrap({"opUserInfo": {"customInfo": [{"key": "k", "number": "0"}]}}),
  flags=["OneofDefault"],
  )
    yield Valid(
  f"{prefix}.custom-info-empty-data",
  "A custom-info entry whose data member is empty: written as a zero-length field.",
  "message",
  wrap({"opUserInfo": {"customInfo": [{"key": "k", "data": ""}]}}),
  flags=["OneofDefault"],
  )
    yield Valid(
  f"{prefix}.member-custom-empty-data",
  "A member custom entry is a key and bytes (NSData only, the group guide), no oneof: empty data is the default "
  "and is left out.",
  "message",
  wrap({"opGroupMemberInfo": {"customInfo": [{"key": "k", "data": ""}]}}),
  flags=["Defaults"],
  expected_json=wrap({"opGroupMemberInfo": {"customInfo": [{"key": "k"}]}}),
  )
    # Elem 18 > groupTips 10 > opGroupMemberInfo 9 > customInfo 6 > key 1, and
    # field 3 varint 9: the number member of a profile custom entry, which
    # a member custom entry does not have.
    member_number = ld(18, ld(10, ld(9, ld(6, ld(1, b"k") + bytes.fromhex("18 09")))))
    yield HexValid(
 f"{prefix}.member-custom-number-is-unknown",
 "A member custom entry holding a number (field 3): member custom values are NSData only (the group guide), so "
 "the number is an unknown field, kept on the wire and absent from the JSON.",
 "message",
 member_number,
 member_number,
 wrap({"opGroupMemberInfo": {"customInfo": [{"key": "k"}]}}),
 flags=["UnknownField"],
 )
    yield Valid(
  f"{prefix}.custom-info-int64-extremes",
  "Custom-info numbers at the int64 extremes.",
  "message",
  wrap({"opUserInfo": {"customInfo": [{"number": "-9223372036854775808"}, {"number": "9223372036854775807"}]}}),
  flags=["MaxValues"],
  )
    yield Valid(
  f"{prefix}.member-roles",
  "Member roles 200, 300 and 400: 2-byte varints.",
  "message",
  wrap({"changedGroupMemberInfo": [
      {"identifier": "a", "info": {"role": "GROUP_MEMBER_ROLE_MEMBER"}},
      {"identifier": "b", "info": {"role": "GROUP_MEMBER_ROLE_ADMIN"}},
      {"identifier": "c", "info": {"role": "GROUP_MEMBER_ROLE_OWNER"}}]}),
  )
    yield Valid(
  f"{prefix}.negative-join-time",
  "A join time before 1970: a negative int64.",
  "message",
  wrap({"opGroupMemberInfo": {"joinTime": "-1"}}),
  )
    for type_name, holder, sample in (("UserProfile", "opUserInfo", USER_PROFILE),
                                      ("GroupMemberInfo", "opGroupMemberInfo", GROUP_MEMBER_INFO)):
        for field in SCHEMA.messages[type_name]:
            yield Valid(
          f"{prefix}.{kebab(holder)}.field.{kebab(field.json_name)}",
          f"Only {type_name}.{field.name} (field {field.number}) set, in the tip's {holder}.",
          "message",
          wrap({holder: {field.json_name: sample[field.json_name]}}),
      )


def extra_group_system_cases(prefix, wrap):
    """Cases of the groupSystem elem beyond the standard ones."""
    yield Valid(
  f"{prefix}.msg-key-max",
  "msgKey at 2^64 - 1, printed as a string.",
  "message",
  wrap({"type": "GROUP_SYSTEM_TYPE_ADD_GROUP_REQUEST", "msgKey": "18446744073709551615"}),
  flags=["MaxValues"],
  )


def extra_sns_system_cases(prefix, wrap):
    """Cases of the snsSystem elem beyond the standard ones."""
    yield Valid(
  f"{prefix}.delete-friends",
  "A DEL_FRIEND change for three users with identifiers only.",
  "message",
  wrap({"type": "SNS_SYSTEM_TYPE_DEL_FRIEND",
        "users": [{"identifier": "u1"}, {"identifier": "u2"}, {"identifier": "u3"}]}),
  )


# The cases of each elem kind beyond the standard ones, by the kind's JSON name.
EXTRA_ELEM_CASES = {
    "text": extra_text_cases,
    "custom": extra_custom_cases,
    "image": extra_image_cases,
    "location": extra_location_cases,
    "face": extra_face_cases,
    "merger": extra_merger_cases,
    "groupTips": extra_group_tips_cases,
    "groupSystem": extra_group_system_cases,
    "snsSystem": extra_sns_system_cases,
}


def extra_elem_cases(vf_, prefix, kind_json, wrap):
    if kind_json in EXTRA_ELEM_CASES:
        vf_.add_rows(EXTRA_ELEM_CASES[kind_json](prefix, wrap))


# ---------------------------------------------------------------------------
# Events
# ---------------------------------------------------------------------------

EVENTS = {
    "readReceipt": {
        "receipts": [
            {"msgId": "144115233874815003-1700000001-1", "userId": "user_bob", "isPeerRead": True, "timestamp": "1700000100"},
            {"msgId": "144115233874815005-1700000003-9", "groupId": "@TGS#2C5SZEAEF", "readCount": "41", "unreadCount": "16"},
        ]
    },
    "recall": {"msgId": "144115233874815003-1700000001-1"},
    "modification": {"message": INNER_MESSAGE_2},
    "connection": {"state": "CONNECTION_STATE_DISCONNECTED", "code": 6208, "text": "kicked offline by another client",
                   "rongCloudStatus": {"code": "CONNECTION_STATUS_CODE_KICKED_OFFLINE_BY_OTHER_CLIENT"}},
    "userStatus": {"type": "USER_STATUS_TYPE_RECONNECT_FAILED", "code": -2, "text": "network unreachable"},
    "readMembers": {"msgId": "144115233874815005-1700000003-9",
                    "members": [{"member": "user_bob", "nameCard": "Bob", "role": "GROUP_MEMBER_ROLE_ADMIN"},
                                {"member": "user_carol"}],
                    "nextSeq": "18446744073709551615", "isFinished": True, "filter": "READ_MEMBERS_FILTER_UNREAD"},
    "conversations": {"conversations": [
        {"type": "CONVERSATION_TYPE_GROUP", "conversationId": "group_@TGS#2C5SZEAEF", "groupId": "@TGS#2C5SZEAEF",
         "groupType": "Public", "showName": "周末羽毛球", "unreadCount": "12",
         "groupAtInfoList": [{"seq": "1041", "atType": "GROUP_AT_TYPE_AT_ME"},
                             {"seq": "1044", "atType": "GROUP_AT_TYPE_AT_ALL"}],
         "lastMessage": {"msgId": "m7", "sender": "user_bob", "groupId": "@TGS#2C5SZEAEF", "groupType": "Public",
                         "elems": [{"text": {"text": "到了"}}]},
         "recvOpt": "RECEIVE_MESSAGE_OPT_NOT_NOTIFY"},
        {"type": "CONVERSATION_TYPE_C2C", "conversationId": "c2c_user_bob", "userId": "user_bob",
         "recvOpt": "RECEIVE_MESSAGE_OPT_NOT_RECEIVE"},
    ]},
}

# The relationship-chain (the relationship chain guide) and group (the group guide) kinds of Event
# (event.proto, relationship.proto, group.proto): every field of every nested
# message set, with multi-byte UTF-8 in the strings.
FRIEND = {
    "identifier": "user_bob",
    "remark": "老同学 Bob",
    "groups": ["同事", "friends"],
    "addWording": "我是 Alice 👋",
    "addSource": "AddSource_Type_iOS",
    "addTime": "1700000000",
    "customInfo": [{"key": "Tag_SNS_Custom_Level", "number": "3"}, {"key": "Tag_SNS_Custom_Note", "data": "AAH/"}],
    "profile": USER_PROFILE,
}
GROUP_CUSTOM = [{"key": "Grade", "data": "MjAyNA=="}, {"key": "区域", "data": "5LiK5rW3"}]
GROUP_INFO = {
    "group": "@TGS#2C5SZEAEF",
    "groupName": "周末羽毛球",
    "owner": "user_alice",
    "groupType": "Public",
    "createTime": 1700000000,
    "lastInfoTime": 1700000100,
    "lastMsgTime": 1700000200,
    "maxMemberNum": 2000,
    "memberNum": 128,
    "addOpt": "GROUP_ADD_OPT_AUTH",
    "notification": "每周六 9:00 🏸",
    "introduction": "Badminton on Saturdays",
    "faceUrl": "https://example.com/g/1.png",
    "lastMsg": {"msgId": "m7", "sender": "user_bob", "groupId": "@TGS#2C5SZEAEF", "elems": [{"text": {"text": "到了"}}]},
    "onlineMemberNum": 17,
    "isSearchable": "GROUP_SEARCHABLE_TYPE_SEARCHABLE",
    "isMemberVisible": "GROUP_MEMBER_VISIBLE_TYPE_VISIBLE",
    "allShutup": True,
    "selfInfo": {"joinTime": 1700000050, "role": "GROUP_MEMBER_ROLE_ADMIN",
                 "recvOpt": "GROUP_RECEIVE_MESSAGE_OPT_NOT_NOTIFY", "unreadMessageNum": 4},
    "customInfo": GROUP_CUSTOM,
}
RELATIONSHIP_EVENTS = {
    "friendList": {"friends": [FRIEND, {"identifier": "user_carol"}]},
    "friendRequest": {"identifier": "user_dave", "remark": "大卫", "addWording": "你好 👋", "addSource": "AddSource_Type_Web",
                      "group": "同事"},
    "friendResponse": {"responseType": "FRIEND_RESPONSE_TYPE_AGREE_AND_ADD", "identifier": "user_dave", "remark": "大卫"},
    "friendResults": {"results": [
        {"identifier": "user_bob", "resultCode": "FRIEND_STATUS_SUCC"},
        {"identifier": "user_eve", "resultCode": "FRIEND_STATUS_ADD_IN_OTHER_SIDE_BLACK_LIST", "resultInfo": "blocked"},
        {"identifier": "user_dave", "resultCode": "FRIEND_STATUS_ADD_PENDING", "resultInfo": "等待验证"},
    ]},
    "friendCheck": {
        "info": {"users": ["user_bob", "user_eve"], "checkType": "FRIEND_CHECK_TYPE_BIDIRECTION"},
        "results": [
            {"identifier": "user_bob", "resultCode": "FRIEND_STATUS_SUCC", "resultInfo": "ok",
             "resultType": "FRIEND_RELATION_TYPE_BOTHWAY"},
            {"identifier": "user_eve", "resultCode": "FRIEND_STATUS_ADD_IN_SELF_BLACK_LIST",
             "resultType": "FRIEND_RELATION_TYPE_OTHER_UNI"},
        ],
    },
    "friendPendency": {
        "request": {"seq": "12", "timestamp": "1700000290", "numPerPage": "20", "type": "PENDENCY_TYPE_BOTH"},
        "response": {"seq": "13", "timestamp": "1700000300", "unreadCnt": "2"},
        "items": [
            {"identifier": "user_dave", "addTime": "1700000250", "addSource": "AddSource_Type_Android",
             "addWording": "我是 Dave", "nickname": "大卫 🎸", "type": "PENDENCY_TYPE_COME_IN"},
            {"identifier": "user_frank", "type": "PENDENCY_TYPE_SEND_OUT"},
        ],
    },
    "friendGroups": {"groups": [{"name": "同事", "userCnt": "2", "friends": ["user_bob", "user_carol"]},
                                {"name": "empty"}]},
    "blacklist": {"friends": [{"identifier": "user_eve", "addTime": "1700000400"}]},
    "friendDelete": {"users": ["iOS_002", "user_bob"], "deleteType": "FRIEND_DELETE_TYPE_BOTH"},
    "friendsAdded": {"users": ["user_bob", "user_carol"]},
    "friendsDeleted": {"users": ["iOS_002"]},
    "friendProfilesUpdated": {"friends": [{"identifier": "user_bob", "remark": "老同学", "profile": USER_PROFILE}]},
    "friendPendencyAdded": {"items": [{"identifier": "user_dave", "addTime": "1700000250",
                                       "addSource": "AddSource_Type_Android", "addWording": "我是 Dave",
                                       "nickname": "大卫 🎸", "type": "PENDENCY_TYPE_COME_IN"}]},
    "friendPendencyDeleted": {"users": ["user_dave"]},
    "friendPendencyRead": {"timestamp": "1700000300"},
    "blacklistAdded": {"users": ["user_eve"]},
    "blacklistDeleted": {"users": ["user_eve", "user_mallory"]},
}
GROUP_EVENTS = {
    "groupProfiles": {"groups": [GROUP_INFO, {"group": "@TGS#1NVTZEAE4", "groupType": "AVChatRoom"}]},
    "createGroup": {
        "group": "team_42",
        "groupName": "项目组",
        "groupType": "Public",
        "setAddOpt": True,
        "addOpt": "GROUP_ADD_OPT_AUTH",
        "maxMemberNum": 3,
        "notification": "this is a notification",
        "introduction": "this is a introduction",
        "faceUrl": "https://example.com/g/2.png",
        "customInfo": GROUP_CUSTOM,
        "membersInfo": [{"member": "iOS_001", "role": "GROUP_MEMBER_ROLE_ADMIN",
                         "customInfo": [{"key": "Title", "data": "5bel56iL5biI"}]},
                        {"member": "iOS_002"}],
    },
    "groupMembers": {"groupId": "@TGS#2C5SZEAEF", "members": [GROUP_MEMBER_INFO, {"member": "user_carol"}],
                     "nextSeq": "40",
                     "request": {"filter": "GROUP_MEMBER_FILTER_ADMIN", "flags": "GROUP_MEMBER_INFO_FLAG_NAME_CARD",
                                 "custom": ["Title", "Level"], "nextSeq": "20"}},
    "groupMemberResults": {"groupId": "TGID1JYSZEAEQ", "results": [
        {"member": "iOS_002", "status": "GROUP_MEMBER_STATUS_SUCC"},
        {"member": "iOS_003", "status": "GROUP_MEMBER_STATUS_INVALID"},
        {"member": "iOS_004", "status": "GROUP_MEMBER_STATUS_PENDING"},
        {"member": "iOS_005"},
    ]},
    "groupPendency": {
        "meta": {"nextStartTime": "1700000500", "readTimeSeq": "1700000400", "unreadCnt": 3},
        "items": [
            {"groupId": "@TGS#2C5SZEAEF", "fromUser": "user_dave", "toUser": "user_alice", "addTime": "1700000450",
             "getType": "GROUP_PENDENCY_GET_TYPE_INVITE", "handleStatus": "GROUP_PENDENCY_HANDLE_STATUS_OPERATOR_HANDLED",
             "handleResult": "GROUP_PENDENCY_HANDLE_RESULT_AGREE", "requestMsg": "一起打球吗", "handledMsg": "thanks for inviting",
             "selfIdentifier": "user_alice"},
            {"groupId": "@TGS#2C5SZEAEF", "fromUser": "user_frank"},
        ],
        "request": {"timestamp": "1700000400", "numPerPage": 20},
    },
}
EVENTS.update(RELATIONSHIP_EVENTS)
EVENTS.update(GROUP_EVENTS)
# Enum fields of the new kinds holding numbers the schema does not name.
EVENT_ENUMS = {
    "friendResponse": [("responseType", {"responseType": 7})],
    "friendResults": [("results.resultCode", {"results": [{"identifier": "user_bob", "resultCode": 30001}]})],
    "friendCheck": [("results.resultType", {"results": [{"resultType": 4}]}), ("info.checkType", {"info": {"checkType": 3}})],
    "friendPendency": [("items.type", {"items": [{"type": 4}]})],
    "groupProfiles": [("groups.addOpt", {"groups": [{"addOpt": 3}]}),
                      ("groups.isSearchable", {"groups": [{"isSearchable": 3}]})],
    "groupMemberResults": [("results.status", {"results": [{"status": 4}]})],
    "groupPendency": [("items.handleResult", {"items": [{"handleResult": 2}]})],
    # The filter and flags are bit sets: owner and admins (1 | 2) and join time, role and name card
    # (1 | 8 | 32) are numbers the enums do not name, kept as numbers.
    "groupMembers": [("request.filter", {"request": {"filter": 3}}), ("request.flags", {"request": {"flags": 41}})],
    "readMembers": [("filter", {"filter": 2})],
    "conversations": [("conversations.type", {"conversations": [{"type": 3}]}),
                      ("conversations.recvOpt", {"conversations": [{"recvOpt": 3}]})],
    "friendDelete": [("deleteType", {"deleteType": 3})],
}

EVENT_NAMES = {"readReceipt": "read-receipt", "recall": "recall", "modification": "modification",
               "connection": "connection", "userStatus": "user-status", "readMembers": "read-members",
               "conversations": "conversations"}
EVENT_NAMES.update({
    "friendList": "friend-list", "friendRequest": "friend-request", "friendResponse": "friend-response",
    "friendResults": "friend-results", "friendCheck": "friend-check", "friendPendency": "friend-pendency",
    "friendGroups": "friend-groups", "blacklist": "blacklist", "groupProfiles": "group-profiles",
    "createGroup": "create-group", "groupMembers": "group-members", "groupMemberResults": "group-member-results",
    "groupPendency": "group-pendency", "friendDelete": "friend-delete", "friendsAdded": "friends-added",
    "friendsDeleted": "friends-deleted", "friendProfilesUpdated": "friend-profiles-updated",
    "friendPendencyAdded": "friend-pendency-added", "friendPendencyDeleted": "friend-pendency-deleted",
    "friendPendencyRead": "friend-pendency-read", "blacklistAdded": "blacklist-added",
    "blacklistDeleted": "blacklist-deleted",
})

RECEIPT_ALL = {"msgId": "m1", "userId": "user_bob", "groupId": "@TGS#1", "isPeerRead": True,
               "timestamp": "1700000100", "readCount": "18446744073709551615", "unreadCount": "7"}


def write_event_files():
    written = []
    event_types = {f.json_name: f.type for f in SCHEMA.messages["Event"]}
    for kind_json, name in EVENT_NAMES.items():
        type_name = event_types[kind_json]
        vf_ = VectorFile(
            "events",
            name,
            f"{type_name} ({kind_json} event)",
            f"Event payloads (frame kind 3) holding a {type_name}.",
            PAYLOAD_DERIVATION,
            COMMON_FLAGS,
        )
        prefix = f"event.{name}"

        def wrap(value, k=kind_json):
            return {k: value}

        standard_cases(vf_, prefix, wrap, type_name, EVENTS[kind_json], kind="event")
        known = encode(type_name, EVENTS[kind_json])
        field_number = SCHEMA.field("Event", kind_json).number
        vf_.payload_hex_valid(
            f"{prefix}.unknown-field",
            f"An unknown field 50 (varint) inside the {type_name}: kept after its known fields.",
            "event",
            ld(field_number, vf(50, 1) + known),
            ld(field_number, known + vf(50, 1)),
            wrap(EVENTS[kind_json]),
            flags=["UnknownField", "NonCanonicalInput"],
        )
        if kind_json == "readReceipt":
            vf_.payload_valid(f"{prefix}.receipt-all-fields", "One receipt with all seven fields set (read count 2^64 - 1).",
                              "event", wrap({"receipts": [RECEIPT_ALL]}), flags=["MaxValues"])
            vf_.payload_valid(f"{prefix}.empty-receipt", "One empty receipt.", "event", wrap({"receipts": [{}]}),
                              flags=["EmptyMessage"])
            vf_.payload_valid(f"{prefix}.negative-timestamp", "A receipt timestamp of -1 (int64).", "event",
                              wrap({"receipts": [{"timestamp": "-1"}]}))
        if kind_json == "connection":
            for state in ["CONNECTION_STATE_CONNECTED", "CONNECTION_STATE_CONNECTING", "CONNECTION_STATE_FAILED"]:
                vf_.payload_valid(f"{prefix}.state-{state.split('_STATE_')[1].lower()}", f"state {state}.", "event",
                                  wrap({"state": state}))
            for status in ["CONNECTION_STATUS_CODE_TIMEOUT", "CONNECTION_STATUS_CODE_TOKEN_INCORRECT",
                           "CONNECTION_STATUS_CODE_DISCONN_EXCEPTION"]:
                vf_.payload_valid(f"{prefix}.status-{status.split('_CODE_')[1].lower().replace('_', '-')}",
                                  f"RongCloud status {status}.", "event",
                                  wrap({"state": "CONNECTION_STATE_FAILED", "rongCloudStatus": {"code": status}}))
            vf_.payload_valid(f"{prefix}.unknown-enums", "Unknown state 9 and RongCloud status 99.", "event",
                              wrap({"state": 9, "rongCloudStatus": {"code": 99}}), flags=["UnknownEnumValue"])
            vf_.payload_hex_valid(
                f"{prefix}.rong-cloud-connected",
                "RongCloud's ConnectionStatus_Connected (0) alone: rongCloudStatus (field 5) present and empty, "
                "written here by hand (22 02 2a 00); the JSON keeps the empty object, so 0 is represented.",
                "event", bytes.fromhex("22 02 2a 00"), bytes.fromhex("22 02 2a 00"),
                {"connection": {"rongCloudStatus": {}}}, flags=["EmptyMessage"])
            vf_.payload_hex_valid(
                f"{prefix}.legacy-status-field",
                "Field 4 of ConnectionEvent, the status of earlier versions (here 6), is reserved: an unknown field, "
                "kept on the wire and absent from the JSON. Written by hand (22 02 20 06).",
                "event", bytes.fromhex("22 02 20 06"), bytes.fromhex("22 02 20 06"), {"connection": {}},
                flags=["UnknownField"])
            vf_.payload_valid(f"{prefix}.negative-code", "code -2147483648: a 10-byte varint.", "event",
                              wrap({"state": "CONNECTION_STATE_FAILED", "code": -2147483648}),
                              flags=["NegativeInt32", "MaxValues"])
        if kind_json == "userStatus":
            for t in ["USER_STATUS_TYPE_FORCED_OFFLINE", "USER_STATUS_TYPE_USER_SIG_EXPIRED"]:
                vf_.payload_valid(f"{prefix}.type-{t.split('_TYPE_')[1].lower().replace('_', '-')}", f"type {t}.",
                                  "event", wrap({"type": t}))
            vf_.payload_valid(f"{prefix}.unknown-type", "Type 4, which the schema does not name.", "event",
                              wrap({"type": 4}), flags=["UnknownEnumValue"])
        for label, value in EVENT_ENUMS.get(kind_json, []):
            vf_.payload_valid(
                f"{prefix}.unknown-enum.{kebab(label).replace('.', '-')}",
                f"{type_name} {label} holds a number the schema does not name: kept.",
                "event",
                wrap(value),
                flags=["UnknownEnumValue"],
            )
        if kind_json == "modification":
            vf_.payload_valid(f"{prefix}.message-with-merger", "The modified message holds a merger.", "event",
                              wrap({"message": {"msgId": "m9", "elems": [{"merger": ELEMS["merger"]}]}}))
        written.append(vf_.write())

    vf_ = VectorFile(
        "events",
        "event",
        "Event envelope",
        "The Event oneof itself: no kind, an unknown kind, one member replacing another.",
        PAYLOAD_DERIVATION,
        COMMON_FLAGS,
    )
    vf_.payload_valid("event.none", "An event with no kind set: the empty payload.", "event", {})
    vf_.payload_hex_valid(
        "event.unknown-kind",
        "Field 15 of Event, a kind this schema does not know: kept as an unknown field; JSON {}.",
        "event",
        ld(15, vf(1, 1)),
        ld(15, vf(1, 1)),
        {},
        flags=["UnknownField"],
    )
    vf_.payload_hex_valid(
        "event.kind-replaced",
        "A recall followed by a connection event: the later oneof member replaces the earlier one.",
        "event",
        ld(2, encode("RecallEvent", {"msgId": "m1"})) + ld(4, encode("ConnectionEvent", {"state": 1})),
        ld(4, encode("ConnectionEvent", {"state": 1})),
        {"connection": {"state": "CONNECTION_STATE_CONNECTED"}},
        flags=["NonCanonicalInput"],
    )
    vf_.payload_hex_valid(
        "event.same-kind-merged",
        "Two recall members: the same message member is merged (the later msgId wins).",
        "event",
        ld(2, encode("RecallEvent", {"msgId": "first"})) + ld(2, encode("RecallEvent", {"msgId": "second"})),
        ld(2, encode("RecallEvent", {"msgId": "second"})),
        {"recall": {"msgId": "second"}},
        flags=["NonCanonicalInput"],
    )
    vf_.payload_hex_valid(
        "event.modification-merged",
        "Two modification members whose messages set different fields: merged into one message.",
        "event",
        ld(3, ld(1, encode("Message", {"msgId": "m1"}))) + ld(3, ld(1, encode("Message", {"sender": "s"}))),
        ld(3, ld(1, encode("Message", {"msgId": "m1", "sender": "s"}))),
        {"modification": {"message": {"msgId": "m1", "sender": "s"}}},
        flags=["NonCanonicalInput"],
    )
    written.append(vf_.write())
    return written


# ---------------------------------------------------------------------------
# Envelope (Message fields and flags) and batches
# ---------------------------------------------------------------------------

MESSAGE_ALL = {
    "msgId": "144115233874815003-1700000001-1",
    "sender": "user_alice",
    "receiver": "user_bob",
    "groupId": "@TGS#2C5SZEAEF",
    "groupType": "Public",
    "timestamp": "1700000001",
    "seq": "123456789",
    "random": 2882400018,
    "priority": "PRIORITY_HIGH",
    "needReadReceipt": True,
    "excludedFromUnreadCount": True,
    "excludedFromLastMessage": True,
    "onlineUserOnly": True,
    "targetedReceivers": ["user_bob", "user_carol"],
    "atUserList": ["user_bob", "__kImSDK_MesssageAtALL__"],
    "atType": "GROUP_AT_TYPE_AT_ALL_AT_ME",
    "offlinePushInfo": {"title": "Alice", "desc": "sent you a message", "ext": '{"route":"/chat/alice"}', "iosSound": "default"},
    "cloudCustomData": b64('{"quote":{"msgId":"m0"}}'),
    "elems": [{"text": {"text": "@Bob lunch?"}}, {"face": {"index": 3}}],
}


# OfflinePushInfo with every field, and its Android and APNs parts (the REST
# OfflinePushInfo of Sources/IMCodecREST/IMCodecREST.docc/REST.md and Tencent's "Message Formats" page).
ANDROID_PUSH_ALL = {
    "sound": "android.mp3",
    "huaweiChannelId": "hw_im_channel",
    "xiaomiChannelId": "mi_im_channel",
    "oppoChannelId": "test_OPPO_channel_id",
    "googleChannelId": "fcm_im_channel",
    "vivoClassification": 1,
    "huaweiImportance": "NORMAL",
    "extAsHuaweiIntentParam": 1,
    "huaweiCategory": "IM",
}

APNS_PUSH_ALL = {
    "badgeMode": 1,
    "title": "apns title",
    "subTitle": "apns subtitle",
    "image": "www.image.com",
    "mutableContent": 1,
}

OFFLINE_PUSH_ALL = {
    "title": "Alice",
    "desc": "sent you a message",
    "ext": '{"route":"/chat/alice"}',
    "iosSound": "apns.mp3",
    "pushFlag": 1,
    "android": ANDROID_PUSH_ALL,
    "apns": APNS_PUSH_ALL,
}


def offline_push_cases(vf_):
    prefix = "envelope.message.offline-push"
    wrap = lambda value: {"offlinePushInfo": value}
    vf_.payload_valid(f"{prefix}.all-fields", "Every field of OfflinePushInfo, AndroidPushInfo and ApnsPushInfo set.",
                      "message", wrap(OFFLINE_PUSH_ALL))
    for key in ("pushFlag", "android", "apns"):
        field = SCHEMA.field("OfflinePushInfo", key)
        vf_.payload_valid(f"{prefix}.field.{kebab(key)}",
                          f"Only OfflinePushInfo.{field.name} (field {field.number}, {field.type}) set.",
                          "message", wrap({key: OFFLINE_PUSH_ALL[key]}))
    for holder, type_name, sample in (("android", "AndroidPushInfo", ANDROID_PUSH_ALL),
                                      ("apns", "ApnsPushInfo", APNS_PUSH_ALL)):
        for field in SCHEMA.messages[type_name]:
            vf_.payload_valid(
                f"{prefix}.{holder}.field.{kebab(field.json_name)}",
                f"Only {type_name}.{field.name} (field {field.number}, {field.type}) set, in OfflinePushInfo.{holder}.",
                "message",
                wrap({holder: {field.json_name: sample[field.json_name]}}),
            )
        vf_.payload_valid(
            f"{prefix}.{holder}.explicit-defaults",
            f"Every field of {type_name} spelled out at its default: all left out, the present message kept.",
            "message",
            wrap({holder: {f.json_name: default_value(f) for f in SCHEMA.messages[type_name]}}),
            flags=["Defaults", "EmptyMessage"],
        )
    vf_.payload_valid(f"{prefix}.empty-android-and-apns", "Present but empty android and apns messages: written "
                      "as zero-length fields, printed as {}.", "message", wrap({"android": {}, "apns": {}}),
                      flags=["EmptyMessage"])
    vf_.payload_valid(f"{prefix}.max-values", "pushFlag, vivoClassification, extAsHuaweiIntentParam, badgeMode and "
                      "mutableContent at 2^32 - 1.", "message",
                      wrap({"pushFlag": 4294967295, "android": {"vivoClassification": 4294967295,
                                                                "extAsHuaweiIntentParam": 4294967295},
                            "apns": {"badgeMode": 4294967295, "mutableContent": 4294967295}}),
                      flags=["MaxValues"])


def write_envelope_files():
    written = []
    vf_ = VectorFile(
        "envelope",
        "message",
        "Message fields and flags",
        "The Message envelope: ids, routing, time, sequence, priority, the receipt, unread, last-message and "
        "online-only flags, targeted receivers, @ lists, offline push info, cloud custom data and elem order.",
        PAYLOAD_DERIVATION,
        COMMON_FLAGS,
    )
    standard_cases(vf_, "envelope.message", lambda v: v, "Message", MESSAGE_ALL)
    offline_push_cases(vf_)
    vf_.payload_valid("envelope.message.one-to-one", "A one-to-one message: receiver set, no group.", "message",
                      {"msgId": "c2c-1", "sender": "user_alice", "receiver": "user_bob", "timestamp": "1700000001",
                       "random": 1, "elems": [{"text": {"text": "hi"}}]})
    vf_.payload_valid("envelope.message.group", "A group message: group id and type set, no receiver.", "message",
                      {"msgId": "grp-1", "sender": "user_alice", "groupId": "@TGS#2C5SZEAEF", "groupType": "Community",
                       "seq": "77", "elems": [{"text": {"text": "hello all"}}]})
    for p in ["PRIORITY_DEFAULT", "PRIORITY_NORMAL", "PRIORITY_LOW"]:
        vf_.payload_valid(f"envelope.message.priority-{p.split('_')[1].lower()}", f"priority {p}.", "message",
                          {"priority": p}, flags=["Defaults"] if p == "PRIORITY_DEFAULT" else [])
    vf_.payload_valid("envelope.message.priority-unknown", "priority 42, a value the schema does not name.", "message",
                      {"priority": 42}, flags=["UnknownEnumValue"])
    vf_.payload_valid("envelope.message.priority-negative", "priority -1: an enum is an int32 on the wire, so 10 bytes.",
                      "message", {"priority": -1}, flags=["UnknownEnumValue", "NegativeInt32"])
    for flag in ["needReadReceipt", "excludedFromUnreadCount", "excludedFromLastMessage", "onlineUserOnly"]:
        vf_.payload_valid(f"envelope.message.flag-{kebab(flag)}-false", f"{flag} false: the default, left out.",
                          "message", {"msgId": "m", flag: False}, flags=["Defaults"])
    vf_.payload_valid("envelope.message.all-flags", "All four boolean flags true together.", "message",
                      {"needReadReceipt": True, "excludedFromUnreadCount": True, "excludedFromLastMessage": True,
                       "onlineUserOnly": True})
    vf_.payload_valid("envelope.message.timestamp-negative", "timestamp -1 (before the epoch): a 10-byte varint.",
                      "message", {"timestamp": "-1"})
    vf_.payload_valid("envelope.message.timestamp-int64-min", "timestamp -2^63.", "message",
                      {"timestamp": "-9223372036854775808"}, flags=["MaxValues"])
    vf_.payload_valid("envelope.message.seq-max", "seq 2^64 - 1.", "message", {"seq": "18446744073709551615"},
                      flags=["MaxValues"])
    vf_.payload_valid("envelope.message.random-max", "random 2^32 - 1.", "message", {"random": 4294967295},
                      flags=["MaxValues"])
    vf_.payload_valid("envelope.message.offline-push-empty", "An empty offline push info: present, so written.",
                      "message", {"offlinePushInfo": {}}, flags=["EmptyMessage"])
    vf_.payload_valid("envelope.message.elems-mixed-order", "Five elems of different kinds: order kept.", "message",
                      {"elems": [{"image": {"uuid": "i"}}, {"text": {"text": "t"}}, {"sound": {"duration": 3}},
                                 {"custom": {"desc": "c"}}, {"text": {"text": "t2"}}]})
    vf_.payload_valid("envelope.message.empty-elem", "An elem with no kind: an empty entry, printed as {}.", "message",
                      {"elems": [{}]}, flags=["EmptyMessage"])
    vf_.payload_valid("envelope.message.no-fields", "The message with no fields: the empty payload.", "message", {})
    vf_.payload_valid("envelope.message.cloud-custom-data-unicode", "cloudCustomData (bytes, NSData in the "
                      "SDK) holding UTF-8 JSON text with emoji; proto3 JSON prints bytes as base64.",
                      "message", {"cloudCustomData": b64('{"reply":"好的 👍"}')})
    vf_.payload_hex_valid(
        "envelope.message.is-self",
        "isSelf (V2TIMMessage.isSelf) is field 19, after the elems: tag 98 01, written here by hand.",
        "message",
        bytes.fromhex("92 01 00 98 01 01"),
        bytes.fromhex("92 01 00 98 01 01"),
        {"elems": [{}], "isSelf": True},
        flags=["EmptyMessage"],
    )
    vf_.payload_hex_valid(
        "envelope.message.at-all",
        "An @ all message: the @ list holds the @-all user ID __kImSDK_MesssageAtALL__ (24 bytes) and atType "
        "(field 22, tag b0 01) is GROUP_AT_TYPE_AT_ALL (2); written here by hand.",
        "message",
        bytes.fromhex("7a 18") + b"__kImSDK_MesssageAtALL__" + bytes.fromhex("b0 01 02"),
        bytes.fromhex("7a 18") + b"__kImSDK_MesssageAtALL__" + bytes.fromhex("b0 01 02"),
        {"atUserList": ["__kImSDK_MesssageAtALL__"], "atType": "GROUP_AT_TYPE_AT_ALL"},
    )
    vf_.payload_hex_valid(
        "envelope.message.cloud-custom-data-not-utf8",
        "cloudCustomData holding 3 bytes that are not UTF-8 (ff fe 80): bytes, so accepted and kept; the JSON is "
        "the base64 of the three bytes, written here by hand.",
        "message",
        bytes.fromhex("8a 01 03 ff fe 80"),
        bytes.fromhex("8a 01 03 ff fe 80"),
        {"cloudCustomData": "//6A"},
    )
    vf_.payload_hex_valid(
        "envelope.message.unknown-elem-kind",
        "An elem holding field 14, a kind this schema does not know: the elem keeps it as an unknown field.",
        "message",
        ld(18, ld(14, ld(1, b"sticker"))),
        ld(18, ld(14, ld(1, b"sticker"))),
        {"elems": [{}]},
        flags=["UnknownField"],
    )
    vf_.payload_hex_valid(
        "envelope.message.unknown-top-level",
        "Unknown fields 21 and 536870911 (the largest field number) in the message: kept at the end.",
        "message",
        vf(536870911, 1) + ld(1, b"m1") + ld(21, b"x") + ld(18, ld(1, ld(1, b"t"))),
        ld(1, b"m1") + ld(18, ld(1, ld(1, b"t"))) + vf(536870911, 1) + ld(21, b"x"),
        {"msgId": "m1", "elems": [{"text": {"text": "t"}}]},
        flags=["UnknownField", "NonCanonicalInput"],
    )
    vf_.payload_hex_valid(
        "envelope.message.unknown-group",
        "An unknown field 20 of wire type 3 (a group holding a varint and a string): skipped to its end tag and kept whole.",
        "message",
        tag(20, START_GROUP) + vf(1, 5) + ld(2, b"g") + tag(20, END_GROUP) + ld(1, b"m1"),
        ld(1, b"m1") + tag(20, START_GROUP) + vf(1, 5) + ld(2, b"g") + tag(20, END_GROUP),
        {"msgId": "m1"},
        flags=["UnknownField", "NonCanonicalInput"],
    )
    vf_.payload_hex_valid(
        "envelope.message.fields-out-of-order",
        "Known fields in reverse number order: re-encoded in number order.",
        "message",
        ld(18, ld(1, ld(1, b"t"))) + ld(17, b"c") + vf(7, 5) + ld(2, b"s") + ld(1, b"m"),
        ld(1, b"m") + ld(2, b"s") + vf(7, 5) + ld(17, b"c") + ld(18, ld(1, ld(1, b"t"))),
        {"msgId": "m", "sender": "s", "seq": "5", "cloudCustomData": "Yw==", "elems": [{"text": {"text": "t"}}]},
        flags=["NonCanonicalInput"],
    )
    written.append(vf_.write())

    vf_ = VectorFile(
        "batches",
        "batch",
        "MessageBatch",
        "Batch payloads (frame kind 2): history pages and offline syncs.",
        PAYLOAD_DERIVATION,
        COMMON_FLAGS,
    )
    vf_.payload_valid("batch.empty", "A batch with no messages: the empty payload.", "batch", {})
    vf_.payload_valid("batch.one-empty-message", "One empty message: a zero-length entry.", "batch",
                      {"messages": [{}]}, flags=["EmptyMessage"])
    vf_.payload_valid("batch.one", "One full message.", "batch", {"messages": [MESSAGE_ALL]})
    vf_.payload_valid("batch.history-page", "A history page of three messages, oldest first.", "batch",
                      {"messages": [INNER_MESSAGE_1, INNER_MESSAGE_2,
                                    {"msgId": "m3", "sender": "user_alice", "receiver": "user_bob",
                                     "elems": [{"image": ELEMS["image"]}]}]})
    vf_.payload_valid("batch.every-elem-kind", "Thirteen messages, one per elem kind.", "batch",
                      {"messages": [{"msgId": f"m{i}", "elems": [{k: ELEMS[k]}]} for i, k in enumerate(ELEMS)]})
    vf_.payload_valid("batch.offline-sync", "An offline sync mixing one-to-one and group messages with flags.",
                      "batch", {"messages": [
                          {"msgId": "a", "receiver": "user_bob", "onlineUserOnly": False, "needReadReceipt": True},
                          {"msgId": "b", "groupId": "@TGS#1", "excludedFromUnreadCount": True, "seq": "900"},
                          {"msgId": "c", "groupId": "@TGS#1", "atUserList": ["user_bob"], "seq": "901"}]})
    vf_.payload_hex_valid(
        "batch.unknown-field",
        "An unknown field 2 in the batch between two messages: kept after them.",
        "batch",
        ld(1, ld(1, b"a")) + vf(2, 7) + ld(1, ld(1, b"b")),
        ld(1, ld(1, b"a")) + ld(1, ld(1, b"b")) + vf(2, 7),
        {"messages": [{"msgId": "a"}, {"msgId": "b"}]},
        flags=["UnknownField", "NonCanonicalInput"],
    )
    vf_.payload_hex_valid(
        "batch.unknown-field-in-message",
        "An unknown field inside the second message of the batch.",
        "batch",
        ld(1, ld(1, b"a")) + ld(1, vf(30, 1) + ld(1, b"b")),
        ld(1, ld(1, b"a")) + ld(1, ld(1, b"b") + vf(30, 1)),
        {"messages": [{"msgId": "a"}, {"msgId": "b"}]},
        flags=["UnknownField", "NonCanonicalInput"],
    )
    written.append(vf_.write())
    return written


# ---------------------------------------------------------------------------
# proto3 JSON forms
# ---------------------------------------------------------------------------


def write_json_file():
    flags = {
        "JsonAlternative": "The proto3 JSON mapping accepts this spelling on input; the printer always writes "
        "the canonical form (lowerCamelCase names, enum names, 64-bit integers as strings, padded base64).",
        "JsonOnly": "Only the JSON operations check this case; a testee without JSON support skips it.",
        "PathDecision": "docs/spec/error-and-finding-codes.md names the code but not the path of this JSON problem; the vector takes the "
        "path of the offending member (the later one of a duplicate pair).",
        "SwiftProtobufAccepts": "docs/spec/error-and-finding-codes.md rejects this input, as protobuf's C++ and Java JSON parsers do; "
        "swift-protobuf 1.39 accepts it (the last duplicate wins), so the oracle check is reversed for this case.",
    }
    vf_ = VectorFile(
        "json",
        "proto3-json",
        "proto3 JSON forms",
        "Spellings the proto3 JSON mapping accepts on input, each read to the same canonical payload and printed in "
        "canonical form. The payload expectation is also checked by decoding, so testees without JSON still run "
        "these cases through decode_payload.",
        PAYLOAD_DERIVATION,
        flags,
    )
    cases = [
        ("proto-field-names", "Original proto field names (msg_id, group_id, need_read_receipt, at_user_list).",
         "message", {"msg_id": "m1", "group_id": "g", "need_read_receipt": True, "at_user_list": ["u"]},
         {"msgId": "m1", "groupId": "g", "needReadReceipt": True, "atUserList": ["u"]}),
        ("enum-by-number", "A named enum value given as its number: printed as its name.", "message",
         {"priority": 1}, {"priority": "PRIORITY_HIGH"}),
        ("int64-as-number", "int64 and uint64 given as JSON numbers: printed as strings.", "message",
         {"timestamp": 1700000001, "seq": 42}, {"timestamp": "1700000001", "seq": "42"}),
        ("int32-as-string", "int32 and uint32 given as strings: printed as numbers.", "message",
         {"random": "7", "elems": [{"face": {"index": "-3"}}]}, {"random": 7, "elems": [{"face": {"index": -3}}]}),
        ("null-is-default", "null for a scalar, a message and a repeated field: all treated as absent.", "message",
         {"msgId": None, "offlinePushInfo": None, "atUserList": None, "sender": "s"}, {"sender": "s"}),
        ("bytes-url-safe-unpadded", "bytes in URL-safe base64 without padding: printed as padded standard base64.",
         "message", {"elems": [{"custom": {"data": "-_8"}}]}, {"elems": [{"custom": {"data": "+/8="}}]}),
        ("double-as-string", "A double given as the string \"1.5\" and one with an exponent.", "message",
         {"elems": [{"location": {"longitude": "1.5", "latitude": 2.5e1}}]},
         {"elems": [{"location": {"longitude": 1.5, "latitude": 25}}]}),
        ("double-integral", "A double given as the integer 100.", "message",
         {"elems": [{"location": {"latitude": 100}}]}, {"elems": [{"location": {"latitude": 100}}]}),
        ("int64-exponent-free-large", "uint64 9007199254740993 (2^53 + 1) as a string keeps every digit.", "message",
         {"seq": "9007199254740993"}, {"seq": "9007199254740993"}),
        ("empty-arrays-and-objects", "Empty arrays for repeated fields are left out; an empty object for a message field is kept.",
         "message", {"elems": [], "targetedReceivers": [], "offlinePushInfo": {}}, {"offlinePushInfo": {}}),
        ("unknown-enum-number", "An enum number the schema does not name: kept and printed as a number.", "event",
         {"userStatus": {"type": 77}}, {"userStatus": {"type": 77}}),
        ("bytes-stray-bits", "bytes whose last base64 character carries bits the padding drops (In1= where the "
         "canonical form is In0=): the dropped bits are ignored, as RFC 4648 (3.5) allows and swift-protobuf, "
         "protobuf-java and Python's base64 read it; printed canonically.", "message",
         {"elems": [{"custom": {"data": "eyJyZXBseSI6IuWlveeahCDwn5GNIn1="}}]},
         {"elems": [{"custom": {"data": "eyJyZXBseSI6IuWlveeahCDwn5GNIn0="}}]}),
        ("bytes-stray-bits-unpadded", "Two base64 characters without padding whose last carries 4 dropped bits "
         "(QR, canonically QQ==): one byte.", "message", {"elems": [{"custom": {"data": "QR"}}]},
         {"elems": [{"custom": {"data": "QQ=="}}]}),
        ("int-string-exponent", "Integers given as strings in the JSON number grammar with an exponent and a "
         "fraction (1e2, 2.5e1): whole values, accepted.", "message", {"random": "1e2", "seq": "2.5e1"},
         {"random": 100, "seq": "25"}),
    ]
    for cid, comment, kind, json_in, expected in cases:
        case = vf_.payload_valid(f"json.{cid}", comment, kind, json_in, flags=["JsonAlternative"], expected_json=expected)
        assert case["expected"]["payloadHex"] == encode({"message": "Message", "event": "Event", "batch": "MessageBatch"}[kind], expected).hex()
    invalid = [
        ("syntax-cut", "The text ends inside an object.", '{"msgId": ', "json.syntax", "", []),
        ("syntax-trailing-comma", "A trailing comma.", '{"msgId": "a",}', "json.syntax", "", []),
        ("type-string-as-number", "msgId given a number.", '{"msgId": 5}', "json.type", "msgId", []),
        ("type-list-as-object", "elems given an object.", '{"elems": {}}', "json.type", "elems", []),
        ("type-nested", "A text elem's text given true.", '{"elems": [{"text": {"text": true}}]}', "json.type",
         "elems[0].text.text", []),
        ("value-unknown-enum-name", "priority given a name the schema does not have.",
         '{"priority": "PRIORITY_URGENT"}', "json.value", "priority", []),
        ("value-uint32-range", "random given 2^32.", '{"random": 4294967296}', "json.value", "random", []),
        ("value-int32-fraction", "A face index given 1.5.", '{"elems": [{"face": {"index": 1.5}}]}', "json.value",
         "elems[0].face.index", []),
        ("value-bad-base64", "Custom data that is not base64.", '{"elems": [{"custom": {"data": "!!!"}}]}',
         "json.value", "elems[0].custom.data", []),
        ("value-int64-range", "seq given 2^64.", '{"seq": "18446744073709551616"}', "json.value", "seq", []),
        # A number inside a string follows the JSON number grammar (RFC 8259, 6), as swift-protobuf reads it.
        ("value-int-string-plus", "random given \"+5\": a leading plus is not in the JSON number grammar.",
         '{"random": "+5"}', "json.value", "random", []),
        ("value-int-string-hex", "seq given \"0x10\": not a JSON number.", '{"seq": "0x10"}', "json.value", "seq",
         []),
        ("value-int-string-leading-zero", "random given \"07\": JSON numbers have no leading zero.",
         '{"random": "07"}', "json.value", "random", []),
        ("value-int-string-trailing-point", "seq given \"5.\": a fraction needs a digit after the point.",
         '{"seq": "5."}', "json.value", "seq", []),
        ("value-int-string-space", "random given \" 5\": no space inside the string.", '{"random": " 5"}',
         "json.value", "random", []),
        ("value-double-string-plus", "A latitude given \"+1.5\".",
         '{"elems": [{"location": {"latitude": "+1.5"}}]}', "json.value", "elems[0].location.latitude", []),
        ("value-double-string-leading-point", "A latitude given \".5\".",
         '{"elems": [{"location": {"latitude": ".5"}}]}', "json.value", "elems[0].location.latitude", []),
        ("value-double-out-of-range", "A latitude given 1e400, a JSON number past the range of a double: "
         "json.value, not infinity.", '{"elems": [{"location": {"latitude": 1e400}}]}', "json.value",
         "elems[0].location.latitude", []),
        ("value-double-string-out-of-range", "A latitude given \"1e400\": json.value.",
         '{"elems": [{"location": {"latitude": "1e400"}}]}', "json.value", "elems[0].location.latitude", []),
        ("syntax-lone-high-surrogate", "A \\u escape of a high surrogate with no low one after it: no code point, "
         "so not JSON text (RFC 8259, 8.2): json.syntax.", '{"msgId": "\\ud800"}', "json.syntax", "", []),
        ("syntax-lone-low-surrogate", "A \\u escape of a low surrogate alone: json.syntax.",
         '{"msgId": "a\\udc00b"}', "json.syntax", "", []),
        ("value-double-string-hex", "A latitude given \"0x1p3\", a hexadecimal float.",
         '{"elems": [{"location": {"latitude": "0x1p3"}}]}', "json.value", "elems[0].location.latitude", []),
        ("unknown-field", "A member the schema does not have.", '{"msgId": "a", "bogus": 1}', "json.unknown-field",
         "bogus", ["PathDecision"]),
        ("duplicate-field", "msgId twice.", '{"msgId": "a", "msgId": "b"}', "json.duplicate-field", "msgId",
         ["PathDecision", "SwiftProtobufAccepts"]),
        ("duplicate-field-two-spellings", "msgId and msg_id: the same field twice.", '{"msgId": "a", "msg_id": "b"}',
         "json.duplicate-field", "msg_id", ["PathDecision", "SwiftProtobufAccepts"]),
        ("duplicate-oneof", "Two members of the Elem oneof.", '{"elems": [{"text": {}, "custom": {}}]}',
         "json.duplicate-field", "elems[0].custom", ["PathDecision"]),
    ]
    for cid, comment, text, code, path, extra in invalid:
        vf_.json_invalid(f"json.invalid.{cid}", comment, "message", text, code, path, flags=["JsonOnly"] + extra)
    case = vf_.json_invalid("json.invalid.limit-elems", "Four elems with maxElems 3: limits apply to JSON too.",
                            "message", '{"elems": [{}, {}, {}, {}]}', "limit.elems", "elems[3]", flags=["JsonOnly"])
    case["limits"] = {"maxElems": 3}
    written = [vf_.write()]
    return written


# ---------------------------------------------------------------------------
# Malformed payloads
# ---------------------------------------------------------------------------


def tag_and_group_cases():
    """Malformed tags and groups (payload-structure.json)."""
    text_elem = lambda body: ld(18, ld(1, body))  # Message.elems[0].text
    yield Invalid("payload.tag.field-zero", "Tag 0x00: field number 0.", "message", b"\x00", "payload.tag", "",
                  flags=["BadTag"])
    yield Invalid("payload.tag.field-zero-length-delimited", "Tag 0x02: field 0, wire type 2, with a body.",
                  "message", b"\x02\x01a", "payload.tag", "", flags=["BadTag"])
    yield Invalid("payload.tag.field-zero-nested", "Field number 0 inside a text elem: the path of the elem's message.",
                  "message", text_elem(b"\x00\x00"), "payload.tag", "elems[0].text", flags=["BadTag"])
    yield Invalid("payload.tag.field-2-29", "Field number 2^29, one past the largest.", "message",
                  varint(1 << 32) + b"\x00", "payload.tag", "", flags=["BadTag"])
    yield Invalid("payload.tag.wire-type-6", "Wire type 6 (field 1).", "message", b"\x0e\x00", "payload.tag", "",
                  flags=["BadTag"])
    yield Invalid("payload.tag.wire-type-7", "Wire type 7 (field 3).", "message", b"\x1f\x00", "payload.tag", "",
                  flags=["BadTag"])
    yield Invalid("payload.tag.wire-type-7-in-event", "Wire type 7 inside a recall event.", "event",
                  ld(2, b"\x0f"), "payload.tag", "recall", flags=["BadTag"])
    yield Invalid("payload.tag.six-bytes", "A tag varint of 6 bytes (field 1, varint, padded): longer than 5 bytes.",
                  "message", b"\x88\x80\x80\x80\x80\x00\x01", "payload.tag", "", flags=["BadTag"])
    yield HexValid("payload.tag.five-bytes-padded",
                   "A tag of 5 bytes (field 1, wire type 2, padded with 0x80): accepted, re-encoded as 0x0a.",
                   "message", b"\x8a\x80\x80\x80\x00\x01a", ld(1, b"a"), {"msgId": "a"},
                   flags=["NonMinimalVarint", "NonCanonicalInput"])
    yield HexValid("payload.tag.largest-field-number", "Field 2^29 - 1 (unknown): a valid tag, kept.", "message",
                   vf(536870911, 0), vf(536870911, 0), {}, flags=["UnknownField"])
    yield Invalid("payload.group.stray-end", "An end-group tag (field 20) with no group open.", "message",
                  tag(20, END_GROUP), "payload.group", "", flags=["BadGroup"])
    yield Invalid("payload.group.mismatched-end", "Group 20 closed by an end-group tag of field 21.", "message",
                  tag(20, START_GROUP) + vf(1, 1) + tag(21, END_GROUP), "payload.group", "", flags=["BadGroup"])
    yield Invalid("payload.group.stray-end-nested", "An end-group tag inside a text elem.", "message",
                  text_elem(tag(2, END_GROUP)), "payload.group", "elems[0].text", flags=["BadGroup"])
    yield Invalid("payload.group.unterminated", "Group 20 opened and never closed: the bytes end inside it.",
                  "message", tag(20, START_GROUP) + vf(1, 1), "payload.truncated", "", flags=["Truncated"])
    yield Invalid("payload.group.known-field-as-group",
                  "Field 1 (msgId) as a start group closed by field 2's end tag: the group is unknown, the end tag wrong.",
                  "message", tag(1, START_GROUP) + tag(2, END_GROUP), "payload.group", "", flags=["BadGroup", "WrongWireType"])
    yield HexValid("payload.group.nested-unknown", "An unknown group holding another unknown group: kept whole.",
                   "message",
                   tag(20, START_GROUP) + tag(21, START_GROUP) + vf(1, 1) + tag(21, END_GROUP) + tag(20, END_GROUP),
                   tag(20, START_GROUP) + tag(21, START_GROUP) + vf(1, 1) + tag(21, END_GROUP) + tag(20, END_GROUP),
                   {}, flags=["UnknownField"])


def varint_cases():
    """Overlong, non-minimal and out-of-range varints (payload-structure.json)."""
    # varints
    yield Invalid("payload.varint.eleven-bytes", "seq as an 11-byte varint.", "message",
                  vf(7, 0)[:1] + b"\xff" * 10 + b"\x01", "payload.varint", "seq", flags=["OverlongVarint"])
    yield Invalid("payload.varint.eleven-bytes-unknown", "An unknown varint field of 11 bytes: the message's path.",
                  "message", tag(30, VARINT) + b"\x80" * 10 + b"\x00", "payload.varint", "", flags=["OverlongVarint"])
    yield Invalid("payload.varint.eleven-bytes-nested", "An 11-byte image width.", "message",
                  ld(18, ld(3, ld(3, tag(4, VARINT) + b"\x81" * 10 + b"\x00"))), "payload.varint",
                  "elems[0].image.levels[0].width", flags=["OverlongVarint"])
    yield Invalid("payload.varint.ten-continuing-bytes-at-end",
                  "seq as 10 bytes that all continue, then the input ends: the varint is already too long, "
                  "so payload.varint, not payload.truncated (found by FuzzPayload).", "message",
                  vf(7, 0)[:1] + b"\x80" * 10, "payload.varint", "seq", flags=["OverlongVarint"])
    yield Invalid("payload.varint.eleven-byte-length", "A length prefix of 11 bytes.", "message",
                  tag(1, LEN) + b"\x80" * 10 + b"\x00", "payload.varint", "msgId", flags=["OverlongVarint"])
    yield HexValid("payload.varint.ten-bytes-high-bits-ignored",
                   "seq as a 10-byte varint whose last byte is 0x7f: bits past 64 are ignored, so 2^64 - 1.",
                   "message", tag(7, VARINT) + b"\xff" * 9 + b"\x7f", vf(7, (1 << 64) - 1),
                   {"seq": "18446744073709551615"}, flags=["NonCanonicalInput", "MaxValues"])
    yield HexValid("payload.varint.bool-bits-past-64",
                   "online_user_only as a 10-byte varint whose only set bits are past bit 64: those bits are "
                   "ignored, so false, the default, left out (found by FuzzPayload).",
                   "message", tag(13, VARINT) + b"\x80" * 9 + b"\x40", b"", {},
                   flags=["NonCanonicalInput", "OverlongVarint"])
    yield HexValid("payload.varint.non-minimal-value", "seq 1 as 81 80 80 00: accepted, re-encoded as 01.",
                   "message", tag(7, VARINT) + b"\x81\x80\x80\x00", vf(7, 1), {"seq": "1"},
                   flags=["NonMinimalVarint", "NonCanonicalInput"])
    yield HexValid("payload.varint.non-minimal-zero", "random 0 as a 10-byte varint of padding: the default, left out.",
                   "message", tag(8, VARINT) + b"\x80" * 9 + b"\x00", b"", {},
                   flags=["NonMinimalVarint", "NonCanonicalInput", "Defaults"])
    yield HexValid("payload.varint.non-minimal-length", "A length prefix 05 written as 85 00.", "message",
                   tag(1, LEN) + b"\x85\x00hello", ld(1, b"hello"), {"msgId": "hello"},
                   flags=["NonMinimalVarint", "NonCanonicalInput"])
    # Unknown fields are kept as the bytes that arrived (docs/spec/payloads.md, "Canonical encoding"): a runtime
    # that keeps an unknown field's value and writes it again (protobuf-java, protobuf-c) writes it minimally.
    yield HexValid("payload.unknown.non-minimal-varint-kept",
                   "An unknown field 30 whose varint value 1 is written 81 80 00: kept byte for byte, not re-encoded "
                   "as 01.", "message", tag(30, VARINT) + b"\x81\x80\x00", tag(30, VARINT) + b"\x81\x80\x00", {},
                   flags=["UnknownField", "NonMinimalVarint"])
    yield HexValid("payload.unknown.non-minimal-tag-kept",
                   "An unknown field 30 whose tag (f0 01) is written f0 81 00: kept byte for byte.", "message",
                   b"\xf0\x81\x00\x01", b"\xf0\x81\x00\x01", {}, flags=["UnknownField", "NonMinimalVarint"])
    yield HexValid("payload.unknown.varint-bits-past-64-kept",
                   "An unknown field 30 whose 10-byte varint sets bits past bit 64: kept byte for byte (a known field "
                   "would drop those bits).", "message", tag(30, VARINT) + b"\x80" * 9 + b"\x7f",
                   tag(30, VARINT) + b"\x80" * 9 + b"\x7f", {}, flags=["UnknownField", "OverlongVarint"])
    yield HexValid("payload.varint.int32-low-bits", "face index 2^32 + 5: an int32 takes the low 32 bits, 5.",
                   "message", ld(18, ld(8, vf(1, (1 << 32) + 5))), ld(18, ld(8, vf(1, 5))),
                   {"elems": [{"face": {"index": 5}}]}, flags=["VarintRange", "NonCanonicalInput"])
    yield HexValid("payload.varint.int32-five-byte-negative",
                   "face index -1 written as the 5-byte ff ff ff ff 0f: read as -1, re-encoded in 10 bytes.",
                   "message", ld(18, ld(8, tag(1, VARINT) + b"\xff\xff\xff\xff\x0f")), ld(18, ld(8, vf(1, -1))),
                   {"elems": [{"face": {"index": -1}}]}, flags=["VarintRange", "NonCanonicalInput", "NegativeInt32"])
    yield HexValid("payload.varint.uint32-low-bits", "random 2^32 + 9: a uint32 takes the low 32 bits, 9.",
                   "message", vf(8, (1 << 32) + 9), vf(8, 9), {"random": 9}, flags=["VarintRange", "NonCanonicalInput"])
    yield HexValid("payload.varint.uint32-low-bits-zero", "random 2^32: the low 32 bits are 0, the default, left out.",
                   "message", vf(8, 1 << 32), b"", {}, flags=["VarintRange", "NonCanonicalInput", "Defaults"])
    yield HexValid("payload.varint.enum-low-bits", "priority 2^32 + 2: an enum takes the low 32 bits, PRIORITY_NORMAL.",
                   "message", vf(9, (1 << 32) + 2), vf(9, 2), {"priority": "PRIORITY_NORMAL"},
                   flags=["VarintRange", "NonCanonicalInput"])
    yield HexValid("payload.varint.bool-two", "needReadReceipt 2: any non-zero varint is true.", "message",
                   vf(10, 2), vf(10, 1), {"needReadReceipt": True}, flags=["VarintRange", "NonCanonicalInput"])
    yield HexValid("payload.varint.bool-high-bit", "onlineUserOnly 2^63: non-zero, so true.", "message",
                   vf(13, 1 << 63), vf(13, 1), {"onlineUserOnly": True}, flags=["VarintRange", "NonCanonicalInput"])
    yield HexValid("payload.varint.bool-zero-padded", "excludedFromUnreadCount 0 as 80 00: false, left out.",
                   "message", tag(11, VARINT) + b"\x80\x00", b"", {},
                   flags=["VarintRange", "NonMinimalVarint", "NonCanonicalInput", "Defaults"])


def length_cases():
    """Lengths past the input or past 2^31 - 1 (payload-structure.json)."""
    # lengths
    yield Invalid("payload.length.2-31-minus-1", "A msgId length of 2^31 - 1.", "message",
                  tag(1, LEN) + varint((1 << 31) - 1) + b"abc", "payload.length", "msgId", flags=["HugeLength"])
    yield Invalid("payload.length.2-32", "A msgId length of 2^32.", "message",
                  tag(1, LEN) + varint(1 << 32) + b"abcd", "payload.length", "msgId", flags=["HugeLength"])
    yield Invalid("payload.length.2-64-minus-1", "A length of 2^64 - 1 (10-byte varint).", "message",
                  tag(1, LEN) + varint((1 << 64) - 1), "payload.length", "msgId", flags=["HugeLength"])
    yield Invalid("payload.length.nested-elem", "An elem length of 2^31.", "message",
                  tag(18, LEN) + varint(1 << 31) + b"\x0a\x00", "payload.length", "elems[0]", flags=["HugeLength"])
    yield Invalid("payload.length.unknown-field", "An unknown length-delimited field claiming 2^31 bytes: the message's path.",
                  "message", tag(25, LEN) + varint(1 << 31), "payload.length", "", flags=["HugeLength"])
    yield Invalid("payload.length.2-31-minus-2", "A length of 2^31 - 2 with 3 bytes present: not a length error but truncation.",
                  "message", tag(1, LEN) + varint((1 << 31) - 2) + b"abc", "payload.truncated", "msgId",
                  flags=["Truncated"])


def truncation_cases():
    """Bytes that end inside a field (payload-structure.json)."""
    # truncation
    yield Invalid("payload.truncated.in-tag", "The bytes end after the first byte of the 2-byte elems tag.",
                  "message", b"\x92", "payload.truncated", "", flags=["Truncated"])
    yield Invalid("payload.truncated.in-varint-value", "seq's varint ends with a continuation byte.", "message",
                  tag(7, VARINT) + b"\xff", "payload.truncated", "seq", flags=["Truncated"])
    yield Invalid("payload.truncated.no-varint-value", "seq's tag with no value.", "message", tag(7, VARINT),
                  "payload.truncated", "seq", flags=["Truncated"])
    yield Invalid("payload.truncated.in-length", "msgId's length varint is cut.", "message", tag(1, LEN) + b"\x80",
                  "payload.truncated", "msgId", flags=["Truncated"])
    yield Invalid("payload.truncated.in-string", "msgId claims 5 bytes, 2 follow.", "message",
                  tag(1, LEN) + b"\x05ab", "payload.truncated", "msgId", flags=["Truncated"])
    yield Invalid("payload.truncated.in-repeated-string", "The third at-user entry claims 4 bytes, 1 follows.",
                  "message", ld(15, b"a") + ld(15, b"b") + tag(15, LEN) + b"\x04c", "payload.truncated",
                  "atUserList[2]", flags=["Truncated"])
    yield Invalid("payload.truncated.in-double", "longitude has 4 of its 8 bytes.", "message",
                  ld(18, ld(7, tag(2, FIXED64) + b"\x00\x00\x00\x00")), "payload.truncated",
                  "elems[0].location.longitude", flags=["Truncated"])
    yield Invalid("payload.truncated.in-elem", "The elem claims 10 bytes, 4 follow.", "message",
                  tag(18, LEN) + b"\x0a" + ld(1, ld(1, b"")) , "payload.truncated", "elems[0]", flags=["Truncated"])
    yield Invalid("payload.truncated.second-elem", "The second elem is cut: its index is in the path.", "message",
                  ld(18, ld(1, b"")) + tag(18, LEN) + b"\x05\x0a", "payload.truncated", "elems[1]", flags=["Truncated"])
    yield Invalid("payload.truncated.in-nested-string",
                  "The outer lengths are right but the text inside claims more than its elem holds.", "message",
                  ld(18, ld(1, tag(1, LEN) + b"\x09abc")), "payload.truncated", "elems[0].text.text",
                  flags=["Truncated"])
    yield Invalid("payload.truncated.unknown-fixed32", "An unknown fixed32 field with 2 bytes.", "message",
                  tag(15 + 20, FIXED32) + b"\x01\x02", "payload.truncated", "", flags=["Truncated"])
    yield Invalid("payload.truncated.unknown-fixed64", "An unknown fixed64 field with 7 bytes.", "message",
                  tag(40, FIXED64) + b"\x00" * 7, "payload.truncated", "", flags=["Truncated"])
    yield Invalid("payload.truncated.unknown-length", "An unknown length-delimited field claiming 3 bytes, 1 follows.",
                  "message", tag(41, LEN) + b"\x03x", "payload.truncated", "", flags=["Truncated"])
    yield Invalid("payload.truncated.batch-message", "The second message of a batch is cut.", "batch",
                  ld(1, ld(1, b"a")) + tag(1, LEN) + b"\x04\x0a\x02", "payload.truncated", "messages[1]",
                  flags=["Truncated"])
    yield Invalid("payload.truncated.event-receipt", "A receipt's msgId is cut inside a read-receipt event.", "event",
                  ld(1, ld(1, tag(1, LEN) + b"\x07m")), "payload.truncated", "readReceipt.receipts[0].msgId",
                  flags=["Truncated"])
    full = encode("Message", {"msgId": "m1", "seq": "300", "elems": [{"text": {"text": "hi"}}]})
    yield Valid("payload.truncated.reference", "The message whose prefixes follow, decoded whole.", "message",
                {"msgId": "m1", "seq": "300", "elems": [{"text": {"text": "hi"}}]})
    # Every strict prefix that ends inside a field is truncated; prefixes that end between fields
    # (after 0, 4 and 7 bytes) are shorter valid messages and are left out.
    # Layout: 0a 02 6d 31 | 38 ac 02 | 92 01 06 0a 04 0a 02 68 69
    assert len(full) == 16, full.hex()
    paths = {1: "msgId", 2: "msgId", 3: "msgId", 5: "seq", 6: "seq", 8: ""}
    for n in range(len(full)):
        if n in (0, 4, 7):
            continue
        path = paths.get(n, "elems[0]")
        where = {"": "inside the 2-byte elems tag", "msgId": "inside msgId", "seq": "inside seq"}.get(path, "inside the elem")
        yield Invalid(f"payload.truncated.prefix-{n:02d}",
                      f"The first {n} of the 16 bytes of payload.truncated.reference: ends {where}.",
                      "message", full[:n], "payload.truncated", path, flags=["Truncated"])


def utf8_cases():
    """Invalid UTF-8 in every kind of string field; bytes and unknown fields unchecked (payload-utf8.json)."""
    bad = {
        "lone-continuation": b"a\x80b",
        "overlong-nul": b"\xc0\x80",
        "overlong-slash": b"\xe0\x80\xaf",
        "surrogate-high": b"\xed\xa0\x80",
        "surrogate-low": b"\xed\xbf\xbf",
        "above-10ffff": b"\xf4\x90\x80\x80",
        "five-byte-form": b"\xf8\x88\x80\x80\x80",
        "byte-ff": b"\xff",
        "cut-three-byte": b"\xe4\xbd",
        "cut-at-end": b"ok\xf0\x9f\x98",
    }
    for name, data in bad.items():
        yield Invalid(f"payload.utf8.text.{name}", f"A text elem's text holding {data.hex()}.", "message",
                      ld(18, ld(1, ld(1, data))), "payload.utf8", "elems[0].text.text", flags=["InvalidUtf8"])
    places = [
        ("msg-id", "message", ld(1, b"\xc3"), "msgId"),
        ("at-user-list-second", "message", ld(15, b"ok") + ld(15, b"\xc3("), "atUserList[1]"),
        ("offline-push-title", "message", ld(16, ld(1, b"\xe2\x28\xa1")), "offlinePushInfo.title"),
        ("merger-abstract", "message", ld(18, ld(9, ld(2, b"fine") + ld(2, b"\xa0\xa1"))), "elems[0].merger.abstracts[1]"),
        ("merger-nested-message", "message",
         ld(18, ld(9, ld(4, ld(18, ld(1, ld(1, b"\xed\xa0\x80")))))), "elems[0].merger.messages[0].elems[0].text.text"),
        ("sns-wording", "message", ld(18, ld(12, ld(2, ld(2, b"\xc0\xaf")))), "elems[0].snsSystem.users[0].wording"),
        ("group-tips-profile-nickname", "message", ld(18, ld(10, ld(8, ld(2, b"\xff\xfe")))),
         "elems[0].groupTips.opUserInfo.nickname"),
        ("custom-info-key", "message", ld(18, ld(11, ld(9, ld(6, ld(1, b"\x80"))))),
         "elems[0].groupSystem.opGroupMemberInfo.customInfo[0].key"),
        ("batch-sender", "batch", ld(1, b"") + ld(1, ld(2, b"\xf5\x80\x80\x80")), "messages[1].sender"),
        ("recall-msg-id", "event", ld(2, ld(1, b"\xc1\xbf")), "recall.msgId"),
        ("modification-message", "event", ld(3, ld(1, ld(3, b"\xe0\x9f\x80"))), "modification.message.receiver"),
        ("connection-text", "event", ld(4, ld(3, b"\xdf")), "connection.text"),
    ]
    for name, kind, data, path in places:
        yield Invalid(f"payload.utf8.{name}", f"Invalid UTF-8 at {path}.", kind, data, "payload.utf8", path,
                      flags=["InvalidUtf8"])
    yield HexValid("payload.utf8.bytes-field-unchecked", "Custom elem data with 0xff 0xfe: bytes fields are not UTF-8.",
                   "message", ld(18, ld(2, ld(1, b"\xff\xfe"))), ld(18, ld(2, ld(1, b"\xff\xfe"))),
                   {"elems": [{"custom": {"data": "//4="}}]})
    yield HexValid("payload.utf8.unknown-field-unchecked", "An unknown length-delimited field holding 0xff: not checked.",
                   "message", ld(99, b"\xff"), ld(99, b"\xff"), {}, flags=["UnknownField"])
    yield HexValid("payload.utf8.four-byte-max", "U+10FFFF (f4 8f bf bf), the largest code point: valid.",
                   "message", ld(1, b"\xf4\x8f\xbf\xbf"), ld(1, b"\xf4\x8f\xbf\xbf"), {"msgId": "\U0010ffff"})
    yield HexValid("payload.utf8.nul", "A msgId holding a NUL byte: valid UTF-8.", "message",
                   ld(1, b"a\x00b"), ld(1, b"a\x00b"), {"msgId": "a\u0000b"}, flags=["NulInString"])


def wire_type_and_duplicate_cases():
    """Wrong wire types, duplicate singular fields, oneof members and split repeated
    fields (payload-fields.json)."""
    wt = [
        ("msg-id-as-varint", "msgId (a string) as a varint.", vf(1, 5), b"", vf(1, 5), {}),
        ("seq-as-fixed64", "seq (a varint) as a fixed64.", f64(7, 1.0), b"", f64(7, 1.0), {}),
        ("seq-as-length-delimited", "seq as a length-delimited field.", ld(7, b"\x01"), b"", ld(7, b"\x01"), {}),
        ("elems-as-varint", "elems (a message) as a varint.", ld(1, b"m") + vf(18, 1), ld(1, b"m"), vf(18, 1), {"msgId": "m"}),
        ("bool-as-fixed32", "needReadReceipt as a fixed32.", tag(10, FIXED32) + b"\x01\x00\x00\x00", b"",
         tag(10, FIXED32) + b"\x01\x00\x00\x00", {}),
    ]
    for name, comment, data, known, unknown, js in wt:
        yield HexValid(f"payload.wire-type.{name}", comment + " Kept as an unknown field.", "message", data,
                       known + unknown, js, flags=["WrongWireType", "UnknownField"])
    yield HexValid("payload.wire-type.double-as-varint", "longitude (a double) as a varint, beside a valid latitude.",
                   "message", ld(18, ld(7, vf(2, 7) + f64(3, 1.5))), ld(18, ld(7, f64(3, 1.5) + vf(2, 7))),
                   {"elems": [{"location": {"latitude": 1.5}}]}, flags=["WrongWireType", "UnknownField", "NonCanonicalInput"])
    yield HexValid("payload.wire-type.oneof-member-as-varint", "Elem.text (a oneof message member) as a varint: the elem has no kind.",
                   "message", ld(18, vf(1, 1)), ld(18, vf(1, 1)), {"elems": [{}]}, flags=["WrongWireType", "UnknownField"])
    yield HexValid("payload.wire-type.enum-as-length-delimited", "Event connection.state as a length-delimited field.",
                   "event", ld(4, ld(1, b"\x01")), ld(4, ld(1, b"\x01")), {"connection": {}},
                   flags=["WrongWireType", "UnknownField"])
    yield HexValid("payload.wire-type.known-group", "msgId as a group (wire type 3) with its end tag: skipped whole and kept.",
                   "message", tag(1, START_GROUP) + vf(2, 1) + tag(1, END_GROUP) + ld(2, b"s"),
                   ld(2, b"s") + tag(1, START_GROUP) + vf(2, 1) + tag(1, END_GROUP), {"sender": "s"},
                   flags=["WrongWireType", "UnknownField", "NonCanonicalInput"])

    dup = [
        ("scalar-string-last-wins", "msgId twice: the last wins.", ld(1, b"first") + ld(1, b"second"), ld(1, b"second"),
         {"msgId": "second"}),
        ("scalar-varint-last-wins", "seq twice: the last wins.", vf(7, 1) + vf(7, 2), vf(7, 2), {"seq": "2"}),
        ("scalar-last-is-default", "random 5 then random 0: the last (0) wins, so the field is left out.",
         vf(8, 5) + vf(8, 0), b"", {}),
        ("bool-last-wins", "needReadReceipt true then false.", vf(10, 1) + vf(10, 0), b"", {}),
        ("message-merged", "offlinePushInfo twice with different fields: merged.",
         ld(16, ld(1, b"T")) + ld(16, ld(2, b"D")), ld(16, ld(1, b"T") + ld(2, b"D")),
         {"offlinePushInfo": {"title": "T", "desc": "D"}}),
        ("message-merged-field-replaced", "offlinePushInfo twice setting the same field: the later value wins.",
         ld(16, ld(1, b"old") + ld(4, b"s")) + ld(16, ld(1, b"new")), ld(16, ld(1, b"new") + ld(4, b"s")),
         {"offlinePushInfo": {"title": "new", "iosSound": "s"}}),
        ("message-merged-repeated-appended", "An image elem's member seen twice: its levels are appended.",
         ld(18, ld(3, ld(3, vf(1, 1))) + ld(3, ld(1, b"u") + ld(3, vf(1, 2)))),
         ld(18, ld(3, ld(1, b"u") + ld(3, vf(1, 1)) + ld(3, vf(1, 2)))),
         {"elems": [{"image": {"uuid": "u", "levels": [{"type": 1}, {"type": 2}]}}]}),
        ("oneof-replaced", "An elem with text then custom: the custom member replaces the text.",
         ld(18, ld(1, ld(1, b"t")) + ld(2, ld(2, b"d"))), ld(18, ld(2, ld(2, b"d"))),
         {"elems": [{"custom": {"desc": "d"}}]}),
        ("oneof-replaced-back", "An elem with text, custom, then text again: only the last text remains.",
         ld(18, ld(1, ld(1, b"a")) + ld(2, ld(2, b"d")) + ld(1, ld(1, b"b"))), ld(18, ld(1, ld(1, b"b"))),
         {"elems": [{"text": {"text": "b"}}]}),
        ("oneof-same-member-merged", "An elem with image uuid then image format: one image with both.",
         ld(18, ld(3, ld(1, b"u")) + ld(3, vf(2, 3))), ld(18, ld(3, ld(1, b"u") + vf(2, 3))),
         {"elems": [{"image": {"uuid": "u", "format": "IMAGE_FORMAT_PNG"}}]}),
        ("oneof-scalar-replaced", "A custom-info entry with data then number: the number replaces the data.",
         ld(18, ld(10, ld(8, ld(12, ld(1, b"k") + ld(2, b"x") + vf(3, 9))))),
         ld(18, ld(10, ld(8, ld(12, ld(1, b"k") + vf(3, 9))))),
         {"elems": [{"groupTips": {"opUserInfo": {"customInfo": [{"key": "k", "number": "9"}]}}}]}),
        ("repeated-split", "elems entries separated by other fields: appended in order, written together.",
         ld(18, ld(1, ld(1, b"1"))) + ld(1, b"m") + ld(18, ld(1, ld(1, b"2"))) + vf(7, 3) + ld(18, ld(1, ld(1, b"3"))),
         ld(1, b"m") + vf(7, 3) + ld(18, ld(1, ld(1, b"1"))) + ld(18, ld(1, ld(1, b"2"))) + ld(18, ld(1, ld(1, b"3"))),
         {"msgId": "m", "seq": "3", "elems": [{"text": {"text": "1"}}, {"text": {"text": "2"}}, {"text": {"text": "3"}}]}),
        ("repeated-string-split", "atUserList entries separated by targetedReceivers entries.",
         ld(15, b"a") + ld(14, b"x") + ld(15, b"b") + ld(14, b"y"),
         ld(14, b"x") + ld(14, b"y") + ld(15, b"a") + ld(15, b"b"),
         {"targetedReceivers": ["x", "y"], "atUserList": ["a", "b"]}),
        ("merger-message-merged-not", "Two merger messages entries are two entries, not merged.",
         ld(18, ld(9, ld(4, ld(1, b"a")) + ld(4, ld(1, b"b")))), ld(18, ld(9, ld(4, ld(1, b"a")) + ld(4, ld(1, b"b")))),
         {"elems": [{"merger": {"messages": [{"msgId": "a"}, {"msgId": "b"}]}}]}),
    ]
    for name, comment, data, expected, js in dup:
        yield HexValid(f"payload.duplicate.{name}", comment, "message", data, expected, js,
                       flags=["Duplicate", "NonCanonicalInput"] if data != expected else ["Duplicate"])
    yield HexValid("payload.empty", "The empty payload is the empty message.", "message", b"", b"", {})
    yield HexValid("payload.empty-batch", "The empty payload is the empty batch.", "batch", b"", b"", {})


def depth_cases():
    """Nesting past the depth budget (payload-depth.json)."""
    for layers in (101, 1000, 5000):
        yield Invalid(f"payload.depth.merger-{layers}-layers",
                      f"{layers} nested merger layers; layer 101 is one too deep.", "message",
                      nested_mergers(layers), "limit.depth", merger_path(101), flags=["DepthBomb"])
    yield Invalid("payload.depth.batch-merger-101-layers", "A batch whose second message nests 101 merger layers: "
                  "the batch's messages are layer 0.", "batch", ld(1, b"") + ld(1, nested_mergers(101)), "limit.depth",
                  "messages[1]." + merger_path(101), flags=["DepthBomb"])
    yield Invalid("payload.depth.modification-merger-101-layers", "A modification event whose message nests 101 "
                  "merger layers.", "event", ld(3, ld(1, nested_mergers(101))), "limit.depth",
                  "modification.message." + merger_path(101), flags=["DepthBomb"])
    yield Invalid("payload.depth.groups-101", "101 nested unknown groups in the top-level message: each group is a layer.",
                  "message", nested_groups(101), "limit.depth", "", flags=["DepthBomb", "UnknownField"])
    yield Invalid("payload.depth.groups-3000", "3,000 nested unknown groups.", "message", nested_groups(3000),
                  "limit.depth", "", flags=["DepthBomb", "UnknownField"])


def write_malformed_payload_files():
    flags = dict(COMMON_FLAGS)
    flags.update({
        "Truncated": "The bytes end inside a tag, a varint, a fixed-width value or a length-delimited body.",
        "BadTag": "A tag with field number 0, a number of 2^29 or more, wire type 6 or 7, or more than 5 bytes.",
        "BadGroup": "An end-group tag that closes no open group or the wrong one.",
        "OverlongVarint": "A varint of more than 10 bytes, or of 10 whose last byte sets bits past bit 64.",
        "HugeLength": "A length of 2^31 - 1 or more, rejected before anything is allocated.",
        "InvalidUtf8": "A string field holds bytes that are not valid UTF-8 (overlong forms, surrogates, code "
        "points above U+10FFFF, stray continuation bytes, cut sequences).",
        "WrongWireType": "A known field number seen with a wire type other than its own: kept as an unknown field.",
        "Duplicate": "A singular field seen more than once: the last scalar wins, messages merge, a oneof "
        "member replaces a different one.",
        "NonMinimalVarint": "A varint padded with 0x80 bytes: accepted in payloads, re-encoded minimally in a known "
        "field, kept as it came in an unknown one.",
        "VarintRange": "A varint wider than its field: int32, uint32 and enums take the low 32 bits; bool is true for any non-zero value.",
        "DepthBomb": "Nesting far past the depth budget; must fail at the first layer too deep, without exhausting the stack.",
    })

    files = (
        (VectorFile(
            "malformed",
            "payload-structure",
            "Malformed payload structure",
            "Tags, groups, varints, lengths and truncation (docs/spec/payloads.md, 'What a decoder accepts' and 'Paths').",
            "Built byte by byte in scripts/vectors/make_payload_vectors.py from the rules of docs/spec/payloads.md; each comment names "
            "the rule. Valid cases' expectations come from the script's canonical encoder. VectorOracleTests checks that "
            "swift-protobuf 1.39 also rejects every invalid input and re-encodes every valid one the same way.",
            flags,
        ),
         (tag_and_group_cases, varint_cases, length_cases, truncation_cases)),
        (VectorFile(
            "malformed",
            "payload-utf8",
            "Invalid UTF-8 in string fields",
            "Every string field must hold valid UTF-8 (payload.utf8 at the field's path); bytes fields and unknown "
            "fields are not checked.",
            "Built byte by byte in scripts/vectors/make_payload_vectors.py; the invalid sequences are the classes of the Unicode "
            "standard's definition of well-formed UTF-8 (table 3-7). VectorOracleTests checks that swift-protobuf "
            "rejects the same inputs.",
            flags,
        ),
         (utf8_cases,)),
        (VectorFile(
            "malformed",
            "payload-fields",
            "Wrong wire types, repeated and duplicate fields",
            "Known field numbers with the wrong wire type (kept as unknown fields), singular fields seen twice (last "
            "wins, messages merge), oneof members replacing each other, repeated entries split by other fields.",
            "Built byte by byte in scripts/vectors/make_payload_vectors.py from docs/spec/payloads.md; the expected canonical bytes "
            "are assembled from the same pieces in canonical order. VectorOracleTests checks swift-protobuf re-encodes "
            "every input to the expected bytes.",
            flags,
        ),
         (wire_type_and_duplicate_cases,)),
        (VectorFile(
            "malformed",
            "payload-depth",
            "Depth bombs",
            "Merger nesting and unknown group nesting far past the depth budget (docs/spec/payloads.md, 'Limits').",
            "Built byte by byte in scripts/vectors/make_payload_vectors.py (sizes computed from the inside out, no encoder "
            "involved); the expected path is the path of the first message one layer too deep, per docs/spec/payloads.md. "
            "VectorOracleTests checks that swift-protobuf, given a large enough depth limit, decodes each bomb, so the "
            "depth is the only reason to reject it.",
            flags,
        ),
         (depth_cases,)),
    )
    written = []
    for vf_, tables in files:
        for table in tables:
            vf_.add_rows(table())
        written.append(vf_.write())
    return written


def nested_mergers(layers, innermost=b""):
    """Message{elems:[Elem{merger:MergerElem{messages:[...]}}]} `layers` deep, from the inside out."""
    body = innermost
    for _ in range(layers):
        body = ld(18, ld(9, ld(4, body)))
    return body


def merger_path(layer):
    return ".".join(["elems[0].merger.messages[0]"] * layer)


def nested_groups(count, field=20):
    return tag(field, START_GROUP) * count + tag(field, END_GROUP) * count


def main():
    written = []
    written += write_elem_files()
    written += write_event_files()
    written += write_envelope_files()
    written += write_json_file()
    written += write_malformed_payload_files()
    report(written)


if __name__ == "__main__":
    main()
