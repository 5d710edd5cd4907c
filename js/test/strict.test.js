// Strict inputs: bytes in every form the platforms hand out, values that do
// not match the schema refused with the JSON reader's codes and paths,
// recursion bounded by the depth limit, one meaning of `level: 0`, and
// limits that are names and numbers.

import assert from "node:assert/strict";
import { test } from "node:test";
import {
    Elem,
    FrameReader,
    MergerElem,
    Message,
    TextElem,
    decodeFrame,
    decodeFramePayload,
    encodeFrame,
    encodeFrameBytes,
    parseJSON,
    resolveLimits,
    stringifyJSON,
} from "../src/index.js";
import { STORED } from "./frame.test.js";
import { thrown } from "./helpers.js";

const text = (value) => Elem.create({ kind: { case: "text", value: TextElem.create({ text: value }) } });
const merger = (messages) => Elem.create({ kind: { case: "merger", value: MergerElem.create({ messages }) } });

// The same bytes as an ArrayBuffer of their own, a DataView and a Buffer,
// each over memory where the bytes do not start at offset 0.
function forms(bytes) {
    const padded = new Uint8Array(bytes.length + 3);
    padded.set(bytes, 3);
    return {
        ArrayBuffer: bytes.slice().buffer,
        DataView: new DataView(padded.buffer, 3, bytes.length),
        Buffer: Buffer.from(bytes),
        "Uint8Array at an offset": padded.subarray(3),
    };
}

test("frames, payloads and stream chunks are read from ArrayBuffer, DataView and Buffer alike", async () => {
    const expected = await decodeFramePayload(STORED);
    const payload = STORED.subarray(7);
    for (const [name, bytes] of Object.entries(forms(STORED))) {
        assert.deepEqual(await decodeFramePayload(bytes), expected, name);
        assert.deepEqual((await decodeFrame(bytes)).payload, payload, name);
        const reader = new FrameReader();
        reader.append(bytes);
        assert.deepEqual((await reader.next()).payload, payload, name);
    }
    for (const [name, bytes] of Object.entries(forms(payload))) {
        assert.deepEqual(Message.decode(bytes), expected.value, name);
        assert.deepEqual(await encodeFrameBytes(1, bytes, { policy: { compression: 0 } }), STORED, name);
    }
    for (const notBytes of ["01 01", [1, 1], 7, null]) {
        await assert.rejects(decodeFramePayload(notBytes), TypeError);
        assert.throws(() => new FrameReader().append(notBytes), TypeError);
    }
});

test("a bytes field given as ArrayBuffer, DataView or Buffer encodes as the Uint8Array does", () => {
    const data = new Uint8Array([0, 1, 0xfe, 0xff]);
    const expected = Message.encode(Message.create({ cloudCustomData: data }));
    assert.equal(expected.length, 7);
    for (const [name, bytes] of Object.entries(forms(data))) {
        assert.deepEqual(Message.encode(Message.create({ cloudCustomData: bytes })), expected, name);
        assert.equal(Message.toJSON({ cloudCustomData: bytes }).cloudCustomData, "AAH+/w==", name);
    }
});

