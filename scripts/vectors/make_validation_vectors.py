#!/usr/bin/env python3
"""Writes the validator vectors: Vectors/limits/validation-sdk-guide.json and
validation-current.json (every numeric rule of docs/spec/limits.md at N and
N + 1, and where a profile has no such rule, a value far past the other
profile's limit that passes) and Vectors/limits/validation-rules.json (every
rule without a number, passing and failing side by side).

The numbers of every profile are read from the declarations in Schemas/
(scripts/lib/constraints.py reads them with its own protobuf reader; set
IMCODEC_SCHEMAS to read another schema folder); what they mean (how values are
measured, codes, severities and paths) comes from docs/spec/validation.md ("How
values are measured", "Decisions the documentation leaves open") and
docs/spec/error-and-finding-codes.md ("Finding codes"), and this script computes every expectation itself. Where that document does not say at which path a finding is reported,
the case carries the flag PathDecision and its comment names the reading.
Payloads come from common.encode and are re-derived with
swift-protobuf by VectorOracleTests.

Run from anywhere: python3 scripts/vectors/make_validation_vectors.py
"""

import sys

sys.dont_write_bytecode = True  # keep scripts/ free of __pycache__

import base64
import collections

from common import C2C, SCHEMA, VectorFile, constraints, encode, finding, report, validate_case

DECLARED = constraints.load()
# The values each enum of the schema names, as scripts/lib/schema.py reads them.
DECLARED_ENUMS = {name: set(values.values()) for name, values in SCHEMA.enums.items()}


def declared(name):
    """A declared limit's value in each profile (None where the profile lacks the rule)."""
    return {profile: DECLARED.value(name, profile) for profile in constraints.PROFILES}


def declared_key(name, key):
    """One key of a declared per-key limit, in each profile."""
    return {profile: (DECLARED.value(name, profile) or {}).get(key) for profile in constraints.PROFILES}

DERIVATION = (
    "Limits, codes, severities and profiles from docs/spec/limits.md, docs/spec/validation.md and "
    "docs/spec/error-and-finding-codes.md: every case sits at a limit (N, no finding) or one unit past it (N+1, one finding with the "
    "limit and the measured value), or breaks one rule against an otherwise clean message. Built by "
    "scripts/vectors/make_validation_vectors.py; payloads from scripts/vectors/common.py, re-derived with swift-protobuf "
    "by VectorOracleTests. Paths docs/spec/validation.md leaves open are flagged PathDecision."
)

FLAGS = {
    "AtLimit": "A value exactly at the profile's limit: no finding.",
    "PastLimit": "A value one unit (byte, entry, UTF-16 unit, member, layer) past the profile's limit: one finding "
    "with the limit and the measured value.",
    "RuleOff": "The profile has no such rule (a '–' in docs/spec/limits.md): a value far past the other "
    "profile's limit passes.",
    "MultiByte": "Byte limits count UTF-8 bytes: CJK characters are 3 bytes, emoji 4. Merger abstract lines count "
    "UTF-16 code units: an emoji is 2.",
    "Warning": "The finding is a warning (enum.* codes and the image scaling rules); the message is still valid.",
    "PathDecision": "docs/spec/error-and-finding-codes.md names the code but not the path; the vector takes the path of the field the "
    "rule measures (for count limits, the repeated field; for rules about a whole elem, that elem's kind).",
    "Clean": "A message that breaks no rule: no finding at all.",
    "DecodeLimits": "The payload nests deeper than the default decoding depth, so the case raises maxDepth for the "
    "decode that precedes validation.",
}


GROUP = {"msgId": "m1", "sender": "user_alice", "groupId": "@TGS#2C5SZEAEF", "groupType": "Public"}
TEXT = {"text": {"text": "hi"}}


def b64(data):
    return base64.b64encode(data).decode("ascii")


def msg(base, *elems, **fields):
    value = dict(base)
    value.update(fields)
    value["elems"] = list(elems) if elems else [TEXT]
    return value


# ---------------------------------------------------------------------------
# Numeric limits: (name, code, {profile: N or None}, unit, build(n) -> (kind, value), path, flags)
# ---------------------------------------------------------------------------

MB = 1024 * 1024


def tips(**fields):
    value = {"type": "GROUP_TIPS_TYPE_INFO_CHANGE", "platform": "iOS"}
    value.update(fields)
    return {"groupTips": value}


def group_with(elem, **fields):
    return msg(GROUP, elem, **fields)


def change(kind, value, key=None):
    entry = {"type": f"GROUP_INFO_CHANGE_TYPE_{kind}", "value": value}
    if key is not None:
        entry["key"] = key
    return tips(groupChangeList=[entry])


def sns(users, kind="ADD_FRIEND_REQ"):
    return {"snsSystem": {"type": f"SNS_SYSTEM_TYPE_{kind}", "users": users}}


def merger(messages, **fields):
    value = {"title": "history", "abstracts": ["alice: hi"], "compatibleText": "upgrade to view",
             "messages": messages}
    value.update(fields)
    return {"merger": value}


def nested(n):
    return [{"receiver": "user_bob", "elems": [TEXT]} for _ in range(n)]


def body_text(n):
    """A text elem whose elems field is exactly n bytes: 92 01 L1 0a L2 0a L3 text."""
    def vlen(x):
        return 1 if x < 128 else 2 if x < 16384 else 3
    for t in range(n, 0, -1):
        l2 = 1 + vlen(t) + t
        l1 = 1 + vlen(l2) + l2
        if 2 + vlen(l1) + l1 == n:
            return {"text": {"text": "a" * t}}
    raise ValueError(n)


STRING_LIMITS = [
    # name, code, {sdk-guide, current}, build(text) -> message, path
    ("group-tips-group-name", "limit.group.name-bytes", declared("maxGroupNameBytes"),
     lambda s: group_with(tips(groupName=s)), "elems[0].groupTips.groupName"),
    ("group-name-change", "limit.group.name-bytes", declared("maxGroupNameBytes"),
     lambda s: group_with(change("NAME", s)), "elems[0].groupTips.groupChangeList[0].value"),
    ("group-introduction-change", "limit.group.introduction-bytes", declared("maxGroupIntroductionBytes"),
     lambda s: group_with(change("INTRODUCTION", s)), "elems[0].groupTips.groupChangeList[0].value"),
    ("group-notification-change", "limit.group.notification-bytes", declared("maxGroupNotificationBytes"),
     lambda s: group_with(change("NOTIFICATION", s)), "elems[0].groupTips.groupChangeList[0].value"),
    ("group-face-url-change", "limit.group.face-url-bytes", declared("maxGroupFaceURLBytes"),
     lambda s: group_with(change("FACE_URL", s)), "elems[0].groupTips.groupChangeList[0].value"),
    ("member-name-card", "limit.group.name-card-bytes", declared("maxNameCardBytes"),
     lambda s: group_with(tips(opGroupMemberInfo={"member": "user_bob", "nameCard": s})),
     "elems[0].groupTips.opGroupMemberInfo.nameCard"),
    ("group-id", "limit.group.id-bytes", declared("maxGroupIDBytes"),
     lambda s: msg(GROUP, groupId=s), "groupId"),
    ("group-custom-key", "limit.group.custom-key-bytes", declared("maxGroupCustomKeyBytes"),
     lambda s: group_with(change("CUSTOM", "v", key=s)), "elems[0].groupTips.groupChangeList[0].key"),
    ("group-custom-value", "limit.group.custom-value-bytes", declared("maxGroupCustomValueBytes"),
     lambda s: group_with(change("CUSTOM", s, key="k")), "elems[0].groupTips.groupChangeList[0].value"),
    ("add-friend-wording", "limit.sns.wording-bytes", declared("maxFriendWordingBytes"),
     lambda s: msg(C2C, sns([{"identifier": "user_dave", "wording": s}])), "elems[0].snsSystem.users[0].wording"),
    ("profile-nickname", "limit.profile.string-bytes", declared("maxProfileStringBytes"),
     lambda s: group_with(tips(opUserInfo={"identifier": "user_alice", "nickname": s})),
     "elems[0].groupTips.opUserInfo.nickname"),
    ("profile-system-nickname", "limit.profile.string-bytes", declared("maxProfileStringBytes"),
     lambda s: msg(C2C, {"profileSystem": {"type": "PROFILE_SYSTEM_TYPE_FRIEND_PROFILE_CHANGE", "fromUser": "user_bob",
                                           "nickname": s}}), "elems[0].profileSystem.nickname"),
    ("sender-user-id", "limit.user.id-bytes", declared("maxUserIDBytes"),
     lambda s: msg(C2C, sender=s), "sender"),
    ("receiver-user-id", "limit.user.id-bytes", declared("maxUserIDBytes"),
     lambda s: msg(C2C, receiver=s), "receiver"),
]

