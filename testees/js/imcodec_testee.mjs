// The JavaScript implementation (js/) under the conformance runner: speaks
// the testee protocol (Sources/IMCodecTestee/IMCodecTestee.docc/WritingATestee.md)
// on standard input and output, with the protocol's messages generated from
// Schemas/imcodec/testee/v1/testee.proto by the same generator as the model
// (js/generated/testee.js). Runs under Node 20; `testee` beside this file
// starts it.

import {
    DICTIONARY_IDS,
    FrameReader,
    IMCodecError,
    decodeFrame,
    decodePayload,
    encodeFrame,
    encodeFrameBytes,
    payloadType,
} from "../../js/src/index.js";
import { DecodedFrame, Request, Response } from "../../js/generated/testee.js";

const UNSUPPORTED = {
    validate: "the validator is not implemented in JavaScript",
    restToPayload: "the Tencent REST form is not implemented in JavaScript",
    payloadToRest: "the Tencent REST form is not implemented in JavaScript",
    validateRest: "the Tencent REST form is not implemented in JavaScript",
};

class BadRequest extends Error {}

function limitsOf(request) {
    const limits = {};
    if (request.limits) {
        for (const [name, value] of Object.entries(request.limits)) {
            if (typeof value === "number" && value !== 0) limits[name] = value;
        }
    }
    return limits;
}

function typeOf(kind) {
    if (kind !== 1 && kind !== 2 && kind !== 3) throw new BadRequest(`payload kind ${kind} is not message, batch or event`);
    return payloadType(kind);
}

function canonical(kind, payload, limits) {
    const type = typeOf(kind);
    return type.encode(type.decode(payload, limits));
}

function decoded(frame, limits) {
    return DecodedFrame.create({
        kind: frame.kind,
        compression: frame.compression,
        dictionaryId: frame.dictionaryId,
        payload: canonical(frame.kind, frame.payload, limits),
    });
}

async function encode(operation, limits) {
    const { kind, payload, compression, threshold, level, dictionaryId } = operation;
    typeOf(kind);
    if (level > (compression === 2 ? 19 : 9)) throw new BadRequest(`level ${level} is not 0...9 (0...19 for zstd)`);
    if (dictionaryId !== 0 && !DICTIONARY_IDS.includes(dictionaryId)) {
        throw new IMCodecError("frame.dictionary", `no shipped dictionary has id ${dictionaryId}`);
    }
    if (compression > 2) throw new BadRequest(`compression ${compression} is not 0, 1 or 2`);
    const options = { limits, policy: { compression, threshold, level: level || 6, dictionaryId } };
    // The reader's order: the frame's size first (on the bytes as given),
    // then the payload decoded with the limits, then the canonical frame.
    await encodeFrameBytes(kind, payload, options);
    const value = decodePayload(kind, payload, limits);
    return encodeFrame({ kind, value }, options);
}

async function stream(chunks, limits) {
    const reader = new FrameReader({ limits });
    const frames = [];
    try {
        for (const chunk of chunks) {
            reader.append(chunk);
            for (let frame; (frame = await reader.next()) !== null; ) frames.push(decoded(frame, limits));
        }
    } catch (error) {
        if (!(error instanceof IMCodecError)) throw error;
        return { frames, failure: failureOf(error), incompleteTail: false };
    }
    return { frames, incompleteTail: reader.bufferedByteCount > 0 };
}

function failureOf(error) {
    return { code: error.code, path: error.pathText, reason: error.reason };
}

async function handle(request) {
    const limits = limitsOf(request);
    const operation = request.operation;
    if (operation === undefined) return { runtimeError: "the request names no operation" };
    const op = operation.value;
    try {
        switch (operation.case) {
            case "decodePayload":
                return { payload: canonical(op.kind, op.payload, limits) };
            case "decodeFrame":
                return { frame: decoded(await decodeFrame(op.frame, { limits }), limits) };
            case "encodeFrame":
                return { frameBytes: await encode(op, limits) };
            case "decodeStream":
                return { stream: await stream(op.chunks, limits) };
            case "jsonToPayload": {
                const type = typeOf(op.kind);
                return { payload: type.encode(type.fromJSONString(op.json, limits)) };
            }
            case "payloadToJson": {
                const type = typeOf(op.kind);
                return { json: type.toJSONString(type.decode(op.payload, limits)) };
            }
            default:
                if (operation.case in UNSUPPORTED) return { skipped: UNSUPPORTED[operation.case] };
                return { runtimeError: `unknown operation ${operation.case}` };
        }
    } catch (error) {
        if (error instanceof IMCodecError) return { failure: failureOf(error) };
        if (error instanceof BadRequest) return { runtimeError: error.message };
        return { runtimeError: `${error.name}: ${error.message}` };
    }
}

function respond(result) {
    const [name] = Object.keys(result);
    const response = Response.create({ result: { case: name, value: result[name] } });
    const bytes = Response.encode(response);
    const prefix = new Uint8Array(4);
    new DataView(prefix.buffer).setUint32(0, bytes.length, true);
    process.stdout.write(prefix);
    process.stdout.write(bytes);
}

// Requests: a 4-byte little-endian length, then that many bytes.
const MAX_REQUEST = 1 << 30;
let pending = Buffer.alloc(0);
for await (const chunk of process.stdin) {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    for (;;) {
        if (pending.length < 4) break;
        const length = pending.readUInt32LE(0);
        if (length > MAX_REQUEST) {
            process.stderr.write(`imcodec_testee.mjs: a request of ${length} bytes is more than it reads\n`);
            process.exit(1);
        }
        if (pending.length < 4 + length) break;
        const body = new Uint8Array(pending.buffer, pending.byteOffset + 4, length).slice();
        pending = pending.subarray(4 + length);
        let request;
        try {
            request = Request.decode(body);
        } catch (error) {
            respond({ runtimeError: `the request does not parse: ${error}` });
            continue;
        }
        respond(await handle(request));
    }
}
if (pending.length > 0) {
    process.stderr.write("imcodec_testee.mjs: the input ends inside a request\n");
    process.exitCode = 1;
}
