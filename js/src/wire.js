// The protobuf wire format as docs/spec/payloads.md
// states it: a reader that applies the decoding rules with their codes, and
// a writer of the canonical encoding. The generated codecs
// (js/generated/*.js) call these; nothing here knows the schema.

import { toBytes } from "./bytes.js";
import { ErrorCode, IMCodecError } from "./errors.js";

const utf8Decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const utf8Encoder = new TextEncoder();
const EMPTY = new Uint8Array(0);

// A string field's bytes as text, or `payload.utf8` when they are not UTF-8.
function strictUTF8(bytes, start, end) {
    try {
        return utf8Decoder.decode(bytes.subarray(start, end));
    } catch {
        throw new IMCodecError(ErrorCode.payloadUTF8, "a string field is not valid UTF-8");
    }
}

/**
 * Sets a platform's faster UTF-8 decoder that string fields are read with
 * first, for the entry points (src/node.js: Buffer's utf8Slice, which reads a
 * range of any Uint8Array in place, without TextDecoder's cost per call); null
 * for TextDecoder alone. It replaces what is not UTF-8 with U+FFFD, as
 * TextDecoder does when not fatal: a text without U+FFFD is the strict
 * decoder's, one with it is decoded again by the strict decoder, which refuses
 * it or returns the same. The reader's method is replaced by one that holds
 * the decoder as a constant: called through a variable that may change, V8
 * calls it more slowly.
 * @param {((this: Uint8Array, start: number, end: number) => string) | null} slice
 */
export function setUTF8Slice(slice) {
    WireReader.prototype.string = typeof slice === "function" ? stringWithSlice(slice) : stringStrict;
}

function stringWithSlice(slice) {
    return function string() {
        const n = this.length();
        if (n === 0) return "";
        const start = this.pos;
        this.pos += n;
        const text = slice.call(this.buf, start, start + n);
        return text.indexOf("\ufffd") === -1 ? text : strictUTF8(this.buf, start, start + n);
    };
}

// The zero-length buffer that empty bytes values share: a Uint8Array over a
// buffer that exists is made in about a tenth of the time of one that needs
// a buffer of its own, and a decoded message has its empty bytes fields.
let emptyBuffer = new ArrayBuffer(0);

/**
 * An empty bytes value: a Uint8Array of its own over a shared zero-length
 * buffer (a new one if a transfer has detached it).
 * @returns {Uint8Array}
 */
export function emptyBytes() {
    try {
        return new Uint8Array(emptyBuffer);
    } catch {
        emptyBuffer = new ArrayBuffer(0);
        return new Uint8Array(emptyBuffer);
    }
}

function truncated() {
    return new IMCodecError(ErrorCode.payloadTruncated, "the payload ends inside a field");
}

function badTag() {
    return new IMCodecError(
        ErrorCode.payloadTag,
        "a tag has field number 0, a number of 2^29 or more, or wire type 6 or 7",
    );
}

function depthError(layer, limit) {
    return new IMCodecError(ErrorCode.limitDepth, "messages nest deeper than the depth budget", {
        limit,
        observed: layer,
    });
}

/**
 * What one decode shares across nested messages: the limits and the merger
 * layer being read (0 at the top level).
 */
export class DecodeContext {
    /** @param {import("./limits.js").DecodingLimits} limits Complete limits. */
    constructor(limits) {
        /** The limits the value is decoded under. */
        this.limits = limits;
        /** The merger layer of the message being read. */
        this.depth = 0;
    }

    /** Enters a merger's messages: one layer deeper, refused past `maxDepth`. */
    enterLayer() {
        this.depth += 1;
        if (this.depth > this.limits.maxDepth) throw depthError(this.depth, this.limits.maxDepth);
    }

    /** Leaves a merger's messages. */
    leaveLayer() {
        this.depth -= 1;
    }
}

/**
 * Reads protobuf wire encodings from a byte array without copying it: a
 * cursor (`pos`) and the end of the message being read (`end`), which a
 * nested message narrows and restores. Every length is checked against the
 * bytes that remain before it is used.
 */
