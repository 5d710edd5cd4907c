// The streaming reader: frames split anywhere, "need more" without copying,
// limits before the body, and the end of the stream.

import assert from "node:assert/strict";
import { test } from "node:test";
import { FrameReader, decodeFrame, encodeFrameBytes, readFrames } from "../src/index.js";
import { DICTIONARY_1, EVENT, STORED } from "./frame.test.js";
import { hex, thrown } from "./helpers.js";

const STREAM = new Uint8Array([...STORED, ...DICTIONARY_1, ...EVENT]);

async function drain(reader) {
    const frames = [];
    for (let frame; (frame = await reader.next()) !== null; ) frames.push(frame);
    return frames;
}

test("a stream split at every byte, and byte by byte, reads as the same three frames", async () => {
    const whole = await Promise.all([STORED, DICTIONARY_1, EVENT].map((frame) => decodeFrame(frame)));
    for (let split = 0; split <= STREAM.length; split++) {
        const reader = new FrameReader();
        reader.append(STREAM.subarray(0, split));
        const frames = await drain(reader);
        reader.append(STREAM.subarray(split));
        frames.push(...(await drain(reader)));
        reader.finish();
        assert.deepEqual(frames, whole, `split at ${split}`);
    }
    const reader = new FrameReader();
    const frames = [];
    for (const byte of STREAM) {
        reader.append(new Uint8Array([byte]));
        frames.push(...(await drain(reader)));
    }
    assert.deepEqual(frames, whole);
});

test("a stored body that arrived in one chunk is returned in place, not copied", async () => {
    const chunk = STREAM.slice();
    const reader = new FrameReader();
    reader.append(chunk);
    const frame = await reader.next();
    assert.equal(frame.payload.buffer, chunk.buffer);
    assert.equal(frame.payload.byteOffset, 7);
});

test("an incomplete frame is 'need more' until its last byte, and frame.truncated at the end", async () => {
    const reader = new FrameReader();
    reader.append(STORED.subarray(0, STORED.length - 1));
    assert.equal(await reader.next(), null);
    assert.equal(reader.bufferedByteCount, STORED.length - 1);
    assert.equal((await thrown(() => reader.finish())).code, "frame.truncated");
    reader.append(STORED.subarray(STORED.length - 1));
    assert.equal((await reader.next()).payload.length, 30);
    reader.finish();
});

test("a header past the limits stops the stream before its body arrives, and the reader stays stopped", async () => {
    const reader = new FrameReader({ limits: { maxFrameBytes: 16 } });
    reader.append(STORED.subarray(0, 7));
    const error = await thrown(() => reader.next());
    assert.deepEqual([error.code, error.limit, error.observed], ["limit.frame-size", 16, 30]);
    reader.append(EVENT);
    assert.equal(await thrown(() => reader.next()), error);
});

test("a broken frame after good ones ends the stream with its code", async () => {
    const reader = new FrameReader();
    reader.append(new Uint8Array([...STORED, 0x02, 0x01]));
    assert.equal((await reader.next()).kind, 1);
    assert.equal((await thrown(() => reader.next())).code, "frame.version");
});

test("nextPayload decodes each frame's payload with the reader's limits", async () => {
    const reader = new FrameReader({ limits: { maxElems: 0 } });
    reader.append(EVENT);
    reader.append(STORED);
    assert.equal((await reader.nextPayload()).value.kind.case, "recall");
    const error = await thrown(() => reader.nextPayload());
    assert.deepEqual([error.code, error.pathText], ["limit.elems", "elems[0]"]);
});

test("readFrames reads an async iterable of chunks", async () => {
    async function* chunks() {
        for (let at = 0; at < STREAM.length; at += 5) yield STREAM.subarray(at, at + 5);
    }
    const kinds = [];
    for await (const frame of readFrames(chunks())) kinds.push([frame.kind, frame.dictionaryId]);
    assert.deepEqual(kinds, [[1, 0], [1, 1], [3, 0]]);
    const cut = async function* () {
        yield hex("01 01 1e");
    };
    const error = await thrown(async () => {
        for await (const frame of readFrames(cut())) assert.fail(`no frame expected, got ${frame.kind}`);
    });
    assert.equal(error.code, "frame.truncated");
});