// Values that do not match the schema, the code and path encode gives each,
// and the same mistake in proto3 JSON, which the JSON reader refuses with
// the same code and path.
const MISMATCHES = [
    ["an elem in its JSON shape", { elems: [{ text: { text: "hi" } }] }, "json.unknown-field", "elems[0].text",
        '{"elems": [{"kind": {"text": {"text": "hi"}}}]}', "elems[0].kind"],
    ["a misspelled property", { msgId: "m1", sendr: "alice" }, "json.unknown-field", "sendr",
        '{"msgId": "m1", "sendr": "alice"}', "sendr"],
    ["a uint32 of 2^32", { random: 2 ** 32 }, "json.value", "random", '{"random": 4294967296}', "random"],
    ["a uint32 below 0", { random: -1 }, "json.value", "random", '{"random": -1}', "random"],
    ["a fraction for an integer", { random: 1.5 }, "json.value", "random", '{"random": 1.5}', "random"],
    ["a number for a string", { msgId: 5 }, "json.type", "msgId", '{"msgId": 5}', "msgId"],
    ["a string for a bool", { needReadReceipt: "yes" }, "json.type", "needReadReceipt",
        '{"needReadReceipt": "yes"}', "needReadReceipt"],
    ["an int64 past 2^63 - 1", { timestamp: 2n ** 63n }, "json.value", "timestamp",
        '{"timestamp": "9223372036854775808"}', "timestamp"],
    ["an object for a repeated field", { elems: {} }, "json.type", "elems", '{"elems": {}}', "elems"],
    ["a number for bytes", { cloudCustomData: 7 }, "json.type", "cloudCustomData", '{"cloudCustomData": 7}',
        "cloudCustomData"],
    ["a deep wrong type", { elems: [text("a"), { kind: { case: "text", value: { text: 1 } } }] }, "json.type",
        "elems[1].text.text", '{"elems": [{"text": {"text": "a"}}, {"text": {"text": 1}}]}', "elems[1].text.text"],
    ["a oneof member the schema does not name", { elems: [{ kind: { case: "txt", value: {} } }] },
        "json.unknown-field", "elems[0].txt", '{"elems": [{"txt": {}}]}', "elems[0].txt"],
];

test("encode refuses a value that does not match the schema with the JSON reader's code and path", async () => {
    for (const [name, value, code, path, json, jsonPath] of MISMATCHES) {
        const error = await thrown(() => Message.encode(value));
        assert.deepEqual([error.code, error.pathText], [code, path], name);
        const framed = await thrown(() => encodeFrame({ kind: 1, value }));
        assert.deepEqual([framed.code, framed.pathText], [code, path], `${name}, encodeFrame`);
        const printed = await thrown(() => Message.toJSONString(value));
        assert.deepEqual([printed.code, printed.pathText], [code, path], `${name}, toJSONString`);
        const read = await thrown(() => Message.fromJSONString(json));
        assert.deepEqual([read.code, read.pathText], [code, jsonPath], `${name}, in JSON`);
    }
});

test("values at the edges of their types encode", () => {
    const value = Message.create({ random: 2 ** 32 - 1, timestamp: -(2n ** 63n), seq: 2n ** 64n - 1n, priority: 99 });
    const decoded = Message.decode(Message.encode(value));
    assert.deepEqual([decoded.random, decoded.timestamp, decoded.seq, decoded.priority], [
        2 ** 32 - 1, -(2n ** 63n), 2n ** 64n - 1n, 99,
    ]);
    // A 64-bit field given as a safe integer number is written as its bigint.
    assert.deepEqual(Message.encode({ seq: 300 }), Message.encode({ seq: 300n }));
    // Absent: undefined anywhere, null for a message field and a oneof.
    assert.deepEqual(Message.encode({ msgId: undefined, offlinePushInfo: null, elems: [{ kind: null }] }),
        Uint8Array.of(0x92, 0x01, 0x00));
});

function nested(layers) {
    let message = Message.create({ msgId: "inner" });
    for (let n = 0; n < layers; n++) message = Message.create({ elems: [merger([message])] });
    return message;
}

test("merger layers are bounded by maxDepth when encoding and printing, however deep the value", async () => {
    for (const layers of [1_000, 10_000]) {
        const value = nested(layers);
        for (const [name, run] of [
            ["encode", () => Message.encode(value)],
            ["encodeFrame", () => encodeFrame({ kind: 1, value })],
            ["toJSONString", () => Message.toJSONString(value)],
        ]) {
            const error = await thrown(run);
            assert.equal(error.code, "limit.depth", `${name} of ${layers} layers`);
            assert.deepEqual([error.limit, error.observed], [100, 101], `${name} of ${layers} layers`);
            assert.equal(error.path.length, 101 * 5, `${name} of ${layers} layers`);
        }
    }
    // At the limit N passes, N + 1 is limit.depth, as the decoder counts.
    const three = Message.encode(nested(3), { maxDepth: 3 });
    assert.equal(Message.decode(three, { maxDepth: 3 }).elems.length, 1);
    const error = await thrown(() => Message.encode(nested(4), { maxDepth: 3 }));
    assert.deepEqual([error.code, error.pathText], ["limit.depth", "elems[0].merger.messages[0].elems[0].merger.messages[0].elems[0].merger.messages[0].elems[0].merger.messages[0]"]);
    const decodeError = await thrown(() => Message.decode(Message.encode(nested(4)), { maxDepth: 3 }));
    assert.deepEqual([decodeError.code, decodeError.pathText], [error.code, error.pathText]);
    // Limits raised past the defaults hold for printing and reading back too.
    const raised = { maxDepth: 300 };
    const text = Message.toJSONString(nested(300), { limits: raised });
    // (Compared as their encodings: Node's deepEqual itself recurses too deep for this value.)
    assert.deepEqual(Message.encode(Message.fromJSONString(text, raised), raised), Message.encode(nested(300), raised));
    assert.equal((await thrown(() => Message.toJSONString(nested(300)))).code, "limit.depth");
});

