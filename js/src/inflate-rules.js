// The errors of step 5 for deflate bodies (FrameFormat.md, "Compression"),
// shared by the platform codecs.

import { ErrorCode, IMCodecError } from "./errors.js";

/** @returns {IMCodecError} `frame.deflate` with the reason. */
export function deflateError(reason) {
    return new IMCodecError(ErrorCode.frameDeflate, reason);
}

/** @returns {IMCodecError} `frame.payload-length` for a body that inflates to more than declared. */
export function payloadTooLong() {
    return new IMCodecError(ErrorCode.framePayloadLength, "the body inflates to more than the payload length");
}

/** @returns {IMCodecError} `frame.payload-length` for a body that inflates to fewer bytes than declared. */
export function payloadTooShort(actual, length) {
    return new IMCodecError(
        ErrorCode.framePayloadLength,
        `the body inflates to ${actual} bytes, not the payload length ${length}`,
    );
}

/**
 * The bytes of several chunks in one array.
 * @param {Uint8Array[]} chunks
 * @param {number} total Their combined length.
 * @returns {Uint8Array}
 */
export function joinChunks(chunks, total) {
    if (chunks.length === 1) return chunks[0];
    const out = new Uint8Array(total);
    let at = 0;
    for (const chunk of chunks) {
        out.set(chunk, at);
        at += chunk.length;
    }
    return out;
}
