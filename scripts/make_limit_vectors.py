#!/usr/bin/env python3
"""Writes Vectors/limits/payload-limits.json: the payload decoding limits of
docs/PAYLOAD.md ('Limits') at N and N + 1, with the default limits and with
limits passed in the request, for every repeated field of the schema.

The numbers are the documented defaults (docs/FRAME_FORMAT.md, 'Limits and
their defaults'); the paths follow docs/PAYLOAD.md ('Paths': the first entry
past the limit; for depth, the first message one layer too deep). Payloads
come from the canonical encoder of make_vectors_common.py and are re-derived
with swift-protobuf by VectorOracleTests.

Run from anywhere: python3 scripts/make_limit_vectors.py
"""

import sys

sys.dont_write_bytecode = True  # keep scripts/ free of __pycache__

from make_vectors_common import SCHEMA, VectorFile, encode, ld, report, tag, START_GROUP, END_GROUP

DERIVATION = (
    "Limits and defaults from docs/FRAME_FORMAT.md ('Limits and their defaults') and docs/PAYLOAD.md ('Limits', "
    "'Paths'); every case sits exactly at a limit (N, accepted) or one past it (N+1, rejected at the path of the "
    "first entry or layer past it). Built by scripts/make_limit_vectors.py with the canonical encoder of "
    "scripts/make_vectors_common.py; VectorOracleTests re-derives every payload with swift-protobuf and checks that "
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
    return [(n, k, w, p, entry[t]) for n, k, w, p, t in cases]


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
    for layers, result in ((100, "n"), (101, "n-plus-1")):
        value = merger_nest(layers)
        cid = f"limit.depth.default-{result}"
        comment = f"{layers} merger layers with the default maxDepth 100."
        if layers == 100:
            vf.payload_valid(cid, comment, "message", value, flags=["Limit", "DefaultLimits"])
        else:
            vf.payload_invalid(cid, comment, "message", encode("Message", value), "limit.depth", merger_path(101),
                               flags=["Limit", "DefaultLimits"])
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
    for count, result in ((100, "n"), (101, "n-plus-1")):
        groups = tag(20, START_GROUP) * count + tag(20, END_GROUP) * count
        cid = f"limit.depth.groups-default-{result}"
        comment = f"{count} nested unknown groups in the top-level message, default maxDepth 100."
        if count == 100:
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
    for count, result in ((1000, "n"), (1001, "n-plus-1")):
        value = {"elems": [text] * count}
        cid = f"limit.elems.default-{result}"
        comment = f"A message with {count} empty text elems, default maxElems 1,000."
        if count == 1000:
            vf.payload_valid(cid, comment, "message", value, flags=["Limit", "DefaultLimits"])
        else:
            vf.payload_invalid(cid, comment, "message", encode("Message", value), "limit.elems", "elems[1000]",
                               flags=["Limit", "DefaultLimits"])
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
    for count, result in ((1000, "n"), (1001, "n-plus-1")):
        value = {"messages": [{}] * count}
        cid = f"limit.batch-messages.default-{result}"
        comment = f"A batch of {count} empty messages, default maxBatchMessages 1,000."
        if count == 1000:
            vf.payload_valid(cid, comment, "batch", value, flags=["Limit", "DefaultLimits"])
        else:
            vf.payload_invalid(cid, comment, "batch", encode("MessageBatch", value), "limit.batch-messages",
                               "messages[1000]", flags=["Limit", "DefaultLimits"])
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
    for count, result in ((10000, "n"), (10001, "n-plus-1")):
        value = {"atUserList": [""] * count}
        cid = f"limit.repeated.default-{result}"
        comment = f"atUserList with {count} empty entries, default maxRepeated 10,000."
        if count == 10000:
            vf.payload_valid(cid, comment, "message", value, flags=["Limit", "DefaultLimits"])
        else:
            vf.payload_invalid(cid, comment, "message", encode("Message", value), "limit.repeated",
                               "atUserList[10000]", flags=["Limit", "DefaultLimits"])
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
                                        ("ReadReceiptEvent", "receipts")]}
    every = {f"{m}.{f.name}" for m, fields in SCHEMA.messages.items() for f in fields if f.repeated}
    assert every == counted, f"repeated fields without a limit case: {every - counted}"
    report([vf.write()])


if __name__ == "__main__":
    main()
