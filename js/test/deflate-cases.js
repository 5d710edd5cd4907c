// Step 5 for deflate bodies (FrameFormat.md, "Compression"), as a table that
// any deflate codec of js/ is run against: under Node for node:zlib and pako
// (deflate.test.js), in Chromium for Compression Streams and pako
// (Tests/Browser/test_js_vectors.py through js/test/browser/).

// A stored block of n bytes "a": final, or not final and followed by a block
// of the reserved type 3, so that the stream makes n bytes and then breaks.
function stored(n, final) {
    const block = [final ? 0x01 : 0x00, n & 0xff, n >> 8, ~n & 0xff, (~n >> 8) & 0xff, ...new Uint8Array(n).fill(0x61)];
    return new Uint8Array(final ? block : [...block, 0x07]);
}

/**
 * Bodies, declared payload lengths and the code step 5 must give (null: the
 * body inflates to the payload).
 * @type {Array<{name: string, body: Uint8Array, length: number, code: string|null}>}
 */
export const DEFLATE_CASES = [
    { name: "complete, exact length", body: stored(40, true), length: 40, code: null },
    { name: "complete, one byte more than declared", body: stored(40, true), length: 39, code: "frame.payload-length" },
    { name: "complete, one byte fewer than declared", body: stored(40, true), length: 41, code: "frame.payload-length" },
    { name: "a byte after the end of the stream", body: new Uint8Array([...stored(40, true), 0]), length: 40, code: "frame.deflate" },
    { name: "cut before its end", body: stored(40, true).subarray(0, 30), length: 40, code: "frame.deflate" },
    { name: "empty body", body: new Uint8Array(0), length: 0, code: "frame.deflate" },
    { name: "makes 50, declares 10, then breaks", body: stored(50, false), length: 10, code: "frame.payload-length" },
    { name: "makes 50, declares 0, then breaks", body: stored(50, false), length: 0, code: "frame.payload-length" },
    { name: "makes 120, declares 70, then breaks", body: stored(120, false), length: 70, code: "frame.payload-length" },
    { name: "makes 5000, declares 3000, then breaks", body: stored(5000, false), length: 3000, code: "frame.payload-length" },
    { name: "makes 50, declares 60, breaks", body: stored(50, false), length: 60, code: "frame.deflate" },
    { name: "makes 5000, declares 6000, breaks", body: stored(5000, false), length: 6000, code: "frame.deflate" },
];

/**
 * Runs the table against a codec.
 * @param {import("../src/frame.js").DeflateCodec} codec
 * @param {Uint8Array|null} dictionary Passed to the codec (stored blocks ignore it).
 * @returns {Promise<string[]>} One line per case that ends otherwise; empty when all pass.
 */
export async function runDeflateCases(codec, dictionary) {
    const wrong = [];
    for (const { name, body, length, code } of DEFLATE_CASES) {
        let got = null;
        try {
            const out = await codec.inflateRaw(body, length, dictionary);
            if (out.length !== length) got = `${out.length} bytes`;
        } catch (error) {
            got = error.code ?? String(error);
        }
        if (got !== code) wrong.push(`${codec.name}: ${name}: ${got}, expected ${code}`);
    }
    return wrong;
}
