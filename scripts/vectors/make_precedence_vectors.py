#!/usr/bin/env python3
"""Writes the vectors that pin what a careful reader of the documents could
still read two ways: which check comes first when an input breaks two rules,
which path a problem gets, what number a finding carries. Every case here is
one where the two readings give different answers, and its comment names
the rule of the document that decides it and the answer the other reading
would give.

    Vectors/malformed/payload-precedence.json   docs/spec/payloads.md
    Vectors/malformed/frame-precedence.json     docs/spec/frame-format.md
    Vectors/json/json-paths.json                docs/spec/payloads.md ("Paths"), docs/spec/error-and-finding-codes.md (JSON codes)
    Vectors/limits/validation-reporting.json    docs/spec/validation.md

Payload, JSON and validation expectations are written by hand from the rule
named in each comment; frame expectations come from the reference reader of
scripts/vectors/make_frame_vectors.py, which applies the checks of
docs/spec/frame-format.md in their documented order. None comes from the Swift or
C code. `swift test` re-checks the payload and JSON cases with swift-protobuf
(VectorOracleTests): it must reject every input rejected for a malformed
payload, accept every input rejected only for a limit, and reject the inputs
flagged LimitFirst, which also hold the malformed entry the limit is judged
before.

Run from anywhere: python3 scripts/vectors/make_precedence_vectors.py
"""

import sys

sys.dont_write_bytecode = True  # keep scripts/ free of __pycache__

import zlib

from common import (
    C2C, DICTIONARIES, END_GROUP, LEN, START_GROUP, VectorFile, build_frame, deflate, encode, finding, fixed_huffman,
    frame_case, ld, report, tag, validate_case, varint)

DERIVATION = (
    "Each case breaks two rules, or sits where a path or number could be read two ways; its comment names the rule "
    "of the document that decides it and what the other reading would answer. Built by "
    "scripts/vectors/make_precedence_vectors.py: payload and JSON inputs assembled byte by byte or written as text, with the "
    "expected error written by hand from the rule; frame expectations from the reference reader of "
    "scripts/vectors/make_frame_vectors.py (the checks of docs/spec/frame-format.md in their order). swift-protobuf re-checks "
    "the payload and JSON inputs in VectorOracleTests."
)

FLAGS = {
    "TwoProblems": "The input breaks two rules; the expected error is the one the document checks first.",
    "LimitFirst": "A repeated-field limit is judged at the first entry past it, before that entry's bytes are "
    "read, so the entry's own malformed bytes are never reached. swift-protobuf, which has no such limit, rejects "
    "the input for those bytes.",
    "PathDecision": "The case pins a path the other reading would give differently.",
    "UnknownGroup": "The payload holds unknown groups (wire types 3 and 4).",
    "NameAsWritten": "The JSON input spells a field by its proto name (msg_id) rather than its JSON name (msgId).",
    "DepthLimit": "The case sits at a nesting limit (N) or one past it (N+1).",
    "NoActual": "The finding has no observed number: the testee answers actual 0, the protocol's 'absent'.",
    "Exempt": "The rule does not apply to this value: no finding.",
    "Clean": "No finding at all.",
    "SwiftProtobufAccepts": "docs/spec/error-and-finding-codes.md rejects this input, as protobuf's C++ and Java JSON parsers do; "
    "swift-protobuf 1.39 accepts a field given under both of its names (the last wins), so the oracle check is "
    "reversed for this case.",
}


def new_file(area, name, title, description):
    return VectorFile(area, name, title, description, DERIVATION, FLAGS)


def text_elem(text_bytes):
    """An Elem holding a TextElem whose text is the given bytes."""
    return ld(1, ld(1, text_bytes))


# ---------------------------------------------------------------------------
# Payloads (docs/spec/payloads.md)
# ---------------------------------------------------------------------------


