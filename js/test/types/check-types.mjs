#!/usr/bin/env node
// The package's TypeScript declarations checked as a TypeScript user meets
// them: `tsc --noEmit --strict` (Debian's node-typescript) passes on
// sample.ts, which uses js/README.md's examples, and fails on copies of it
// with one planted mistake each, at the planted line: a misspelled field, a
// oneof member the schema does not name, a string for an enum, and a decoded
// string used as a number (decoded values are typed, not `any`).
//
//   node js/test/types/check-types.mjs        (CI; exits 1 when a check fails)

import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const folder = fileURLToPath(new URL(".", import.meta.url));
const sample = readFileSync(folder + "sample.ts", "utf8");
const tsc = process.env.IMCODEC_TSC ?? "tsc";

// [file, what, the sample's text, its replacement, what the error names]
const PLANTS = [
    ["planted-field.ts", "a misspelled field", 'msgId: "m2",', 'msgid: "m2",', "msgid"],
    ["planted-oneof.ts", "a oneof member the schema does not name", 'case: "text", value: TextElem', 'case: "txt", value: TextElem', '"txt"'],
    ["planted-enum.ts", "a string for an enum field", "priority: Priority.HIGH,", 'priority: "HIGH",',
        "'string' is not assignable to type 'number'"],
    ["planted-any.ts", "a decoded string used as a number", "console.log(back.timestamp + 1n, back.random + 1);",
        "const n: number = back.msgId;", "'string' is not assignable to type 'number'"],
];

function run(files) {
    const config = folder + "tsconfig.check.json";
    const base = JSON.parse(readFileSync(folder + "tsconfig.json", "utf8"));
    writeFileSync(config, JSON.stringify({ ...base, files }));
    try {
        const result = spawnSync(tsc, ["-p", config, "--pretty", "false"], { encoding: "utf8" });
        if (result.error) throw result.error;
        return { status: result.status, output: result.stdout + result.stderr };
    } finally {
        rmSync(config, { force: true });
    }
}

let failed = 0;
function check(name, ok, detail = "") {
    console.log(`${ok ? "PASS" : "FAIL"} ${name}${detail && !ok ? `: ${detail}` : ""}`);
    if (!ok) failed++;
}

const clean = run(["sample.ts"]);
check("tsc --noEmit --strict passes on sample.ts (js/README.md's examples)", clean.status === 0, clean.output);

const lines = {};
for (const [file, , from, to] of PLANTS) {
    if (!sample.includes(from)) throw new Error(`sample.ts no longer has ${JSON.stringify(from)}`);
    const text = sample.replace(from, to);
    lines[file] = text.slice(0, text.indexOf(to)).split("\n").length;
    writeFileSync(folder + file, text);
}
try {
    const planted = run(PLANTS.map(([file]) => file));
    const errors = planted.output.split("\n").filter((line) => /\(\d+,\d+\): error TS/.test(line));
    for (const [file, what, , , names] of PLANTS) {
        const mine = errors.filter((line) => line.includes(`${file}(`));
        // The error of a property in an object literal may be reported at the
        // call that takes the object, a few lines above the planted one.
        const at = mine.filter((line) => {
            const row = Number(/\((\d+),/.exec(line)[1]);
            return row <= lines[file] && row >= lines[file] - 3 && line.includes(names);
        });
        check(`tsc fails on ${what}, naming ${names} at its line`, planted.status !== 0 && at.length >= 1,
            mine.join("\n") || planted.output);
    }
    const elsewhere = errors.filter((line) => !PLANTS.some(([file]) => line.includes(`${file}(`)));
    check("no error outside the planted files", elsewhere.length === 0, elsewhere.join("\n"));
} finally {
    for (const [file] of PLANTS) rmSync(folder + file, { force: true });
}
console.log(`${PLANTS.length + 2 - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
