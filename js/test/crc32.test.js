// CRC-32: the check value of the IEEE polynomial, zlib's values for longer
// inputs, and continuation across any split.

import assert from "node:assert/strict";
import { test } from "node:test";
import zlib from "node:zlib";
import { crc32 } from "../src/index.js";

const bytes = (text) => new TextEncoder().encode(text);

test("the CRC-32 check value and the empty input", () => {
    // The catalogue's check value of CRC-32/ISO-HDLC: CRC of "123456789".
    assert.equal(crc32(bytes("123456789")), 0xcbf43926);
    assert.equal(crc32(new Uint8Array(0)), 0);
});

test("every length from 0 to 300 and every split agree with a CRC computed bit by bit", () => {
    // The definition, one bit at a time: reflected polynomial 0xEDB88320,
    // initial and final value all ones.
    const bitwise = (data) => {
        let c = 0xffffffff;
        for (const b of data) {
            c ^= b;
            for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
        }
        return (c ^ 0xffffffff) >>> 0;
    };
    const data = Uint8Array.from({ length: 300 }, (_, i) => (i * 151 + 7) & 0xff);
    for (let n = 0; n <= data.length; n++) assert.equal(crc32(data.subarray(0, n)), bitwise(data.subarray(0, n)), `length ${n}`);
    for (let split = 0; split <= 40; split++) {
        const whole = data.subarray(0, 40);
        assert.equal(crc32(whole.subarray(split), crc32(whole.subarray(0, split))), bitwise(whole), `split ${split}`);
    }
    if (typeof zlib.crc32 === "function") assert.equal(crc32(data), zlib.crc32(data));
});
