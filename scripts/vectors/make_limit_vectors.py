#!/usr/bin/env python3
"""Writes Vectors/limits/payload-limits.json: the payload decoding limits of
docs/spec/payloads.md ('Limits') at N and N + 1, with the default limits and with
limits passed in the request, for every repeated field of the schema.

The numbers are the defaults declared in Schemas/ (the testee protocol's
Limits, read by scripts/lib/constraints.py; docs/spec/limits.md lists them); the
paths follow docs/spec/payloads.md ('Paths': the first entry
past the limit; for depth, the first message one layer too deep). Payloads
come from the canonical encoder of common.py and are re-derived
with swift-protobuf by VectorOracleTests.

Run from anywhere: python3 scripts/vectors/make_limit_vectors.py
"""

import sys
import zlib

sys.dont_write_bytecode = True  # keep scripts/ free of __pycache__

from common import SCHEMA, constraints, VectorFile, encode, hexs, ld, report, tag, START_GROUP, END_GROUP

_DECLARED = constraints.load()
MAX_DEPTH = _DECLARED.value("maxDepth")
MAX_ELEMS = _DECLARED.value("maxElems")
MAX_REPEATED = _DECLARED.value("maxRepeated")
MAX_BATCH = _DECLARED.value("maxBatchMessages")

DERIVATION = (
    "Limits and defaults from docs/spec/frame-format.md ('Limits and their defaults') and docs/spec/payloads.md ('Limits', "
    "'Paths'); every case sits exactly at a limit (N, accepted) or one past it (N+1, rejected at the path of the "
    "first entry or layer past it). Built by scripts/vectors/make_limit_vectors.py with the canonical encoder of "
    "scripts/vectors/common.py; VectorOracleTests re-derives every payload with swift-protobuf and checks that "
    "swift-protobuf (which has no such limits) decodes every rejected input, so the limit is the only reason to "
    "reject it."
)

FLAGS = {
    "Limit": "A decoding limit at exactly its value (N, accepted) or one above it (N+1, rejected).",
    "DefaultLimits": "The case uses the documented default limits.",
    "CustomLimits": "The case sets its own decoding limits, passed to the implementation with the request.",
    "NotThisLimit": "The repeated field is governed by another limit (elems by maxElems, batch messages by "
    "maxBatchMessages), so a low maxRepeated does not reject it.",
    "UnknownField": "Unknown groups count one depth layer each.",
}


def merger_nest(layers, innermost=None):
    value = innermost if innermost is not None else {"sender": "innermost"}
    for _ in range(layers):
        value = {"elems": [{"merger": {"messages": [value]}}]}
    return value


def merger_path(layer):
    return ".".join(["elems[0].merger.messages[0]"] * layer)