export class WireReader {
    /** @param {Uint8Array} bytes The encoding. */
    constructor(bytes) {
        /** The bytes. */
        this.buf = bytes;
        /** The next byte to read. */
        this.pos = 0;
        /** The end of the message being read. */
        this.end = bytes.length;
        /** The low 32 bits of the last varint read. */
        this.lo = 0;
        /** The high 32 bits of the last varint read. */
        this.hi = 0;
    }

    /**
     * Reads a varint of up to 10 bytes into `lo` and `hi`; bits past 64 are
     * ignored. A tenth byte with its continuation bit set is
     * `payload.varint` even at the end of the input.
     */
    varint() {
        const buf = this.buf;
        // Most varints are one byte: no loop for them.
        if (this.pos < this.end && buf[this.pos] < 0x80) {
            this.lo = buf[this.pos++];
            this.hi = 0;
            return;
        }
        let lo = 0;
        let hi = 0;
        for (let i = 0; i < 10; i++) {
            if (this.pos >= this.end) throw truncated();
            const b = buf[this.pos++];
            if (i < 4) lo |= (b & 0x7f) << (7 * i);
            else if (i === 4) {
                lo |= (b & 0x0f) << 28;
                hi = (b & 0x7f) >> 4;
            } else hi |= (b & 0x7f) << (7 * i - 32);
            if (b < 0x80) {
                this.lo = lo >>> 0;
                this.hi = hi >>> 0;
                return;
            }
        }
        throw new IMCodecError(ErrorCode.payloadVarint, "a varint is longer than 10 bytes");
    }

    /**
     * Reads a tag: at most 5 bytes (a fifth byte that continues or holds bits
     * past 32 is `payload.tag` at once), field number at least 1, wire type
     * not 6 or 7.
     * @returns {number} `fieldNumber * 8 + wireType`.
     */
    tag() {
        if (this.pos < this.end) {
            const first = this.buf[this.pos];
            if (first < 0x80) {
                this.pos++;
                if (first < 8 || (first & 7) >= 6) throw badTag();
                return first;
            }
        }
        // A scale multiplied up, not 2 ** (7 * i): V8 computes a power by a call.
        let value = 0;
        let scale = 1;
        for (let i = 0; i < 5; i++) {
            if (this.pos >= this.end) throw truncated();
            const b = this.buf[this.pos++];
            if (i === 4 && b > 15) throw badTag();
            value += (b & 0x7f) * scale;
            scale *= 0x80;
            if (b < 0x80) break;
        }
        if (value < 8 || value % 8 >= 6) throw badTag();
        return value;
    }

    /** @returns {number} An `int32` (or enum): the low 32 bits, signed. */
    int32() {
        this.varint();
        return this.lo | 0;
    }

    /** @returns {number} A `uint32`: the low 32 bits. */
    uint32() {
        this.varint();
        return this.lo;
    }

    /** @returns {boolean} A `bool`: true for any non-zero varint. */
    bool() {
        this.varint();
        return this.lo !== 0 || this.hi !== 0;
    }

    /** @returns {bigint} A `uint64`. */
    uint64() {
        this.varint();
        // Below 2^53 (timestamps, sequence numbers) the value is exact as a
        // number: one BigInt made instead of four.
        if (this.hi < 0x200000) return BigInt(this.hi * 0x100000000 + this.lo);
        return (BigInt(this.hi) << 32n) | BigInt(this.lo);
    }

    /** @returns {bigint} An `int64`. */
    int64() {
        const value = this.uint64();
        // Below 2^53 it is the same signed: no second BigInt.
        return this.hi < 0x200000 ? value : BigInt.asIntN(64, value);
    }

