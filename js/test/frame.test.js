// Frames: the annotated examples of FrameFormat.md, the checks in their
// order, and a writer that refuses what readers refuse.

import assert from "node:assert/strict";
import { test } from "node:test";
import {
    Elem,
    Message,
    MessageBatch,
    TextElem,
    decodeFrame,
    decodeFramePayload,
    encodeFrame,
    encodeFrameBytes,
    readFrameHeader,
} from "../src/index.js";
import { hex, thrown } from "./helpers.js";

// FrameFormat.md, "Annotated examples": written by imcodec encode and checked
// there against Python's zlib.
export const STORED = hex(`01 01 1e c1 3f b2 75 0a 02 6d 31 12 05 61 6c 69 63 65 1a 03 62 6f 62 92 01 0b
    0a 09 0a 07 68 69 20 f0 9f 91 8b`);
export const DICTIONARY_1 = hex(`01 15 01 1c 1e c3 0c 88 24 e3 62 ca 35 14 62 05 b7 b3 a5 98 93 f2 93 26 31 02
    3b 90 5c ec 19 99 a0 c2 ba 1b 00`);
export const ZSTD_4 = hex(`01 19 04 42 59 a7 4d c8 23 00 00 ed 01 00 b3 82 09 18 38 45 21 91 67 86 11 cf
    0b a4 18 7c 3a 50 05 d5 71 88 0d d7 85 0b 16 2e 29 10 01 6b c9 0b ef 18 7d db
    75 01 56 07 fc 88 d6 d3 75 22 bf 92 aa 9a c8 cd 0f 02 5f fd 5a a1 d5`);
export const EVENT = hex("01 03 06 be 16 07 4a 12 04 0a 02 6d 31");
const PAYLOAD = STORED.subarray(7);

test("the annotated frames decode to their header fields and payload", async () => {
    assert.deepEqual(await decodeFrame(STORED), { kind: 1, compression: 0, dictionaryId: 0, payload: PAYLOAD });
    assert.deepEqual(await decodeFrame(DICTIONARY_1), { kind: 1, compression: 1, dictionaryId: 1, payload: PAYLOAD });
    const event = await decodeFramePayload(EVENT);
    assert.equal(event.kind, 3);
    assert.deepEqual(event.value.kind, { case: "recall", value: { msgId: "m1" } });
});

test("every strict prefix of a frame is frame.truncated, and a byte more is frame.trailing-bytes", async () => {
    for (const frame of [STORED, DICTIONARY_1, EVENT]) {
        for (let n = 0; n < frame.length; n++) {
            assert.equal((await thrown(() => decodeFrame(frame.subarray(0, n)))).code, "frame.truncated", `prefix ${n}`);
        }
        const longer = new Uint8Array([...frame, 0]);
        assert.equal((await thrown(() => decodeFrame(longer))).code, "frame.trailing-bytes");
    }
});

test("a zstd frame passes checks 1 to 4 and is frame.zstd-unavailable", async () => {
    assert.equal((await thrown(() => decodeFrame(ZSTD_4))).code, "frame.zstd-unavailable");
    assert.equal((await thrown(() => decodeFrame(ZSTD_4, { limits: { maxFrameBytes: 65 } }))).code, "limit.frame-size");
    const policy = { compression: 2, dictionaryId: 4 };
    assert.equal((await thrown(() => encodeFrameBytes(1, PAYLOAD, { policy }))).code, "frame.zstd-unavailable");
});

test("a changed header bit is caught by the checksum", async () => {
    const flipped = STORED.slice();
    flipped[1] = 0x02; // kind 2 (batch) instead of 1
    assert.equal((await thrown(() => decodeFrame(flipped))).code, "frame.checksum");
});

test("the writer deflates with a dictionary and its frame reads back", async () => {
    const value = Message.decode(PAYLOAD);
    const frame = await encodeFrame({ kind: 1, value }, { policy: { threshold: 0, dictionaryId: 1 } });
    const header = readFrameHeader(frame);
    assert.deepEqual([header.compression, header.dictionaryId, header.payloadLength], [1, 1, PAYLOAD.length]);
    assert.ok(frame.length <= header.length + PAYLOAD.length);
    assert.deepEqual((await decodeFrame(frame)).payload, PAYLOAD);
});