def write_payload_file():
    vf = new_file(
        "malformed", "payload-precedence", "Payloads: which rule comes first, and where",
        "Tags cut at five bytes, repeated-field limits judged before the entry past them is read, and the path of "
        "unknown groups nested too deep.")

    # 1. A tag is a varint of at most 5 bytes: a fifth byte with its
    # continuation bit set is payload.tag, whatever follows or does not.
    vf.payload_invalid(
        "payload.tag.five-bytes-then-end",
        "Five tag bytes, each with its continuation bit, then the end of the input. A tag is at most 5 bytes "
        "(docs/spec/payloads.md), so the tag is already too long: payload.tag, not payload.truncated (the reading that "
        "waits for a sixth byte) and not payload.varint (the reading that allows 10).",
        "message", bytes([0x80] * 5), "payload.tag", "", flags=["TwoProblems"])
    vf.payload_invalid(
        "payload.tag.five-bytes-in-elem",
        "The same cut tag inside elems[0]: a problem in a tag has the path of the message that holds it, "
        "elems[0], not the root and not a field of it.",
        "message", ld(18, bytes([0x80] * 5)), "payload.tag", "elems[0]", flags=["TwoProblems", "PathDecision"])
    # 5. limit.elems / limit.repeated: the first entry past the limit is
    # refused before any of its bytes (its length included) are read.
    one = text_elem(b"a")
    vf.payload_invalid(
        "limit.elems.entry-past-limit-is-not-read",
        "maxElems 1 and two elems, the second of which is truncated inside its text. The limit is judged at "
        "elems[1] before its bytes are read: limit.elems at elems[1], not payload.truncated at elems[1].text.text.",
        "message", ld(18, one) + tag(18, LEN) + varint(4) + bytes.fromhex("0a020a01"), "limit.elems", "elems[1]",
        flags=["TwoProblems", "LimitFirst"], limits={"maxElems": 1})
    vf.payload_invalid(
        "limit.elems.entry-past-limit-length-not-read",
        "maxElems 1 and a second elem whose length runs past the end of the payload: limit.elems at elems[1], "
        "not payload.truncated at elems[1] (the length is part of the entry's bytes).",
        "message", ld(18, one) + tag(18, LEN) + varint(0x7F), "limit.elems", "elems[1]",
        flags=["TwoProblems", "LimitFirst"], limits={"maxElems": 1})
    vf.payload_invalid(
        "limit.repeated.entry-past-limit-utf8-not-read",
        "maxRepeated 1 and two atUserList entries, the second not UTF-8: limit.repeated at atUserList[1], not "
        "payload.utf8 at atUserList[1].",
        "message", ld(15, b"alice") + ld(15, b"\xff"), "limit.repeated", "atUserList[1]",
        flags=["TwoProblems", "LimitFirst"], limits={"maxRepeated": 1})
    vf.payload_invalid(
        "limit.batch-messages.entry-past-limit-not-read",
        "maxBatchMessages 1 and a second message whose tag stream is broken (field number 0): "
        "limit.batch-messages at messages[1], not payload.tag at messages[1].",
        "batch", ld(1, ld(1, b"m1")) + ld(1, bytes([0x00, 0x00])), "limit.batch-messages", "messages[1]",
        flags=["TwoProblems", "LimitFirst"], limits={"maxBatchMessages": 1})

    # 6. An unknown group nested too deep: limit.depth at the path of the
    # message that holds the group (groups have no path of their own).
    groups = tag(15, START_GROUP) + tag(15, START_GROUP) + tag(15, END_GROUP) + tag(15, END_GROUP)
    vf.payload_invalid(
        "limit.depth.group-in-custom-elem",
        "maxDepth 1 and two unknown groups, one inside the other, in elems[0].custom: the inner group is at layer "
        "2. limit.depth has the path of the message that holds the group, elems[0].custom; not the root, not "
        "elems[0].",
        "message", ld(18, ld(2, groups)), "limit.depth", "elems[0].custom",
        flags=["UnknownGroup", "PathDecision"], limits={"maxDepth": 1})
    inner = ld(1, b"m2") + groups
    merger = ld(9, ld(4, inner))
    vf.payload_invalid(
        "limit.depth.group-in-merged-message",
        "maxDepth 2 and two nested unknown groups in the first message of a merger (layer 1): the inner group is "
        "at layer 3, reported at the message that holds it, elems[0].merger.messages[0].",
        "message", ld(18, merger), "limit.depth", "elems[0].merger.messages[0]",
        flags=["UnknownGroup", "PathDecision"], limits={"maxDepth": 2})
    return vf.write()


