// The streaming reader: bytes as they arrive, split anywhere, in whole frames.

import { ErrorCode, IMCodecError } from "./errors.js";
import { platformDeflate } from "./deflate.js";
import { MAX_HEADER_BYTES, checkFrameSizes, decodePayload, frameBodyPayload, readFrameHeader } from "./frame.js";
import { resolveLimits } from "./limits.js";

/**
 * Reads frames written back to back from bytes that arrive in chunks split
 * anywhere: the chunks of a `fetch` body, a socket, or one WebSocket binary
 * message after another.
 *
 * {@link FrameReader#append} keeps a reference to each chunk; nothing is
 * copied or joined while a frame is incomplete, and {@link FrameReader#next}
 * answers `null` ("need more"). A frame's header is checked as soon as it is
 * complete, its sizes against the limits before its body is waited for; a
 * body that lies in one chunk is read in place, one split across chunks is
 * copied once into an array of its declared length. After an error the
 * reader stops: every later call throws the same error.
 *
 * ```js
 * const reader = new FrameReader();
 * socket.onmessage = async (event) => {
 *     reader.append(new Uint8Array(event.data));
 *     for (let payload; (payload = await reader.nextPayload()) !== null; ) show(payload);
 * };
 * ```
 */
export class FrameReader {
    /** @param {import("./frame.js").FrameOptions} [options] The limits and the deflate codec. */
    constructor(options = {}) {
        this.limits = resolveLimits(options.limits);
        this.deflate = options.deflate;
        this.chunks = [];
        this.offset = 0;
        this.buffered = 0;
        this.error = null;
        this.pending = Promise.resolve(null);
    }

    /**
     * Adds bytes that arrived. The reader keeps the array: do not change it
     * afterwards.
     * @param {Uint8Array|ArrayBuffer} chunk
     */
    append(chunk) {
        const bytes = chunk instanceof Uint8Array ? chunk : new Uint8Array(chunk);
        if (bytes.length === 0) return;
        this.chunks.push(bytes);
        this.buffered += bytes.length;
    }

    /** The bytes appended and not yet returned as frames. @returns {number} */
    get bufferedByteCount() {
        return this.buffered;
    }

    /**
     * The next complete frame, or `null` when more bytes are needed. Calls
     * are answered in order.
     * @returns {Promise<import("./frame.js").Frame|null>}
     * @throws {IMCodecError} The first error in the stream: a frame code, or a
     *   `limit.*` code of check 3. Never `frame.truncated` (that is `null`) nor
     *   `frame.trailing-bytes` (the next frame starts there).
     */
    next() {
        const result = this.pending.then(() => this.read());
        this.pending = result.catch(() => null);
        return result;
    }

    /**
     * The next complete frame's decoded payload (step 8 too), or `null`.
     * @returns {Promise<import("./frame.js").FramePayload|null>}
     * @throws {IMCodecError} As {@link FrameReader#next}, then `payload.*` and `limit.*`.
     */
    async nextPayload() {
        const frame = await this.next();
        if (frame === null) return null;
        try {
            return { kind: frame.kind, value: decodePayload(frame.kind, frame.payload, this.limits) };
        } catch (error) {
            this.error = error;
            throw error;
        }
    }

    /**
     * Ends the stream.
     * @throws {IMCodecError} `frame.truncated` when it ends inside a frame.
     */
    finish() {
        if (this.error !== null) throw this.error;
        if (this.buffered > 0) {
            throw new IMCodecError(ErrorCode.frameTruncated, `the stream ends inside a frame (${this.buffered} bytes)`);
        }
    }

    async read() {
        if (this.error !== null) throw this.error;
        try {
            if (this.buffered === 0) return null;
            const start = this.peek(Math.min(MAX_HEADER_BYTES, this.buffered));
            const header = readFrameHeader(start);
            if (header === null) return null;
            checkFrameSizes(header, this.limits);
            if (this.buffered < header.length + header.bodyLength) return null;
            const headerBytes = start.slice(0, header.length - 4);
            this.skip(header.length);
            const body = this.take(header.bodyLength);
            const deflate = this.deflate ?? (this.deflate = await platformDeflate());
            const payload = await frameBodyPayload(header, headerBytes, body, deflate);
            return { kind: header.kind, compression: header.compression, dictionaryId: header.dictionaryId, payload };
        } catch (error) {
            this.error = error;
            throw error;
        }
    }

    // The first n buffered bytes: in place when they lie in one chunk, else
    // copied (n is at most a header's 21 bytes).
    peek(n) {
        const first = this.chunks[0];
        if (first.length - this.offset >= n) return first.subarray(this.offset, this.offset + n);
        const out = new Uint8Array(n);
        let filled = 0;
        let offset = this.offset;
        for (const chunk of this.chunks) {
            const part = chunk.subarray(offset, Math.min(chunk.length, offset + n - filled));
            out.set(part, filled);
            filled += part.length;
            offset = 0;
            if (filled === n) break;
        }
        return out;
    }

    skip(n) {
        this.take(n);
    }

    // Removes the first n buffered bytes and returns them: in place when they
    // lie in one chunk, else copied once into an array of length n.
    take(n) {
        this.buffered -= n;
        const first = this.chunks[0];
        if (n === 0) return new Uint8Array(0);
        if (first.length - this.offset >= n) {
            const out = first.subarray(this.offset, this.offset + n);
            this.offset += n;
            if (this.offset === first.length) {
                this.chunks.shift();
                this.offset = 0;
            }
            return out;
        }
        const out = new Uint8Array(n);
        let filled = 0;
        while (filled < n) {
            const chunk = this.chunks[0];
            const part = chunk.subarray(this.offset, Math.min(chunk.length, this.offset + n - filled));
            out.set(part, filled);
            filled += part.length;
            this.offset += part.length;
            if (this.offset === chunk.length) {
                this.chunks.shift();
                this.offset = 0;
            }
        }
        return out;
    }
}

/**
 * Reads the frames of a stream of chunks, as an async generator: for a
 * `ReadableStream` body (`response.body`), a Node stream, or any async
 * iterable of byte chunks.
 * @param {AsyncIterable<Uint8Array|ArrayBuffer>} chunks
 * @param {import("./frame.js").FrameOptions} [options]
 * @returns {AsyncGenerator<import("./frame.js").Frame>}
 * @throws {IMCodecError} The first error; `frame.truncated` when the stream ends inside a frame.
 */
export async function* readFrames(chunks, options = {}) {
    const reader = new FrameReader(options);
    for await (const chunk of chunks) {
        reader.append(chunk);
        for (let frame; (frame = await reader.next()) !== null; ) yield frame;
    }
    reader.finish();
}
