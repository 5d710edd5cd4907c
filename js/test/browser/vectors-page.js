// The page of the browser test (Tests/Browser/test_js_vectors.py): runs the
// vectors js/ implements in this browser through the JavaScript testee's
// handler, with the platform's deflate alone or with pako beside the page,
// and tells what the platform offers. Served over HTTP from the repository
// root, with pako at /vendor/pako.esm.mjs.

import { decodeFrame, platformDeflate, readFrameHeader } from "imcodec";
import { webDeflate } from "imcodec/web";
import { handle } from "../../../testees/js/handler.mjs";
import { runDeflateCases } from "../deflate-cases.js";
import { runVectors } from "../vectors.js";
import { loadDictionary } from "imcodec";

function accepts(make) {
    try {
        make();
        return true;
    } catch {
        return false;
    }
}

/**
 * What this browser's platform offers for frames.
 * @returns {Promise<object>}
 */
async function platformFacts() {
    const deflate = await platformDeflate();
    return {
        userAgent: navigator.userAgent,
        decompressDeflateRaw: accepts(() => new DecompressionStream("deflate-raw")),
        compressDeflateRaw: accepts(() => new CompressionStream("deflate-raw")),
        decompressZstd: accepts(() => new DecompressionStream("zstd")),
        platformDeflate: deflate.name,
        platformDictionaries: deflate.dictionaries,
    };
}

/**
 * Runs the vector files in this page.
 * @param {string[]} paths Paths below /Vectors/.
 * @param {{pako: boolean}} options Whether dictionary frames go through pako.
 * @returns {Promise<object>} As js/test/vectors.js's runVectors, with the codec's name.
 */
async function runSuite(paths, options) {
    const files = [];
    for (const path of paths) {
        const response = await fetch(`/Vectors/${path}`);
        if (!response.ok) throw new Error(`GET /Vectors/${path}: ${response.status}`);
        files.push({ path, text: await response.text() });
    }
    const deflate = options.pako ? webDeflate({ pako: await import("/vendor/pako.esm.mjs") }) : webDeflate();
    const started = performance.now();
    const result = await runVectors(files, { handle, decodeFrame, readFrameHeader, deflate });
    const seconds = (performance.now() - started) / 1000;
    document.getElementById("result").textContent += `\n${deflate.name}: ${JSON.stringify(result.counts)} in ${seconds.toFixed(1)} s`;
    return { deflate: deflate.name, seconds, ...result };
}

/**
 * Runs the deflate table of js/test/deflate-cases.js with Compression Streams
 * and with pako.
 * @returns {Promise<{cases: number, wrong: string[]}>} The cases that end otherwise.
 */
async function deflateTable() {
    const pako = await import("/vendor/pako.esm.mjs");
    const wrong = [
        ...(await runDeflateCases(webDeflate(), null)),
        ...(await runDeflateCases(webDeflate({ pako }), await loadDictionary(1))),
    ];
    return { wrong };
}

window.imcodec = { platformFacts, runSuite, deflateTable };
document.getElementById("result").textContent = "ready";