# Every repeated field other than Message.elems and MessageBatch.messages, with a
# wrapper that puts `entries` in it, the kind, and the path of entry i.
def repeated_fields():
    def in_elem(kind, field, nested=None):
        def wrap(entries):
            inner = {field: entries}
            if nested:
                inner = {nested: inner}
            return {"elems": [{kind: inner}]}

        prefix = f"elems[0].{kind}." + (f"{nested}." if nested else "")
        return wrap, lambda i: f"{prefix}{field}[{i}]"

    cases = []
    entry = {"string": "", "message": {}}
    cases.append(("message.targeted-receivers", "message", lambda e: {"targetedReceivers": e},
                  lambda i: f"targetedReceivers[{i}]", "string"))
    cases.append(("message.at-user-list", "message", lambda e: {"atUserList": e}, lambda i: f"atUserList[{i}]", "string"))
    for kind, field, nested, entry_type in [
        ("image", "levels", None, "message"),
        ("merger", "abstracts", None, "string"),
        ("merger", "messages", None, "message"),
        ("groupTips", "userList", None, "string"),
        ("groupTips", "groupChangeList", None, "message"),
        ("groupTips", "memberChangeList", None, "message"),
        ("groupTips", "changedUserInfo", None, "message"),
        ("groupTips", "changedGroupMemberInfo", None, "message"),
        ("groupTips", "customInfo", "opUserInfo", "message"),
        ("groupSystem", "customInfo", "opGroupMemberInfo", "message"),
        ("snsSystem", "users", None, "message"),
    ]:
        wrap, path = in_elem(kind, field, nested)
        name = f"{kind}.{nested + '.' if nested else ''}{field}"
        cases.append((name, "message", wrap, path, entry_type))
    cases.append(("readReceipt.receipts", "event", lambda e: {"readReceipt": {"receipts": e}},
                  lambda i: f"readReceipt.receipts[{i}]", "message"))
    # The relationship-chain and group kinds of Event: the repeated field at
    # the end of the path, inside one entry of each list on the way.
    for spec, entry_type in [
        ("friendList.friends", "message"), ("friendList.friends[0].groups", "string"),
        ("friendList.friends[0].customInfo", "message"), ("blacklist.friends", "message"),
        ("friendResults.results", "message"), ("friendCheck.info.users", "string"),
        ("friendCheck.results", "message"), ("friendPendency.items", "message"),
        ("friendGroups.groups", "message"), ("friendGroups.groups[0].friends", "string"),
        ("groupProfiles.groups", "message"), ("groupProfiles.groups[0].customInfo", "message"),
        ("createGroup.customInfo", "message"), ("createGroup.membersInfo", "message"),
        ("createGroup.membersInfo[0].customInfo", "message"), ("groupMembers.members", "message"),
        ("groupMembers.request.custom", "string"),
        ("groupMemberResults.results", "message"), ("groupPendency.items", "message"),
        ("friendDelete.users", "string"), ("friendsAdded.users", "string"),
        ("friendProfilesUpdated.friends", "message"), ("friendPendencyAdded.items", "message"),
        ("conversations.conversations", "message"), ("conversations.conversations[0].groupAtInfoList", "message"),
    ]:
        cases.append((spec.replace("[0]", ""), "event", event_wrap(spec), lambda i, s=spec: f"{s}[{i}]", entry_type))
    cases.append(("readMembers.members", "event", lambda e: {"readMembers": {"members": e}},
                  lambda i: f"readMembers.members[{i}]", "message"))
    return [(n, k, w, p, entry[t]) for n, k, w, p, t in cases]


def event_wrap(spec):
    """Wraps entries into the Event the path names: `a.b[0].c` is {"a": {"b": [{"c": entries}]}}."""
    def wrap(entries):
        value = entries
        for part in reversed(spec.split(".")):
            if part.endswith("[0]"):
                value = {part[:-3]: [value]}
            else:
                value = {part: value}
        return value
    return wrap


def kebab(text):
    out = ""
    for ch in text:
        out += "-" + ch.lower() if ch.isupper() else ch
    return out


