// The streaming reader: bytes as they arrive, split anywhere, in whole frames.

import { toBytes } from "./bytes.js";
import { ErrorCode, IMCodecError } from "./errors.js";
import { crc32 } from "./crc32.js";
import { platformDeflate } from "./deflate.js";
import { MAX_HEADER_BYTES, checkFrameSizes, decodePayload, frameBodyPayload, readFrameHeader } from "./frame.js";
import { resolveLimits } from "./limits.js";

// Chunks up to this length are copied into the reader's own array when bytes
// are already buffered; longer ones are kept by reference.
const SMALL_CHUNK = 256;
const GATHER_BYTES = 4096;
const MAX_GATHER_BYTES = 1 << 20;
const NEED_MORE = Promise.resolve(null);

/**
 * Reads frames written back to back from bytes that arrive in chunks split
 * anywhere: the chunks of a `fetch` body, a socket, or one WebSocket binary
 * message after another.
 *
 * {@link FrameReader#append} keeps a reference to each chunk, and copies a
 * small chunk (256 bytes or less) that arrives behind buffered bytes into an
 * array of its own, which grows to at most the bytes buffered; nothing is
 * joined while a frame is incomplete, and {@link FrameReader#next} answers
 * `null` ("need more"). A frame's header is checked as soon as it is
 * complete, its sizes against the limits before its body is waited for, and
 * it is read once: while the body is pending, a call costs the same however
 * many chunks it came in. A body that lies in one chunk is read in place, one
 * split across chunks is copied once into an array of its declared length,
 * so a frame fed one byte at a time is read in time linear in its length,
 * each byte copied at most twice. After an error the reader stops: every
 * later call throws the same error.
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
        // The chunks from index `head` on are buffered; `offset` bytes of
        // chunks[head] are already read. Read chunks are dropped in bulk,
        // not one by one (an array's shift moves every element after it).
        this.chunks = [];
        this.head = 0;
        this.offset = 0;
        // The length of the last chunk's bytes: less than its array's length
        // when it is `gather`, the reader's own array that small chunks are
        // copied into (a reference kept per byte would cost more than the
        // byte, in memory and in the collector's time).
        this.lastLength = 0;
        this.gather = null;
        // The header of the frame whose body is pending, and its bytes.
        this.header = null;
        this.headerBytes = null;
        this.buffered = 0;
        this.error = null;
        this.pending = Promise.resolve(null);
        // Calls of next() not yet answered.
        this.waiting = 0;
    }

    /**
     * Adds bytes that arrived. The reader keeps the array: do not change it
     * afterwards.
     * @param {import("./bytes.js").BytesLike} chunk A Uint8Array, Buffer, ArrayBuffer or DataView.
     * @throws {TypeError} When the chunk is not bytes.
     */
    append(chunk) {
        const bytes = toBytes(chunk, "the chunk");
        const length = bytes.length;
        if (length === 0) return;
        this.buffered += length;
        const last = this.chunks.length - 1;
        if (length <= SMALL_CHUNK && last >= this.head) {
            let gather = this.gather;
            if (gather === null || this.chunks[last] !== gather || this.lastLength + length > gather.length) {
                this.sealGather();
                // At most the bytes already buffered (and 4 KiB) are allocated
                // ahead of their arrival.
                gather = new Uint8Array(Math.max(GATHER_BYTES, Math.min(this.buffered, MAX_GATHER_BYTES)));
                this.push(gather, 0);
                this.gather = gather;
            }
            gather.set(bytes, this.lastLength);
            this.lastLength += length;
            return;
        }
        this.sealGather();
        this.push(bytes, length);
    }

    // The gathering array stops taking bytes: when it is the last chunk it
    // is replaced by a view of the bytes written into it, since only the
    // last chunk's length is kept apart from its array's.
    sealGather() {
        const last = this.chunks.length - 1;
        if (this.gather !== null && last >= this.head && this.chunks[last] === this.gather) {
            this.chunks[last] = this.gather.subarray(0, this.lastLength);
        }
        this.gather = null;
    }

    push(bytes, length) {
        if (this.head > 64 && this.head * 2 > this.chunks.length) {
            this.chunks = this.chunks.slice(this.head);
            this.head = 0;
        }
        this.chunks.push(bytes);
        this.lastLength = length;
    }

    // The length of the buffered chunk at an index.
    chunkLength(index) {
        return index === this.chunks.length - 1 ? this.lastLength : this.chunks[index].length;
    }

    /** The bytes appended and not yet returned as frames. @returns {number} */
    get bufferedByteCount() {
        return this.buffered + (this.header === null ? 0 : this.header.length);
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
        // A body still short of its declared length, with no call before
        // this one unanswered: "need more" without a turn of the queue.
        if (this.waiting === 0 && this.header !== null && this.error === null && this.buffered < this.header.bodyLength) {
            return NEED_MORE;
        }
        this.waiting += 1;
        const result = this.pending.then(() => this.read());
        this.pending = result.then(
            () => (this.waiting -= 1),
            () => (this.waiting -= 1),
        );
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
        const buffered = this.bufferedByteCount;
        if (buffered > 0) {
            throw new IMCodecError(ErrorCode.frameTruncated, `the stream ends inside a frame (${buffered} bytes)`);
        }
    }

    async read() {
        if (this.error !== null) throw this.error;
        try {
            if (this.header === null) {
                if (this.buffered === 0) return null;
                const start = this.peek(Math.min(MAX_HEADER_BYTES, this.buffered));
                const header = readFrameHeader(start);
                if (header === null) return null;
                checkFrameSizes(header, this.limits);
                this.headerBytes = start.slice(0, header.length - 4);
                this.header = header;
                this.skip(header.length);
            }
            const header = this.header;
            if (this.buffered < header.bodyLength) return null;
            const body = this.take(header.bodyLength);
            const headerBytes = this.headerBytes;
            this.header = null;
            this.headerBytes = null;
            const deflate = this.deflate ?? (this.deflate = await platformDeflate());
            const payload = await frameBodyPayload(header, crc32(headerBytes), body, deflate);
            return { kind: header.kind, compression: header.compression, dictionaryId: header.dictionaryId, payload };
        } catch (error) {
            this.error = error;
            throw error;
        }
    }

    // The first n buffered bytes: in place when they lie in one chunk, else
    // copied (n is at most a header's 21 bytes).
    peek(n) {
        const first = this.chunks[this.head];
        if (this.chunkLength(this.head) - this.offset >= n) return first.subarray(this.offset, this.offset + n);
        const out = new Uint8Array(n);
        let filled = 0;
        let offset = this.offset;
        for (let index = this.head; filled < n; index++) {
            const chunk = this.chunks[index];
            const part = chunk.subarray(offset, Math.min(this.chunkLength(index), offset + n - filled));
            out.set(part, filled);
            filled += part.length;
            offset = 0;
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
        if (n === 0) return new Uint8Array(0);
        const first = this.chunks[this.head];
        if (this.chunkLength(this.head) - this.offset >= n) {
            const out = first.subarray(this.offset, this.offset + n);
            this.offset += n;
            if (this.offset === this.chunkLength(this.head)) this.dropFirst();
            return out;
        }
        const out = new Uint8Array(n);
        let filled = 0;
        while (filled < n) {
            const chunk = this.chunks[this.head];
            const end = this.chunkLength(this.head);
            const part = chunk.subarray(this.offset, Math.min(end, this.offset + n - filled));
            out.set(part, filled);
            filled += part.length;
            this.offset += part.length;
            if (this.offset === end) this.dropFirst();
        }
        return out;
    }

    // Forgets the first buffered chunk, which has been read to its end.
    dropFirst() {
        this.chunks[this.head] = undefined;
        this.head += 1;
        this.offset = 0;
        if (this.head === this.chunks.length) {
            this.chunks = [];
            this.head = 0;
            this.lastLength = 0;
            this.gather = null;
        }
    }
}

/**
 * Reads the frames of a stream of chunks, as an async generator: for a
 * `ReadableStream` body (`response.body`), a Node stream, or any async
 * iterable of byte chunks.
 * @param {AsyncIterable<import("./bytes.js").BytesLike>} chunks
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