test("fromJSON and stringifyJSON of a plain object nested past the JSON nesting limit are json.depth, not a stack overflow", async () => {
    let json = {};
    for (let n = 0; n < 100_000; n++) json = { elems: [{ merger: { messages: [json] } }] };
    const error = await thrown(() => Message.fromJSON(json));
    assert.equal(error.code, "json.depth");
    const written = await thrown(() => stringifyJSON(json));
    assert.deepEqual([written.code, written.limit], ["json.depth", 100 * 8 + 64]);
    // The text parseJSON reads without a bound, written back.
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    assert.equal((await thrown(() => stringifyJSON(parseJSON(deep)))).code, "json.depth");
    // At the bound N nested arrays are written, N + 1 are not.
    assert.equal(stringifyJSON(parseJSON("[[[]]]"), { maxNesting: 3 }), "[[[]]]");
    assert.equal((await thrown(() => stringifyJSON(parseJSON("[[[[]]]]"), { maxNesting: 3 }))).code, "json.depth");
});

test("level 0 is the default level, 6, as in the testee protocol; 1 to 9 are zlib's", async () => {
    const payload = new TextEncoder().encode("hello hello hello hello hello hello ".repeat(20));
    const policy = (level) => ({ policy: { compression: 1, threshold: 0, level } });
    const six = await encodeFrameBytes(1, payload, policy(6));
    assert.deepEqual(await encodeFrameBytes(1, payload, policy(0)), six);
    assert.deepEqual(await encodeFrameBytes(1, payload, policy(undefined)), six);
    const one = await encodeFrameBytes(1, payload, policy(1));
    assert.equal((await decodeFrame(one)).payload.length, payload.length);
    await assert.rejects(encodeFrameBytes(1, payload, policy(10)), RangeError);
    await assert.rejects(encodeFrameBytes(1, payload, policy(-1)), RangeError);
    await assert.rejects(encodeFrameBytes(1, payload, { policy: { compresion: 0 } }), TypeError);
});

test("limits are names and whole numbers: a misspelling or a string is refused, not ignored", () => {
    assert.equal(resolveLimits({ maxElems: 5 }).maxElems, 5);
    assert.equal(resolveLimits({ maxElems: undefined }).maxElems, 1000);
    assert.throws(() => resolveLimits({ maxElem: 5 }), TypeError);
    assert.throws(() => resolveLimits({ maxElems: "5" }), TypeError);
    assert.throws(() => resolveLimits({ maxElems: -1 }), RangeError);
    assert.throws(() => Message.decode(new Uint8Array(0), { maxDepht: 3 }), TypeError);
});

test("a string with a lone surrogate, which has no UTF-8 form, is json.value, not silently replaced", async () => {
    for (const [value, path] of [
        [{ msgId: "a\ud800" }, "msgId"],
        [{ atUserList: ["ok", "\udc00b"] }, "atUserList[1]"],
        [{ elems: [text("x\ud83d")] }, "elems[0].text.text"],
    ]) {
        const error = await thrown(() => Message.encode(value));
        assert.deepEqual([error.code, error.pathText], ["json.value", path]);
    }
    // A surrogate pair is a character like any other.
    assert.equal(Message.decode(Message.encode({ msgId: "👋" })).msgId, "👋");
});