def main():
    vf = VectorFile("limits", "payload-limits", "Payload decoding limits at N and N+1",
                    "maxDepth (merger layers and unknown groups), maxElems, maxRepeated (every other repeated field "
                    "of the schema) and maxBatchMessages, at the documented defaults and at low limits passed with "
                    "the request.", DERIVATION, FLAGS)

    # -- depth ----------------------------------------------------------------------------
    for layers, result in ((MAX_DEPTH, "n"), (MAX_DEPTH + 1, "n-plus-1")):
        value = merger_nest(layers)
        cid = f"limit.depth.default-{result}"
        comment = f"{layers} merger layers with the default maxDepth {MAX_DEPTH}."
        if layers == MAX_DEPTH:
            vf.payload_valid(cid, comment, "message", value, flags=["Limit", "DefaultLimits"])
        else:
            vf.payload_invalid(cid, comment, "message", encode("Message", value), "limit.depth",
                               merger_path(MAX_DEPTH + 1), flags=["Limit", "DefaultLimits"])
    for layers, result in ((3, "n"), (4, "n-plus-1")):
        value = merger_nest(layers)
        cid = f"limit.depth.custom-{result}"
        comment = f"{layers} merger layers with maxDepth 3."
        if layers == 3:
            vf.payload_valid(cid, comment, "message", value, flags=["Limit", "CustomLimits"], limits={"maxDepth": 3})
        else:
            vf.payload_invalid(cid, comment, "message", encode("Message", value), "limit.depth", merger_path(4),
                               flags=["Limit", "CustomLimits"], limits={"maxDepth": 3})
    vf.payload_valid("limit.depth.custom-1-n", "maxDepth 1: one merger layer.", "message", merger_nest(1),
                     flags=["Limit", "CustomLimits"], limits={"maxDepth": 1})
    vf.payload_invalid("limit.depth.custom-1-n-plus-1", "maxDepth 1: two merger layers.", "message",
                       encode("Message", merger_nest(2)), "limit.depth", merger_path(2),
                       flags=["Limit", "CustomLimits"], limits={"maxDepth": 1})
    for layers, result in ((3, "n"), (4, "n-plus-1")):
        batch = {"messages": [{}, merger_nest(layers)]}
        cid = f"limit.depth.batch-custom-{result}"
        comment = f"A batch whose second message nests {layers} merger layers, maxDepth 3: batch messages are layer 0."
        if layers == 3:
            vf.payload_valid(cid, comment, "batch", batch, flags=["Limit", "CustomLimits"], limits={"maxDepth": 3})
        else:
            vf.payload_invalid(cid, comment, "batch", encode("MessageBatch", batch), "limit.depth",
                               "messages[1]." + merger_path(4), flags=["Limit", "CustomLimits"], limits={"maxDepth": 3})
    for layers, result in ((3, "n"), (4, "n-plus-1")):
        event = {"modification": {"message": merger_nest(layers)}}
        cid = f"limit.depth.modification-custom-{result}"
        comment = f"A modification event whose message nests {layers} merger layers, maxDepth 3."
        if layers == 3:
            vf.payload_valid(cid, comment, "event", event, flags=["Limit", "CustomLimits"], limits={"maxDepth": 3})
        else:
            vf.payload_invalid(cid, comment, "event", encode("Event", event), "limit.depth",
                               "modification.message." + merger_path(4), flags=["Limit", "CustomLimits"],
                               limits={"maxDepth": 3})
    for layers, result in ((3, "n"), (4, "n-plus-1")):
        event = {"groupProfiles": {"groups": [{"group": "@TGS#1"}, {"group": "@TGS#2", "lastMsg": merger_nest(layers)}]}}
        cid = f"limit.depth.group-last-message-custom-{result}"
        comment = (f"A group profile whose last message nests {layers} merger layers, maxDepth 3: a last message is "
                   "layer 0.")
        if layers == 3:
            vf.payload_valid(cid, comment, "event", event, flags=["Limit", "CustomLimits"], limits={"maxDepth": 3})
        else:
            vf.payload_invalid(cid, comment, "event", encode("Event", event), "limit.depth",
                               "groupProfiles.groups[1].lastMsg." + merger_path(4), flags=["Limit", "CustomLimits"],
                               limits={"maxDepth": 3})
    for count, result in ((MAX_DEPTH, "n"), (MAX_DEPTH + 1, "n-plus-1")):
        groups = tag(20, START_GROUP) * count + tag(20, END_GROUP) * count
        cid = f"limit.depth.groups-default-{result}"
        comment = f"{count} nested unknown groups in the top-level message, default maxDepth {MAX_DEPTH}."
        if count == MAX_DEPTH:
            vf.payload_hex_valid(cid, comment, "message", groups, groups, {}, flags=["Limit", "DefaultLimits",
                                                                                     "UnknownField"])
        else:
            vf.payload_invalid(cid, comment, "message", groups, "limit.depth", "", flags=["Limit", "DefaultLimits",
                                                                                          "UnknownField"])
    inner_groups = lambda n: tag(20, START_GROUP) * n + tag(20, END_GROUP) * n
    for count, result in ((2, "n"), (3, "n-plus-1")):
        data = ld(18, ld(9, ld(4, inner_groups(count))))
        cid = f"limit.depth.groups-in-merger-custom-{result}"
        comment = f"{count} nested unknown groups inside a layer-1 message, maxDepth 3."
        if count == 2:
            vf.payload_hex_valid(cid, comment, "message", data, data, {"elems": [{"merger": {"messages": [{}]}}]},
                                 flags=["Limit", "CustomLimits", "UnknownField"], limits={"maxDepth": 3})
        else:
            vf.payload_invalid(cid, comment, "message", data, "limit.depth", merger_path(1),
                               flags=["Limit", "CustomLimits", "UnknownField"], limits={"maxDepth": 3})

    # -- elems --------------------------------------------------------------------------------
    text = {"text": {}}
    for count, result in ((MAX_ELEMS, "n"), (MAX_ELEMS + 1, "n-plus-1")):
        value = {"elems": [text] * count}
        cid = f"limit.elems.default-{result}"
        comment = f"A message with {count} empty text elems, default maxElems {MAX_ELEMS:,}."
        if count == MAX_ELEMS:
            vf.payload_valid(cid, comment, "message", value, flags=["Limit", "DefaultLimits"])
        else:
            vf.payload_invalid(cid, comment, "message", encode("Message", value), "limit.elems",
                               f"elems[{MAX_ELEMS}]", flags=["Limit", "DefaultLimits"])
    for count, result in ((3, "n"), (4, "n-plus-1")):
        value = {"elems": [{"text": {"text": str(i)}} for i in range(count)]}
        cid = f"limit.elems.custom-{result}"
        if count == 3:
            vf.payload_valid(cid, "3 elems with maxElems 3.", "message", value, flags=["Limit", "CustomLimits"],
                             limits={"maxElems": 3})
        else:
            vf.payload_invalid(cid, "4 elems with maxElems 3.", "message", encode("Message", value), "limit.elems",
                               "elems[3]", flags=["Limit", "CustomLimits"], limits={"maxElems": 3})
    for count, result in ((2, "n"), (3, "n-plus-1")):
        value = {"elems": [{"merger": {"messages": [{"elems": [text] * count}]}}]}
        cid = f"limit.elems.nested-custom-{result}"
        comment = f"A merger's message with {count} elems, maxElems 2: the limit is per message."
        if count == 2:
            vf.payload_valid(cid, comment, "message", value, flags=["Limit", "CustomLimits"], limits={"maxElems": 2})
        else:
            vf.payload_invalid(cid, comment, "message", encode("Message", value), "limit.elems",
                               "elems[0].merger.messages[0].elems[2]", flags=["Limit", "CustomLimits"],
                               limits={"maxElems": 2})
    vf.payload_valid("limit.elems.not-repeated-limit", "5 elems with maxRepeated 2: elems are counted by maxElems only.",
                     "message", {"elems": [text] * 5}, flags=["Limit", "CustomLimits", "NotThisLimit"],
                     limits={"maxRepeated": 2})

    # -- batch messages --------------------------------------------------------------------------
    for count, result in ((MAX_BATCH, "n"), (MAX_BATCH + 1, "n-plus-1")):
        value = {"messages": [{}] * count}
        cid = f"limit.batch-messages.default-{result}"
        comment = f"A batch of {count} empty messages, default maxBatchMessages {MAX_BATCH:,}."
        if count == MAX_BATCH:
            vf.payload_valid(cid, comment, "batch", value, flags=["Limit", "DefaultLimits"])
        else:
            vf.payload_invalid(cid, comment, "batch", encode("MessageBatch", value), "limit.batch-messages",
                               f"messages[{MAX_BATCH}]", flags=["Limit", "DefaultLimits"])
    for count, result in ((2, "n"), (3, "n-plus-1")):
        value = {"messages": [{"msgId": str(i)} for i in range(count)]}
        cid = f"limit.batch-messages.custom-{result}"
        if count == 2:
            vf.payload_valid(cid, "2 messages with maxBatchMessages 2.", "batch", value,
                             flags=["Limit", "CustomLimits"], limits={"maxBatchMessages": 2})
        else:
            vf.payload_invalid(cid, "3 messages with maxBatchMessages 2.", "batch", encode("MessageBatch", value),
                               "limit.batch-messages", "messages[2]", flags=["Limit", "CustomLimits"],
                               limits={"maxBatchMessages": 2})
    vf.payload_valid("limit.batch-messages.not-repeated-limit",
                     "4 batch messages with maxRepeated 2: batch messages are counted by maxBatchMessages only.",
                     "batch", {"messages": [{}] * 4}, flags=["Limit", "CustomLimits", "NotThisLimit"],
                     limits={"maxRepeated": 2})

    # -- every other repeated field ------------------------------------------------------------------
    for count, result in ((MAX_REPEATED, "n"), (MAX_REPEATED + 1, "n-plus-1")):
        value = {"atUserList": [""] * count}
        cid = f"limit.repeated.default-{result}"
        comment = f"atUserList with {count} empty entries, default maxRepeated {MAX_REPEATED:,}."
        if count == MAX_REPEATED:
            vf.payload_valid(cid, comment, "message", value, flags=["Limit", "DefaultLimits"])
        else:
            vf.payload_invalid(cid, comment, "message", encode("Message", value), "limit.repeated",
                               f"atUserList[{MAX_REPEATED}]", flags=["Limit", "DefaultLimits"])
    for name, kind, wrap, path, entry in repeated_fields():
        type_name = {"message": "Message", "event": "Event"}[kind]
        for count, result in ((2, "n"), (3, "n-plus-1")):
            value = wrap([entry] * count)
            cid = f"limit.repeated.{kebab(name).replace('.', '-')}-{result}"
            comment = f"{name} with {count} entries, maxRepeated 2."
            if count == 2:
                vf.payload_valid(cid, comment, kind, value, flags=["Limit", "CustomLimits"], limits={"maxRepeated": 2})
            else:
                vf.payload_invalid(cid, comment, kind, encode(type_name, value), "limit.repeated", path(2),
                                   flags=["Limit", "CustomLimits"], limits={"maxRepeated": 2})
    counted = {"Message.targeted_receivers", "Message.at_user_list", "Message.elems", "MessageBatch.messages"}
    counted |= {f"{t}.{f}" for t, f in [("ImageElem", "levels"), ("MergerElem", "abstracts"), ("MergerElem", "messages"),
                                        ("GroupTipsElem", "user_list"), ("GroupTipsElem", "group_change_list"),
                                        ("GroupTipsElem", "member_change_list"), ("GroupTipsElem", "changed_user_info"),
                                        ("GroupTipsElem", "changed_group_member_info"), ("UserProfile", "custom_info"),
                                        ("GroupMemberInfo", "custom_info"), ("SnsSystemElem", "users"),
                                        ("ReadReceiptEvent", "receipts"), ("GroupMessageReadMembers", "members")]}
    counted |= {"FriendList.friends", "Friend.groups", "Friend.custom_info", "Blacklist.friends", "FriendResults.results",
                "FriendCheckInfo.users", "FriendCheck.results", "FriendPendencyPage.items", "FriendGroupList.groups",
                "FriendGroup.friends", "GroupInfoList.groups", "GroupInfo.custom_info", "CreateGroupInfo.custom_info",
                "CreateGroupInfo.members_info", "CreateGroupMemberInfo.custom_info", "GroupMemberList.members", "GroupMemberListRequest.custom",
                "GroupMemberResults.results", "GroupPendencyPage.items", "FriendDelete.users", "FriendUserList.users",
                "FriendProfileUpdate.friends", "FriendPendencyAdded.items", "ConversationList.conversations",
                "Conversation.group_at_info_list"}
    every = {f"{m}.{f.name}" for m, fields in SCHEMA.messages.items() for f in fields if f.repeated}
    assert every == counted, f"repeated fields without a limit case: {every - counted}"
    report([vf.write(), write_encode_limits_file()])