    /** @returns {number} A `double`: 8 bytes little-endian. */
    double() {
        if (this.end - this.pos < 8) throw truncated();
        const view = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8);
        this.pos += 8;
        return view.getFloat64(0, true);
    }

    /**
     * Reads a length prefix: below 2^31 − 1 (`payload.length`) and within the
     * enclosing bytes (`payload.truncated`).
     * @returns {number} The length; the body starts at `pos`.
     */
    length() {
        let n;
        if (this.pos < this.end && this.buf[this.pos] < 0x80) {
            n = this.buf[this.pos++];
        } else {
            this.varint();
            if (this.hi !== 0 || this.lo >= 0x7fffffff) {
                throw new IMCodecError(ErrorCode.payloadLength, "a length of 2^31 - 1 or more");
            }
            n = this.lo;
        }
        if (n > this.end - this.pos) throw truncated();
        return n;
    }

    /** @returns {Uint8Array} A `bytes` field's value, copied. */
    bytes() {
        const n = this.length();
        if (n === 0) return emptyBytes();
        const value = this.buf.slice(this.pos, this.pos + n);
        this.pos += n;
        return value;
    }

    /** @returns {string} A `string` field's value; `payload.utf8` when not UTF-8. */
    string() {
        const n = this.length();
        if (n === 0) return "";
        const start = this.pos;
        this.pos += n;
        return strictUTF8(this.buf, start, start + n);
    }

    /**
     * Enters a nested message: reads its length and narrows `end` to it.
     * @returns {number} The enclosing end, for {@link WireReader#leave}.
     */
    enter() {
        const n = this.length();
        const outer = this.end;
        this.end = this.pos + n;
        return outer;
    }

    /** Leaves a nested message read to its end. @param {number} outer */
    leave(outer) {
        this.end = outer;
    }

    /**
     * Skips the value of an unknown field whose tag was just read and keeps
     * the whole field, from `start`, in `message.$unknown`. Groups are
     * skipped to their end tag without recursion, each open group one layer
     * deeper against the depth budget.
     * @param {number} tag The tag read.
     * @param {number} start Where the tag started.
     * @param {{$unknown?: Uint8Array}} message Where the field is kept.
     * @param {DecodeContext} context The depth budget.
     */
    skip(tag, start, message, context) {
        this.skipValue(tag, context);
        const field = this.buf.subarray(start, this.pos);
        const kept = message.$unknown;
        if (kept === undefined || kept.length === 0) {
            message.$unknown = field.slice();
        } else {
            const joined = new Uint8Array(kept.length + field.length);
            joined.set(kept);
            joined.set(field, kept.length);
            message.$unknown = joined;
        }
    }

    skipValue(tag, context) {
        switch (tag % 8) {
            case 0:
                this.varint();
                return;
            case 1:
                if (this.end - this.pos < 8) throw truncated();
                this.pos += 8;
                return;
            case 2: {
                // Read before `pos` is: the length moves it past the prefix.
                const n = this.length();
                this.pos += n;
                return;
            }
            case 5:
                if (this.end - this.pos < 4) throw truncated();
                this.pos += 4;
                return;
            case 3:
                this.skipGroup(Math.floor(tag / 8), context);
                return;
            default:
                throw new IMCodecError(ErrorCode.payloadGroup, "an end-group tag closes no open group");
        }
    }

    skipGroup(fieldNumber, context) {
        const open = [fieldNumber];
        const limit = context.limits.maxDepth;
        if (context.depth + 1 > limit) throw depthError(context.depth + 1, limit);
        while (open.length > 0) {
            const tag = this.tag();
            const wire = tag % 8;
            if (wire === 3) {
                open.push(Math.floor(tag / 8));
                if (context.depth + open.length > limit) throw depthError(context.depth + open.length, limit);
            } else if (wire === 4) {
                if (Math.floor(tag / 8) !== open[open.length - 1]) {
                    throw new IMCodecError(ErrorCode.payloadGroup, "an end-group tag does not match the open group");
                }
                open.pop();
            } else {
                this.skipValue(tag, context);
            }
        }
    }
}

// The string reader without a platform's decoder, for setUTF8Slice(null).
const stringStrict = WireReader.prototype.string;

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

// A double's bytes, through one shared array instead of a DataView per value.
const FLOAT = new Float64Array(1);
const FLOAT_BYTES = new Uint8Array(FLOAT.buffer);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Writes the canonical encoding into one growing buffer. A nested message's
 * length is reserved as one byte and widened in place when the message turns
 * out longer, so no message is encoded twice.
 */
