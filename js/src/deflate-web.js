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

// One pass of a body through DecompressionStream, in the given pieces. The
// output of each piece is read before the next piece is inflated (the
// stream's backpressure holds it), so an overflow is found at the first piece
// that makes more than `length` bytes. A piece the decompressor refuses takes
// its own output with it.
async function pass(body, length, pieces) {
    const stream = new DecompressionStream("deflate-raw");
    const writer = stream.writable.getWriter();
    const reader = stream.readable.getReader();
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
    })();
    let broken = -1;
    let truncated = false;
    let index = 0;
    try {
        for (; index < pieces.length; index++) await writer.write(pieces[index]);
        try {
            await writer.close();
        } catch {
            truncated = true;
        }
    } catch {
        broken = index;
    }
    try {
        await reading;
    } catch {
        // The error that broke the stream, already noted by the writer.
    }
    return { overflow, broken, truncated, chunks, total };
}

function split(bytes, size) {
    const pieces = [];
    for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, Math.min(at + size, bytes.length)));
    return pieces;
}

async function inflateStreams(body, length) {
    const pieces = split(body, PIECE);
    const first = await pass(body, length, pieces);
    if (first.overflow) throw payloadTooLong();
    if (first.broken >= 0) {
        // Inflate again up to the piece that broke (it made at most `length`
        // bytes), then that piece a byte at a time: an overflow before the
        // byte that breaks the stream is still found first.
        const start = first.broken * PIECE;
        const retry = [];
        if (start > 0) retry.push(body.subarray(0, start));
        const end = Math.min(start + PIECE, body.length);
        for (let at = start; at < end; at++) retry.push(body.subarray(at, at + 1));
        const second = await pass(body, length, retry);
        if (second.overflow) throw payloadTooLong();
        throw deflateError("the body is not a raw deflate stream that ends at the end of the body");
    }
    if (first.truncated) throw deflateError("the deflate stream ends before its final block");
    if (first.total < length) throw payloadTooShort(first.total, length);
    return joinChunks(first.chunks, first.total);
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
