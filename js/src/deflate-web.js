// Raw deflate in browsers: Compression Streams ('deflate-raw'), which take no
// preset dictionary; dictionary frames through pako when the page ships it.

import { ErrorCode, IMCodecError } from "./errors.js";
import { deflateError, joinChunks, payloadTooLong, payloadTooShort } from "./inflate-rules.js";

// Input is fed to the platform's decompressor in pieces of this size, and
// the output of each piece is counted before the next piece is read: one
// piece inflates to at most about 1 MiB (deflate's ratio is at most about
// 1032:1), so a bomb costs no more than the payload length and one piece.
const PIECE = 1024;

/**
 * The deflate codec of a browser page: `DecompressionStream('deflate-raw')`
 * and `CompressionStream('deflate-raw')` from the platform, which take no
 * preset dictionary and no level. Given the pako module (pako 2, a zlib port
 * with preset dictionaries; Debian's `node-pako` ships
 * `/usr/share/nodejs/pako/dist/pako.esm.mjs`), frames that name a dictionary
 * are inflated and deflated with it; without it they are refused with
 * `frame.dictionary-unavailable`. zstd is not offered: no browser's
 * `DecompressionStream` takes it.
 * @param {{pako?: {Inflate: Function, Deflate: Function}}} [options]
 * @returns {import("./frame.js").DeflateCodec}
 */
export function webDeflate(options = {}) {
    const pako = options.pako;
    return {
        name: pako ? "compression-streams+pako" : "compression-streams",
        dictionaries: pako !== undefined,
        inflateRaw: async (body, payloadLength, dictionary) => {
            if (dictionary) {
                if (!pako) throw dictionaryUnavailable();
                return inflatePako(pako, body, payloadLength, dictionary);
            }
            return inflateStreams(body, payloadLength);
        },
        deflateRaw: async (payload, level, dictionary) => {
            if (dictionary) {
                if (!pako) throw dictionaryUnavailable();
                const deflater = new pako.Deflate({ raw: true, level, dictionary });
                deflater.push(payload, true);
                if (deflater.err) throw new Error(`pako could not deflate: ${deflater.msg}`);
                return deflater.result;
            }
            return deflateStreams(payload);
        },
    };
}

function dictionaryUnavailable() {
    return new IMCodecError(
        ErrorCode.frameDictionaryUnavailable,
        "this page's deflate (Compression Streams) takes no preset dictionary; ship pako beside it",
    );
}

async function deflateStreams(payload) {
    const stream = new Blob([payload]).stream().pipeThrough(new CompressionStream("deflate-raw"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
}

// One pass of a body through DecompressionStream, in the given pieces, its
// output counted as it comes and the pass stopped as soon as it passes
// `length` bytes. In a TransformStream as the standard defines it (Chromium's)
// the output of each piece is read before the next piece is inflated, so an
// overflow is found at the first piece that makes more than `length` bytes;
// a piece the decompressor refuses takes its own output with it.
async function pass(pieces, length, options = { close: true }) {
    const stream = new DecompressionStream("deflate-raw");
    const writer = stream.writable.getWriter();
    const reader = stream.readable.getReader();
    // The error that breaks a stream also rejects these; it is read below.
    writer.closed.catch(() => {});
    reader.closed.catch(() => {});
    const chunks = [];
    let total = 0;
    let overflow = false;
    const reading = (async () => {
        for (;;) {
            const { done, value } = await reader.read();
            if (done) return;
            total += value.length;
            if (total > length) {
                overflow = true;
                await reader.cancel();
                return;
            }
            chunks.push(value);
        }
    })().catch(() => {
        // The error that breaks the stream; the writer's side tells it.
    });
    let broken = -1;
    let truncated = false;
    let index = 0;
    try {
        for (; index < pieces.length; index++) await writer.write(pieces[index]);
        if (options.close) {
            try {
                await writer.close();
            } catch {
                truncated = true;
            }
        } else {
            // A prefix is not closed (the end of the input would break it):
            // the output of the last piece, queued when its write is done, is
            // counted by the reads that run before the next task.
            await new Promise((resolve) => setTimeout(resolve, 0));
            if (!overflow) await reader.cancel();
        }
    } catch {
        broken = index;
    }
    await reading;
    const complete = !overflow && broken < 0 && !truncated;
    return { overflow, broken, truncated, complete, chunks, total };
}

function split(bytes, size) {
    const pieces = [];
    for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, Math.min(at + size, bytes.length)));
    return pieces;
}