export class WireWriter {
    /** @param {Uint8Array} [buffer] Where to start writing (a scratch buffer reused between values). */
    constructor(buffer) {
        /** The output so far (only the first `pos` bytes are written). */
        this.buf = buffer ?? new Uint8Array(256);
        /** Bytes written. */
        this.pos = 0;
        /** Whether unknown fields were written anywhere in the value. */
        this.wroteUnknown = false;
        /**
         * Whether `buf` is the encoders' shared scratch buffer (src/message.js).
         * Set here, not added later, so that every writer has one shape.
         */
        this.scratch = false;
    }

    reserve(n) {
        if (this.pos + n <= this.buf.length) return;
        let size = this.buf.length * 2;
        while (size < this.pos + n) size *= 2;
        const grown = new Uint8Array(size);
        grown.set(this.buf.subarray(0, this.pos));
        this.buf = grown;
    }

    /** Writes raw bytes (a precomputed tag, unknown fields). @param {Uint8Array|number[]} bytes */
    raw(bytes) {
        this.reserve(bytes.length);
        this.buf.set(bytes, this.pos);
        this.pos += bytes.length;
    }

    /** Writes one byte. @param {number} b */
    byte(b) {
        this.reserve(1);
        this.buf[this.pos++] = b;
    }

    /** Writes an unsigned 32-bit varint. @param {number} value */
    uint32(value) {
        let v = value >>> 0;
        this.reserve(5);
        while (v >= 0x80) {
            this.buf[this.pos++] = (v & 0x7f) | 0x80;
            v >>>= 7;
        }
        this.buf[this.pos++] = v;
    }

    /** Writes an `int32` (or enum): negatives as 10-byte sign-extended varints. @param {number} value */
    int32(value) {
        const v = value | 0;
        if (v >= 0) this.uint32(v);
        else this.uint64(BigInt(v));
    }

    /** Writes a 64-bit varint of the value's 64-bit two's complement. @param {bigint} value */
    uint64(value) {
        // Two 32-bit halves, shifted as numbers: BigInt arithmetic per byte
        // costs more than the rest of the field. From 0 to 2^53 - 1
        // (timestamps, sequence numbers) they are taken from the value as a
        // number, without a BigInt made.
        let lo;
        let hi;
        if (value >= 0n && value <= MAX_SAFE) {
            const n = Number(value);
            if (n <= 0xffffffff) {
                this.uint32(n);
                return;
            }
            lo = n >>> 0;
            hi = (n - lo) / 0x100000000;
        } else {
            const v = BigInt.asUintN(64, value);
            lo = Number(v & 0xffffffffn);
            hi = Number(v >> 32n);
        }
        this.reserve(10);
        while (hi > 0 || lo >= 0x80) {
            this.buf[this.pos++] = (lo & 0x7f) | 0x80;
            lo = ((lo >>> 7) | (hi << 25)) >>> 0;
            hi >>>= 7;
        }
        this.buf[this.pos++] = lo;
    }

    /** Writes a `double`, 8 bytes little-endian. @param {number} value */
    double(value) {
        this.reserve(8);
        FLOAT[0] = value;
        const at = this.pos;
        if (LITTLE_ENDIAN) for (let i = 0; i < 8; i++) this.buf[at + i] = FLOAT_BYTES[i];
        else for (let i = 0; i < 8; i++) this.buf[at + i] = FLOAT_BYTES[7 - i];
        this.pos += 8;
    }

    /** Writes a length-prefixed byte string. @param {import("./bytes.js").BytesLike} value */
    bytes(value) {
        value = toBytes(value, "bytes");
        this.uint32(value.length);
        this.raw(value);
    }