BYTES_LIMITS = [
    ("member-custom-value", "limit.member.custom-value-bytes", declared("maxMemberCustomValueBytes"),
     lambda n: group_with(tips(opGroupMemberInfo={"member": "user_bob", "customInfo": [{"key": "k", "data": b64(b"v" * n)}]})),
     "elems[0].groupTips.opGroupMemberInfo.customInfo[0].data"),
    ("custom-desc-ext", "limit.custom.desc-ext-bytes", declared("maxCustomDescExtBytes"),
     lambda n: msg(C2C, {"custom": {"desc": "d" * (n // 2), "ext": "e" * (n - n // 2)}}), "elems[0].custom"),
]

NUMBER_LIMITS = [
    ("file-size", "limit.file.size", declared("maxFileBytes"),
     lambda n: msg(C2C, {"file": {"uuid": "f", "size": n}}), "elems[0].file.size"),
    ("video-size", "limit.video.size", declared("maxVideoBytes"),
     lambda n: msg(C2C, {"video": {"videoUuid": "v", "videoSize": n, "snapshotUuid": "s"}}),
     "elems[0].video.videoSize"),
    ("image-size", "limit.image.size", declared("maxImageBytes"),
     lambda n: msg(C2C, {"image": {"levels": [{"type": "IMAGE_LEVEL_TYPE_ORIGINAL", "size": n}]}}),
     "elems[0].image.levels[0].size"),
    ("sound-size", "limit.sound.size", declared("maxSoundBytes"),
     lambda n: msg(C2C, {"sound": {"uuid": "s", "size": n}}), "elems[0].sound.size"),
    ("group-members-public", "limit.group.members", declared_key("maxGroupMembers", "Public"),
     lambda n: group_with({"groupTips": {"type": "GROUP_TIPS_TYPE_INVITE", "platform": "iOS", "memberCount": n}}),
     "elems[0].groupTips.memberCount"),
    ("group-members-community", "limit.group.members", declared_key("maxGroupMembers", "Community"),
     lambda n: group_with({"groupTips": {"type": "GROUP_TIPS_TYPE_QUIT", "platform": "iOS", "memberCount": n}},
                          groupType="Community"), "elems[0].groupTips.memberCount"),
]

COUNT_LIMITS = [
    ("merger-messages", "limit.merger.messages", declared("maxMergerMessages"),
     lambda n: msg(C2C, merger(nested(n))), "elems[0].merger.messages"),
    ("merger-abstracts", "limit.merger.abstracts", declared("maxMergerAbstracts"),
     lambda n: msg(C2C, merger(nested(1), abstracts=[f"line {i}" for i in range(n)])), "elems[0].merger.abstracts"),
    ("group-custom-fields", "limit.group.custom-fields", declared("maxGroupCustomFields"),
     lambda n: group_with(tips(groupChangeList=[{"type": "GROUP_INFO_CHANGE_TYPE_CUSTOM", "key": f"k{i}", "value": "v"}
                                                for i in range(n)])), "elems[0].groupTips.groupChangeList"),
    ("member-custom-fields", "limit.member.custom-fields", declared("maxMemberCustomFields"),
     lambda n: group_with(tips(opGroupMemberInfo={"member": "user_bob", "customInfo": [
         {"key": f"k{i}", "data": b64(b"v")} for i in range(n)]})), "elems[0].groupTips.opGroupMemberInfo.customInfo"),
]


# The relationship-chain and group kinds of Event (relationship.proto,
# group.proto): (name, code, {profile: N}, build(value) -> event, path).
def friend_request(**fields):
    value = {"identifier": "user_dave"}
    value.update(fields)
    return {"friendRequest": value}


def group_profile(**fields):
    value = {"group": "@TGS#2C5SZEAEF", "groupType": "Public"}
    value.update(fields)
    return {"groupProfiles": {"groups": [value]}}


def create_group(**fields):
    value = {"groupName": "team", "groupType": "Private"}
    value.update(fields)
    return {"createGroup": value}


EVENT_STRING_LIMITS = [
    ("friend-remark", "limit.friend.remark-bytes", declared("maxFriendRemarkBytes"),
     lambda s: friend_request(remark=s), "friendRequest.remark"),
    ("friend-list-remark", "limit.friend.remark-bytes", declared("maxFriendRemarkBytes"),
     lambda s: {"friendList": {"friends": [{"identifier": "user_bob"}, {"identifier": "user_carol", "remark": s}]}},
     "friendList.friends[1].remark"),
    ("friend-response-remark", "limit.friend.remark-bytes", declared("maxFriendRemarkBytes"),
     lambda s: {"friendResponse": {"identifier": "user_dave", "remark": s}}, "friendResponse.remark"),
    ("friend-request-wording", "limit.sns.wording-bytes", declared("maxFriendWordingBytes"),
     lambda s: friend_request(addWording=s), "friendRequest.addWording"),
    ("friend-list-wording", "limit.sns.wording-bytes", declared("maxFriendWordingBytes"),
     lambda s: {"blacklist": {"friends": [{"identifier": "user_eve", "addWording": s}]}}, "blacklist.friends[0].addWording"),
    ("friend-pendency-wording", "limit.sns.wording-bytes", declared("maxFriendWordingBytes"),
     lambda s: {"friendPendency": {"items": [{"identifier": "user_dave", "addWording": s}]}},
     "friendPendency.items[0].addWording"),
    ("friend-pendency-nickname", "limit.profile.string-bytes", declared("maxProfileStringBytes"),
     lambda s: {"friendPendency": {"items": [{"identifier": "user_dave", "nickname": s}]}},
     "friendPendency.items[0].nickname"),
    ("friend-request-user-id", "limit.user.id-bytes", declared("maxUserIDBytes"),
     lambda s: friend_request(identifier=s), "friendRequest.identifier"),
    ("group-profile-name", "limit.group.name-bytes", declared("maxGroupNameBytes"),
     lambda s: group_profile(groupName=s), "groupProfiles.groups[0].groupName"),
    ("group-profile-notification", "limit.group.notification-bytes", declared("maxGroupNotificationBytes"),
     lambda s: group_profile(notification=s), "groupProfiles.groups[0].notification"),
    ("group-profile-introduction", "limit.group.introduction-bytes", declared("maxGroupIntroductionBytes"),
     lambda s: group_profile(introduction=s), "groupProfiles.groups[0].introduction"),
    ("group-profile-face-url", "limit.group.face-url-bytes", declared("maxGroupFaceURLBytes"),
     lambda s: group_profile(faceUrl=s), "groupProfiles.groups[0].faceUrl"),
    ("group-profile-owner", "limit.user.id-bytes", declared("maxUserIDBytes"),
     lambda s: group_profile(owner=s), "groupProfiles.groups[0].owner"),
    ("create-group-name", "limit.group.name-bytes", declared("maxGroupNameBytes"),
     lambda s: create_group(groupName=s), "createGroup.groupName"),
    ("create-group-notification", "limit.group.notification-bytes", declared("maxGroupNotificationBytes"),
     lambda s: create_group(notification=s), "createGroup.notification"),
    ("create-group-introduction", "limit.group.introduction-bytes", declared("maxGroupIntroductionBytes"),
     lambda s: create_group(introduction=s), "createGroup.introduction"),
    ("create-group-face-url", "limit.group.face-url-bytes", declared("maxGroupFaceURLBytes"),
     lambda s: create_group(faceUrl=s), "createGroup.faceUrl"),
    ("member-list-name-card", "limit.group.name-card-bytes", declared("maxNameCardBytes"),
     lambda s: {"groupMembers": {"groupId": "@TGS#2C5SZEAEF", "members": [{"member": "user_bob", "nameCard": s}]}},
     "groupMembers.members[0].nameCard"),
    ("group-profile-custom-key", "limit.group.custom-key-bytes", declared("maxGroupCustomKeyBytes"),
     lambda s: group_profile(customInfo=[{"key": s, "data": b64(b"v")}]), "groupProfiles.groups[0].customInfo[0].key"),
    ("create-group-custom-key", "limit.group.custom-key-bytes", declared("maxGroupCustomKeyBytes"),
     lambda s: create_group(customInfo=[{"key": s}]), "createGroup.customInfo[0].key"),
]
# Group IDs are printable ASCII in the current profile, so they are measured in ASCII only.
EVENT_ASCII_LIMITS = [
    ("group-profile-id", "limit.group.id-bytes", declared("maxGroupIDBytes"),
     lambda s: group_profile(group=s), "groupProfiles.groups[0].group"),
    ("create-group-id", "limit.group.id-bytes", declared("maxGroupIDBytes"),
     lambda s: create_group(group=s), "createGroup.group"),
    ("member-list-group-id", "limit.group.id-bytes", declared("maxGroupIDBytes"),
     lambda s: {"groupMembers": {"groupId": s}}, "groupMembers.groupId"),
    ("member-results-group-id", "limit.group.id-bytes", declared("maxGroupIDBytes"),
     lambda s: {"groupMemberResults": {"groupId": s}}, "groupMemberResults.groupId"),
    ("group-pendency-group-id", "limit.group.id-bytes", declared("maxGroupIDBytes"),
     lambda s: {"groupPendency": {"items": [{"groupId": s, "fromUser": "user_dave"}]}},
     "groupPendency.items[0].groupId"),
]
EVENT_BYTES_LIMITS = [
    ("group-profile-custom-value", "limit.group.custom-value-bytes", declared("maxGroupCustomValueBytes"),
     lambda n: group_profile(customInfo=[{"key": "k", "data": b64(b"v" * n)}]),
     "groupProfiles.groups[0].customInfo[0].data"),
    ("create-group-custom-value", "limit.group.custom-value-bytes", declared("maxGroupCustomValueBytes"),
     lambda n: create_group(customInfo=[{"key": "k", "data": b64(b"v" * n)}]), "createGroup.customInfo[0].data"),
    ("create-group-member-custom-value", "limit.member.custom-value-bytes", declared("maxMemberCustomValueBytes"),
     lambda n: create_group(membersInfo=[{"member": "iOS_001", "customInfo": [{"key": "k", "data": b64(b"v" * n)}]}]),
     "createGroup.membersInfo[0].customInfo[0].data"),
]
EVENT_NUMBER_LIMITS = [
    ("group-profile-max-members-public", "limit.group.members", declared_key("maxGroupMembers", "Public"),
     lambda n: group_profile(maxMemberNum=n), "groupProfiles.groups[0].maxMemberNum"),
    ("group-profile-members-public", "limit.group.members", declared_key("maxGroupMembers", "Public"),
     lambda n: group_profile(memberNum=n), "groupProfiles.groups[0].memberNum"),
    ("group-profile-members-community", "limit.group.members", declared_key("maxGroupMembers", "Community"),
     lambda n: group_profile(groupType="Community", memberNum=n), "groupProfiles.groups[0].memberNum"),
    ("create-group-max-members-private", "limit.group.members", declared_key("maxGroupMembers", "Private"),
     lambda n: create_group(maxMemberNum=n), "createGroup.maxMemberNum"),
]
EVENT_COUNT_LIMITS = [
    # Initial members are counted, not read: the entries are empty. The creator is added without
    # being named, so the limit is the type's member limit less one.
    ("create-group-members-public", "limit.group.members", declared_key("maxGroupInitialMembers", "Public"),
     lambda n: create_group(groupType="Public", membersInfo=[{}] * n), "createGroup.membersInfo"),
    ("group-profile-custom-fields", "limit.group.custom-fields", declared("maxGroupCustomFields"),
     lambda n: group_profile(customInfo=[{"key": f"k{i}"} for i in range(n)]), "groupProfiles.groups[0].customInfo"),
    ("create-group-custom-fields", "limit.group.custom-fields", declared("maxGroupCustomFields"),
     lambda n: create_group(customInfo=[{"key": f"k{i}"} for i in range(n)]), "createGroup.customInfo"),
    ("create-group-member-custom-fields", "limit.member.custom-fields", declared("maxMemberCustomFields"),
     lambda n: create_group(membersInfo=[{"member": "iOS_001", "customInfo": [{"key": f"k{i}"} for i in range(n)]}]),
     "createGroup.membersInfo[0].customInfo"),
]


def multibyte(n):
    """Exactly n UTF-8 bytes, mostly three-byte CJK characters: 32 of them are 96 bytes."""
    return "字" * (n // 3) + ("é" if n % 3 == 2 else "a" if n % 3 == 1 else "")


def write_limit_files():
    written = []
    for profile in ("sdk-guide", "current"):
        other = {"sdk-guide": "current", "current": "sdk-guide"}[profile]
        vf = VectorFile("limits", f"validation-{profile}", f"Validator limits, {profile} profile",
                        f"Every numeric rule of docs/spec/limits.md in the {profile} profile: "
                        "N passes, N+1 is one finding; a rule the profile does not have passes far past the other "
                        "profile's number.", DERIVATION, FLAGS)

        def pair(name, code, limits, build, path, measure, unit, flags=(), extra_limits=None, past=None):
            n = limits[profile]
            if n is None:
                far = limits[other] * 10 + 1
                kind, value = build(far)
                validate_case(vf, f"validate.{profile}.{name}.off", f"{name}: {far} {unit}; the {profile} profile has no limit.",
                    kind, value, profile, [], flags=["RuleOff"] + list(flags), limits=extra_limits)
                return
            kind, value = build(n)
            validate_case(vf, f"validate.{profile}.{name}.n", f"{name}: {n} {unit}, the {profile} limit.", kind, value, profile,
                [], flags=["AtLimit"] + list(flags), limits=extra_limits)
            kind, value = build(n + 1)
            validate_case(vf, f"validate.{profile}.{name}.n-plus-1", f"{name}: {n + 1} {unit}, one past the {profile} limit.",
                kind, value, profile, [finding(code, path if past is None else past(n + 1), n, measure(n + 1))],
                flags=["PastLimit"] + list(flags), limits=extra_limits)

        for name, code, limits, build, path in STRING_LIMITS:
            pair(name, code, limits, lambda n, b=build: ("message", b("a" * n)), path, lambda n: n, "bytes")
        if profile == "sdk-guide":
            # `seed`, the profile's earlier name, is still accepted where a profile is named in text
            # (docs/spec/validation.md, "Profiles"): the same findings as sdk-guide, where current has none.
            name, code, limits, build, path = next(row for row in STRING_LIMITS if row[0] == "group-introduction-change")
            n = limits["sdk-guide"]
            assert limits["current"] > n
            validate_case(vf, "validate.seed.group-introduction-change.n-plus-1", f"The profile named `seed`, the "
                          f"earlier name of sdk-guide: {n + 1} bytes of group introduction are one past sdk-guide's "
                          f"{n} (current allows {limits['current']}), so one finding, as under sdk-guide.", "message",
                          build("a" * (n + 1)), "seed", [finding(code, path, n, n + 1)], flags=["PastLimit"])
        for name, code, limits, build, path in BYTES_LIMITS:
            flags = ["PathDecision"] if path.endswith("custom") else []
            pair(name, code, limits, lambda n, b=build: ("message", b(n)), path, lambda n: n, "bytes", flags=flags)
        for name, code, limits, build, path in NUMBER_LIMITS:
            pair(name, code, limits, lambda n, b=build: ("message", b(n)), path, lambda n: n, "")
        for name, code, limits, build, path in COUNT_LIMITS:
            pair(name, code, limits, lambda n, b=build: ("message", b(n)), path, lambda n: n, "entries",
                 flags=["PathDecision"])
        # The relationship-chain and group kinds of Event: N and N + 1 in ASCII
        # and, for text fields, in multi-byte UTF-8.
        for name, code, limits, build, path in EVENT_STRING_LIMITS:
            pair(name, code, limits, lambda n, b=build: ("event", b("a" * n)), path, lambda n: n, "bytes")
            pair(f"{name}-multibyte", code, limits, lambda n, b=build: ("event", b(multibyte(n))), path, lambda n: n,
                 "bytes of CJK text", flags=["MultiByte"])
        for name, code, limits, build, path in EVENT_ASCII_LIMITS:
            pair(name, code, limits, lambda n, b=build: ("event", b("g" * n)), path, lambda n: n, "bytes")
        for name, code, limits, build, path in EVENT_BYTES_LIMITS:
            pair(name, code, limits, lambda n, b=build: ("event", b(n)), path, lambda n: n, "bytes")
        for name, code, limits, build, path in EVENT_NUMBER_LIMITS:
            pair(name, code, limits, lambda n, b=build: ("event", b(n)), path, lambda n: n, "members")
        for name, code, limits, build, path in EVENT_COUNT_LIMITS:
            pair(name, code, limits, lambda n, b=build: ("event", b(n)), path, lambda n: n, "entries",
                 flags=["PathDecision"])
        # A remark of emoji (4 bytes each): 24 fill the 96-byte limit; one more byte is past it.
        remark_limit = DECLARED.value("maxFriendRemarkBytes", profile)
        if remark_limit is not None:
            emoji = "🎉" * (remark_limit // 4) + "a" * (remark_limit % 4)
            validate_case(vf, f"validate.{profile}.friend-remark-emoji.n", f"A friend remark of {remark_limit} bytes of emoji.",
                "event", friend_request(remark=emoji), profile, [], flags=["AtLimit", "MultiByte"])
            validate_case(vf, f"validate.{profile}.friend-remark-emoji.n-plus-1",
                f"A friend remark of {remark_limit + 1} bytes: emoji and one letter.", "event",
                friend_request(remark=emoji + "a"), profile,
                [finding("limit.friend.remark-bytes", "friendRequest.remark", remark_limit, remark_limit + 1)],
                flags=["PastLimit", "MultiByte"])
        # Add sources of requests and pendency items: the prefix plus at most the declared letters.
        prefix = DECLARED.value("addSourcePrefix", profile)
        letters = DECLARED.value("maxAddSourceBytes", profile)
        for label, build, path in (
                ("friend-request", lambda s: friend_request(addSource=s), "friendRequest.addSource"),
                ("friend-pendency", lambda s: {"friendPendency": {"items": [{"identifier": "user_dave", "addSource": s}]}},
                 "friendPendency.items[0].addSource"),
                ("friend-list", lambda s: {"friendList": {"friends": [{"identifier": "user_bob", "addSource": s}]}},
                 "friendList.friends[0].addSource")):
            for n, result in ((letters, "n"), (letters + 1, "n-plus-1")):
                validate_case(vf, f"validate.{profile}.{label}-add-source.{result}",
                    f"A {label} add source with {n} letters after the prefix.", "event", build(prefix + "B" * n),
                    profile, [] if n == letters else [finding("limit.sns.source-bytes", path, letters, n)],
                    flags=["AtLimit"] if n == letters else ["PastLimit"])
        # Multi-byte measurements: CJK characters are 3 UTF-8 bytes, emoji 4.
        name_limit = DECLARED.value("maxGroupNameBytes", profile)
        if name_limit is not None:
            fit, over = name_limit // 3, name_limit // 3 + 1
            emoji = name_limit // 4 + 1
            validate_case(vf, f"validate.{profile}.group-name-ten-cjk", f"{fit} CJK characters: {3 * fit} UTF-8 bytes fit the "
                f"{name_limit}-byte group name.", "message", group_with(tips(groupName="群" * fit)), profile, [],
                flags=["AtLimit", "MultiByte"])
            validate_case(vf, f"validate.{profile}.group-name-eleven-cjk", f"{over} CJK characters: {3 * over} bytes.", "message",
                group_with(tips(groupName="群" * over)), profile,
                [finding("limit.group.name-bytes", "elems[0].groupTips.groupName", name_limit, 3 * over)],
                flags=["PastLimit", "MultiByte"])
            validate_case(vf, f"validate.{profile}.group-name-eight-emoji", f"{emoji} emoji: {4 * emoji} bytes.", "message",
                group_with(tips(groupName="🎉" * emoji)), profile,
                [finding("limit.group.name-bytes", "elems[0].groupTips.groupName", name_limit, 4 * emoji)],
                flags=["PastLimit", "MultiByte"])
        # The add source: the declared prefix plus at most the declared number of letters.
        prefix = DECLARED.value("addSourcePrefix", profile)
        letters = DECLARED.value("maxAddSourceBytes", profile)
        for n, result in ((letters, "n"), (letters + 1, "n-plus-1")):
            source = prefix + "A" * n
            validate_case(vf, f"validate.{profile}.add-source.{result}", f"An add source with {n} letters after the prefix.",
                "message", msg(C2C, sns([{"identifier": "user_dave", "source": source}])), profile,
                [] if n == letters else [finding("limit.sns.source-bytes", "elems[0].snsSystem.users[0].source",
                                                 letters, n)],
                flags=["AtLimit"] if n == letters else ["PastLimit"])
        # Merger abstract lines, in UTF-16 code units (a profile without the rule: the other's number).
        own = DECLARED.value("maxMergerAbstractLength", profile)
        units_limit = own if own is not None else DECLARED.value("maxMergerAbstractLength", other)
        half = units_limit // 2 + 1
        for text, units, label in (("a" * units_limit, units_limit, "ascii-100"),
                                   ("a" * (units_limit + 1), units_limit + 1, "ascii-101"),
                                   ("字" * units_limit, units_limit, "cjk-100"), ("😀" * half, 2 * half, "emoji-51")):
            past = own is not None and units > own
            validate_case(vf, f"validate.{profile}.merger-abstract-length.{label}",
                f"A merger abstract of {units} UTF-16 units.", "message",
                msg(C2C, merger(nested(1), abstracts=[text])), profile,
                [finding("limit.merger.abstract-length", "elems[0].merger.abstracts[0]", own, units)] if past else [],
                flags=(["PastLimit"] if past else ["AtLimit"] if own is not None else ["RuleOff"])
                + (["MultiByte"] if label[:5] in ("cjk-1", "emoji") else []))
        # The message body, the canonical size of the elems field.
        own = DECLARED.value("maxMessageBodyBytes", profile)
        body_limit = own if own is not None else DECLARED.value("maxMessageBodyBytes", other)
        for n, result in ((body_limit, "n"), (body_limit + 1, "n-plus-1")):
            value = msg(C2C, body_text(n))
            assert len(encode("Message", value)) - len(encode("Message", dict(C2C))) == n
            past = own is not None and result == "n-plus-1"
            validate_case(vf, f"validate.{profile}.message-body.{result}", f"A text elem whose elems field is {n} bytes.",
                "message", value, profile, [finding("limit.message.body-bytes", "elems", own, n)] if past else [],
                flags=(["PastLimit", "PathDecision"] if past else ["AtLimit"] if own is not None else ["RuleOff"]))
        # Custom elems per message.
        own = DECLARED.value("maxCustomElems", profile)
        custom_limit = own if own is not None else DECLARED.value("maxCustomElems", other)
        for n, result in ((custom_limit, "n"), (custom_limit + 1, "n-plus-1")):
            past = own is not None and n == own + 1
            validate_case(vf, f"validate.{profile}.custom-elems.{result}", f"{n} custom elems.", "message",
                msg(C2C, *[{"custom": {"desc": "d"}}] * n), profile,
                [finding("limit.message.custom-elems", f"elems[{own}]", own, n)] if past else [],
                flags=["PastLimit"] if past else ["AtLimit"] if own is not None else ["RuleOff"])
        # Merger depth.
        own = DECLARED.value("maxMergerDepth", profile)
        depth_limit = own if own is not None else DECLARED.value("maxMergerDepth", other)
        for layers, result in ((depth_limit, "n"), (depth_limit + 1, "n-plus-1")):
            value = {"receiver": "user_bob", "elems": [TEXT]}
            for _ in range(layers):
                value = {"receiver": "user_bob", "elems": [merger([value])]}
            past = own is not None and layers == own + 1
            path = ".".join(["elems[0].merger.messages[0]"] * depth_limit) + ".elems[0].merger.messages"
            validate_case(vf, f"validate.{profile}.merger-depth.{result}", f"Mergers nested {layers} layers deep.", "message",
                value, profile, [finding("limit.merger.depth", path, own, own + 1)] if past else [],
                flags=(["PastLimit", "DecodeLimits"] if past else
                       ["AtLimit", "DecodeLimits"] if own is not None else ["RuleOff", "DecodeLimits"]),
                limits={"maxDepth": 2 * depth_limit})
        written.append(vf.write())
    return written


# ---------------------------------------------------------------------------
# Rules without numbers
# ---------------------------------------------------------------------------


def level(level_type, width, height):
    """An image level of a type (ORIGINAL, LARGE, THUMBNAIL) and size."""
    return {"type": f"IMAGE_LEVEL_TYPE_{level_type}", "width": width, "height": height}


def conn(**fields):
    """A connection event."""
    return {"connection": fields}


# One case of validation-rules.json: `id` without its "validate.rule." prefix.
Rule = collections.namedtuple("Rule", "id comment value findings kind profile flags limits",
                              defaults=("message", "sdk-guide", (), None))


def clean_messages():
    """Messages that break no rule, in both profiles."""
    yield Rule("clean-one-to-one", "A one-to-one text message.", msg(C2C), [])
    yield Rule("clean-group", "A group text message.", msg(GROUP), [])
    yield Rule("clean-current", "A group text message, current profile.", msg(GROUP), [], profile="current")


def rule_m12_target():
    """M12: a message names exactly one target, nested messages too."""
    yield Rule("target-missing", "Neither receiver nor group ID.", msg({"msgId": "m", "sender": "user_alice"}),
               [finding("rule.message.target-missing", "")])
    yield Rule("target-ambiguous", "Both receiver and group ID.", msg(GROUP, receiver="user_bob"),
               [finding("rule.message.target-ambiguous", "")])
    yield Rule("nested-target-missing", "A merged message without a target (M12 applies to nested messages).",
               msg(C2C, merger([{"elems": [TEXT]}])), [finding("rule.message.target-missing", "elems[0].merger.messages[0]")])


def rules_m10_m11_at_and_targeted():
    """M10, M11: @ lists and targeted receivers on group messages only."""
    yield Rule("at-on-group-text", "An @ list on a group text message.", msg(GROUP, atUserList=["user_bob"]), [])
    yield Rule("at-on-one-to-one", "An @ list on a one-to-one message.", msg(C2C, atUserList=["user_bob"]),
               [finding("rule.at.not-group-message", "atUserList")], flags=["PathDecision"])
    yield Rule("at-with-face", "An @ message holding a face elem.", msg(GROUP, TEXT, {"face": {"index": 1}},
                                                                        atUserList=["user_bob"]),
               [finding("rule.at.text-only", "elems[1]")])
    yield Rule("at-without-elems", "An @ message without elems: no text elem (M10) and no elem at all (M17).",
               dict(GROUP, atUserList=["user_bob"]),
               [finding("rule.at.text-only", "elems"), finding("rule.message.elems-missing", "elems")])
    yield Rule("targeted-group", "Targeted receivers on a group message.", msg(GROUP, targetedReceivers=["user_bob"]), [])
    yield Rule("targeted-one-to-one", "Targeted receivers on a one-to-one message.",
               msg(C2C, targetedReceivers=["user_bob"]), [finding("rule.targeted.not-group-message", "targetedReceivers")],
               flags=["PathDecision"])
    yield Rule("targeted-with-at", "Targeted receivers on an @ message.",
               msg(GROUP, targetedReceivers=["user_bob"], atUserList=["user_carol"]),
               [finding("rule.targeted.with-at", "targetedReceivers")], flags=["PathDecision"])
    for group_type in ("AVChatRoom", "Community"):
        yield Rule(f"targeted-{group_type.lower()}", f"Targeted receivers in a {group_type} group.",
                   msg(GROUP, groupType=group_type, targetedReceivers=["user_bob"]),
                   [finding("rule.targeted.group-type", "targetedReceivers")], flags=["PathDecision"])


def rule_g1_group_type():
    """G1: the group types the guides name."""
    yield Rule("group-type-community", "Group type Community (the messaging guide names it).", msg(GROUP, groupType="Community"), [])
    yield Rule("group-type-undocumented", "Group type Work, which no profile documents.", msg(GROUP, groupType="Work"),
               [finding("enum.unknown-group-type", "groupType")])


def rule_m16_and_unknown_kinds():
    """M16 (priority) and elems of no kind."""
    yield Rule("priority-undocumented", "Priority 9.", msg(C2C, priority=9), [finding("enum.unknown-value", "priority",
                                                                                        actual=9)])
    yield Rule("elem-of-no-kind", "An elem with no kind.", msg(C2C, {}), [finding("enum.unknown-kind", "elems[0]")])


def rule_m3_merger_contents():
    """M3: what a merged message may hold."""
    yield Rule("merger-with-group-tips", "A merged message holding group tips.",
               msg(C2C, merger([msg({"groupId": "@TGS#1", "groupType": "Public"},
                                    {"groupTips": {"type": "GROUP_TIPS_TYPE_QUIT", "platform": "iOS"}})])),
               [finding("rule.merger.contains-group-tips", "elems[0].merger.messages[0].elems[0]")])
    yield Rule("merger-of-merger", "A merged message holding a merger.", msg(C2C, merger([msg({"receiver": "user_bob"},
                                                                                              merger(nested(1)))])), [])


def merger_msg_num_and_key():
    """The REST MsgNum and JsonMsgKey of a merger (Sources/IMCodecREST/IMCodecREST.docc/REST.md), in every
    profile."""
    yield Rule("merger-msg-num-matches", "msgNum 2 on a merger of two messages.",
               msg(C2C, merger(nested(2), msgNum=2)), [])
    yield Rule("merger-msg-num-unset", "msgNum 0 (not stated) on a merger of two messages: the count is the number.",
               msg(C2C, merger(nested(2))), [])
    yield Rule("merger-msg-num-with-key", "msgNum 150 with a JsonMsgKey and no messages: the messages are stored apart.",
               msg(C2C, merger([], msgNum=150, jsonMsgKey="relay_key_1")), [])
    yield Rule("merger-msg-num-mismatch", "msgNum 3 on a merger of two messages.",
               msg(C2C, merger(nested(2), msgNum=3)), [finding("rule.merger.msg-num", "elems[0].merger.msgNum", 2, 3)])
    yield Rule("merger-msg-num-mismatch-current", "msgNum 1 on a merger of two messages, current profile.",
               msg(C2C, merger(nested(2), msgNum=1)), [finding("rule.merger.msg-num", "elems[0].merger.msgNum", 2, 1)],
               profile="current")
    yield Rule("merger-key-with-messages", "A JsonMsgKey on a merger that also holds its messages.",
               msg(C2C, merger(nested(2), msgNum=2, jsonMsgKey="relay_key_1")),
               [finding("rule.merger.key-with-messages", "elems[0].merger.jsonMsgKey")])
    yield Rule("merger-key-with-messages-current", "A JsonMsgKey on a merger that also holds its messages, current "
               "profile.", msg(C2C, merger(nested(1), jsonMsgKey="relay_key_1")),
               [finding("rule.merger.key-with-messages", "elems[0].merger.jsonMsgKey")], profile="current")
    yield Rule("merger-msg-num-and-key-with-messages", "msgNum 5 and a JsonMsgKey on a merger of two messages: both rules.",
               msg(C2C, merger(nested(2), msgNum=5, jsonMsgKey="relay_key_1")),
               [finding("rule.merger.msg-num", "elems[0].merger.msgNum", 2, 5),
                finding("rule.merger.key-with-messages", "elems[0].merger.jsonMsgKey")])
    yield Rule("nested-merger-msg-num-mismatch", "A merged message holding a merger whose msgNum 2 differs from its one "
               "message.", msg(C2C, merger([msg({"receiver": "user_bob"}, merger(nested(1), msgNum=2))])),
               [finding("rule.merger.msg-num", "elems[0].merger.messages[0].elems[0].merger.msgNum", 1, 2)])


def rule_m5_compatible_text():
    """M5: a merger's compatible text (current profile only)."""
    yield Rule("merger-without-compatible-text-sdk-guide", "A merger without compatible text, sdk-guide profile.",
               msg(C2C, {"merger": {"title": "t", "abstracts": ["a"], "messages": nested(1)}}), [])
    yield Rule("merger-without-compatible-text-current", "A merger without compatible text, current profile.",
               msg(C2C, {"merger": {"title": "t", "abstracts": ["a"], "messages": nested(1)}}),
               [finding("rule.merger.compatible-text-missing", "elems[0].merger.compatibleText")], profile="current")


def rule_m19_title_and_abstracts():
    """M19: a merger has a title and abstracts, in both profiles."""
    for profile in ("sdk-guide", "current"):
        yield Rule(f"merger-title-and-one-abstract-{profile}", "A merger with a one-character title and one abstract line "
                   "(M19 at its bound).", msg(C2C, merger(nested(1), title="t", abstracts=["a"])), [], profile=profile)
        yield Rule(f"merger-without-title-{profile}", "A merger with abstracts and no title (M19).",
                   msg(C2C, merger(nested(1), title="")), [finding("rule.merger.title-missing", "elems[0].merger.title")],
                   profile=profile)
        yield Rule(f"merger-without-abstracts-{profile}", "A merger with a title and no abstract line (M19).",
                   msg(C2C, merger(nested(1), abstracts=[])),
                   [finding("rule.merger.abstracts-missing", "elems[0].merger.abstracts")], profile=profile)
    yield Rule("merger-with-key-without-title-and-abstracts", "A merger stored apart (JsonMsgKey) is displayed by its "
               "title and abstracts too: both missing, two findings, title first.",
               msg(C2C, {"merger": {"compatibleText": "c", "msgNum": 3, "jsonMsgKey": "relay_key_1"}}),
               [finding("rule.merger.title-missing", "elems[0].merger.title"),
                finding("rule.merger.abstracts-missing", "elems[0].merger.abstracts")])
    yield Rule("nested-merger-without-title", "A merged message holding a merger without a title (M19 applies to nested "
               "mergers).", msg(C2C, merger([msg({"receiver": "user_bob"}, merger(nested(1), title=""))])),
               [finding("rule.merger.title-missing", "elems[0].merger.messages[0].elems[0].merger.title")])


def rule_m20_at_type():
    """M20: the @ type follows from the @ list; the @-all user ID."""
    at_all = "__kImSDK_MesssageAtALL__"
    at = lambda users, at_type: msg(GROUP, atUserList=users, atType=at_type)
    for name, users, at_type, ok in (
            ("at-me", ["user_bob"], "GROUP_AT_TYPE_AT_ME", True),
            ("at-all", [at_all], "GROUP_AT_TYPE_AT_ALL", True),
            ("at-all-and-others", [at_all, "user_bob"], "GROUP_AT_TYPE_AT_ALL", True),
            ("at-all-at-me", [at_all, "user_bob"], "GROUP_AT_TYPE_AT_ALL_AT_ME", True),
            ("at-me-with-all-marker", [at_all, "user_bob"], "GROUP_AT_TYPE_AT_ME", False),
            ("at-me-only-all-marker", [at_all], "GROUP_AT_TYPE_AT_ME", False),
            ("at-all-without-marker", ["user_bob"], "GROUP_AT_TYPE_AT_ALL", False),
            ("at-all-at-me-only-marker", [at_all], "GROUP_AT_TYPE_AT_ALL_AT_ME", False),
            ("at-all-at-me-without-marker", ["user_bob"], "GROUP_AT_TYPE_AT_ALL_AT_ME", False),
            ("at-all-marker-one-short", [at_all[:-1]], "GROUP_AT_TYPE_AT_ALL", False),
            ("at-all-marker-respelled", ["__kImSDK_MessageAtALL__"], "GROUP_AT_TYPE_AT_ALL", False),
            # The K of SDK as U+212A KELVIN SIGN, canonically equivalent to K: other bytes, another user ID.
            ("at-all-marker-kelvin-sign", ["__kImSD\u212a_MesssageAtALL__"], "GROUP_AT_TYPE_AT_ALL", False)):
        yield Rule(f"at-type-{name}", f"@ list {users} with atType {at_type}: "
                   + ("the type follows from the list." if ok else "the type does not follow from the list (the @-all "
                      "user ID is exactly __kImSDK_MesssageAtALL__, with the SDK's spelling)."),
                   at(users, at_type), [] if ok else [finding("rule.at.type-mismatch", "atType")])
    yield Rule("at-type-without-list", "atType @ me on a group message without an @ list.",
               msg(GROUP, atType="GROUP_AT_TYPE_AT_ME"), [finding("rule.at.type-mismatch", "atType")])
    yield Rule("at-type-undocumented", "atType 4, which the schema does not name.", at([at_all], 4),
               [finding("enum.unknown-value", "atType", actual=4)])
    yield Rule("at-all-marker-without-type", "The @-all user ID in an @ list without an atType (a sender's message).",
               at([at_all], "GROUP_AT_TYPE_UNSPECIFIED"), [])


def rules_m6_m7_image_levels():
    """M6, M7: one level of each type; the large and thumbnail sizes."""
    yield Rule("image-levels", "Original 3024x4032, large 720x960, thumbnail 198x264.",
               msg(C2C, {"image": {"format": "IMAGE_FORMAT_JPG", "levels": [level("ORIGINAL", 3024, 4032),
                                                                             level("LARGE", 720, 960),
                                                                             level("THUMBNAIL", 198, 264)]}}), [])
    yield Rule("image-two-originals", "Two original levels.",
               msg(C2C, {"image": {"levels": [level("ORIGINAL", 100, 100), level("ORIGINAL", 100, 100)]}}),
               [finding("rule.image.duplicate-level", "elems[0].image.levels[1].type")])
    yield Rule("image-large-too-big", "A large level whose shorter side is 721 px under a 3024 px original.",
               msg(C2C, {"image": {"levels": [level("ORIGINAL", 3024, 4032), level("LARGE", 721, 961)]}}),
               [finding("rule.image.large-size", "elems[0].image.levels[1]", 720, 721)], flags=["PathDecision"])
    yield Rule("image-thumbnail-too-big", "A thumbnail whose shorter side is 199 px under a 3024 px original.",
               msg(C2C, {"image": {"levels": [level("ORIGINAL", 3024, 4032), level("THUMBNAIL", 199, 265)]}}),
               [finding("rule.image.thumbnail-size", "elems[0].image.levels[1]", 198, 199)], flags=["PathDecision"])
    yield Rule("image-small-original-reused", "A 500x600 original reused as the large level.",
               msg(C2C, {"image": {"levels": [level("ORIGINAL", 500, 600), level("LARGE", 500, 600)]}}), [])
    yield Rule("image-format-undocumented", "Image format 7, on an image with an original level.",
               msg(C2C, {"image": {"format": 7, "levels": [level("ORIGINAL", 800, 600)]}}),
               [finding("enum.unknown-value", "elems[0].image.format", actual=7)])


def rules_m17_m18_elems_and_levels():
    """M17, M18: a message has elems and an image has levels, in both profiles."""
    for profile in ("sdk-guide", "current"):
        yield Rule(f"message-one-elem-{profile}", "A message with exactly one elem (M17 at its bound).",
                   msg(C2C), [], profile=profile)
        yield Rule(f"message-no-elems-{profile}", "A one-to-one message without elems (M17).", dict(C2C),
                   [finding("rule.message.elems-missing", "elems")], profile=profile)
        yield Rule(f"nested-no-elems-{profile}", "A merged message without elems (M17 applies to nested messages).",
                   msg(C2C, merger([dict(C2C)])),
                   [finding("rule.message.elems-missing", "elems[0].merger.messages[0].elems")], profile=profile)
        yield Rule(f"image-one-level-{profile}", "An image with exactly one level, a thumbnail (M18 at its bound).",
                   msg(C2C, {"image": {"format": "IMAGE_FORMAT_JPG", "levels": [level("THUMBNAIL", 198, 300)]}}), [],
                   profile=profile)
        yield Rule(f"image-no-levels-{profile}", "An image elem without levels (M18).",
                   msg(C2C, {"image": {"format": "IMAGE_FORMAT_JPG"}}),
                   [finding("rule.image.levels-missing", "elems[0].image.levels")], profile=profile)


def rule_m9_location():
    """M9: latitude and longitude at the declared bounds."""
    lat_range = DECLARED.rule("range.location.latitude")
    lon_range = DECLARED.rule("range.location.longitude")
    num = lambda x: int(x) if x == int(x) else x
    lat_low, lat_high, lon_low, lon_high = map(num, (lat_range.low, lat_range.high, lon_range.low, lon_range.high))
    location = lambda la, lo: msg(C2C, {"location": {"desc": "here", "latitude": la, "longitude": lo}})
    yield Rule("location-bounds", f"Latitude {lat_high} and longitude {lon_low}: bounds included.",
               location(lat_high, lon_low), [])
    yield Rule("location-other-bounds", f"Latitude {lat_low} and longitude {lon_high}.", location(lat_low, lon_high), [])
    yield Rule("location-past-bounds", f"Latitude {lat_high + 0.5} and longitude {lon_low - 0.5}.",
               location(lat_high + 0.5, lon_low - 0.5),
               [finding("range.location.latitude", "elems[0].location.latitude", lat_high),
                finding("range.location.longitude", "elems[0].location.longitude", lon_high)])
    yield Rule("location-nan", "Latitude NaN.", location("NaN", 0),
               [finding("range.location.latitude", "elems[0].location.latitude", lat_high)])


def rules_g8_to_g13_tips_and_system():
    """G8-G13: group tips and group system elems."""
    yield Rule("tips-type-undocumented", "Group tips type 12.", msg(GROUP, {"groupTips": {"type": 12, "platform": "iOS"}}),
               [finding("enum.unknown-value", "elems[0].groupTips.type", actual=12)])
    yield Rule("tips-type-unspecified", "Group tips type 0.", msg(GROUP, {"groupTips": {"platform": "iOS"}}),
               [finding("enum.unspecified", "elems[0].groupTips.type")])
    yield Rule("tips-member-count-on-set-admin", "A member count on SET_ADMIN tips.",
               msg(GROUP, {"groupTips": {"type": "GROUP_TIPS_TYPE_SET_ADMIN", "platform": "iOS", "memberCount": 5}}),
               [finding("rule.group-tips.member-count-type", "elems[0].groupTips.memberCount")])
    yield Rule("tips-group-change-on-invite", "Group changes on INVITE tips.",
               msg(GROUP, {"groupTips": {"type": "GROUP_TIPS_TYPE_INVITE", "platform": "iOS",
                                         "groupChangeList": [{"type": "GROUP_INFO_CHANGE_TYPE_NAME", "value": "n"}]}}),
               [finding("rule.group-tips.group-change-list-type", "elems[0].groupTips.groupChangeList")])
    yield Rule("tips-member-change-on-cancel-admin", "Member changes on CANCEL_ADMIN tips.",
               msg(GROUP, {"groupTips": {"type": "GROUP_TIPS_TYPE_CANCEL_ADMIN", "platform": "iOS",
                                         "memberChangeList": [{"identifier": "user_bob", "shutupTime": 60}]}}),
               [finding("rule.group-tips.member-change-list-type", "elems[0].groupTips.memberChangeList")])
    yield Rule("tips-member-change", "Member changes on MEMBER_INFO_CHANGE tips.",
               msg(GROUP, {"groupTips": {"type": "GROUP_TIPS_TYPE_MEMBER_INFO_CHANGE", "platform": "iOS",
                                         "memberChangeList": [{"identifier": "user_bob", "shutupTime": 60}]}}), [])
    for tip_type in ("INVITE", "QUIT", "KICKED", "SET_ADMIN", "CANCEL_ADMIN"):
        yield Rule(f"tips-user-list-on-{tip_type.lower().replace('_', '-')}",
                   f"A user list on {tip_type} tips, one of the types (0x01 to 0x05) whose comments name it.",
                   msg(GROUP, {"groupTips": {"type": f"GROUP_TIPS_TYPE_{tip_type}", "platform": "iOS",
                                             "userList": ["user_bob"]}}), [])
    for tip_type in ("INFO_CHANGE", "MEMBER_INFO_CHANGE"):
        yield Rule(f"tips-user-list-on-{tip_type.lower().replace('_', '-')}",
                   f"A user list on {tip_type} tips: only 0x01 to 0x05 carry one.",
                   msg(GROUP, {"groupTips": {"type": f"GROUP_TIPS_TYPE_{tip_type}", "platform": "iOS",
                                             "userList": ["user_bob"]}}),
                   [finding("rule.group-tips.user-list-type", "elems[0].groupTips.userList")])
    yield Rule("tips-changed-user-info-distinct", "changedUserInfo with two different user IDs.",
               msg(GROUP, {"groupTips": {"type": "GROUP_TIPS_TYPE_MEMBER_INFO_CHANGE", "platform": "iOS",
                                         "changedUserInfo": [{"identifier": "user_bob"}, {"identifier": "user_carol"}]}}), [])
    yield Rule("tips-changed-user-info-repeated", "changedUserInfo (a dictionary in the SDK) naming user_bob twice: the "
               "second entry is the finding.",
               msg(GROUP, {"groupTips": {"type": "GROUP_TIPS_TYPE_MEMBER_INFO_CHANGE", "platform": "iOS",
                                         "changedUserInfo": [{"identifier": "user_bob"}, {"identifier": "user_carol"},
                                                             {"identifier": "user_bob"}, {"identifier": "user_bob"}]}}),
               [finding("rule.group-tips.duplicate-identifier", "elems[0].groupTips.changedUserInfo[2].identifier"),
                finding("rule.group-tips.duplicate-identifier", "elems[0].groupTips.changedUserInfo[3].identifier")])
    yield Rule("tips-changed-member-info-repeated", "changedGroupMemberInfo naming the same user twice.",
               msg(GROUP, {"groupTips": {"type": "GROUP_TIPS_TYPE_MEMBER_INFO_CHANGE", "platform": "iOS",
                                         "changedGroupMemberInfo": [{"identifier": "user_bob"}, {"identifier": "user_bob"}]}}),
               [finding("rule.group-tips.duplicate-identifier", "elems[0].groupTips.changedGroupMemberInfo[1].identifier")])
    yield Rule("tips-changed-lists-share-id", "The same user ID once in each changed list: two dictionaries, no repeat.",
               msg(GROUP, {"groupTips": {"type": "GROUP_TIPS_TYPE_MEMBER_INFO_CHANGE", "platform": "iOS",
                                         "changedUserInfo": [{"identifier": "user_bob"}],
                                         "changedGroupMemberInfo": [{"identifier": "user_bob"}]}}), [])
    yield Rule("tips-changed-ids-canonically-equal", "changedUserInfo with \"é\" precomposed (c3 a9) and decomposed "
               "(65 cc 81): different bytes, so different keys.",
               msg(GROUP, {"groupTips": {"type": "GROUP_TIPS_TYPE_MEMBER_INFO_CHANGE", "platform": "iOS",
                                         "changedUserInfo": [{"identifier": "\u00e9"}, {"identifier": "e\u0301"}]}}), [])
    yield Rule("name-change-without-value", "A name change without a name.", msg(GROUP, change("NAME", "")),
               [finding("rule.group-change.value-missing", "elems[0].groupTips.groupChangeList[0].value")])
    yield Rule("introduction-cleared", "An introduction change to the empty string (clearing it).",
               msg(GROUP, change("INTRODUCTION", "")), [])
    yield Rule("key-on-name-change", "A key on a name change.", msg(GROUP, change("NAME", "n", key="k")),
               [finding("rule.group-change.key-type", "elems[0].groupTips.groupChangeList[0].key")])
    yield Rule("custom-change-without-key", "A custom-field change without a key.", msg(GROUP, change("CUSTOM", "v")),
               [finding("rule.group-change.key-missing", "elems[0].groupTips.groupChangeList[0].key")])
    yield Rule("system-user-data-on-custom", "User data on a CUSTOM_INFO group system elem.",
               msg(GROUP, {"groupSystem": {"type": "GROUP_SYSTEM_TYPE_CUSTOM_INFO", "platform": "iOS",
                                           "userData": b64(b"x")}}), [])
    yield Rule("system-user-data-on-request", "User data on an ADD_GROUP_REQUEST group system elem.",
               msg(GROUP, {"groupSystem": {"type": "GROUP_SYSTEM_TYPE_ADD_GROUP_REQUEST", "platform": "iOS",
                                           "userData": b64(b"x")}}),
               [finding("rule.group-system.user-data-type", "elems[0].groupSystem.userData")])
    yield Rule("system-type-undocumented", "Group system type 15.",
               msg(GROUP, {"groupSystem": {"type": 15, "platform": "iOS"}}),
               [finding("enum.unknown-value", "elems[0].groupSystem.type", actual=15)])
    yield Rule("platform-restful-api", "Platform 'RESTful API'.", msg(GROUP, tips(platform="RESTful API")), [])
    yield Rule("platform-undocumented", "Platform 'Linux'.", msg(GROUP, tips(platform="Linux")),
               [finding("enum.unknown-platform", "elems[0].groupTips.platform")])


def rule_g14_group_id_characters():
    """G14: group ID characters (current profile only)."""
    for profile, findings in (("sdk-guide", []), ("current", [finding("format.group.id-characters", "groupId", actual=9)])):
        yield Rule(f"group-id-with-tab-{profile}", f"A group ID holding a tab, {profile} profile.",
                   msg(GROUP, groupId="@TGS#\tx"), findings, profile=profile, flags=[] if findings else ["RuleOff"])


def rules_f3_to_f6_relationship_changes():
    """F3-F6: relationship-chain changes."""
    yield Rule("add-source-no-prefix", "An add source without the AddSource_Type_ prefix.",
               msg(C2C, sns([{"identifier": "user_dave", "source": "Android"}])),
               [finding("format.sns.source", "elems[0].snsSystem.users[0].source")])
    yield Rule("add-source-bare-prefix", "The bare prefix names no source.",
               msg(C2C, sns([{"identifier": "user_dave", "source": "AddSource_Type_"}])),
               [finding("format.sns.source", "elems[0].snsSystem.users[0].source")])
    yield Rule("add-source-digit", "An add source name with a digit.",
               msg(C2C, sns([{"identifier": "user_dave", "source": "AddSource_Type_Web2"}])),
               [finding("format.sns.source", "elems[0].snsSystem.users[0].source")])
    yield Rule("wording-on-add-friend", "A wording on an ADD_FRIEND change (wording belongs to add requests).",
               msg(C2C, sns([{"identifier": "user_dave", "wording": "hi"}], kind="ADD_FRIEND")),
               [finding("rule.sns.wording-type", "elems[0].snsSystem.users[0].wording")])
    for kind in ("ADD_FRIEND", "DEL_FRIEND", "DEL_FRIEND_REQ"):
        yield Rule(f"source-on-{kind.lower().replace('_', '-')}",
                   f"An add source on a {kind} change: add-friend and delete-friend notices list the identifier alone, "
                   "and the source is filled in when applying.",
                   msg(C2C, sns([{"identifier": "user_dave", "source": "AddSource_Type_Web"}], kind=kind)),
                   [finding("rule.sns.source-type", "elems[0].snsSystem.users[0].source")])
    yield Rule("source-on-add-friend-req", "An add source and wording on an ADD_FRIEND_REQ change.",
               msg(C2C, sns([{"identifier": "user_dave", "wording": "hi", "source": "AddSource_Type_Web"}],
                            kind="ADD_FRIEND_REQ")), [])
    yield Rule("sns-change-without-user", "A relationship change without an identifier.",
               msg(C2C, sns([{"source": "AddSource_Type_Web"}])),
               [finding("rule.sns.identifier-missing", "elems[0].snsSystem.users[0].identifier")])
    for profile, findings in (("sdk-guide", [finding("enum.unknown-value", "elems[0].snsSystem.type", actual=5)]),
                              ("current", [])):
        yield Rule(f"sns-type-5-{profile}", f"Relationship-chain type 5, {profile} profile (the SDK guides 1-4, the SDK "
                   "headers 1-14).", msg(C2C, {"snsSystem": {"type": 5, "users": [{"identifier": "user_dave"}]}}), findings,
                   profile=profile)
    yield Rule("profile-system-type-undocumented", "Profile system type 2.",
               msg(C2C, {"profileSystem": {"type": 2, "fromUser": "user_bob"}}),
               [finding("enum.unknown-value", "elems[0].profileSystem.type", actual=2)])


def rule_f10_profile_custom_keys():
    """F10: custom profile keys carry TIMProfileTypeKey_Custom_Prefix (sdk-guide profile only)."""
    key_prefix = DECLARED.value("profileCustomKeyPrefix", "sdk-guide")
    custom = lambda key: msg(GROUP, tips(opUserInfo={"identifier": "user_alice", "customInfo": [
        {"key": key, "data": b64(b"A")}, {"key": key + "2", "number": "7"}]}))
    key_path = "elems[0].groupTips.opUserInfo.customInfo[%d].key"
    for name, key, ok in (("prefixed", key_prefix + "Blood", True),
                          ("prefixed-cjk", key_prefix + "血型", True),
                          ("bare-name", "Blood", False),
                          ("prefix-one-short", key_prefix[:-1] + "Blood", False),
                          ("prefix-lowercase", key_prefix.lower() + "Blood", False),
                          ("friend-prefix", "Tag_SNS_Custom_Blood", False)):
        for profile in ("sdk-guide", "current"):
            checked = DECLARED.value("profileCustomKeyPrefix", profile) is not None
            findings = [] if ok or not checked else [finding("format.profile.custom-key", key_path % 0),
                                                     finding("format.profile.custom-key", key_path % 1)]
            yield Rule(f"profile-custom-key-{name}-{profile}", f"Profile custom keys {key!r} and {key + '2'!r} (a data and a "
                       f"number entry), {profile} profile.", custom(key), findings, profile=profile,
                       flags=["RuleOff"] if not checked and not ok else [])


def rule_f11_friend_custom_keys():
    """F11: custom friend keys carry TIMFriendTypeKey_Custom_Prefix (sdk-guide profile only)."""
    key_prefix = DECLARED.value("profileCustomKeyPrefix", "sdk-guide")
    friend_prefix = DECLARED.value("friendCustomKeyPrefix", "sdk-guide")
    friend_custom = lambda key: {"friendList": {"friends": [{"identifier": "user_bob", "customInfo": [
        {"key": key, "data": b64(b"A")}, {"key": key + "2", "number": "7"}]}]}}
    friend_key_path = "friendList.friends[0].customInfo[%d].key"
    for name, key, ok in (("prefixed", friend_prefix + "Group", True),
                          ("prefixed-cjk", friend_prefix + "分组", True),
                          ("bare-name", "Group", False),
                          ("prefix-one-short", friend_prefix[:-1] + "Group", False),
                          ("prefix-lowercase", friend_prefix.lower() + "Group", False),
                          ("profile-prefix", key_prefix + "Group", False)):
        for profile in ("sdk-guide", "current"):
            checked = DECLARED.value("friendCustomKeyPrefix", profile) is not None
            findings = [] if ok or not checked else [finding("format.friend.custom-key", friend_key_path % 0),
                                                     finding("format.friend.custom-key", friend_key_path % 1)]
            yield Rule(f"friend-custom-key-{name}-{profile}", f"Friend custom keys {key!r} and {key + '2'!r} (a data and a "
                       f"number entry), {profile} profile.", friend_custom(key), findings, kind="event", profile=profile,
                       flags=["RuleOff"] if not checked and not ok else [])


def rules_g19_g20_roles_and_avchatroom():
    """G19, G20: no role change to owner; AVChatRoom has no role changes, owner transfers
    or member additions."""
    role_change = lambda tip_type, role, group_type="Public": msg(
        dict(GROUP, groupType=group_type), {"groupTips": {"type": f"GROUP_TIPS_TYPE_{tip_type}", "platform": "iOS",
                                                          "changedGroupMemberInfo": [{"identifier": "user_bob", "info": {
                                                              "member": "user_bob", "role": role}}]}})
    yield Rule("member-change-to-admin", "A member-info change giving user_bob the admin role.",
               role_change("MEMBER_INFO_CHANGE", "GROUP_MEMBER_ROLE_ADMIN"), [])
    yield Rule("member-change-to-owner", "A member-info change giving user_bob the owner role: ownership moves by "
               "transfer only.", role_change("MEMBER_INFO_CHANGE", "GROUP_MEMBER_ROLE_OWNER"),
               [finding("rule.group-tips.owner-role", "elems[0].groupTips.changedGroupMemberInfo[0].info.role")])
    yield Rule("owner-transfer-shows-owner", "An info-change tip (an owner transfer) showing the new owner's role.",
               role_change("INFO_CHANGE", "GROUP_MEMBER_ROLE_OWNER"), [])
    avchat = lambda elem: msg(dict(GROUP, groupType="AVChatRoom"), elem)
    public = lambda elem: msg(GROUP, elem)
    for tip_type in ("SET_ADMIN", "CANCEL_ADMIN"):
        elem = {"groupTips": {"type": f"GROUP_TIPS_TYPE_{tip_type}", "platform": "iOS", "userList": ["user_bob"]}}
        label = tip_type.lower().replace("_", "-")
        yield Rule(f"avchatroom-tips-{label}", f"{tip_type} tips in an AVChatRoom group, which has no role changes.",
                   avchat(elem), [finding("rule.avchatroom.role-change", "elems[0].groupTips.type")])
        yield Rule(f"public-tips-{label}", f"{tip_type} tips in a Public group.", public(elem), [])
    owner_change = tips(groupChangeList=[{"type": "GROUP_INFO_CHANGE_TYPE_OWNER", "value": "user_bob"}])
    yield Rule("avchatroom-owner-transfer", "An owner change in an AVChatRoom group, whose ownership cannot be transferred.",
               avchat(owner_change), [finding("rule.avchatroom.owner-transfer", "elems[0].groupTips.groupChangeList[0].type")])
    yield Rule("public-owner-transfer", "An owner change in a Public group.", public(owner_change), [])
    yield Rule("avchatroom-name-change", "A name change in an AVChatRoom group.", avchat(change("NAME", "live")), [])
    yield Rule("avchatroom-invite-tips", "Invite tips in an AVChatRoom group: on groups other than Private they announce "
               "that users joined, not an addition.",
               avchat({"groupTips": {"type": "GROUP_TIPS_TYPE_INVITE", "platform": "iOS", "userList": ["user_bob"]}}), [])
    for system_type, code in (("GRANT_ADMIN", "rule.avchatroom.role-change"),
                              ("CANCEL_ADMIN", "rule.avchatroom.role-change"),
                              ("INVITED_TO_GROUP", "rule.avchatroom.member-addition"),
                              ("INVITE_TO_GROUP_REQUEST", "rule.avchatroom.member-addition"),
                              ("INVITE_TO_GROUP_ACCEPT", "rule.avchatroom.member-addition"),
                              ("INVITE_TO_GROUP_REFUSE", "rule.avchatroom.member-addition"),
                              ("ADD_GROUP_ACCEPT", None)):
        elem = {"groupSystem": {"type": f"GROUP_SYSTEM_TYPE_{system_type}", "platform": "iOS"}}
        label = system_type.lower().replace("_", "-")
        yield Rule(f"avchatroom-system-{label}", f"A {system_type} group system notice in an AVChatRoom group.",
                   avchat(elem), [finding(code, "elems[0].groupSystem.type")] if code else [])
        if code:
            yield Rule(f"public-system-{label}", f"A {system_type} group system notice in a Public group.", public(elem), [])
    yield Rule("profile-gender-undocumented", "Gender 5 in a user profile.",
               msg(GROUP, tips(opUserInfo={"identifier": "user_alice", "gender": 5})),
               [finding("enum.unknown-value", "elems[0].groupTips.opUserInfo.gender", actual=5)])


def rules_c1_to_c5_connection():
    """C1-C5: connection events."""
    yield Rule("connection-connected", "A CONNECTED event.", conn(state="CONNECTION_STATE_CONNECTED"), [], kind="event")
    yield Rule("connection-failed-with-code", "A FAILED event with code and text.",
               conn(state="CONNECTION_STATE_FAILED", code=6208, text="kicked"), [], kind="event")
    yield Rule("connection-connected-with-code", "A CONNECTED event with an error code (6208, a documented one).",
               conn(state="CONNECTION_STATE_CONNECTED", code=6208),
               [finding("rule.connection.code-state", "connection.code")], kind="event")
    yield Rule("connection-state-unspecified", "A connection event with state 0 and no RongCloud status.", conn(text="?"),
               [finding("enum.unspecified", "connection.state")], kind="event")


def rule_c3_rong_cloud_status():
    """C3: RongCloud statuses, 0 (Connected) included, at the edges of the documented codes."""
    statuses = sorted(DECLARED_ENUMS["ConnectionStatusCode"])
    for code in sorted(set(statuses) | {c + d for c in statuses for d in (-1, 1)}):
        known = code in statuses
        yield Rule(f"rong-cloud-status-{code}".replace("--", "-minus-"), f"Only a RongCloud status, code {code}: state 0 "
                   "is not reported when the event carries one" + (", and the code is documented." if known else
                                                                     "; the code is not a documented one (a warning)."),
                   conn(rongCloudStatus={"code": code}), [] if known else
                   [finding("enum.unknown-value", "connection.rongCloudStatus.code", actual=code)], kind="event")
    yield Rule("rong-cloud-status-with-unknown-state", "A RongCloud status beside state 9.",
               conn(state=9, rongCloudStatus={"code": 15}), [finding("enum.unknown-value", "connection.state", actual=9)],
               kind="event")


def rule_c6_error_codes():
    """C6: error codes the documents name (ImErrorCode), and their neighbours."""
    documented = sorted(DECLARED_ENUMS["ImErrorCode"])
    for code in sorted(set(documented) | {c + d for c in documented if c for d in (-1, 1)}):
        known = code in documented
        yield Rule(f"connection-failed-code-{code}".replace("--", "-minus-"), f"A FAILED event with code {code}"
                   + (", one the documents name." if known else ", which the documents do not name: a warning."),
                   conn(state="CONNECTION_STATE_FAILED", code=code, text="x"), [] if known else
                   [finding("code.undocumented", "connection.code", actual=code)], kind="event")


def user_status_rules():
    """User status events: C6 on their codes, and which types carry a code."""
    status = lambda **f: {"userStatus": f}
    yield Rule("user-status-reconnect-failed", "RECONNECT_FAILED with code -1 and text: the code is not one the "
               "documents name (C6, a warning).", status(type="USER_STATUS_TYPE_RECONNECT_FAILED", code=-1, text="timeout"),
               [finding("code.undocumented", "userStatus.code", actual=-1)], kind="event")
    yield Rule("user-status-reconnect-failed-documented", "RECONNECT_FAILED with code 6208 and text.",
               status(type="USER_STATUS_TYPE_RECONNECT_FAILED", code=6208, text="kicked"), [], kind="event")
    yield Rule("user-status-forced-offline-with-code", "FORCED_OFFLINE with a code.",
               status(type="USER_STATUS_TYPE_FORCED_OFFLINE", code=6208),
               [finding("rule.user-status.code-type", "userStatus.code")], kind="event")


def receipt_recall_and_modification_rules():
    """Read receipts, recalls and modifications, and events of no kind."""
    receipts = lambda *r: {"readReceipt": {"receipts": list(r)}}
    yield Rule("receipts", "A one-to-one and a group receipt.",
               receipts({"msgId": "m", "userId": "user_bob", "isPeerRead": True, "timestamp": "1700000000"},
                        {"msgId": "m", "groupId": "@TGS#1", "readCount": "3", "unreadCount": "4"}), [], kind="event")
    yield Rule("receipt-without-target", "A receipt naming neither user nor group.", receipts({"msgId": "m"}),
               [finding("rule.receipt.target-missing", "readReceipt.receipts[0]")], kind="event")
    yield Rule("receipt-both-targets", "A receipt naming user and group.",
               receipts({"msgId": "m", "userId": "user_bob", "groupId": "@TGS#1"}),
               [finding("rule.receipt.target-ambiguous", "readReceipt.receipts[0]")], kind="event")
    yield Rule("receipt-peer-read-on-group", "The peer-read flag on a group receipt.",
               receipts({"msgId": "m", "groupId": "@TGS#1", "isPeerRead": True}),
               [finding("rule.receipt.peer-read-on-group", "readReceipt.receipts[0].isPeerRead")], kind="event")
    yield Rule("receipt-counts-on-one-to-one", "A read count on a one-to-one receipt.",
               receipts({"msgId": "m", "userId": "user_bob", "readCount": "1"}),
               [finding("rule.receipt.counts-on-one-to-one", "readReceipt.receipts[0].readCount")], kind="event")
    yield Rule("recall", "A recall naming its message.", {"recall": {"msgId": "m"}}, [], kind="event")
    yield Rule("recall-without-message-id", "A recall naming no message.", {"recall": {}},
               [finding("rule.recall.msg-id-missing", "recall.msgId")], kind="event")
    yield Rule("modification-without-message", "A modification without the modified message.", {"modification": {}},
               [finding("rule.modification.message-missing", "modification.message")], kind="event")
    yield Rule("modification-message-breaking-rules", "A modified message without a target.",
               {"modification": {"message": {"msgId": "m", "elems": [TEXT]}}},
               [finding("rule.message.target-missing", "modification.message")], kind="event")
    yield Rule("event-of-no-kind", "An event with no kind.", {}, [finding("enum.unknown-kind", "")], kind="event")


def rules_on_event_kinds():
    """F9, G2, G14 and the other rules on the relationship-chain and group kinds of Event."""
    for name, code in sorted(SCHEMA.enums["FriendStatus"].items(), key=lambda item: item[1]):
        yield Rule(f"friend-status-{code}", f"Friendship result code {code} ({name}), a documented status.",
                   {"friendResults": {"results": [{"identifier": "user_bob", "resultCode": name}]}}, [], kind="event")
    yield Rule("friend-status-undocumented", "Friendship result code 30001, which the relationship chain guide does not "
               "name (F9).", {"friendResults": {"results": [{"identifier": "user_bob", "resultCode": 30001}]}},
               [finding("enum.unknown-value", "friendResults.results[0].resultCode", actual=30001)], kind="event")
    yield Rule("friend-check-status-undocumented", "A relationship check result with result code 1 (F9).",
               {"friendCheck": {"results": [{"identifier": "user_bob", "resultCode": 1,
                                             "resultType": "FRIEND_RELATION_TYPE_BOTHWAY"}]}},
               [finding("enum.unknown-value", "friendCheck.results[0].resultCode", actual=1)], kind="event")
    for profile in ("sdk-guide", "current"):
        yield Rule(f"group-member-num-at-max-{profile}", "A group profile with memberNum equal to its maxMemberNum (G2).",
                   group_profile(maxMemberNum=200, memberNum=200), [], kind="event", profile=profile)
        yield Rule(f"group-member-num-above-max-{profile}", "A group profile with memberNum one above its maxMemberNum (G2).",
                   group_profile(maxMemberNum=200, memberNum=201),
                   [finding("limit.group.member-num", "groupProfiles.groups[0].memberNum", 200, 201)], kind="event",
                   profile=profile)
        yield Rule(f"group-member-num-no-max-{profile}", "A group profile with members and maxMemberNum 0 (unset): only the "
                   "type's limit applies.", group_profile(memberNum=201), [], kind="event", profile=profile)
    yield Rule("group-profile-type-undocumented", "A group profile of type Work.", group_profile(groupType="Work"),
               [finding("enum.unknown-group-type", "groupProfiles.groups[0].groupType")], kind="event")
    yield Rule("group-profile-last-message", "A group profile whose last message has no target: validated as a message.",
               group_profile(lastMsg={"msgId": "m", "elems": [TEXT]}),
               [finding("rule.message.target-missing", "groupProfiles.groups[0].lastMsg")], kind="event")
    prefix = DECLARED.value("reservedGroupIDPrefix", "current")
    for profile, findings in (("sdk-guide", []), ("current", [finding("format.group.id-prefix", "createGroup.group")])):
        yield Rule(f"create-group-reserved-prefix-{profile}", f"Creating a group with the custom ID {prefix}team, {profile} "
                   "profile: server-assigned IDs start with that prefix.", create_group(group=prefix + "team"), findings,
                   kind="event", profile=profile, flags=[] if findings else ["RuleOff"])
    yield Rule("create-group-prefix-inside", f"A custom group ID holding {prefix} after its first byte.",
               create_group(group="team" + prefix), [], kind="event", profile="current")
    yield Rule("create-group-prefix-lowercase", f"A custom group ID starting with {prefix.lower()}: the prefix is compared "
               "byte for byte.", create_group(group=prefix.lower() + "team"), [], kind="event", profile="current")
    yield Rule("create-group-server-assigned", "A creation without a custom ID (the server assigns one).", create_group(), [],
               kind="event", profile="current")
    yield Rule("create-group-id-with-tab", "A custom group ID holding a tab, current profile.",
               create_group(group="team\tx"), [finding("format.group.id-characters", "createGroup.group", actual=9)],
               kind="event", profile="current")
    yield Rule("friend-request-add-source-no-prefix", "An add-friend request whose source lacks the prefix.",
               friend_request(addSource="Android"), [finding("format.sns.source", "friendRequest.addSource")], kind="event")


def rules_g20_to_g22_creation_joining_and_pendency():
    """G20: an AVChatRoom group is created without members; G21: users join a Private group only by
    invitation (creation, profile, group system notices); G22: a pendency item's handler follows from
    its type. The same in both profiles."""
    avchat = create_group(groupType="AVChatRoom", membersInfo=[{"member": "iOS_002"}])
    private_notice = lambda system_type: msg(dict(GROUP, groupType="Private"), {"groupSystem": {
        "type": f"GROUP_SYSTEM_TYPE_{system_type}", "platform": "iOS"}})
    pending = lambda get_type, to_user: {"groupPendency": {"items": [
        {"groupId": "@TGS#2C5SZEAEF", "fromUser": "user_dave", "toUser": to_user,
         "getType": f"GROUP_PENDENCY_GET_TYPE_{get_type}"}]}}
    for profile in ("sdk-guide", "current"):
        yield Rule(f"create-avchatroom-with-members-{profile}", "An AVChatRoom group created with one initial member.",
                   avchat, [finding("rule.avchatroom.member-addition", "createGroup.membersInfo", actual=1)],
                   kind="event", profile=profile)
        yield Rule(f"create-avchatroom-without-members-{profile}", "An AVChatRoom group created without members.",
                   create_group(groupType="AVChatRoom"), [], kind="event", profile=profile)
        for opt in ("FORBID", "AUTH", "ANY"):
            yield Rule(f"create-private-set-add-opt-{opt.lower()}-{profile}",
                       f"A Private group created with setAddOpt and add option {opt}.",
                       create_group(setAddOpt=True, addOpt=f"GROUP_ADD_OPT_{opt}"),
                       [finding("rule.private-group.add-opt", "createGroup.setAddOpt")], kind="event", profile=profile)
        yield Rule(f"create-private-without-add-opt-{profile}", "A Private group created with setAddOpt false.",
                   create_group(addOpt="GROUP_ADD_OPT_ANY"), [], kind="event", profile=profile)
        yield Rule(f"create-public-set-add-opt-{profile}", "A Public group created with setAddOpt and add option any.",
                   create_group(groupType="Public", setAddOpt=True, addOpt="GROUP_ADD_OPT_ANY"), [], kind="event",
                   profile=profile)
        for opt in ("AUTH", "ANY"):
            yield Rule(f"private-profile-add-opt-{opt.lower()}-{profile}",
                       f"A Private group's profile with add option {opt}.",
                       group_profile(groupType="Private", addOpt=f"GROUP_ADD_OPT_{opt}"),
                       [finding("rule.private-group.add-opt", "groupProfiles.groups[0].addOpt")], kind="event",
                       profile=profile)
        yield Rule(f"private-profile-add-opt-forbid-{profile}", "A Private group's profile with add option forbid.",
                   group_profile(groupType="Private", addOpt="GROUP_ADD_OPT_FORBID"), [], kind="event", profile=profile)
        yield Rule(f"public-profile-add-opt-any-{profile}", "A Public group's profile with add option any.",
                   group_profile(addOpt="GROUP_ADD_OPT_ANY"), [], kind="event", profile=profile)
        for system_type in ("ADD_GROUP_REQUEST", "ADD_GROUP_ACCEPT", "ADD_GROUP_REFUSE"):
            label = system_type.lower().replace("_", "-")
            yield Rule(f"private-system-{label}-{profile}", f"A {system_type} group system notice in a Private group.",
                       private_notice(system_type),
                       [finding("rule.private-group.join-request", "elems[0].groupSystem.type")], profile=profile)
            yield Rule(f"public-system-{label}-{profile}", f"A {system_type} group system notice in a Public group.",
                       group_with({"groupSystem": {"type": f"GROUP_SYSTEM_TYPE_{system_type}", "platform": "iOS"}}), [],
                       profile=profile)
        yield Rule(f"private-system-invited-{profile}", "An INVITED_TO_GROUP notice in a Private group.",
                   private_notice("INVITED_TO_GROUP"), [], profile=profile)
        for get_type, to_user, findings in (
                ("JOIN", "", []), ("JOIN", "0", []),
                ("JOIN", "user_alice", [finding("rule.group-pendency.to-user-type", "groupPendency.items[0].toUser")]),
                ("INVITE", "user_alice", []),
                ("INVITE", "", [finding("rule.group-pendency.to-user-missing", "groupPendency.items[0].toUser")])):
            label = f"{get_type.lower()}-{'empty' if not to_user else 'zero' if to_user == '0' else 'user'}"
            yield Rule(f"group-pendency-{label}-{profile}",
                       f"A group pendency item of type {get_type} whose toUser is {to_user or 'empty'}.",
                       pending(get_type, to_user), findings, kind="event", profile=profile)


def rules_seed_statements():
    """M22: a video elem carries its image; M23: group tips only in group messages; G23: an AVChatRoom
    profile has no member count and no self info; F12: a rejection carries no remark. The same in
    both profiles."""
    video = lambda **fields: msg(C2C, {"video": dict({"videoUuid": "v", "videoSize": 1}, **fields)})
    yield Rule("video-without-snapshot", "A video elem with a video UUID and neither a snapshot UUID nor a snapshot "
               "URL: a video message contains a video file and an image.", video(),
               [finding("rule.video.snapshot-missing", "elems[0].video")])
    yield Rule("video-with-snapshot-uuid", "A video elem with its snapshot UUID.", video(snapshotUuid="s"), [])
    yield Rule("video-with-snapshot-url", "A video elem with its snapshot URL only.", video(snapshotUrl="https://s"), [])
    yield Rule("video-without-video-uuid", "A video elem with only a URL and no snapshot: without a video UUID the rule "
               "does not apply.", msg(C2C, {"video": {"videoUrl": "https://v"}}), [])
    tips_elem = {"groupTips": {"type": "GROUP_TIPS_TYPE_QUIT", "platform": "iOS", "opUser": "user_bob"}}
    yield Rule("group-tips-in-one-to-one-message", "A one-to-one message (a receiver) holding group tips as its second "
               "elem: group tips travel in group messages.", msg(C2C, TEXT, tips_elem),
               [finding("rule.group-tips.one-to-one", "elems[1].groupTips")])
    yield Rule("group-tips-in-group-message", "The same group tips in a group message.", msg(GROUP, TEXT, tips_elem), [])
    yield Rule("group-tips-in-one-to-one-merger-entry", "A merger in a group message whose one-to-one entry holds "
               "group tips: the merger rule and the one-to-one rule both report the elem.",
               msg(GROUP, merger([{"receiver": "user_bob", "elems": [tips_elem]}])),
               [finding("rule.merger.contains-group-tips", "elems[0].merger.messages[0].elems[0]"),
                finding("rule.group-tips.one-to-one", "elems[0].merger.messages[0].elems[0].groupTips")])
    yield Rule("avchatroom-profile-member-num", "An AVChatRoom group's profile with a member count of 12: live-streaming "
               "groups do not report their total number of members.", group_profile(groupType="AVChatRoom", memberNum=12),
               [finding("rule.avchatroom.member-num", "groupProfiles.groups[0].memberNum", actual=12)], kind="event")
    yield Rule("avchatroom-profile-without-member-num", "An AVChatRoom group's profile without a member count.",
               group_profile(groupType="AVChatRoom", onlineMemberNum=12), [], kind="event")
    yield Rule("bchatroom-profile-member-num", "A BChatRoom group's profile with a member count: the rule names "
               "AVChatRoom only.", group_profile(groupType="BChatRoom", memberNum=12), [], kind="event")
    yield Rule("public-profile-member-num", "A Public group's profile with a member count of 12.",
               group_profile(memberNum=12), [], kind="event")
    self_info = {"role": "GROUP_MEMBER_ROLE_MEMBER", "joinTime": 1700000000}
    yield Rule("avchatroom-profile-self-info", "An AVChatRoom group's profile with self info: one's own profile in a "
               "live-streaming group cannot be pulled.", group_profile(groupType="AVChatRoom", selfInfo=self_info),
               [finding("rule.avchatroom.self-info", "groupProfiles.groups[0].selfInfo")], kind="event")
    yield Rule("public-profile-self-info", "A Public group's profile with self info (getGroupList's answer holds it).",
               group_profile(selfInfo=self_info), [], kind="event")
    response = lambda response_type, remark: {"friendResponse": {
        "responseType": f"FRIEND_RESPONSE_TYPE_{response_type}", "identifier": "user_dave", "remark": remark}}
    yield Rule("friend-response-reject-with-remark", "A rejected friend request answered with a remark: a remark goes "
               "with adding the requester as a friend.", response("REJECT", "dave"),
               [finding("rule.friend-response.remark-on-reject", "friendResponse.remark")], kind="event")
    yield Rule("friend-response-reject-without-remark", "A rejected friend request answered without a remark.",
               response("REJECT", ""), [], kind="event")
    yield Rule("friend-response-agree-and-add-with-remark", "A friend request agreed and added back, with a remark.",
               response("AGREE_AND_ADD", "dave"), [], kind="event")
    owner = lambda role: create_group(groupType="Public", membersInfo=[
        {"member": "iOS_001"}, {"member": "iOS_002", "role": f"GROUP_MEMBER_ROLE_{role}"}])
    yield Rule("create-group-member-owner", "A creation naming an initial member with the owner role: the creator is "
               "the owner.", owner("OWNER"), [finding("rule.create-group.owner-role", "createGroup.membersInfo[1].role")],
               kind="event")
    yield Rule("create-group-member-admin", "A creation naming an initial member with the admin role.", owner("ADMIN"), [],
               kind="event")
    yield Rule("friend-response-agree-with-remark", "A friend request agreed with a remark: the rule names rejections "
               "only.", response("AGREE", "dave"), [], kind="event")


def rule_m21_batch_stored_messages():
    """M21: a batch (a history page or an offline sync) holds no online-only and no AVChatRoom message."""
    live = dict(GROUP, groupType="AVChatRoom")
    for profile in ("sdk-guide", "current"):
        yield Rule(f"batch-online-only-{profile}", "A batch whose second message is online-only.",
                   {"messages": [msg(C2C), msg(dict(C2C, onlineUserOnly=True))]},
                   [finding("rule.batch.online-only", "messages[1].onlineUserOnly")], kind="batch", profile=profile)
        yield Rule(f"batch-avchatroom-{profile}", "A batch holding an AVChatRoom message.", {"messages": [msg(live)]},
                   [finding("rule.batch.avchatroom", "messages[0].groupType")], kind="batch", profile=profile)
        yield Rule(f"batch-stored-{profile}", "A batch of a one-to-one and a Public group message.",
                   {"messages": [msg(C2C), msg(GROUP)]}, [], kind="batch", profile=profile)
        yield Rule(f"online-only-message-{profile}", "An online-only message on its own, not in a batch.",
                   msg(dict(C2C, onlineUserOnly=True)), [], profile=profile)
        yield Rule(f"avchatroom-message-{profile}", "An AVChatRoom message on its own.", msg(live), [], profile=profile)


def rules_on_conversations_and_notifications():
    """The conversation, the deletion, the read-member filter and the relationship-chain notifications:
    IDs (F8, G14), group types (G1) and enums, and a conversation's last message as a message."""
    limit = DECLARED.value("maxUserIDBytes", "current")  # F8 is a rule of the current profile only
    long_id = "u" * (limit + 1)
    n = len(long_id)
    for kind, label in (("friendsAdded", "friends-added"), ("friendsDeleted", "friends-deleted"),
                        ("friendPendencyDeleted", "friend-pendency-deleted"), ("blacklistAdded", "blacklist-added"),
                        ("blacklistDeleted", "blacklist-deleted")):
        yield Rule(f"{label}-user-id", f"A {kind} notification whose second user ID is {n} bytes.",
                   {kind: {"users": ["user_bob", long_id]}},
                   [finding("limit.user.id-bytes", f"{kind}.users[1]", limit, n)], kind="event", profile="current")
    yield Rule("friend-delete-user-id", f"A friend deletion naming a {n}-byte user ID, deleting both ways.",
               {"friendDelete": {"users": [long_id], "deleteType": "FRIEND_DELETE_TYPE_BOTH"}},
               [finding("limit.user.id-bytes", "friendDelete.users[0]", limit, n)], kind="event", profile="current")
    yield Rule("friend-delete-type-undocumented", "A friend deletion of type 3.",
               {"friendDelete": {"users": ["user_bob"], "deleteType": 3}},
               [finding("enum.unknown-value", "friendDelete.deleteType", actual=3)], kind="event")
    yield Rule("friend-profiles-updated-remark", "A friend profile update whose remark is 97 bytes.",
               {"friendProfilesUpdated": {"friends": [{"identifier": "user_bob", "remark": "r" * 97}]}},
               [finding("limit.friend.remark-bytes", "friendProfilesUpdated.friends[0].remark",
                        DECLARED.value("maxFriendRemarkBytes", "sdk-guide"), 97)], kind="event")
    yield Rule("friend-pendency-added-source", "An add-friend request notification whose source lacks the prefix.",
               {"friendPendencyAdded": {"items": [{"identifier": "user_dave", "addSource": "Android"}]}},
               [finding("format.sns.source", "friendPendencyAdded.items[0].addSource")], kind="event")
    yield Rule("friend-pendency-read", "A pendency read report.", {"friendPendencyRead": {"timestamp": "1700000300"}},
               [], kind="event")
    yield Rule("read-members-filter-undocumented", "A read-member page with filter 2.",
               {"readMembers": {"msgId": "m", "filter": 2}},
               [finding("enum.unknown-value", "readMembers.filter", actual=2)], kind="event")
    group_conversation = {"type": "CONVERSATION_TYPE_GROUP", "groupId": "@TGS#2C5SZEAEF", "groupType": "Public",
                          "unreadCount": "3", "groupAtInfoList": [{"seq": "9", "atType": "GROUP_AT_TYPE_AT_ME"}]}
    yield Rule("conversation-group", "A group conversation with an @ entry.",
               {"conversations": {"conversations": [group_conversation]}}, [], kind="event")
    yield Rule("conversation-type-unspecified", "A conversation of type 0, beside a clean one.",
               {"conversations": {"conversations": [group_conversation, {"userId": "user_bob"}]}},
               [finding("enum.unspecified", "conversations.conversations[1].type")], kind="event")
    yield Rule("conversation-group-type-undocumented", "A group conversation of group type Work.",
               {"conversations": {"conversations": [dict(group_conversation, groupType="Work")]}},
               [finding("enum.unknown-group-type", "conversations.conversations[0].groupType")], kind="event")
    yield Rule("conversation-at-type-undocumented", "A conversation whose @ entry has type 4, and receive option 3.",
               {"conversations": {"conversations": [dict(group_conversation, groupAtInfoList=[{"atType": 4}],
                                                         recvOpt=3)]}},
               [finding("enum.unknown-value", "conversations.conversations[0].groupAtInfoList[0].atType", actual=4),
                finding("enum.unknown-value", "conversations.conversations[0].recvOpt", actual=3)], kind="event")
    yield Rule("conversation-last-message", "A conversation whose last message has no target: validated as a message.",
               {"conversations": {"conversations": [dict(group_conversation, lastMessage={"msgId": "m",
                                                                                           "elems": [TEXT]})]}},
               [finding("rule.message.target-missing", "conversations.conversations[0].lastMessage")], kind="event")


def read_member_page():
    """A page of read members: each member is validated as group member info (G7 name card,
    current profile)."""
    card_limit = DECLARED.value("maxNameCardBytes", "current")
    cjk = card_limit // 3
    for extra, past in ((card_limit - 3 * cjk, False), (card_limit - 3 * cjk + 1, True)):
        card = "群" * cjk + "a" * extra
        n = len(card.encode())
        yield Rule(f"read-members-name-card-{n}", f"A read-member page whose second member's name card is {n} bytes "
                   f"({cjk} CJK characters and {extra} letters), current profile.",
                   {"readMembers": {"msgId": "m", "members": [{"member": "user_bob"}, {"member": "user_carol",
                                                                                     "nameCard": card}],
                                    "nextSeq": "100", "isFinished": False}},
                   [finding("limit.group.name-card-bytes", "readMembers.members[1].nameCard", card_limit, n)] if past else [],
                   kind="event", profile="current", flags=["MultiByte"] + (["PastLimit"] if past else ["AtLimit"]))


def batch_paths():
    """A batch: paths start at the message's index."""
    yield Rule("batch", "A batch whose second message has no target: paths start at messages[1].",
               {"messages": [msg(C2C), {"msgId": "m2", "elems": [TEXT]}]},
               [finding("rule.message.target-missing", "messages[1]")], kind="batch")

def declaration_readings():
    """How the declarations are read where a reading could go two ways (docs/spec/validation.md, "Reading the
    declarations"), from both sides: the image rule's "must equal" half, the body measured without a merger's nested
    messages and each nested message on its own, nothing below a too-deep merger, the first custom elem past the limit,
    custom changes counted alone, a group change's value measured by its type, receipt and owner user IDs, the
    add-request types of a relationship change and a connection state left at 0 beside a RongCloud status."""
    original = level("ORIGINAL", 3024, 4032)
    image = lambda *levels: msg(C2C, {"image": {"format": "IMAGE_FORMAT_JPG", "levels": list(levels)}})
    large, thumbnail = declared("largeImageShortSide")["sdk-guide"], declared("thumbnailShortSide")["sdk-guide"]
    yield Rule("reading-image-large-below-scaled", f"A large level whose shorter side is {large - 20} px under a 3024 px "
               f"original: scaling gives exactly {large}.", image(original, level("LARGE", large - 20, 933)),
               [finding("rule.image.large-size", "elems[0].image.levels[1]", large, large - 20)])
    yield Rule("reading-image-thumbnail-below-small-original", f"A 150 px thumbnail under a 500 px original: scaling "
               f"gives min({thumbnail}, 500).", image(level("ORIGINAL", 500, 600), level("THUMBNAIL", 150, 180)),
               [finding("rule.image.thumbnail-size", "elems[0].image.levels[1]", thumbnail, 150)])
    yield Rule("reading-image-large-below-bound-without-original", f"A large level of {large - 20} px and no original: "
               f"only the bound {large} applies.", image(level("LARGE", large - 20, 933)), [])
    yield Rule("reading-image-large-over-bound-original-unreported", f"A large level of {large + 1} px beside an original "
               f"of unreported size (0 x 0): the bound {large} applies.",
               image(level("ORIGINAL", 0, 0), level("LARGE", large + 1, 961)),
               [finding("rule.image.large-size", "elems[0].image.levels[1]", large, large + 1)])
    body = declared("maxMessageBodyBytes")["current"]
    half = body // 2 + 100
    yield Rule("reading-body-without-nested-messages", f"A merger forwarding two messages of {half}-byte texts: together "
               f"past {body} bytes, but a merger's body counts without its nested messages, each under the limit.",
               msg(C2C, merger([msg({"receiver": "user_bob"}, {"text": {"text": "x" * half}})] * 2)), [],
               profile="current")
    yield Rule("reading-body-of-a-nested-message", f"A merger forwarding one message whose body is {body_size(body + 712)} "
               "bytes: that message is measured on its own, at its elems.",
               msg(C2C, merger([msg({"receiver": "user_bob"}, {"text": {"text": "x" * (body + 712)}})])),
               [finding("limit.message.body-bytes", "elems[0].merger.messages[0].elems", body, body_size(body + 712))],
               profile="current")
    depth = declared("maxMergerDepth")["current"]
    for layers, deep in ((depth, True), (depth + 1, False)):
        value = {"receiver": "user_bob"}
        for _ in range(layers):
            value = {"receiver": "user_bob", "elems": [merger([value])]}
        inner = ".".join(["elems[0].merger.messages[0]"] * layers)
        findings = ([finding("rule.message.elems-missing", inner + ".elems")] if deep else
                    [finding("limit.merger.depth", ".".join(["elems[0].merger.messages[0]"] * depth)
                             + ".elems[0].merger.messages", depth, depth + 1)])
        yield Rule(f"reading-merger-{'at' if deep else 'past'}-depth-with-empty-message",
                   f"A message without elems at merger layer {layers}: "
                   + ("within the depth limit it is validated." if deep else
                      "below a merger past the depth limit nothing is validated; the depth is the one finding."),
                   value, findings, profile="current", flags=["DecodeLimits"], limits={"maxDepth": 2 * depth})
    custom = declared("maxCustomElems")["current"]
    elems = [TEXT, {"custom": {"desc": "d"}}] * (custom + 1)
    yield Rule("reading-custom-elems-first-past-the-limit", f"{custom + 1} custom elems among text elems: reported at the "
               "first custom elem past the limit, with the number of custom elems.", msg(C2C, *elems),
               [finding("limit.message.custom-elems", f"elems[{2 * custom + 1}]", custom, custom + 1)], profile="current")
    fields = declared("maxGroupCustomFields")["current"]
    custom_changes = [{"type": "GROUP_INFO_CHANGE_TYPE_CUSTOM", "key": f"k{i}", "value": "v"} for i in range(fields)]
    yield Rule("reading-custom-changes-counted-alone", f"{fields} custom-field changes and a name change: only custom "
               "changes count.", group_with(tips(groupChangeList=custom_changes + [
                   {"type": "GROUP_INFO_CHANGE_TYPE_NAME", "value": "n"}])), [], profile="current")
    name = declared("maxGroupNameBytes")["sdk-guide"]
    yield Rule("reading-change-value-by-type", f"An introduction change of {name + 1} bytes: past the name limit, but a "
               "value obeys the limit of the field its type changes.",
               group_with(change("INTRODUCTION", "x" * (name + 1))), [])
    user = declared("maxUserIDBytes")["current"]
    yield Rule("reading-owner-change-user-id", f"An owner change to a user ID of {user + 1} bytes.",
               group_with(change("OWNER", "u" * (user + 1))),
               [finding("limit.user.id-bytes", "elems[0].groupTips.groupChangeList[0].value", user, user + 1)],
               profile="current")
    yield Rule("reading-receipt-user-id", f"A receipt naming a user ID of {user + 1} bytes.",
               {"readReceipt": {"receipts": [{"msgId": "m", "userId": "u" * (user + 1)}]}},
               [finding("limit.user.id-bytes", "readReceipt.receipts[0].userId", user, user + 1)], kind="event",
               profile="current")
    yield Rule("reading-wording-on-del-friend-req", "A wording on a DEL_FRIEND_REQ change: only ADD_FRIEND_REQ is an "
               "add request.", msg(C2C, sns([{"identifier": "user_dave", "wording": "hi"}], kind="DEL_FRIEND_REQ")),
               [finding("rule.sns.wording-type", "elems[0].snsSystem.users[0].wording")])
    profile_bytes = declared("maxProfileStringBytes")["current"]
    for n, past in ((profile_bytes, False), (profile_bytes + 1, True)):
        yield Rule(f"reading-profile-custom-value-{'n-plus-1' if past else 'n'}", f"A profile custom field whose bytes "
                   f"value is {n} bytes, beside a number value: each bytes value is a profile string.",
                   group_with(tips(type="GROUP_TIPS_TYPE_QUIT", opUserInfo={"identifier": "user_bob", "customInfo": [
                       {"key": "Tag_Profile_Custom_city", "number": "7"},
                       {"key": "Tag_Profile_Custom_bio", "data": b64(b"x" * n)}]})),
                   [finding("limit.profile.string-bytes", "elems[0].groupTips.opUserInfo.customInfo[1].data",
                            profile_bytes, n)] if past else [], profile="current")
    yield Rule("reading-connection-state-0-with-rong-cloud", "State 0 beside a RongCloud status: the state is not "
               "reported.", {"connection": {"rongCloudStatus": {"code": "CONNECTION_STATUS_CODE_TIMEOUT"}}}, [],
               kind="event")


def body_size(text_bytes):
    """The canonical size of the elems field of a message holding one text elem of `text_bytes` bytes."""
    def vlen(x):
        return 1 if x < 128 else 2 if x < 16384 else 3
    inner = 1 + vlen(text_bytes) + text_bytes
    elem = 1 + vlen(inner) + inner
    return 2 + vlen(elem) + elem


# Values that break no rule, per message type: what a container needs so that the one finding of a declared-site
# case is the site's (a kind field set, a target named).
CLEAN = {
    "Message": {"msgId": "m1", "sender": "user_alice", "receiver": "user_bob", "elems": [TEXT]},
    "GroupTipsElem": {"type": "GROUP_TIPS_TYPE_QUIT", "platform": "iOS"},
    "GroupSystemElem": {"type": "GROUP_SYSTEM_TYPE_QUIT_GROUP", "platform": "iOS"},
    "SnsSystemElem": {"type": "SNS_SYSTEM_TYPE_ADD_FRIEND_REQ"},
    "SnsChangeInfo": {"identifier": "user_dave"},
    "ProfileSystemElem": {"type": "PROFILE_SYSTEM_TYPE_FRIEND_PROFILE_CHANGE"},
    "Conversation": {"type": "CONVERSATION_TYPE_C2C"},
    "MessageReceipt": {"msgId": "m", "userId": "user_bob"},
    "GroupPendencyItem": {"getType": "GROUP_PENDENCY_GET_TYPE_JOIN"},
}
# Where a site needs its holder otherwise: a group message for its group fields and its elems, a member-info-change
# tip for its member changes, an invitation for a pendency's invitee, a group receipt for its group.
CLEAN_AT = {
    ("Message", "group_id"): {"msgId": "m1", "sender": "user_alice", "groupType": "Public", "elems": [TEXT]},
    ("Message", "group_type"): {"msgId": "m1", "sender": "user_alice", "groupId": "@TGS#1", "elems": [TEXT]},
    ("Message", "targeted_receivers"): dict(GROUP, elems=[TEXT]),
    ("Message", "at_user_list"): dict(GROUP, elems=[TEXT]),
    ("GroupTipsElem", "member_change_list"): {"type": "GROUP_TIPS_TYPE_MEMBER_INFO_CHANGE", "platform": "iOS"},
    ("GroupPendencyItem", "to_user"): {"getType": "GROUP_PENDENCY_GET_TYPE_INVITE"},
    ("MessageReceipt", "group_id"): {"msgId": "m"},
    # Elems sit in a group message: group tips and group system elems belong to one.
    ("Message", "elems"): dict(GROUP),
}
# Fields a declared-site case must not choose as the way to a type: a group message (its @ list, targeted receivers)
# and a forwarded message are paths of their own.
AVOID = {("Elem", "merger"), ("Event", "modification"), ("Conversation", "last_message"), ("GroupInfo", "last_msg")}


def way_to(target):
    """The kind, the fields from the root to `target` and their JSON path, by the fewest fields, preferring a message
    over an event."""
    for kind, root in (("message", "Message"), ("event", "Event")):
        queue, seen = [(root, [])], {root}
        while queue:
            name, way = queue.pop(0)
            if name == target:
                return kind, way
            for f in SCHEMA.messages[name]:
                if f.type in SCHEMA.messages and f.type not in seen and (name, f.name) not in AVOID:
                    seen.add(f.type)
                    queue.append((f.type, way + [(name, f)]))
    raise ValueError(f"no way to {target}")


def embedded(target, field, value):
    """A clean root value holding `value` in `field` of a `target`, and the JSON path of that field."""
    kind, way = way_to(target)
    inner = dict(CLEAN_AT.get((target, field), CLEAN.get(target, {})))
    f = SCHEMA.field(target, field)
    inner[f.json_name] = [value] if f.repeated else value
    path = f.json_name + ("[0]" if f.repeated else "")
    for holder, step in reversed(way):
        outer = dict(CLEAN_AT.get((holder, step.name), CLEAN.get(holder, {})))
        if holder == "Message" and step.name == "elems":
            outer["elems"] = []
        outer[step.json_name] = [inner] if step.repeated else inner
        path = step.json_name + ("[0]." if step.repeated else ".") + path
        inner = outer
    return kind, inner, path


def declared_sites():
    """Every field a string limit is declared on or used at, without a condition, broken once in the current
    profile (which has every such limit) in an otherwise clean value: the field's path, with the limit and the
    measured value (docs/spec/validation.md, "Reading the declarations")."""
    breakers = {
        "maxUserIDBytes": lambda n: ("u" * (n + 1), n, n + 1),
        "maxGroupIDBytes": lambda n: ("g" * (n + 1), n, n + 1),
        "requiresPrintableASCIIGroupID": lambda _: ("team\u0001", None, 1),
        "maxProfileStringBytes": lambda n: ("p" * (n + 1), n, n + 1),
        "groupTypes": lambda _: ("Work", None, None),
        "operatorPlatforms": lambda _: ("Symbian", None, None),
        "maxFriendRemarkBytes": lambda n: ("r" * (n + 1), n, n + 1),
        "maxFriendWordingBytes": lambda n: ("w" * (n + 1), n, n + 1),
        "maxGroupNameBytes": lambda n: ("n" * (n + 1), n, n + 1),
        "maxGroupIntroductionBytes": lambda n: ("i" * (n + 1), n, n + 1),
        "maxGroupNotificationBytes": lambda n: ("o" * (n + 1), n, n + 1),
        "maxGroupFaceURLBytes": lambda n: ("f" * (n + 1), n, n + 1),
        "maxNameCardBytes": lambda n: ("c" * (n + 1), n, n + 1),
        "addSourcePrefix": lambda _: ("Android", None, None),
        "maxAddSourceBytes": lambda n: (DECLARED.value("addSourcePrefix", "current") + "a" * (n + 1), n, n + 1),
    }
    for name, breaker in breakers.items():
        limit = DECLARED.limit(name)
        bound = DECLARED.value(name, "current")
        for use in limit.uses:
            if use.when or use.entry_field or not use.field:
                continue
            value, expected_limit, actual = breaker(bound)
            field = SCHEMA.field(use.message, use.field)
            if field.type == "bytes":
                value = b64(value.encode())
            kind, root, path = embedded(use.message, use.field, value)
            yield Rule(f"site-{name}-{use.message}-{field.json_name}", f"{use.message}.{use.field} breaks {name} "
                       f"({limit.code}), alone in an otherwise clean {kind}.", root,
                       [finding(limit.code, path, expected_limit, actual)], kind=kind, profile="current")
    yield Rule("site-owner-change-long-value", "An owner change to a 600-byte user ID: the user-ID limit applies, not "
               "the custom-field value limit.", group_with(change("OWNER", "u" * 600)),
               [finding("limit.user.id-bytes", "elems[0].groupTips.groupChangeList[0].value",
                        DECLARED.value("maxUserIDBytes", "current"), 600)], profile="current")
    key_bytes = DECLARED.value("maxGroupCustomKeyBytes", "current")
    yield Rule("site-long-key-on-name-change", f"A {key_bytes + 1}-byte key on a name change: the key does not belong, "
               "and only custom-field keys are measured.", group_with(change("NAME", "n", key="k" * (key_bytes + 1))),
               [finding("rule.group-change.key-type", "elems[0].groupTips.groupChangeList[0].key")], profile="current")
    yield Rule("site-sns-type-0", "A relationship-chain system elem of type 0: unspecified, and not also an unknown "
               "value.", msg(C2C, {"snsSystem": {"users": [{"identifier": "user_dave"}]}}),
               [finding("enum.unspecified", "elems[0].snsSystem.type", actual=0)], profile="current")


# The rule cases in file order, one table per rule or group of rules.
RULE_TABLES = (
    clean_messages, rule_m12_target, rules_m10_m11_at_and_targeted, rule_g1_group_type, rule_m16_and_unknown_kinds,
    rule_m3_merger_contents, merger_msg_num_and_key, rule_m5_compatible_text, rule_m19_title_and_abstracts,
    rule_m20_at_type, rules_m6_m7_image_levels, rules_m17_m18_elems_and_levels, rule_m9_location,
    rules_g8_to_g13_tips_and_system, rule_g14_group_id_characters, rules_f3_to_f6_relationship_changes,
    rule_f10_profile_custom_keys, rule_f11_friend_custom_keys, rules_g19_g20_roles_and_avchatroom,
    rules_c1_to_c5_connection, rule_c3_rong_cloud_status, rule_c6_error_codes, user_status_rules,
    receipt_recall_and_modification_rules, rules_on_event_kinds, rules_g20_to_g22_creation_joining_and_pendency,
    rules_on_conversations_and_notifications, read_member_page, batch_paths, rule_m21_batch_stored_messages,
    declaration_readings, declared_sites, rules_seed_statements,
)


def write_rule_file():
    vf = VectorFile("limits", "validation-rules", "Validator rules",
                    "Every rule of docs/spec/limits.md that has no number (M3, M6, M7, M9-M12, M16-M23, G1, G8-G14, "
                    "G18-G23, F3-F6, F10, F12, C1-C6), breaking and keeping each against an otherwise clean message, in the sdk-guide profile "
                    "(rules are the same in both) and, where a profile changes the outcome, in both.",
                    DERIVATION, FLAGS)

    for table in RULE_TABLES:
        for row in table():
            validate_case(vf, f"validate.rule.{row.id}", row.comment, row.kind, row.value, row.profile, row.findings,
                          flags=row.flags, limits=row.limits)
    return [vf.write()]


def main():
    report(write_limit_files() + write_rule_file())


if __name__ == "__main__":
    main()
