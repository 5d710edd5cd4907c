// The answers of the JavaScript implementation (js/) to the testee protocol's
// requests (docs/spec/testee-protocol.md), with
// the protocol's messages generated from Schemas/imcodec/testee/v1/testee.proto
// by the same generator as the model (js/generated/testee.js). Runs anywhere
// js/ runs: imcodec_testee.mjs serves it on standard input and output under
// Node, and the browser test (Tests/Browser) calls it in a page.

import {
    DICTIONARY_IDS,
    FrameReader,
    IMCodecError,
    decodeFrame,
    decodePayload,
    encodeFrame,
    encodeFrameBytes,
    payloadType,
} from "../../js/src/api.js";
import { DecodedFrame } from "../../js/generated/testee.js";
import { UnknownProfileError, validate } from "../../js/src/validate.js";
import { batchToREST, messageToREST, restToBatch, restToMessage, validateREST } from "../../js/src/rest.js";

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

// The REST form has a message (a MsgBody array or a message object) and a batch (a message list).
function restTypeOf(kind) {
    if (kind === 1) return "message";
    if (kind === 2) return "batch";
    throw new BadRequest(`the REST form has no payload of kind ${kind}`);
}

function canonical(kind, payload, limits) {
    const type = typeOf(kind);
    return type.encode(type.decode(payload, limits), limits);
}

function decoded(frame, limits) {
    return DecodedFrame.create({
        kind: frame.kind,
        compression: frame.compression,
        dictionaryId: frame.dictionaryId,
        payload: canonical(frame.kind, frame.payload, limits),
    });
}

async function encode(operation, limits, deflate) {
    const { kind, payload, compression, threshold, level, dictionaryId } = operation;
    typeOf(kind);
    // The level is the compressor's: with compression 0 it is not looked at.
    if (compression !== 0 && level > (compression === 2 ? 19 : 9)) {
        throw new BadRequest(`level ${level} is not 0...9 (0...19 for zstd)`);
    }
    if (dictionaryId !== 0 && !DICTIONARY_IDS.includes(dictionaryId)) {
        throw new IMCodecError("frame.dictionary", `no shipped dictionary has id ${dictionaryId}`);
    }
    if (compression > 2) throw new BadRequest(`compression ${compression} is not 0, 1 or 2`);
    const options = { limits, deflate, policy: { compression, threshold, level, dictionaryId } };
    // The reader's order: the frame's size first (on the bytes as given),
    // then the payload decoded with the limits, then the canonical frame.
    await encodeFrameBytes(kind, payload, options);
    const value = decodePayload(kind, payload, limits);
    return encodeFrame({ kind, value }, options);
}

async function stream(chunks, limits, deflate) {
    const reader = new FrameReader({ limits, deflate });
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

/**
 * The answer to one request of the testee protocol.
 * @param {object} request A decoded `Request` (js/generated/testee.js).
 * @param {{deflate?: import("../../js/src/frame.js").DeflateCodec}} [options]
 *   The deflate codec; the platform's when absent.
 * @returns {Promise<object>} The `Response`'s result: one member named as its
 *   oneof case (`{payload}`, `{frame}`, `{failure}`, `{skipped}`, ...).
 */
export async function handle(request, options = {}) {
    const deflate = options.deflate;
    const limits = limitsOf(request);
    const operation = request.operation;
    if (operation === undefined) return { runtimeError: "the request names no operation" };
    const op = operation.value;
    try {
        switch (operation.case) {
            case "decodePayload":
                return { payload: canonical(op.kind, op.payload, limits) };
            case "decodeFrame":
                return { frame: decoded(await decodeFrame(op.frame, { limits, deflate }), limits) };
            case "encodeFrame":
                return { frameBytes: await encode(op, limits, deflate) };
            case "decodeStream":
                return { stream: await stream(op.chunks, limits, deflate) };
            case "jsonToPayload": {
                const type = typeOf(op.kind);
                return { payload: type.encode(type.fromJSONString(op.json, limits), limits) };
            }
            case "payloadToJson": {
                const type = typeOf(op.kind);
                return { json: type.toJSONString(type.decode(op.payload, limits), { limits }) };
            }
            case "validate": {
                const type = typeOf(op.kind);
                return { findings: { findings: validate(type.decode(op.payload, limits), type, op.profile) } };
            }
            case "restToPayload": {
                const type = restTypeOf(op.kind);
                const value = type === "batch" ? restToBatch(op.rest, limits) : restToMessage(op.rest, limits);
                return { payload: payloadType(op.kind).encode(value, limits) };
            }
            case "payloadToRest": {
                const type = restTypeOf(op.kind);
                const value = payloadType(op.kind).decode(op.payload, limits);
                return { rest: type === "batch" ? batchToREST(value) : messageToREST(value) };
            }
            case "validateRest":
                return { findings: { findings: validateREST(op.rest, op.profile, limits) } };
            default:
                return { runtimeError: `unknown operation ${operation.case}` };
        }
    } catch (error) {
        if (error instanceof IMCodecError) return { failure: failureOf(error) };
        if (error instanceof BadRequest || error instanceof UnknownProfileError) return { runtimeError: error.message };
        return { runtimeError: `${error.name}: ${error.message}` };
    }
}