    /** Writes a length-prefixed UTF-8 string. @param {string} value */
    string(value) {
        const n = value.length;
        // At most 3 UTF-8 bytes per UTF-16 unit: up to 42 units the length
        // fits one byte. Such strings (most of a message's) are encoded
        // here: a call into TextEncoder costs more than the loop.
        if (n <= 42) {
            this.reserve(1 + 3 * n);
            const buf = this.buf;
            const start = this.pos + 1;
            let at = start;
            for (let i = 0; i < n; i++) {
                const c = value.charCodeAt(i);
                if (c < 0x80) {
                    buf[at++] = c;
                } else if (c < 0x800) {
                    buf[at++] = 0xc0 | (c >> 6);
                    buf[at++] = 0x80 | (c & 0x3f);
                } else if (c < 0xd800 || c >= 0xe000) {
                    buf[at++] = 0xe0 | (c >> 12);
                    buf[at++] = 0x80 | ((c >> 6) & 0x3f);
                    buf[at++] = 0x80 | (c & 0x3f);
                } else {
                    const d = c < 0xdc00 && i + 1 < n ? value.charCodeAt(i + 1) : 0;
                    if (d >= 0xdc00 && d < 0xe000) {
                        const p = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
                        buf[at++] = 0xf0 | (p >> 18);
                        buf[at++] = 0x80 | ((p >> 12) & 0x3f);
                        buf[at++] = 0x80 | ((p >> 6) & 0x3f);
                        buf[at++] = 0x80 | (p & 0x3f);
                        i++;
                    } else {
                        // A lone surrogate, as TextEncoder writes it: U+FFFD.
                        buf[at++] = 0xef;
                        buf[at++] = 0xbf;
                        buf[at++] = 0xbd;
                    }
                }
            }
            buf[this.pos] = at - start;
            this.pos = at;
            return;
        }
        const most = n * 3;
        if (most < 1 << 14) {
            // A length of one or two bytes: written after two, moved back
            // by one when it turns out to need one.
            this.reserve(2 + most);
            const at = this.pos;
            const { written } = utf8Encoder.encodeInto(value, this.buf.subarray(at + 2, at + 2 + most));
            if (written < 0x80) {
                this.buf.copyWithin(at + 1, at + 2, at + 2 + written);
                this.buf[at] = written;
                this.pos = at + 1 + written;
            } else {
                this.buf[at] = (written & 0x7f) | 0x80;
                this.buf[at + 1] = written >>> 7;
                this.pos = at + 2 + written;
            }
            return;
        }
        this.bytes(utf8Encoder.encode(value));
    }

    /** Starts a nested message. @returns {number} Where its length goes. */
    begin() {
        this.reserve(1);
        return this.pos++;
    }

    /** Ends a nested message begun at `mark`, writing its length there. @param {number} mark */
    end(mark) {
        const length = this.pos - mark - 1;
        let size = 1;
        for (let v = length >>> 7; v > 0; v >>>= 7) size++;
        if (size > 1) {
            this.reserve(size - 1);
            this.buf.copyWithin(mark + size, mark + 1, this.pos);
            this.pos += size - 1;
        }
        let v = length;
        let at = mark;
        while (v >= 0x80) {
            this.buf[at++] = (v & 0x7f) | 0x80;
            v >>>= 7;
        }
        this.buf[at] = v;
    }

    /** Writes a message's unknown fields, kept from decoding. @param {Uint8Array|undefined} bytes */
    unknown(bytes) {
        if (bytes !== undefined && bytes.length > 0) {
            this.wroteUnknown = true;
            this.raw(bytes);
        }
    }

    /** @returns {Uint8Array} The bytes written. */
    finish() {
        return this.pos === 0 ? EMPTY : this.buf.slice(0, this.pos);
    }
}

// One buffer that the encoders write into and copy a value's bytes out of, so
// that encoding a value allocates only its result. A buffer grown past
// SCRATCH_BYTES is not kept; an encode while the buffer is taken (a getter of
// the value that encodes, a frame waiting for an asynchronous deflater) gets
// a writer of its own.
const SCRATCH_BYTES = 1 << 16;
let scratch = new Uint8Array(1024);
let scratchInUse = false;

/**
 * A writer over the shared scratch buffer when it is free, else a new one;
 * give it back with {@link giveScratchWriter} when its bytes are no longer read.
 * @returns {WireWriter}
 */
export function takeScratchWriter() {
    if (scratchInUse) return new WireWriter();
    scratchInUse = true;
    const writer = new WireWriter(scratch);
    writer.scratch = true;
    return writer;
}

/** Gives back a writer of {@link takeScratchWriter}. @param {WireWriter} writer */
export function giveScratchWriter(writer) {
    if (!writer.scratch) return;
    if (writer.buf.length <= SCRATCH_BYTES) scratch = writer.buf;
    scratchInUse = false;
}