ENCODE_DERIVATION = (
    "Writer within reader (docs/spec/frame-format.md, 'Writing frames'): a writer builds only frames that a reader with "
    "the request's limits accepts, and otherwise answers with the error that reader would give the frame, in the "
    "reader's order (the frame's sizes, then the payload). Sizes and limits from docs/spec/frame-format.md; payloads from "
    "the canonical encoder of scripts/vectors/common.py; whether a payload compresses, and by how much, is "
    "checked here with Python's zlib at levels 1, 6 and 9 with a wide margin, so every deflate implementation agrees "
    "on the expected compression."
)

ENCODE_FLAGS = {
    "Limit": "A limit at exactly its value (N, a frame is written) or one past it (N+1, refused).",
    "DefaultLimits": "The case uses the documented default limits.",
    "CustomLimits": "The case sets the readers' limits, passed to the implementation with the request.",
    "StoredInstead": "Compressing pays, but readers with these limits would refuse the compressed frame, so the "
    "writer stores the payload.",
    "FrameBeforePayload": "The value is past a payload limit and its frame past a size limit: the reader checks the "
    "frame's sizes first, and so does the writer.",
}


def raw_deflate(payload, level):
    compressor = zlib.compressobj(level, zlib.DEFLATED, -15)
    return compressor.compress(payload) + compressor.flush()


