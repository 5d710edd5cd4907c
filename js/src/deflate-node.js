// Raw deflate through Node's zlib (node:zlib), with preset dictionaries.

import zlib from "node:zlib";
import { deflateError, payloadTooLong, payloadTooShort } from "./inflate-rules.js";

const TOO_LARGE = "ERR_BUFFER_TOO_LARGE";

/**
 * The deflate codec of Node: `node:zlib`, which takes preset dictionaries.
 * zstd is not offered: Node 20's zlib has no zstd. Its work is synchronous,
 * so it also offers it without a promise (`inflateRawSync`, `deflateRawSync`),
 * which the frame functions use.
 * @returns {import("./frame.js").DeflateCodec}
 */
export function nodeDeflate() {
    return {
        name: "node:zlib",
        dictionaries: true,
        inflateRaw: async (body, payloadLength, dictionary) => inflateRaw(body, payloadLength, dictionary),
        deflateRaw: async (payload, level, dictionary) => deflateRaw(payload, level, dictionary),
        inflateRawSync: inflateRaw,
        deflateRawSync: deflateRaw,
    };
}

/**
 * zlib's CRC-32 (`zlib.crc32`, from Node 20.15), which src/crc32.js uses
 * when an entry point sets it; undefined where Node has none.
 * @type {((bytes: Uint8Array, crc: number) => number) | undefined}
 */
export const nodeCRC32 = typeof zlib.crc32 === "function" ? zlib.crc32 : undefined;

function deflateRaw(payload, level, dictionary) {
    const options = { level };
    if (dictionary) options.dictionary = dictionary;
    const out = zlib.deflateRawSync(payload, options);
    return new Uint8Array(out.buffer, out.byteOffset, out.length);
}

// Inflates a body into exactly `length` bytes with step 5's order of checks
// (FrameFormat.md, "Compression"). zlib writes at most `chunkSize` bytes per
// call and Node looks at the output after each call, so a chunk of
// `length + 1` bytes stops a stream that wants more at the first byte past
// the payload, before zlib reads any further code of it. Node's chunks are at
// least 64 bytes: for shorter payloads a broken stream is looked at again,
// prefix by prefix, to see whether it overflows before it breaks.
function inflateRaw(body, length, dictionary) {
    const options = { chunkSize: Math.max(64, length + 1), maxOutputLength: Math.max(1, length), info: true };
    if (dictionary) options.dictionary = dictionary;
    let result;
    try {
        result = zlib.inflateRawSync(body, options);
    } catch (error) {
        if (error.code === TOO_LARGE) throw payloadTooLong();
        if (length + 1 < 64 && overflowsBeforeBreaking(body, length, dictionary)) throw payloadTooLong();
        throw deflateError(error.code === "Z_BUF_ERROR" ? "the deflate stream ends before its final block" : error.message);
    }
    const out = result.buffer;
    if (out.length > length) throw payloadTooLong();
    if (result.engine.bytesWritten < body.length) throw deflateError("the deflate stream ends before the body does");
    if (out.length < length) throw payloadTooShort(out.length, length);
    return new Uint8Array(out.buffer, out.byteOffset, out.length);
}

// Whether a broken stream makes more than `length` bytes before the point
// where it breaks: the longest prefix of the body that inflates without an
// error (a prefix only ends early, which a sync flush allows) is found by
// bisection, and its output compared with the payload length.
function overflowsBeforeBreaking(body, length, dictionary) {
    const options = { chunkSize: 64, maxOutputLength: Math.max(1, length), finishFlush: zlib.constants.Z_SYNC_FLUSH };
    if (dictionary) options.dictionary = dictionary;
    const attempt = (n) => {
        try {
            return zlib.inflateRawSync(body.subarray(0, n), options).length > length ? "long" : "ok";
        } catch (error) {
            return error.code === TOO_LARGE ? "long" : "broken";
        }
    };
    let good = 0;
    let bad = body.length;
    if (attempt(bad) === "long") return true;
    while (bad - good > 1) {
        const middle = (good + bad) >>> 1;
        const outcome = attempt(middle);
        if (outcome === "long") return true;
        if (outcome === "broken") bad = middle;
        else good = middle;
    }
    return false;
}
