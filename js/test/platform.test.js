// What an entry point sets for its platform gives what the portable code
// gives: Node's UTF-8 decoder for string fields, zlib's CRC-32, and a deflate
// codec's synchronous members; and the string writer agrees with TextEncoder.

import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { test } from "node:test";
import zlib from "node:zlib";
import { crc32, crc32Range, setNativeCRC32 } from "../src/crc32.js";
import { nodeDeflate } from "../src/deflate-node.js";
import { Message, TextElem, decodeFrame, decodeFramePayload, encodeFrame, encodeFrameBytes } from "../src/index.js";
import { WireReader, WireWriter, setUTF8Slice } from "../src/wire.js";
import { thrown } from "./helpers.js";

// UTF-16 units of every UTF-8 length, surrogate pairs, lone surrogates, a BOM
// and U+FFFD itself.
const UNITS = ["a", "\u007f", "\u0080", "\u00e9", "\u07ff", "\u0800", "\u4e2d", "\uffff", "\ud83d\ude00",
    "\ud800", "\udc00", "\ufeff", "\ufffd", "\u0000"];

// A deterministic generator, so that a failure names a reproducible case.
function random(seed) {
    let state = seed >>> 0;
    return (n) => {
        state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
        return state % n;
    };
}

function stringOf(next, length) {
    let text = "";
    while (text.length < length) text += UNITS[next(UNITS.length)];
    return text;
}

test("the string writer writes what TextEncoder does, with each length prefix", () => {
    const next = random(1);
    const encoder = new TextEncoder();
    for (let round = 0; round < 3000; round++) {
        const text = stringOf(next, next(round < 2000 ? 80 : 6000));
        const writer = new WireWriter(new Uint8Array(1));
        writer.string(text);
        const expected = new WireWriter();
        const utf8 = encoder.encode(text);
        expected.uint32(utf8.length);
        expected.raw(utf8);
        assert.deepEqual(writer.finish(), expected.finish(), JSON.stringify(text.slice(0, 40)));
    }
});

// Reads one string field of `bytes` as payload bytes (length-prefixed):
// the text, or the error's code.
function readString(bytes) {
    const writer = new WireWriter();
    writer.uint32(bytes.length);
    writer.raw(bytes);
    try {
        return new WireReader(writer.finish()).string();
    } catch (error) {
        return error.code;
    }
}

test("string fields read with Buffer's UTF-8 decoder are TextDecoder's, and refused alike", () => {
    const next = random(2);
    const encoder = new TextEncoder();
    const cases = [];
    for (let round = 0; round < 4000; round++) {
        const bytes = Array.from(encoder.encode(stringOf(next, next(12))));
        // Break some: a byte changed, cut or added anywhere.
        for (let k = next(3); k > 0; k--) {
            const at = next(bytes.length + 1);
            const what = next(3);
            if (what === 0) bytes.splice(at, 0, next(256));
            else if (what === 1) bytes.splice(at, 1);
            else bytes[at] = 0x80 | next(0x80);
        }
        cases.push(Uint8Array.from(bytes, (b) => b ?? 0));
    }
    for (let a = 0; a < 256; a++) for (let b = 0; b < 256; b++) cases.push(Uint8Array.of(a, b));
    const portable = cases.map(readString);
    setUTF8Slice(Buffer.prototype.utf8Slice);
    try {
        const node = cases.map(readString);
        for (let i = 0; i < cases.length; i++) assert.equal(node[i], portable[i], Buffer.from(cases[i]).toString("hex"));
    } finally {
        setUTF8Slice(null);
    }
    assert.ok(portable.includes("payload.utf8"));
});

test("zlib's CRC-32 where it is set gives the tables' CRC at every length and split", () => {
    const data = Uint8Array.from({ length: 700 }, (_, i) => (i * 151 + 7) & 0xff);
    const tables = [];
    for (let n = 0; n <= data.length; n++) tables.push(crc32(data.subarray(0, n)));
    setNativeCRC32(zlib.crc32);
    try {
        for (let n = 0; n <= data.length; n++) assert.equal(crc32(data.subarray(0, n)), tables[n], `length ${n}`);
        for (let split = 0; split <= data.length; split += 7) {
            assert.equal(crc32(data.subarray(split), crc32(data.subarray(0, split))), tables[data.length], `split ${split}`);
            assert.equal(crc32Range(data, split, data.length, crc32Range(data, 0, split, 0)), tables[data.length]);
        }
    } finally {
        setNativeCRC32(null);
    }
});

// node:zlib with its promises only: the frame functions' path for a codec
// without synchronous members (Compression Streams, pako).
function asyncOnly(codec) {
    return { name: codec.name, dictionaries: codec.dictionaries, inflateRaw: codec.inflateRaw, deflateRaw: codec.deflateRaw };
}

test("a codec's synchronous members make the frames and errors its promises make", async () => {
    const sync = nodeDeflate();
    const promised = asyncOnly(sync);
    const text = "hello ".repeat(80);
    const value = Message.create({ msgId: "m1", elems: [{ kind: { case: "text", value: TextElem.create({ text }) } }] });
    for (const policy of [{}, { compression: 0 }, { dictionaryId: 2 }, { level: 9 }]) {
        const frame = await encodeFrame({ kind: 1, value }, { policy, deflate: sync });
        assert.deepEqual(await encodeFrame({ kind: 1, value }, { policy, deflate: promised }), frame);
        assert.deepEqual(await encodeFrameBytes(1, Message.encode(value), { policy, deflate: sync }), frame);
        assert.deepEqual(await decodeFrame(frame, { deflate: sync }), await decodeFrame(frame, { deflate: promised }));
        assert.deepEqual((await decodeFramePayload(frame, { deflate: sync })).value, value);
        // A body byte changed: the same error either way.
        const broken = frame.slice();
        broken[broken.length - 3] ^= 0x5a;
        const [a, b] = [await thrown(() => decodeFrame(broken, { deflate: sync })), await thrown(() => decodeFrame(broken, { deflate: promised }))];
        assert.equal(a.code, b.code);
    }
});
