// The generated payload codec: canonical encoding, the decoding rules and
// limits with their codes and paths, and proto3 JSON.

import assert from "node:assert/strict";
import { test } from "node:test";
import { Elem, LocationElem, MergerElem, Message, MessageBatch, TextElem } from "../src/index.js";
import { hex, thrown } from "./helpers.js";

const text = (value) => Elem.create({ kind: { case: "text", value: TextElem.create({ text: value }) } });
const merger = (messages) => Elem.create({ kind: { case: "merger", value: MergerElem.create({ messages }) } });

test("a message built in code encodes to the payload of FrameFormat.md's first example", () => {
    const message = Message.create({ msgId: "m1", sender: "alice", receiver: "bob", elems: [text("hi 👋")] });
    const payload = hex("0a 02 6d 31 12 05 61 6c 69 63 65 1a 03 62 6f 62 92 01 0b 0a 09 0a 07 68 69 20 f0 9f 91 8b");
    assert.deepEqual(Message.encode(message), payload);
    assert.deepEqual(Message.decode(payload), message);
});

test("unknown fields are kept and written after the known ones", () => {
    // Field 99 (length-delimited, 1 byte) before msg_id "m1".
    const decoded = Message.decode(hex("9a 06 01 ff 0a 02 6d 31"));
    assert.equal(decoded.msgId, "m1");
    assert.deepEqual(Message.encode(decoded), hex("0a 02 6d 31 9a 06 01 ff"));
});

test("a string keeps a leading byte order mark", () => {
    const decoded = Message.decode(hex("0a 03 ef bb bf"));
    assert.equal(decoded.msgId, "\ufeff");
    assert.deepEqual(Message.encode(decoded), hex("0a 03 ef bb bf"));
});

test("elems at the limit decode and one more is limit.elems at the first entry past it", async () => {
    const two = Message.encode(Message.create({ elems: [text("a"), text("b")] }));
    assert.equal(Message.decode(two, { maxElems: 2 }).elems.length, 2);
    const three = Message.encode(Message.create({ elems: [text("a"), text("b"), text("c")] }));
    const error = await thrown(() => Message.decode(three, { maxElems: 2 }));
    assert.deepEqual([error.code, error.pathText, error.limit, error.observed], ["limit.elems", "elems[2]", 2, 3]);
});

test("merger layers past maxDepth are limit.depth at the message one layer too deep", async () => {
    const inner = Message.create({ msgId: "x" });
    const twoLayers = Message.create({ elems: [merger([Message.create({ elems: [merger([inner])] })])] });
    const bytes = Message.encode(twoLayers);
    assert.deepEqual(Message.decode(bytes, { maxDepth: 2 }), twoLayers);
    const error = await thrown(() => Message.decode(bytes, { maxDepth: 1 }));
    assert.equal(error.code, "limit.depth");
    assert.equal(error.pathText, "elems[0].merger.messages[0].elems[0].merger.messages[0]");
});

test("broken payloads give the code and path of Payloads.md", async () => {
    const cases = [
        ["0a 05 6d 31", "payload.truncated", "msgId"],
        ["0a 02 c3 28", "payload.utf8", "msgId"],
        ["80 80 80 80 80", "payload.tag", ""],
        ["38 ff ff ff ff ff ff ff ff ff ff", "payload.varint", "seq"],
        ["0a ff ff ff ff 07", "payload.length", "msgId"],
        ["a4 01", "payload.group", ""],
    ];
    for (const [bytes, code, path] of cases) {
        const error = await thrown(() => Message.decode(hex(bytes)));
        assert.deepEqual([error.code, error.pathText], [code, path], bytes);
    }
});

test("proto3 JSON keeps 64-bit integers exact and the sign of zero", () => {
    const message = Message.fromJSONString('{"seq": "18446744073709551615", "timestamp": -9223372036854775808}');
    assert.equal(message.seq, 18446744073709551615n);
    assert.equal(message.timestamp, -9223372036854775808n);
    assert.equal(Message.toJSONString(message), '{"timestamp":"-9223372036854775808","seq":"18446744073709551615"}');
    const location = Elem.fromJSONString('{"location": {"latitude": -0.0, "longitude": "NaN"}}');
    assert.ok(Object.is(location.kind.value.latitude, -0));
    assert.equal(Elem.toJSONString(location), '{"location":{"longitude":"NaN","latitude":-0}}');
});

test("proto3 JSON refuses duplicates, unknown members and deep nesting with their paths", async () => {
    const cases = [
        ['{"msgId": "a", "msg_id": "b"}', "json.duplicate-field", "msg_id"],
        ['{"elems": [{"text": {"text": "a"}, "face": {}}]}', "json.duplicate-field", "elems[0].face"],
        ['{"elems": [{"groupTips": {"bogus_field": 1}}]}', "json.unknown-field", "elems[0].groupTips.bogus_field"],
        ['{"msg_id": 5}', "json.type", "msgId"],
        ['{"seq": "1.5"}', "json.value", "seq"],
        ["[".repeat(865) + "]".repeat(865), "json.depth", ""],
        ['{"msgId": "a"', "json.syntax", ""],
    ];
    for (const [json, code, path] of cases) {
        const error = await thrown(() => Message.fromJSONString(json));
        assert.deepEqual([error.code, error.pathText], [code, path], json);
    }
});

test("a JSON array past its field's limit is refused at the first entry past it", async () => {
    const error = await thrown(() => MessageBatch.fromJSONString('{"messages": [{}, {}, {}]}', { maxBatchMessages: 2 }));
    assert.deepEqual([error.code, error.pathText, error.limit, error.observed], ["limit.batch-messages", "messages[2]", 2, 3]);
});

test("a value read from a plain object encodes like the same JSON text", () => {
    const fromObject = Message.fromJSON({ msgId: "m1", seq: 7n, elems: [{ text: { text: "hi" } }] });
    const fromText = Message.fromJSONString('{"msgId": "m1", "seq": "7", "elems": [{"text": {"text": "hi"}}]}');
    assert.deepEqual(Message.encode(fromObject), Message.encode(fromText));
});

test("64-bit varints past 32 bits and doubles are written as the wire format has them", () => {
    // Varints by hand: 7 bits a byte, least significant first; field 7 (seq,
    // uint64) has tag 0x38, field 6 (timestamp, int64) 0x30.
    assert.deepEqual(Message.encode({ seq: 2n ** 32n }), hex("38 80 80 80 80 10"));
    assert.deepEqual(Message.encode({ seq: 2n ** 35n + 1n }), hex("38 81 80 80 80 80 01"));
    assert.deepEqual(Message.encode({ seq: 2n ** 63n }), hex("38 80 80 80 80 80 80 80 80 80 01"));
    assert.deepEqual(Message.encode({ seq: 2n ** 64n - 1n }), hex("38 ff ff ff ff ff ff ff ff ff 01"));
    assert.deepEqual(Message.encode({ timestamp: -1n }), hex("30 ff ff ff ff ff ff ff ff ff 01"));
    assert.deepEqual(Message.encode({ timestamp: -(2n ** 63n) }), hex("30 80 80 80 80 80 80 80 80 80 01"));
    // IEEE 754 little-endian: 1.5 is 0x3FF8000000000000, -0 has the sign bit alone.
    assert.deepEqual(LocationElem.encode({ latitude: 1.5, longitude: -0 }),
        hex("11 00 00 00 00 00 00 00 80 19 00 00 00 00 00 00 f8 3f"));
});
