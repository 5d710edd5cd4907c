// Runs the golden vectors (Vectors/) that js/ implements against it, the way
// the conformance runner turns a case into testee requests and judges the
// answers (Sources/IMCodecConformance/CaseCheck.swift), through the JavaScript
// testee's handler (testees/js/handler.mjs). The same module runs under Node
// (js/test/run-vectors.js) and in a browser page (js/test/browser/), so the
// two runs can be compared case by case.
//
// Payload cases (binary and proto3 JSON), frames, streams and frame encoding
// run; validation and the Tencent REST form are not implemented in js/.

import { JSONNumber, JSONObject, parseJSON, stringifyJSON } from "../src/json.js";

const KINDS = { message: 1, batch: 2, event: 3 };
const OPERATIONS = new Set(["payload", "decode-frame", "decode-stream", "encode-frame", "validate"]);

function hex(text) {
    const out = new Uint8Array(text.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = parseInt(text.substr(i * 2, 2), 16);
    return out;
}

function toHex(bytes) {
    let out = "";
    for (const b of bytes) out += b.toString(16).padStart(2, "0");
    return out;
}

// A parsed vector file's JSON object as a lookup (vector files have no
// duplicate members).
function get(object, key) {
    if (!(object instanceof JSONObject)) return undefined;
    for (const [k, v] of object.members) if (k === key) return v;
    return undefined;
}

function text(value) {
    return value === undefined ? undefined : value instanceof JSONNumber ? value.text : value;
}

function number(value) {
    return value === undefined ? 0 : Number(value.text);
}

function expectedError(value) {
    return value === undefined ? undefined : { code: get(value, "code"), path: get(value, "path") };
}

function expectedFrame(value) {
    return {
        kind: KINDS[get(value, "kind")],
        compression: number(get(value, "compression")),
        dictionaryId: number(get(value, "dictionaryId")),
        payloadHex: get(value, "payloadHex"),
    };
}

// Two JSON trees say the same thing (Vectors/README.md, "Comparing JSON"):
// member order aside, numbers by value (-0 is not 0), no duplicate members.
function equivalent(a, b) {
    if (a instanceof JSONNumber || b instanceof JSONNumber) {
        if (!(a instanceof JSONNumber && b instanceof JSONNumber)) return false;
        if (/^-?\d+$/.test(a.text) && /^-?\d+$/.test(b.text)) {
            return BigInt(a.text) === BigInt(b.text) && a.text.startsWith("-") === b.text.startsWith("-");
        }
        return Object.is(Number(a.text), Number(b.text));
    }
    if (Array.isArray(a) || Array.isArray(b)) {
        return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((e, i) => equivalent(e, b[i]));
    }
    if (a instanceof JSONObject || b instanceof JSONObject) {
        if (!(a instanceof JSONObject && b instanceof JSONObject)) return false;
        const keys = (o) => o.members.map(([k]) => k);
        if (new Set(keys(a)).size !== a.members.length || new Set(keys(b)).size !== b.members.length) return false;
        if (a.members.length !== b.members.length) return false;
        return a.members.every(([k, v]) => b.members.some(([k2, v2]) => k2 === k && equivalent(v, v2)));
    }
    return a === b;
}

function limitsOf(vector) {
    const limits = {};
    const given = get(vector, "limits");
    if (given instanceof JSONObject) for (const [name, value] of given.members) limits[name] = Number(value.text);
    return limits;
}

// The checks of one case: a request and a judge of its answer, in the order
// the runner sends them.
function checksOf(vector) {
    const id = get(vector, "id");
    const operation = get(vector, "operation");
    const kind = KINDS[get(vector, "kind")] ?? 0;
    const input = get(vector, "input");
    const expected = get(vector, "expected");
    const error = expectedError(get(expected, "error"));
    const request = (name, value) => ({ caseId: id, limits: limitsOf(vector), operation: { case: name, value } });
    const checks = [];
    const add = (name, value, judge) => checks.push({ request: request(name, value), judge });
    const failure = (wanted) => (answer) => {
        if (answer.failure === undefined) return "answered " + Object.keys(answer)[0] + `, expected ${wanted.code}`;
        if (answer.failure.code === wanted.code && answer.failure.path === wanted.path) return null;
        return `error:${answer.failure.code}`;
    };
    const payloadIs = (wanted) => (answer) =>
        answer.payload === undefined ? "wrong-answer" : toHex(answer.payload) === wanted ? null : "wrong-answer";
    const frameMatches = (frame, wanted) =>
        frame.kind === wanted.kind &&
        frame.compression === wanted.compression &&
        frame.dictionaryId === wanted.dictionaryId &&
        toHex(frame.payload) === wanted.payloadHex;
    switch (operation) {
        case "payload": {
            const payloadHex = get(input, "payloadHex");
            const jsonText = text(get(input, "jsonText")) ?? (get(input, "json") === undefined ? undefined : stringifyJSON(get(input, "json")));
            if (error) {
                if (payloadHex !== undefined) add("decodePayload", { kind, payload: hex(payloadHex) }, failure(error));
                else if (jsonText !== undefined) add("jsonToPayload", { kind, json: jsonText }, failure(error));
                break;
            }
            const canonical = get(expected, "payloadHex");
            const payloadInput = payloadHex ?? canonical;
            if (canonical === undefined || payloadInput === undefined) break;
            if (jsonText !== undefined) add("jsonToPayload", { kind, json: jsonText }, payloadIs(canonical));
            add("decodePayload", { kind, payload: hex(payloadInput) }, payloadIs(canonical));
            const json = get(expected, "json");
            if (json !== undefined) {
                add("payloadToJson", { kind, payload: hex(payloadInput) }, (answer) => {
                    if (answer.json === undefined) return answer.failure ? `error:${answer.failure.code}` : "wrong-answer";
                    try {
                        return equivalent(parseJSON(answer.json), json) ? null : "wrong-answer";
                    } catch {
                        return "wrong-answer";
                    }
                });
            }
            break;
        }
        case "decode-frame": {
            const wanted = error ? null : expectedFrame(get(expected, "frame"));
            add("decodeFrame", { frame: hex(get(input, "frameHex")) }, error ? failure(error) : (answer) => {
                if (answer.frame === undefined) return answer.failure ? `error:${answer.failure.code}` : "wrong-answer";
                return frameMatches(answer.frame, wanted) ? null : "wrong-answer";
            });
            break;
        }
        case "decode-stream": {
            const frames = (get(expected, "frames") ?? []).map(expectedFrame);
            const incompleteTail = get(expected, "incompleteTail") === true;
            const chunks = get(input, "chunksHex").map(hex);
            add("decodeStream", { chunks }, (answer) => {
                const stream = answer.stream;
                if (stream === undefined) return answer.failure ? `error:${answer.failure.code}` : "wrong-answer";
                if (stream.frames.length !== frames.length) return "wrong-answer";
                if (!stream.frames.every((frame, i) => frameMatches(frame, frames[i]))) return "wrong-answer";
                const got = stream.failure;
                if ((got === undefined) !== (error === undefined)) return "wrong-answer";
                if (got !== undefined && (got.code !== error.code || got.path !== error.path)) return "wrong-answer";
                return stream.incompleteTail === incompleteTail ? null : "wrong-answer";
            });
            break;
        }
        case "validate": {
            // The findings in any order, each with its code, path and severity, and its limit and actual
            // where the vector gives them (Vectors/README.md, "validate").
            const wanted = (get(expected, "findings") ?? []).map((f) => ({
                code: get(f, "code"), path: get(f, "path") ?? "", severity: get(f, "severity"),
                limit: get(f, "limit") === undefined ? undefined : number(get(f, "limit")),
                actual: get(f, "actual") === undefined ? undefined : number(get(f, "actual")),
            }));
            const profile = get(input, "profile");
            add("validate", { kind, payload: hex(get(input, "payloadHex")), profile }, (answer) => {
                if (answer.findings === undefined) return answer.failure ? `error:${answer.failure.code}` : "wrong-answer";
                const left = [...answer.findings.findings];
                for (const w of wanted) {
                    const i = left.findIndex((f) => f.code === w.code && f.path === w.path && f.severity === w.severity &&
                        (w.limit === undefined || Number(f.limit ?? 0) === w.limit) &&
                        (w.actual === undefined || Number(f.actual ?? 0) === w.actual));
                    if (i < 0) return "wrong-answer";
                    left.splice(i, 1);
                }
                return left.length === 0 ? null : "wrong-answer";
            });
            break;
        }
        case "encode-frame": {
            const payload = hex(get(input, "payloadHex"));
            const policy = get(input, "policy");
            const value = {
                kind,
                payload,
                compression: number(get(policy, "compression")),
                threshold: number(get(policy, "threshold")),
                level: number(get(policy, "level")),
                dictionaryId: number(get(policy, "dictionaryId")),
            };
            add("encodeFrame", value, error ? failure(error) : { encoded: expectedFrame(get(expected, "frame")), payloadLength: payload.length });
            break;
        }
    }
    return checks;
}

/**
 * Runs every case of the given vector files that js/ implements. A case's
 * `failure` is the runner's failure code of its first failed check
 * (`error:CODE`, `wrong-answer`, `runtime-error`), and `code` the error code
 * in the last answer (a stream's too), when there is one.
 * @param {Array<{path: string, text: string}>} files Vector files, as text.
 * @param {{handle: Function, decodeFrame: Function, readFrameHeader: Function, deflate?: object}} implementation
 *   The testee handler, the library's frame decoder (to check frames built)
 *   and the deflate codec to run with.
 * @returns {Promise<{cases: Record<string, {file: string, operation: string, status: string, failure: string|null,
 *   code: string|null}>,
 *   counts: {cases: number, passed: number, failed: number, byFailure: Record<string, number>}}>}
 */
export async function runVectors(files, implementation) {
    const { handle, deflate } = implementation;
    const cases = {};
    const counts = { cases: 0, passed: 0, failed: 0, byFailure: {} };
    for (const file of files) {
        const document = parseJSON(file.text);
        for (const vector of get(document, "cases")) {
            const operation = get(vector, "operation");
            if (!OPERATIONS.has(operation)) continue;
            let failure = null;
            let code = null;
            for (const check of checksOf(vector)) {
                const answer = await handle(check.request, { deflate });
                code = answer.failure?.code ?? answer.stream?.failure?.code ?? null;
                if (answer.runtimeError !== undefined) failure = "runtime-error";
                else if (answer.skipped !== undefined) failure = "skipped";
                else if (typeof check.judge === "function") failure = check.judge(answer);
                else failure = await judgeEncoded(answer, check.judge, implementation);
                if (failure !== null) break;
            }
            const id = get(vector, "id");
            cases[id] = { file: file.path, operation, status: failure === null ? "passed" : "failed", failure, code };
            counts.cases += 1;
            if (failure === null) counts.passed += 1;
            else {
                counts.failed += 1;
                counts.byFailure[failure] = (counts.byFailure[failure] ?? 0) + 1;
            }
        }
    }
    return { cases, counts };
}

// A frame built must decode to the expected header and payload, and a stored
// frame must be no more than its header and payload.
async function judgeEncoded(answer, wanted, implementation) {
    if (answer.frameBytes === undefined) return answer.failure ? `error:${answer.failure.code}` : "wrong-answer";
    let frame;
    try {
        frame = await implementation.decodeFrame(answer.frameBytes, { deflate: implementation.deflate });
    } catch {
        return "wrong-answer";
    }
    const expected = wanted.encoded;
    if (frame.kind !== expected.kind || frame.compression !== expected.compression) return "wrong-answer";
    if (frame.dictionaryId !== expected.dictionaryId || toHex(frame.payload) !== expected.payloadHex) return "wrong-answer";
    const header = implementation.readFrameHeader(answer.frameBytes);
    return answer.frameBytes.length > header.length + wanted.payloadLength ? "wrong-answer" : null;
}
