// package.json's "exports": which entry point each condition reaches, and
// that every entry point exports the same names.

import assert from "node:assert/strict";
import { test } from "node:test";
import { repoText } from "./helpers.js";

const manifest = JSON.parse(repoText("js/package.json"));

test("the package's conditions name browser.js for browsers, node.js for Node and index.js otherwise", () => {
    const root = manifest.exports["."];
    // Conditions are tried in their order: a bundler for browsers that also
    // sets "node" (none should) still gets the browser entry.
    assert.deepEqual(Object.keys(root), ["types", "browser", "node", "default"]);
    assert.deepEqual([root.browser, root.node, root.default], ["./src/browser.js", "./src/node.js", "./src/index.js"]);
});

test("under Node the package's name resolves to node.js, whose platform deflate is node:zlib", async () => {
    // A module inside the package may import it by its own name.
    const byName = await import("imcodec");
    const node = await import("../src/node.js");
    assert.equal(byName.platformDeflate, node.platformDeflate);
    assert.equal(byName.nodeDeflate, node.nodeDeflate);
    assert.equal((await byName.platformDeflate()).name, "node:zlib");
});

test("every entry point exports the names of api.js, and browser.js nothing that names Node", async () => {
    const api = Object.keys(await import("../src/api.js")).sort();
    assert.ok(api.includes("Message") && api.includes("encodeFrame") && api.includes("webDeflate"));
    assert.deepEqual(Object.keys(await import("../src/browser.js")).sort(), api);
    assert.deepEqual(Object.keys(await import("../src/index.js")).sort(), api);
    assert.deepEqual(Object.keys(await import("../src/node.js")).sort(), [...api, "nodeDeflate"].sort());
    for (const file of ["api.js", "browser.js", "deflate.js", "frame.js", "frame-reader.js", "deflate-web.js"]) {
        assert.doesNotMatch(repoText(`js/src/${file}`), /["']node:|deflate-node/, file);
    }
});

test("the declarations' ErrorCode (types/index.d.ts) names the codes of src/errors.js", async () => {
    const { ErrorCode } = await import("../src/errors.js");
    const declared = Object.fromEntries(
        [...repoText("js/types/index.d.ts").matchAll(/^ {4}readonly (\w+): "([a-z0-9.-]+)";$/gm)].map((m) => [m[1], m[2]]),
    );
    assert.deepEqual(declared, { ...ErrorCode });
});
