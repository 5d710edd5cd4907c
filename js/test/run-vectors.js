#!/usr/bin/env node
// Runs the vectors js/ implements under Node (js/test/vectors.js) and prints
// the result as JSON: per case its status and failure, and the counts. The
// browser test (Tests/Browser/test_js_vectors.py) compares a page's run with
// this one.
//
//   node js/test/run-vectors.js [VECTORS_DIR] > result.json

import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { decodeFrame, readFrameHeader } from "../src/index.js";
import { nodeDeflate } from "../src/deflate-node.js";
import { handle } from "../../testees/js/handler.mjs";
import { runVectors } from "./vectors.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const folder = process.argv[2] ?? join(root, "Vectors");

/**
 * Every vector file below a folder, in a stable order.
 * @param {string} dir
 * @returns {string[]}
 */
export function vectorFiles(dir) {
    const out = [];
    for (const area of readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()) {
        for (const name of readdirSync(join(dir, area)).filter((n) => n.endsWith(".json")).sort()) out.push(join(dir, area, name));
    }
    return out;
}

const files = vectorFiles(folder).map((path) => ({ path: relative(folder, path), text: readFileSync(path, "utf8") }));
const result = await runVectors(files, { handle, decodeFrame, readFrameHeader, deflate: nodeDeflate() });
process.stdout.write(JSON.stringify({ runtime: `node ${process.version}`, deflate: "node:zlib", ...result }) + "\n");