def write_encode_limits_file():
    vf = VectorFile("limits", "encode-limits", "Writers refuse what readers would refuse",
                    "encode-frame at the decoding limits: every frame-size limit (maxFrameBytes, maxInflatedBytes, "
                    "maxInflateRatio) and every payload limit (maxDepth, maxElems, maxRepeated, maxBatchMessages) at "
                    "N, where the frame is written, and N+1, where the writer refuses with the reader's code and "
                    "path; a compressed body readers would refuse is stored instead.", ENCODE_DERIVATION,
                    ENCODE_FLAGS)

    def stored(kind, payload):
        return {"kind": kind, "compression": 0, "dictionaryId": 0, "payloadHex": hexs(payload)}

    def case(cid, comment, kind, payload, policy, flags, limits=None, frame=None, error=None):
        c = {"id": cid, "comment": comment, "flags": flags, "operation": "encode-frame",
             "result": "valid" if error is None else "invalid", "kind": kind}
        if limits:
            c["limits"] = limits
        c["input"] = {"payloadHex": hexs(payload), "policy": policy}
        c["expected"] = {"frame": frame} if error is None else {"error": {"code": error[0], "path": error[1]}}
        vf.add(c)

    never = {"compression": 0}
    deflate_all = {"compression": 1, "threshold": 0}

    # -- frame sizes: a stored body against maxFrameBytes ----------------------------------
    small = encode("Message", {"sender": "alice", "receiver": "bob", "elems": [{"text": {"text": "hi"}}]})
    n = len(small)
    case("encode-limit.frame-size.stored-n", f"A stored {n}-byte payload with maxFrameBytes {n}: written.",
         "message", small, never, ["Limit", "CustomLimits"], {"maxFrameBytes": n}, frame=stored("message", small))
    case("encode-limit.frame-size.stored-n-plus-1", f"A stored {n}-byte payload with maxFrameBytes {n - 1}: a "
         "reader would refuse the frame, so the writer does (limit.frame-size, at the root).", "message", small,
         never, ["Limit", "CustomLimits"], {"maxFrameBytes": n - 1}, error=("limit.frame-size", ""))

    # -- a compressible payload: compressed when readers accept that -----------------------
    text = encode("Message", {"sender": "alice", "receiver": "bob", "elems": [{"text": {"text": "ab" * 300}}]})
    size = len(text)
    for level in (1, 6, 9):
        body = len(raw_deflate(text, level))
        assert body < 0.2 * size and size < 100 * body, (level, body, size)
    case("encode-limit.frame-size.compressed-fits", f"A {size}-byte repetitive payload, compression 1, "
         f"maxFrameBytes {size - 1}: the stored frame would be refused, the compressed one (a body under a fifth of "
         "the payload) is accepted, so it is written compressed.", "message", text, deflate_all,
         ["Limit", "CustomLimits"], {"maxFrameBytes": size - 1},
         frame={"kind": "message", "compression": 1, "dictionaryId": 0, "payloadHex": hexs(text)})
    case("encode-limit.inflated-size.n", f"The same payload with maxInflatedBytes {size}: written compressed.",
         "message", text, deflate_all, ["Limit", "CustomLimits"], {"maxInflatedBytes": size},
         frame={"kind": "message", "compression": 1, "dictionaryId": 0, "payloadHex": hexs(text)})
    case("encode-limit.inflated-size.n-plus-1", f"The same payload with maxInflatedBytes {size - 1}: a reader would "
         "refuse the compressed frame (limit.inflated-size), so the payload is stored.", "message", text,
         deflate_all, ["Limit", "CustomLimits", "StoredInstead"], {"maxInflatedBytes": size - 1},
         frame=stored("message", text))
    case("encode-limit.inflated-size.no-frame", f"maxInflatedBytes {size - 1} and maxFrameBytes {size - 1}: "
         "neither the compressed nor the stored frame would be accepted; the stored one's error is the answer.",
         "message", text, deflate_all, ["Limit", "CustomLimits"],
         {"maxInflatedBytes": size - 1, "maxFrameBytes": size - 1}, error=("limit.frame-size", ""))
    case("encode-limit.inflate-ratio.stored-instead", "The same payload with maxInflateRatio 2: deflate shrinks it "
         "more than 5 times, so a reader would refuse the compressed frame (limit.inflate-ratio) and the payload is "
         "stored.", "message", text, deflate_all, ["Limit", "CustomLimits", "StoredInstead"], {"maxInflateRatio": 2},
         frame=stored("message", text))
    case("encode-limit.inflate-ratio.compressed", "The same payload with maxInflateRatio 100: deflate shrinks it "
         "less than 100 times, so it is written compressed.", "message", text, deflate_all,
         ["Limit", "CustomLimits"], {"maxInflateRatio": 100},
         frame={"kind": "message", "compression": 1, "dictionaryId": 0, "payloadHex": hexs(text)})

    # -- payload limits, as the reader checks them after the frame -------------------------
    def at_limit(name, kind, value_n, value_n1, limits, error_path, code, flags):
        type_name = {"message": "Message", "batch": "MessageBatch", "event": "Event"}[kind]
        ok = encode(type_name, value_n)
        over = encode(type_name, value_n1)
        case(f"encode-limit.{name}-n", f"{name}: at the limit, written.", kind, ok, never, ["Limit"] + flags,
             limits, frame=stored(kind, ok))
        case(f"encode-limit.{name}-n-plus-1", f"{name}: one past the limit, refused with {code} at {error_path}, as "
             "a reader refuses its frame.", kind, over, never, ["Limit"] + flags, limits, error=(code, error_path))

    at_limit("depth.custom", "message", merger_nest(3), merger_nest(4), {"maxDepth": 3}, merger_path(4),
             "limit.depth", ["CustomLimits"])
    at_limit("depth.default", "message", merger_nest(MAX_DEPTH), merger_nest(MAX_DEPTH + 1), None,
             merger_path(MAX_DEPTH + 1), "limit.depth", ["DefaultLimits"])
    groups = lambda count: tag(20, START_GROUP) * count + tag(20, END_GROUP) * count
    # The N case, maxDepth nested groups written, is in WriterWithinReaderTests: protobuf-c cannot represent
    # unknown groups, so a vector of it would only add a listed difference for the C reference.
    case("encode-limit.depth.groups-n-plus-1",
         f"{MAX_DEPTH + 1} nested unknown groups, default maxDepth {MAX_DEPTH}: refused at the root.",
         "message", groups(MAX_DEPTH + 1), never, ["Limit", "DefaultLimits"], error=("limit.depth", ""))
    texts = lambda count: {"elems": [{"text": {"text": str(i)}} for i in range(count)]}
    at_limit("elems.custom", "message", texts(3), texts(4), {"maxElems": 3}, "elems[3]", "limit.elems",
             ["CustomLimits"])
    at_limit("elems.default", "message", {"elems": [{"text": {}}] * MAX_ELEMS},
             {"elems": [{"text": {}}] * (MAX_ELEMS + 1)}, None, f"elems[{MAX_ELEMS}]", "limit.elems", ["DefaultLimits"])
    at_limit("repeated.custom", "message", {"atUserList": ["a", "b"]}, {"atUserList": ["a", "b", "c"]},
             {"maxRepeated": 2}, "atUserList[2]", "limit.repeated", ["CustomLimits"])
    at_limit("repeated.nested-custom", "message",
             {"elems": [{"image": {"levels": [{}, {}]}}]}, {"elems": [{"image": {"levels": [{}, {}, {}]}}]},
             {"maxRepeated": 2}, "elems[0].image.levels[2]", "limit.repeated", ["CustomLimits"])
    at_limit("repeated.default", "message", {"atUserList": ["u"] * MAX_REPEATED},
             {"atUserList": ["u"] * (MAX_REPEATED + 1)}, None, f"atUserList[{MAX_REPEATED}]", "limit.repeated",
             ["DefaultLimits"])
    at_limit("batch-messages.custom", "batch", {"messages": [{}, {}]}, {"messages": [{}, {}, {}]},
             {"maxBatchMessages": 2}, "messages[2]", "limit.batch-messages", ["CustomLimits"])
    at_limit("batch-messages.default", "batch", {"messages": [{}] * MAX_BATCH},
             {"messages": [{}] * (MAX_BATCH + 1)}, None, f"messages[{MAX_BATCH}]", "limit.batch-messages",
             ["DefaultLimits"])
    over = encode("Message", texts(4))
    case("encode-limit.frame-before-payload", "4 elems with maxElems 3, and maxFrameBytes one under the payload: "
         "the frame's size is checked first, as a reader checks it.", "message", over, never,
         ["Limit", "CustomLimits", "FrameBeforePayload"], {"maxElems": 3, "maxFrameBytes": len(over) - 1},
         error=("limit.frame-size", ""))
    return vf.write()


if __name__ == "__main__":
    main()
