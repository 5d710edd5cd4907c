// js/ raises the format's codes: each one is in the table of ErrorCodes.md.

import assert from "node:assert/strict";
import { test } from "node:test";
import { ErrorCode, IMCodecError, pathText } from "../src/errors.js";
import { repoText } from "./helpers.js";

test("every code js/ raises is a documented code", () => {
    const documented = new Set(
        [...repoText("docs/spec/error-and-finding-codes.md").matchAll(/^\| `([a-z0-9.-]+)` \|/gm)].map((m) => m[1]),
    );
    const missing = Object.values(ErrorCode).filter((code) => !documented.has(code));
    assert.ok(documented.size > 30);
    assert.deepEqual(missing, []);
});

test("a path's text names fields with dots and entries with brackets", () => {
    assert.equal(pathText(["elems", 2, "merger", "messages", 0, "elems", 1, "text", "text"]),
        "elems[2].merger.messages[0].elems[1].text.text");
    assert.equal(pathText([]), "");
    assert.equal(new IMCodecError("payload.utf8", "x", { path: ["msgId"] }).toString(), "payload.utf8 at msgId: x");
});
