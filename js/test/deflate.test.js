// Step 5 for deflate bodies through Node's zlib and through pako (the page's
// codec for dictionary frames): js/test/deflate-cases.js. Compression
// Streams run the same table in Chromium (Tests/Browser/test_js_vectors.py).

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { nodeDeflate } from "../src/deflate-node.js";
import { webDeflate } from "../src/deflate-web.js";
import { decodeFrame, loadDictionary } from "../src/index.js";
import { DEFLATE_CASES, runDeflateCases } from "./deflate-cases.js";
import { DICTIONARY_1 } from "./frame.test.js";
import { thrown } from "./helpers.js";

const PAKO = "/usr/share/nodejs/pako/dist/pako.esm.mjs";

test("node:zlib inflates, overflows and breaks in the documented order", async () => {
    assert.ok(DEFLATE_CASES.length > 10);
    assert.deepEqual(await runDeflateCases(nodeDeflate(), null), []);
    assert.deepEqual(await runDeflateCases(nodeDeflate(), await loadDictionary(2)), []);
});

test("pako (Debian's node-pako) inflates, overflows and breaks in the documented order", async () => {
    assert.ok(existsSync(PAKO), `${PAKO} is missing: apt-get install node-pako`);
    assert.deepEqual(await runDeflateCases(webDeflate({ pako: await import(PAKO) }), await loadDictionary(1)), []);
});

test("Compression Streams alone refuse a dictionary frame with frame.dictionary-unavailable; pako reads it", async () => {
    const error = await thrown(() => decodeFrame(DICTIONARY_1, { deflate: webDeflate() }));
    assert.equal(error.code, "frame.dictionary-unavailable");
    const frame = await decodeFrame(DICTIONARY_1, { deflate: webDeflate({ pako: await import(PAKO) }) });
    assert.equal(frame.payload.length, 30);
});