// Whether this platform's DecompressionStream refuses bytes after the end of
// a raw deflate stream, as the Compression Streams standard asks (Chromium
// does; Node 20's does not): "03 00" is a complete empty stream, and a third
// byte is left over. Asked once.
let refusesTrailing;

function detectsTrailingBytes() {
    refusesTrailing ??= pass([new Uint8Array([0x03, 0x00, 0x00])], 0).then(
        (result) => !result.complete,
    );
    return refusesTrailing;
}

async function inflateStreams(body, length) {
    const first = await pass(split(body, PIECE), length);
    if (first.overflow) throw payloadTooLong();
    if (!first.complete) {
        // Broken or cut short (some platforms report a break only when the
        // input is closed): was more than `length` made before the break?
        const end = first.broken >= 0 ? Math.min(body.length, (first.broken + 1) * PIECE) : body.length;
        if (await overflowsBeforeBreaking(body, length, end)) throw payloadTooLong();
        throw deflateError(
            first.broken >= 0 || !first.truncated
                ? "the body is not a raw deflate stream that ends at the end of the body"
                : "the deflate stream is broken or ends before its final block",
        );
    }
    // Without the platform's help, a stream that ends before the body does
    // is one that the body without its last byte completes already.
    if (body.length > 0 && !(await detectsTrailingBytes())) {
        const shorter = body.subarray(0, body.length - 1);
        if ((await pass(split(shorter, PIECE), length)).complete) {
            throw deflateError("the deflate stream ends before the body does");
        }
    }
    if (first.total < length) throw payloadTooShort(first.total, length);
    return joinChunks(first.chunks, first.total);
}

// Whether a broken stream makes more than `length` bytes before the point
// where it breaks, which lies within body[0, end): body[0, end) itself when
// it does not break, else the longest prefix that
// inflates without an error (a prefix only ends early) is found by bisection,
// each prefix in a pass of its own, and its output compared with the payload
// length. A pass that breaks may lose the output of its last pieces; one that
// does not break has counted all of it.
async function overflowsBeforeBreaking(body, length, end) {
    const attempt = (n) => pass(split(body.subarray(0, n), PIECE), length, { close: false });
    const whole = await attempt(end);
    if (whole.overflow) return true;
    if (whole.broken < 0) return false;
    let good = 0;
    let bad = end;
    while (bad - good > 1) {
        const middle = (good + bad) >>> 1;
        const result = await attempt(middle);
        if (result.overflow) return true;
        if (result.broken >= 0) bad = middle;
        else good = middle;
    }
    return false;
}

// pako inflates into chunks of `length + 1` bytes and hands each to onData
// when it is full, before it reads any further code: the first byte past the
// payload stops it.
function inflatePako(pako, body, length, dictionary) {
    const inflater = new pako.Inflate({ raw: true, dictionary, chunkSize: length + 1 });
    const chunks = [];
    let total = 0;
    const overflow = {};
    inflater.onData = (chunk) => {
        total += chunk.length;
        if (total > length) throw overflow;
        chunks.push(chunk.slice());
    };
    // onEnd hears zlib's status when the stream ends or breaks.
    let status;
    inflater.onEnd = (code) => {
        status = code;
    };
    try {
        inflater.push(body, true);
    } catch (error) {
        if (error === overflow) throw payloadTooLong();
        throw deflateError(`the body is not a raw deflate stream: ${error}`);
    }
    if (status === undefined) throw deflateError("the deflate stream ends before its final block");
    if (status !== 0) throw deflateError(`the body is not a raw deflate stream: ${inflater.strm.msg || status}`);
    if (inflater.strm.avail_in > 0) throw deflateError("the deflate stream ends before the body does");
    if (total < length) throw payloadTooShort(total, length);
    return joinChunks(chunks, total);
}
