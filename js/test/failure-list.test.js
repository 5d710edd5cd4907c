// testees/js/failure-list.txt declares exactly what js/ does not do.

import assert from "node:assert/strict";
import { test } from "node:test";
import { repoText } from "./helpers.js";

function entries(text) {
    const out = new Map();
    for (const line of text.split("\n")) {
        const body = line.split("#")[0].trim();
        if (body === "") continue;
        const [first, second] = body.split(/\s+/);
        out.set(first, second);
    }
    return out;
}

test("the zstd cases of the JavaScript failure list are those of Vectors/no-zstd-failure-list.txt", () => {
    const js = entries(repoText("testees/js/failure-list.txt"));
    const noZstd = entries(repoText("Vectors/no-zstd-failure-list.txt"));
    const known = new Map([...js].filter(([first]) => first !== "skip"));
    assert.ok(noZstd.size > 0);
    assert.deepEqual(known, noZstd);
});

test("the JavaScript failure list skips no operation: js/ implements every one", () => {
    const operations = repoText("testees/js/failure-list.txt")
        .split("\n")
        .map((line) => line.split("#")[0].trim().split(/\s+/))
        .filter(([first]) => first === "skip");
    assert.deepEqual(operations, []);
});