test("a payload whose deflated body readers would refuse for its ratio is stored", async () => {
    const value = Message.create({ elems: [Elem.create({ kind: { case: "text", value: TextElem.create({ text: "a".repeat(16384) }) } })] });
    const frame = await encodeFrame({ kind: 1, value });
    assert.equal(readFrameHeader(frame).compression, 0);
    const allowed = await encodeFrame({ kind: 1, value }, { limits: { maxInflateRatio: 10000 } });
    assert.equal(readFrameHeader(allowed).compression, 1);
    assert.equal((await thrown(() => decodeFrame(allowed))).code, "limit.inflate-ratio");
});

test("the writer refuses what readers with its limits refuse, with their code and path", async () => {
    const text = (t) => Elem.create({ kind: { case: "text", value: TextElem.create({ text: t }) } });
    const value = Message.create({ elems: [text("a"), text("b"), text("c")] });
    const error = await thrown(() => encodeFrame({ kind: 1, value }, { limits: { maxElems: 2 } }));
    assert.deepEqual([error.code, error.pathText], ["limit.elems", "elems[2]"]);
    const big = Message.create({ msgId: "x".repeat(100) });
    const size = await thrown(() => encodeFrame({ kind: 1, value: big }, { limits: { maxFrameBytes: 50 } }));
    assert.deepEqual([size.code, size.limit, size.observed], ["limit.frame-size", 50, 102]);
    const dictionary = await thrown(() => encodeFrame({ kind: 1, value }, { policy: { dictionaryId: 9 } }));
    assert.equal(dictionary.code, "frame.dictionary");
    // Each count limit, at N and N + 1, in a payload short enough that no
    // size limit is near: the batch's messages, any other repeated field.
    const batch = (n) => MessageBatch.create({ messages: Array.from({ length: n }, () => Message.create({ msgId: "m" })) });
    const atBatch = await encodeFrame({ kind: 2, value: batch(2) }, { limits: { maxBatchMessages: 2 } });
    assert.equal((await decodeFramePayload(atBatch)).value.messages.length, 2);
    const overBatch = await thrown(() => encodeFrame({ kind: 2, value: batch(3) }, { limits: { maxBatchMessages: 2 } }));
    assert.deepEqual([overBatch.code, overBatch.pathText, overBatch.limit], ["limit.batch-messages", "messages[2]", 2]);
    const mentions = (n) => Message.create({ atUserList: Array.from({ length: n }, (_, i) => `u${i}`) });
    await encodeFrame({ kind: 1, value: mentions(3) }, { limits: { maxRepeated: 3 } });
    const overRepeated = await thrown(() => encodeFrame({ kind: 1, value: mentions(4) }, { limits: { maxRepeated: 3 } }));
    assert.deepEqual([overRepeated.code, overRepeated.pathText], ["limit.repeated", "atUserList[3]"]);
    // A count past its limit inside a merger, one layer down.
    const nested = Message.create({ elems: [Elem.create({ kind: { case: "merger", value: { title: "", abstracts: [],
        compatibleText: "", messages: [mentions(4)] } } })] });
    const deep = await thrown(() => encodeFrame({ kind: 1, value: nested }, { limits: { maxRepeated: 3 } }));
    assert.deepEqual([deep.code, deep.pathText], ["limit.repeated", "elems[0].merger.messages[0].atUserList[3]"]);
});

test("a header's sizes are judged against the limits before the body is needed", async () => {
    // A stored frame declaring a 5 MiB body, with only its header given.
    const header = hex("01 01 80 80 c0 02 00 00 00 00");
    const error = await thrown(() => decodeFrame(header));
    assert.deepEqual([error.code, error.limit, error.observed], ["limit.frame-size", 4194304, 5242880]);
});