# ---------------------------------------------------------------------------
# Frames (docs/spec/frame-format.md)
# ---------------------------------------------------------------------------

PAYLOAD = encode("Message", {"msgId": "m1", "sender": "alice", "receiver": "bob", "elems": [{"text": {"text": "hi"}}]})


def write_frame_file():
    vf = new_file(
        "malformed", "frame-precedence", "Frames: which check comes first",
        "A checksum cut short against the limits of step 3, trailing bytes against the checksum and the payload, "
        "and deflate streams that break two rules.")
    stored = build_frame("message", PAYLOAD)
    # The header of `stored` is 01 01 <len> then 4 checksum bytes.
    frame_case(vf, "frame.order.checksum-cut-before-frame-size-limit",
               "The body length is above maxFrameBytes and the input ends inside the checksum. The checksum is "
               "part of the header read in step 2, so frame.truncated comes before limit.frame-size (step 3).",
               stored[:5], flags=["TwoProblems"], limits={"maxFrameBytes": 4})
    frame_case(vf, "frame.order.frame-size-limit-before-body",
               "The same frame with its whole checksum but no body: now step 3 runs, limit.frame-size, before the "
               "missing body (step 4, frame.truncated).",
               stored[:7], flags=["TwoProblems"], limits={"maxFrameBytes": 4})
    compressed = build_frame("message", PAYLOAD * 4, compress=True)
    cut = len(compressed) - len(deflate(PAYLOAD * 4)) - 2
    frame_case(vf, "frame.order.checksum-cut-before-inflated-size-limit",
               "A deflated frame whose payload length is above maxInflatedBytes, cut inside the checksum: "
               "frame.truncated, not limit.inflated-size.",
               compressed[:cut], flags=["TwoProblems"], limits={"maxInflatedBytes": 8})
    frame_case(vf, "frame.order.checksum-before-trailing-bytes",
               "A bad checksum and a byte after the frame: the checksum (step 6) is checked before trailing bytes, "
               "frame.checksum.",
               build_frame("message", PAYLOAD, checksum=0) + b"\x00", flags=["TwoProblems"])
    frame_case(vf, "frame.order.trailing-bytes-before-payload",
               "A sound frame around a payload that does not decode (it ends inside msgId), with a byte after the "
               "frame: trailing bytes are checked after the checksum and before the payload is decoded (step 7), "
               "frame.trailing-bytes, not payload.truncated at msgId.",
               build_frame("message", bytes.fromhex("0a05616c")) + b"\x00", flags=["TwoProblems"])
    bad_deflate = build_frame("message", PAYLOAD, compress=True, body=b"\xff\xff\xff\xff")
    frame_case(vf, "frame.order.deflate-before-trailing-bytes",
               "A body that is not deflate and a byte after the frame: frame.deflate (step 5) before trailing "
               "bytes.",
               bad_deflate + b"\x00", flags=["TwoProblems"])
    frame_case(vf, "frame.order.payload-after-trailing-bytes-checked",
               "The same undecodable payload without the trailing byte: now the payload is decoded, "
               "payload.truncated at msgId.",
               build_frame("message", bytes.fromhex("0a05616c")), payload_error=("payload.truncated", "msgId"))

    # 4. A deflate stream that ends before the body does and inflates to
    # fewer bytes than the payload length: frame.deflate.
    body = deflate(PAYLOAD)
    frame_case(vf, "frame.deflate.ends-early-and-short",
               "The deflate stream ends one byte before the body does and inflates to one byte fewer than the "
               "payload length. The stream's end is judged before the count: frame.deflate, not "
               "frame.payload-length.",
               build_frame("message", PAYLOAD + b"\x00", compress=True, body=body + b"\x00",
                           crc_payload=PAYLOAD + b"\x00"),
               flags=["TwoProblems"])
    frame_case(vf, "frame.deflate.cut-and-short",
               "The deflate stream is cut before its final block (it inflates to fewer bytes than the payload "
               "length and never ends): frame.deflate, not frame.payload-length.",
               build_frame("message", PAYLOAD, compress=True, body=body[: len(body) // 2]), flags=["TwoProblems"])
    frame_case(vf, "frame.deflate.long-and-ends-early",
               "The deflate stream would inflate to more than the payload length and ends before the body does: "
               "inflating stops when the payload length is reached, frame.payload-length.",
               build_frame("message", PAYLOAD[:-1], compress=True, body=body + b"\x00",
                           payload_len_varint=varint(len(PAYLOAD) - 1)),
               flags=["TwoProblems"])
    # 5. Deflate in stream order: a symbol is judged before its bytes are written, and the first byte past the
    # payload length stops inflating. Whether an inflater has room for that byte or for all of the stream does
    # not change the answer.
    frame_case(vf, "frame.deflate.long-then-invalid-code",
               "Fixed-Huffman literals one byte past the payload length, then the code 286, which the fixed code "
               "does not define: the byte past the payload comes first, frame.payload-length (zlib reports the "
               "bad code in the same call, which an inflater that drops a failing call's output misses).",
               build_frame("message", PAYLOAD, compress=True,
                           body=fixed_huffman(list(PAYLOAD + b"\x00") + [("code", 286)])), flags=["TwoProblems"])
    frame_case(vf, "frame.deflate.invalid-code-at-payload-length",
               "The same literals without the extra byte, then the code 286: the stream breaks before it makes a "
               "byte past the payload length, frame.deflate.",
               build_frame("message", PAYLOAD, compress=True, body=fixed_huffman(list(PAYLOAD) + [("code", 286)])),
               flags=["TwoProblems"])
    frame_case(vf, "frame.deflate.match-too-far-past-payload",
               "Literals two bytes short of the payload length, then a match of 10 bytes whose distance (24,577) "
               "reaches before the start of the output: the match is judged before its bytes are written, "
               "frame.deflate, not frame.payload-length.",
               build_frame("message", PAYLOAD, compress=True,
                           body=fixed_huffman(list(PAYLOAD[:-2]) + [("match", 10, 24577)])), flags=["TwoProblems"])
    assert 1 in DICTIONARIES and zlib.crc32(b"") == 0
    return vf.write()


# ---------------------------------------------------------------------------
# JSON (docs/spec/payloads.md "Paths", docs/spec/error-and-finding-codes.md "JSON codes")
# ---------------------------------------------------------------------------


def nested_arrays(containers):
    """{"elems": [[...]]} with `containers` arrays and objects in all."""
    return '{"elems":' + "[" * (containers - 1) + "]" * (containers - 1) + "}"


def write_json_file():
    vf = new_file(
        "json", "json-paths", "JSON input: paths and the nesting limit",
        "Paths of JSON input errors name fields by their JSON names whatever spelling the input used, except the "
        "member an unknown-field or duplicate-field error is about, which is named as written; json.depth at "
        "maxDepth * 8 + 64 nested arrays and objects.")
    vf.json_invalid(
        "json.path.type-error-names-json-name", "msg_id (the proto name, accepted on input) holds a number: "
        "json.type at msgId, the field's JSON name, not at msg_id as written.",
        "message", '{"msg_id": 5}', "json.type", "msgId", flags=["NameAsWritten", "PathDecision"])
    vf.json_invalid(
        "json.path.nested-type-error-names-json-names", "A type error under members written with proto names: "
        "every component is the JSON name, elems[0].groupTips.opUser.",
        "message", '{"elems": [{"group_tips": {"op_user": []}}]}', "json.type", "elems[0].groupTips.opUser",
        flags=["NameAsWritten", "PathDecision"])
    vf.json_invalid(
        "json.path.duplicate-names-member-as-written", "opUser and then op_user in one object: "
        "json.duplicate-field at the second member as written, under JSON names: elems[0].groupTips.op_user.",
        "message", '{"elems": [{"group_tips": {"opUser": "a", "op_user": "b"}}]}', "json.duplicate-field",
        "elems[0].groupTips.op_user", flags=["NameAsWritten", "PathDecision", "SwiftProtobufAccepts"])
    vf.json_invalid(
        "json.path.unknown-names-member-as-written", "An unknown member under a parent written with its proto "
        "name: json.unknown-field at elems[0].groupTips.bogus_field (the unknown name as written; it has no JSON "
        "name).",
        "message", '{"elems": [{"group_tips": {"bogus_field": 1}}]}', "json.unknown-field",
        "elems[0].groupTips.bogus_field", flags=["NameAsWritten", "PathDecision"])
    vf.json_invalid(
        "json.path.empty-member-name-adds-nothing", "A member written with the empty name is unknown, and the empty "
        "name adds nothing to the path: json.unknown-field at elems[0], the holder's path, not elems[0]. with a "
        "trailing dot.",
        "message", '{"elems": [{"": {}}]}', "json.unknown-field", "elems[0]", flags=["NameAsWritten", "PathDecision"])
    case = vf.json_invalid(
        "json.path.limit-names-json-name", "maxRepeated 2 and three entries in at_user_list: limit.repeated at "
        "the first entry past the limit, named by the JSON name: atUserList[2].",
        "message", '{"at_user_list": ["a", "b", "c"]}', "limit.repeated", "atUserList[2]",
        flags=["NameAsWritten", "PathDecision"])
    case["limits"] = {"maxRepeated": 2}

    for containers, limits, label in ((72, {"maxDepth": 1}, "max-depth-1"), (864, None, "default")):
        depth = (limits or {}).get("maxDepth", 100)
        assert containers == depth * 8 + 64
        at = vf.json_invalid(
            f"json.depth.{label}-n", f"{containers} nested arrays and objects (maxDepth {depth}: the limit is "
            f"{depth} * 8 + 64 = {containers}, the outer object counting 1) are read; the inner arrays then fail "
            "as json.type at elems[0]. A reader with a smaller limit answers json.depth.",
            "message", nested_arrays(containers), "json.type", "elems[0]", flags=["DepthLimit"])
        past = vf.json_invalid(
            f"json.depth.{label}-n-plus-1", f"{containers + 1} nested arrays and objects: json.depth at the "
            "root, judged before any field is looked at.",
            "message", nested_arrays(containers + 1), "json.depth", "", flags=["DepthLimit"])
        if limits:
            at["limits"] = dict(limits)
            past["limits"] = dict(limits)
    # The nesting limit is judged as the containers open, in document order with the syntax: a syntax error after
    # the container past the limit is never reached; one before it is reported.
    vf.json_invalid(
        "json.depth.before-later-syntax-error", "865 nested arrays and objects, then a trailing comma at the end "
        "of the document: json.depth, found when the 865th container opens, not json.syntax (the answer of a "
        "reader that parses the whole text before it measures the nesting).",
        "message", nested_arrays(865)[:-1] + ",}", "json.depth", "", flags=["TwoProblems", "DepthLimit"])
    vf.json_invalid(
        "json.syntax.before-nesting-limit", "A syntax error (two commas) before 865 nested arrays: json.syntax, "
        "found before the nesting passes the limit.",
        "message", '{"atUserList": ["a",,"b"], "elems":' + nested_arrays(865)[len('{"elems":'):],
        "json.syntax", "", flags=["TwoProblems", "DepthLimit"])
    return vf.write()


# ---------------------------------------------------------------------------
# Validation (docs/spec/validation.md)
# ---------------------------------------------------------------------------


def write_validation_file():
    vf = new_file(
        "limits", "validation-reporting", "Validation: where rules report and what they carry",
        "The field each event rule reports at, the merger message-count rule's exemption, and the observed value "
        "of coordinate findings.")

    def event(cid, comment, value, findings, flags=("PathDecision",)):
        validate_case(vf, cid, comment, "event", value, "current", findings, flags=list(flags))

    # 10. Event rules report at the offending field, once per field.
    event("validate.report.connection-text-only",
          "A connected event with only a text: rule.connection.code-state at connection.text (each offending field "
          "is reported at itself), not at connection.code.",
          {"connection": {"state": "CONNECTION_STATE_CONNECTED", "text": "x"}},
          [finding("rule.connection.code-state", "connection.text")])
    event("validate.report.connection-code-and-text",
          "A connecting event with a code (20009, a documented one) and a text: two findings, at connection.code "
          "and connection.text.",
          {"connection": {"state": "CONNECTION_STATE_CONNECTING", "code": 20009, "text": "x"}},
          [finding("rule.connection.code-state", "connection.code"),
           finding("rule.connection.code-state", "connection.text")])
    event("validate.report.user-status-text-only",
          "A signature-expired event with only a text: rule.user-status.code-type at userStatus.text.",
          {"userStatus": {"type": "USER_STATUS_TYPE_USER_SIG_EXPIRED", "text": "x"}},
          [finding("rule.user-status.code-type", "userStatus.text")])
    event("validate.report.receipt-unread-count-only",
          "A one-to-one receipt with only an unread count: rule.receipt.counts-on-one-to-one at "
          "readReceipt.receipts[0].unreadCount, not at the receipt.",
          {"readReceipt": {"receipts": [{"msgId": "m", "userId": "user_bob", "unreadCount": "2"}]}},
          [finding("rule.receipt.counts-on-one-to-one", "readReceipt.receipts[0].unreadCount")])
    event("validate.report.receipt-both-counts",
          "A one-to-one receipt with both counts: one finding per count.",
          {"readReceipt": {"receipts": [{"msgId": "m", "userId": "user_bob", "readCount": "1",
                                         "unreadCount": "2"}]}},
          [finding("rule.receipt.counts-on-one-to-one", "readReceipt.receipts[0].readCount"),
           finding("rule.receipt.counts-on-one-to-one", "readReceipt.receipts[0].unreadCount")])

    # 11. rule.merger.msg-num applies only to a merger that carries messages.
    merger = {"title": "history", "compatibleText": "upgrade to view", "abstracts": ["a: hi"], "msgNum": 3}
    validate_case(vf, "validate.report.merger-msg-num-with-key-and-no-messages",
                 "msgNum 3, jsonMsgKey set, no messages carried (they are stored apart under the key): "
                 "rule.merger.msg-num compares msgNum with the messages carried only when there are some, so no "
                 "finding; the other reading reports msgNum 3 against 0.",
                 "message", dict(C2C, elems=[{"merger": dict(merger, jsonMsgKey="key-1")}]), "current", [],
                 flags=["Exempt"])
    validate_case(vf, "validate.report.merger-msg-num-no-messages",
                 "msgNum 3 without jsonMsgKey and without messages: no messages carried, no finding.",
                 "message", dict(C2C, elems=[{"merger": merger}]), "sdk-guide", [], flags=["Exempt"])

    # 12. Coordinates carry no observed number (a double does not fit the
    # integer actual): the testee answers 0, the protocol's "absent".
    validate_case(vf, "validate.report.coordinate-has-no-actual",
                 "Latitude 90.7 and longitude -180.5: limit 90 and 180, actual absent (0 on the testee protocol), "
                 "not 90 or 91 (a truncated or rounded coordinate) or -180.",
                 "message", dict(C2C, elems=[{"location": {"desc": "here", "latitude": 90.7, "longitude": -180.5}}]),
                 "current",
                 [finding("range.location.latitude", "elems[0].location.latitude", limit=90, actual=0),
                  finding("range.location.longitude", "elems[0].location.longitude", limit=180, actual=0)],
                 flags=["NoActual"])
    return vf.write()


def main():
    report([write_payload_file(), write_frame_file(), write_json_file(), write_validation_file()])


if __name__ == "__main__":
    main()