// A 1 MiB stored frame, its payload bytes counting up.
async function largeFrame() {
    const payload = new Uint8Array(1 << 20).map((_, index) => index & 0xff);
    const frame = await encodeFrameBytes(1, payload, { policy: { compression: 0 } });
    return { payload, frame };
}

test("a 1 MiB frame fed one byte at a time copies each byte at most twice, besides the header's few peeks", async () => {
    const { payload, frame } = await largeFrame();
    const reader = new FrameReader();
    const set = Uint8Array.prototype.set;
    let copied = 0;
    Uint8Array.prototype.set = function (source, offset) {
        copied += source.length;
        return set.call(this, source, offset);
    };
    let read = null;
    try {
        for (let at = 0; at < frame.length && read === null; at++) {
            reader.append(frame.subarray(at, at + 1));
            read = await reader.next();
        }
    } finally {
        Uint8Array.prototype.set = set;
    }
    assert.ok(read !== null, "the frame is read once its last byte arrived");
    assert.ok(read.payload.length === payload.length && read.payload.every((byte, index) => byte === payload[index]));
    // Each call before the header is whole copies what there is of it (at most 21 bytes).
    assert.ok(copied <= 2 * frame.length + 21 * 21, `${copied} bytes copied for a frame of ${frame.length}`);
    assert.equal(reader.bufferedByteCount, 0);
});

test("a 1 MiB frame fed one byte at a time is read in linear time (generous bound: 20 s; quadratic took minutes)", async () => {
    const { frame } = await largeFrame();
    const reader = new FrameReader();
    const started = performance.now();
    let read = null;
    for (let at = 0; at < frame.length; at++) {
        reader.append(frame.subarray(at, at + 1));
        read = (await reader.next()) ?? read;
    }
    const seconds = (performance.now() - started) / 1000;
    assert.equal(read.payload.length, 1 << 20);
    assert.ok(seconds < 20, `${seconds.toFixed(1)} s`);
});

test("chunks of every size mixed (gathered small ones, then large ones kept in place) read as the frames", async () => {
    // Three large stored frames around the three small ones, split into runs
    // of sizes in turn: small chunks are gathered behind buffered bytes (into
    // a new array when the last one cannot take them), large ones are kept
    // as they are.
    // The last one is 10,000 bytes, past what one gathering array holds at first.
    const large = await Promise.all([700, 700, 10_000].map((length, n) =>
        encodeFrameBytes(1, new Uint8Array(length).map((_, i) => (i * 7 + n) & 0xff), { policy: { compression: 0 } })));
    const stream = new Uint8Array([...large[0], ...STORED, ...large[1], ...DICTIONARY_1, ...large[2], ...EVENT]);
    const whole = await Promise.all([large[0], STORED, large[1], DICTIONARY_1, large[2], EVENT].map((f) => decodeFrame(f)));
    // And 50 splits drawn from a fixed seed (a linear congruential generator),
    // run lengths from 1 to 600.
    let seed = 12345;
    const draw = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 600 + 1;
    const drawn = Array.from({ length: 50 }, () => Array.from({ length: 64 }, draw));
    for (const sizes of [[1, 3, 300, 40], [300, 1, 1, 257], [5, 256, 257, 2], [3], [7, 250], ...drawn]) {
        const reader = new FrameReader();
        const frames = [];
        for (let at = 0, k = 0; at < stream.length; k++) {
            const size = sizes[k % sizes.length];
            reader.append(stream.slice(at, at + size));
            at += size;
            frames.push(...(await drain(reader)));
        }
        reader.finish();
        assert.deepEqual(frames, whole, `runs of ${sizes}`);
    }
});
