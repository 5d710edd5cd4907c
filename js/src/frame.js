// Frames (docs/spec/frame-format.md): the header, the
// checks a reader makes in their order, CRC-32, stored and deflate bodies with
// the preset dictionaries, and a writer that refuses what readers refuse.

import { toBytes } from "./bytes.js";
import { crc32, crc32Range } from "./crc32.js";
import { platformDeflate, resolvedPlatformDeflate } from "./deflate.js";
import { ErrorCode, IMCodecError } from "./errors.js";
import { resolveLimits } from "./limits.js";
import { giveScratchWriter, takeScratchWriter } from "./wire.js";
import { DICTIONARY_IDS, loadDictionary } from "../generated/dictionaries.js";
import { Event, Message, MessageBatch } from "../generated/model.js";

/**
 * What a frame holds: the flags' kind bits, the numbers of the testee
 * protocol's `PayloadKind`.
 * @readonly
 * @enum {number}
 */
export const FrameKind = Object.freeze({ message: 1, batch: 2, event: 3 });

/**
 * How a frame's body is stored: the flags' compression bits.
 * @readonly
 * @enum {number}
 */
export const FrameCompression = Object.freeze({ none: 0, deflate: 1, zstd: 2 });

/** The longest header: version, flags, three 5-byte varints and the checksum. */
export const MAX_HEADER_BYTES = 21;

/** The members of a {@link CompressionPolicy}. */
const POLICY_MEMBERS = ["compression", "threshold", "level", "dictionaryId"];

/** The deflate level that `level: 0` (or none) stands for: zlib's default. */
const DEFAULT_DEFLATE_LEVEL = 6;

const PAYLOAD_TYPES = { 1: Message, 2: MessageBatch, 3: Event };
const SHIPPED = new Set(DICTIONARY_IDS);

/**
 * Raw deflate as a platform offers it; {@link platformDeflate} picks one.
 * @typedef {object} DeflateCodec
 * @property {string} name What it is, for reports (`node:zlib`, `compression-streams`, ...).
 * @property {boolean} dictionaries Whether it takes preset dictionaries.
 * @property {(body: Uint8Array, payloadLength: number, dictionary: Uint8Array|null) => Promise<Uint8Array>} inflateRaw
 *   Inflates a body into exactly `payloadLength` bytes, or throws `frame.deflate` or
 *   `frame.payload-length` in the order of FrameFormat.md, "Compression".
 * @property {(payload: Uint8Array, level: number, dictionary: Uint8Array|null) => Promise<Uint8Array>} deflateRaw
 *   Deflates a payload (a raw stream, primed with the dictionary when one is given).
 * @property {(body: Uint8Array, payloadLength: number, dictionary: Uint8Array|null) => Uint8Array} [inflateRawSync]
 *   `inflateRaw` without a promise, for a codec whose work is synchronous (`node:zlib`):
 *   the frame functions then take no turn of the event loop for it.
 * @property {(payload: Uint8Array, level: number, dictionary: Uint8Array|null) => Uint8Array} [deflateRawSync]
 *   `deflateRaw` without a promise, likewise. It must not keep `payload`, which the
 *   frame functions may write over once it returns.
 */

/**
 * Options of the frame functions and the {@link FrameReader}.
 * @typedef {object} FrameOptions
 * @property {Partial<import("./limits.js").DecodingLimits>} [limits] The readers' limits; defaults for the rest.
 * @property {DeflateCodec} [deflate] The deflate codec; the platform's when absent.
 */

/**
 * A decoded frame: its header fields and its payload bytes.
 * @typedef {object} Frame
 * @property {number} kind One of {@link FrameKind}.
 * @property {number} compression One of {@link FrameCompression}.
 * @property {number} dictionaryId The preset dictionary named, 0 for none.
 * @property {Uint8Array} payload The payload: the body, inflated when compressed.
 */

/**
 * A frame's decoded content.
 * @typedef {object} FramePayload
 * @property {number} kind One of {@link FrameKind}.
 * @property {object} value A `Message`, `MessageBatch` or `Event` value (js/generated/model.js).
 */

/**
 * A frame header as read, before the body.
 * @typedef {object} FrameHeader
 * @property {number} kind
 * @property {number} compression
 * @property {number} dictionaryId 0 when none is named.
 * @property {number} bodyLength Body bytes after the header.
 * @property {number} payloadLength The payload's length: the body's when stored.
 * @property {number} checksum The stored CRC-32.
 * @property {number} length The header's length, checksum included.
 */

function frameError(code, reason) {
    return new IMCodecError(code, reason);
}

function limitError(code, reason, limit, observed) {
    return new IMCodecError(code, reason, { limit, observed });
}

// The value of the last header varint read: headerVarint returns the next
// position, so that a header is read without an array per varint.
let varintValue = 0;

// A header varint: at most 5 bytes, at most 2^32 - 1, minimally encoded.
// Returns the next position (the value in `varintValue`), or -1 when the
// bytes end inside it.
function headerVarint(bytes, at) {
    // A scale multiplied up, not 2 ** (7 * i): V8 computes a power by a call.
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 5; i++) {
        if (at + i >= bytes.length) return -1;
        const b = bytes[at + i];
        value += (b & 0x7f) * scale;
        scale *= 0x80;
        if (b < 0x80) {
            if (value > 0xffffffff || (i > 0 && b === 0)) {
                throw frameError(ErrorCode.frameVarint, "a header varint is above 2^32 - 1 or not minimally encoded");
            }
            varintValue = value;
            return at + i + 1;
        }
    }
    throw frameError(ErrorCode.frameVarint, "a header varint is longer than 5 bytes");
}

/**
 * Reads a frame header from the start of `bytes` (checks 1 and 2 of
 * FrameFormat.md, "Checks a reader makes, in order").
 * @param {import("./bytes.js").BytesLike} bytes The frame's first bytes (at least
 *   {@link MAX_HEADER_BYTES} of them, or all there are).
 * @returns {FrameHeader|null} The header, or null when the bytes end inside it.
 * @throws {IMCodecError} `frame.version`, `frame.kind`, `frame.compression`,
 *   `frame.reserved-bits`, `frame.dictionary`, `frame.varint`.
 */
export function readFrameHeader(bytes) {
    bytes = toBytes(bytes, "the header");
    if (bytes.length < 2) return null;
    if (bytes[0] !== 1) throw frameError(ErrorCode.frameVersion, `version ${bytes[0]} is not 1`);
    const flags = bytes[1];
    const kind = flags & 3;
    const compression = (flags >> 2) & 3;
    if (kind === 0) throw frameError(ErrorCode.frameKind, "kind 0");
    if (compression === 3) throw frameError(ErrorCode.frameCompression, "compression 3");
    if (flags >> 5) throw frameError(ErrorCode.frameReservedBits, "a reserved flag bit is set");
    let at = 2;
    let dictionaryId = 0;
    if (flags & 0x10) {
        at = headerVarint(bytes, at);
        if (at < 0) return null;
        dictionaryId = varintValue;
        if (compression === 0 || !SHIPPED.has(dictionaryId)) {
            throw frameError(ErrorCode.frameDictionary, `dictionary ${dictionaryId} with compression ${compression}`);
        }
    }
    at = headerVarint(bytes, at);
    if (at < 0) return null;
    const bodyLength = varintValue;
    let payloadLength = bodyLength;
    if (compression !== 0) {
        at = headerVarint(bytes, at);
        if (at < 0) return null;
        payloadLength = varintValue;
    }
    if (bytes.length < at + 4) return null;
    const checksum = (bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24)) >>> 0;
    return { kind, compression, dictionaryId, bodyLength, payloadLength, checksum, length: at + 4 };
}

/**
 * Check 3: the header's sizes against the limits, before anything is
 * buffered or allocated for the body. A writer makes it on the frame it is
 * about to write.
 * @param {FrameHeader} header
 * @param {import("./limits.js").DecodingLimits} limits Complete limits.
 * @throws {IMCodecError} `limit.frame-size`, `limit.inflated-size`, `limit.inflate-ratio`.
 */
export function checkFrameSizes(header, limits) {
    const { bodyLength, payloadLength } = header;
    if (bodyLength > limits.maxFrameBytes) {
        throw limitError(ErrorCode.limitFrameSize, `a body of ${bodyLength} bytes`, limits.maxFrameBytes, bodyLength);
    }
    if (header.compression !== 0) {
        if (payloadLength > limits.maxInflatedBytes) {
            throw limitError(ErrorCode.limitInflatedSize, `a payload of ${payloadLength} bytes`, limits.maxInflatedBytes, payloadLength);
        }
        if (payloadLength > bodyLength * limits.maxInflateRatio) {
            const ratio = bodyLength === 0 ? payloadLength : Math.ceil(payloadLength / bodyLength);
            throw limitError(ErrorCode.limitInflateRatio, "the payload is too large for its body", limits.maxInflateRatio, ratio);
        }
    }
}

/**
 * Steps 5 and 6: the body's payload, inflated when compressed, checked
 * against the header's CRC-32.
 * @param {FrameHeader} header
 * @param {number} headerCRC The CRC-32 of the header's bytes before the checksum.
 * @param {Uint8Array} body The body, all of it.
 * @param {DeflateCodec} deflate
 * @returns {Uint8Array | Promise<Uint8Array>} The payload: at once when
 *   nothing needs waiting for (a stored body, a codec's `inflateRawSync`).
 * @throws {IMCodecError} `frame.deflate`, `frame.payload-length`,
 *   `frame.dictionary-unavailable`, `frame.zstd-unavailable`, `frame.checksum`,
 *   thrown or as the promise's rejection.
 */
export function frameBodyPayload(header, headerCRC, body, deflate) {
    if (header.compression === FrameCompression.zstd) {
        throw frameError(ErrorCode.frameZstdUnavailable, "this implementation has no zstd decoder");
    }
    if (header.compression === FrameCompression.deflate) {
        if (header.dictionaryId !== 0) {
            if (!deflate.dictionaries) {
                throw frameError(
                    ErrorCode.frameDictionaryUnavailable,
                    `${deflate.name} takes no preset dictionary (dictionary ${header.dictionaryId})`,
                );
            }
            return loadDictionary(header.dictionaryId).then((dictionary) =>
                inflatedPayload(header, headerCRC, body, deflate, dictionary),
            );
        }
        return inflatedPayload(header, headerCRC, body, deflate, null);
    }
    return checkedPayload(header, headerCRC, body);
}

function inflatedPayload(header, headerCRC, body, deflate, dictionary) {
    if (deflate.inflateRawSync !== undefined) {
        return checkedPayload(header, headerCRC, deflate.inflateRawSync(body, header.payloadLength, dictionary));
    }
    return deflate
        .inflateRaw(body, header.payloadLength, dictionary)
        .then((payload) => checkedPayload(header, headerCRC, payload));
}

function checkedPayload(header, headerCRC, payload) {
    if (crc32(payload, headerCRC) !== header.checksum) {
        throw frameError(ErrorCode.frameChecksum, "the CRC-32 does not match");
    }
    return payload;
}

/**
 * Decodes exactly one frame (steps 1 to 7): its header fields and payload
 * bytes. The payload is not decoded; {@link decodePayload} does that.
 * @param {import("./bytes.js").BytesLike} bytes The frame; nothing may follow it.
 * @param {FrameOptions} [options]
 * @returns {Promise<Frame>}
 * @throws {IMCodecError} The frame codes and `limit.frame-size`,
 *   `limit.inflated-size`, `limit.inflate-ratio`; `frame.truncated` for bytes
 *   that end inside the frame, `frame.trailing-bytes` for bytes after it.
 */
export async function decodeFrame(bytes, options = {}) {
    return readFrame(bytes, options);
}

// decodeFrame's work, at once when nothing needs waiting for (the platform's
// codec known, a stored body or a synchronous codec), else as a promise: a
// frame read costs no turn of the event loop but its caller's.
function readFrame(bytes, options) {
    bytes = toBytes(bytes, "the frame");
    const limits = resolveLimits(options.limits);
    const deflate = options.deflate ?? resolvedPlatformDeflate();
    if (deflate === undefined) return platformDeflate().then(() => readFrame(bytes, options));
    const header = readFrameHeader(bytes);
    if (header === null) throw frameError(ErrorCode.frameTruncated, "the input ends inside the frame header");
    checkFrameSizes(header, limits);
    const end = header.length + header.bodyLength;
    if (bytes.length < end) throw frameError(ErrorCode.frameTruncated, "the input ends inside the frame body");
    const headerCRC = crc32Range(bytes, 0, header.length - 4, 0);
    const payload = frameBodyPayload(header, headerCRC, bytes.subarray(header.length, end), deflate);
    if (payload instanceof Promise) return payload.then((read) => wholeFrame(header, bytes, end, read));
    return wholeFrame(header, bytes, end, payload);
}

function wholeFrame(header, bytes, end, payload) {
    if (bytes.length > end) {
        throw frameError(ErrorCode.frameTrailingBytes, `${bytes.length - end} bytes after the frame`);
    }
    return { kind: header.kind, compression: header.compression, dictionaryId: header.dictionaryId, payload };
}

/**
 * The message type of a frame kind: `Message`, `MessageBatch` or `Event`.
 * @param {number} kind One of {@link FrameKind}.
 * @returns {import("./message.js").MessageType<any>}
 */
export function payloadType(kind) {
    const type = PAYLOAD_TYPES[kind];
    if (type === undefined) throw new RangeError(`payload kind ${kind} is not 1 (message), 2 (batch) or 3 (event)`);
    return type;
}

/**
 * Step 8: decodes a payload of a kind with the decoding limits.
 * @param {number} kind One of {@link FrameKind}.
 * @param {import("./bytes.js").BytesLike} payload
 * @param {Partial<import("./limits.js").DecodingLimits>} [limits]
 * @returns {object} The value.
 * @throws {IMCodecError} `payload.*`, `limit.*`.
 */
export function decodePayload(kind, payload, limits) {
    return payloadType(kind).decode(payload, limits);
}

/**
 * Decodes one frame and its payload (steps 1 to 8).
 * @param {import("./bytes.js").BytesLike} bytes The frame; nothing may follow it.
 * @param {FrameOptions} [options]
 * @returns {Promise<FramePayload>}
 * @throws {IMCodecError} As {@link decodeFrame}, then `payload.*` and `limit.*`.
 */
export async function decodeFramePayload(bytes, options = {}) {
    let frame = readFrame(bytes, options);
    if (frame instanceof Promise) frame = await frame;
    return { kind: frame.kind, value: decodePayload(frame.kind, frame.payload, options.limits) };
}

/**
 * When a payload is compressed: the testee protocol's `encode_frame` policy.
 * @typedef {object} CompressionPolicy
 * @property {number} [compression=1] 0 never, 1 deflate when it pays; 2 (zstd) is refused with `frame.zstd-unavailable`.
 * @property {number} [threshold=256] Payloads shorter than this are stored.
 * @property {number} [level=0] The zlib level, 1 (fastest) to 9 (smallest), or 0 for the default, 6
 *   (zlib's own), as in the testee protocol's `encode_frame`; Compression Streams have no level and
 *   use their own. Not looked at with compression 0.
 * @property {number} [dictionaryId=0] A shipped preset dictionary, 0 for none.
 */

/**
 * Frames payload bytes as given, as a relay that forwards payloads would:
 * compressed when the policy asks, the compressed body is smaller and a
 * reader with the limits accepts it (check 3); stored otherwise.
 * @param {number} kind One of {@link FrameKind}.
 * @param {import("./bytes.js").BytesLike} payload
 * @param {FrameOptions & {policy?: CompressionPolicy}} [options]
 * @returns {Promise<Uint8Array>} The frame.
 * @throws {IMCodecError} `limit.frame-size` when even the stored frame is too
 *   large for the readers; `frame.dictionary` for a dictionary id that is not
 *   shipped; `frame.zstd-unavailable` for compression 2;
 *   `frame.dictionary-unavailable` for a dictionary the deflate codec cannot take.
 * @throws {RangeError} For a kind, compression or level out of range.
 * @throws {TypeError} For a policy member that is not one (a misspelling).
 */
export async function encodeFrameBytes(kind, payload, options = {}) {
    return frameBytes(kind, toBytes(payload, "the payload"), options);
}

// encodeFrameBytes's work, at once when nothing needs waiting for (a stored
// body, or the platform's codec known and synchronous), else as a promise.
// `payload` is read only until the frame is made (a promise's end).
function frameBytes(kind, payload, options) {
    payloadType(kind);
    const limits = resolveLimits(options.limits);
    const policy = options.policy ?? {};
    for (const name of Object.keys(policy)) {
        if (!POLICY_MEMBERS.includes(name)) {
            throw new TypeError(`${name} is not a member of a compression policy (${POLICY_MEMBERS.join(", ")})`);
        }
    }
    const compression = policy.compression ?? FrameCompression.deflate;
    const threshold = policy.threshold ?? 256;
    // 0 is the default level, as in the testee protocol's encode_frame.
    const level = policy.level || DEFAULT_DEFLATE_LEVEL;
    const dictionaryId = policy.dictionaryId ?? 0;
    if (dictionaryId !== 0 && !SHIPPED.has(dictionaryId)) {
        throw frameError(ErrorCode.frameDictionary, `no shipped dictionary has id ${dictionaryId}`);
    }
    if (compression === FrameCompression.zstd) {
        throw frameError(ErrorCode.frameZstdUnavailable, "this implementation has no zstd encoder");
    }
    if (compression !== 0 && compression !== 1) throw new RangeError(`compression ${compression} is not 0, 1 or 2`);
    // The level is the compressor's: with compression 0 it is not looked at.
    if (compression !== 0 && (!Number.isInteger(level) || level < 1 || level > 9)) {
        throw new RangeError(`level ${policy.level} is not 0 (the default) or 1...9`);
    }
    if (compression === FrameCompression.deflate && payload.length >= threshold) {
        const deflate = options.deflate ?? resolvedPlatformDeflate();
        if (deflate === undefined) return platformDeflate().then(() => frameBytes(kind, payload, options));
        if (dictionaryId !== 0) {
            if (!deflate.dictionaries) {
                throw frameError(ErrorCode.frameDictionaryUnavailable, `${deflate.name} takes no preset dictionary`);
            }
            return loadDictionary(dictionaryId).then((dictionary) =>
                deflatedFrame(kind, payload, limits, deflate, level, dictionaryId, dictionary),
            );
        }
        return deflatedFrame(kind, payload, limits, deflate, level, 0, null);
    }
    return storedFrame(kind, payload, limits);
}

function deflatedFrame(kind, payload, limits, deflate, level, dictionaryId, dictionary) {
    if (deflate.deflateRawSync !== undefined) {
        return smallerFrame(kind, payload, limits, dictionaryId, deflate.deflateRawSync(payload, level, dictionary));
    }
    return deflate
        .deflateRaw(payload, level, dictionary)
        .then((body) => smallerFrame(kind, payload, limits, dictionaryId, body));
}

// The deflated frame when its body is smaller and a reader with the limits
// accepts it (check 3), else the stored one.
function smallerFrame(kind, payload, limits, dictionaryId, body) {
    const header = { kind, compression: 1, dictionaryId, bodyLength: body.length, payloadLength: payload.length };
    let accepted = body.length < payload.length;
    if (accepted) {
        try {
            checkFrameSizes(header, limits);
        } catch {
            accepted = false;
        }
    }
    return accepted ? assemble(header, payload, body) : storedFrame(kind, payload, limits);
}

function storedFrame(kind, payload, limits) {
    const header = { kind, compression: 0, dictionaryId: 0, bodyLength: payload.length, payloadLength: payload.length };
    checkFrameSizes(header, limits);
    return assemble(header, payload, payload);
}

function varintSize(value) {
    let size = 1;
    for (let v = value >>> 7; v > 0; v >>>= 7) size++;
    return size;
}

function writeVarint(out, at, value) {
    let v = value;
    while (v >= 0x80) {
        out[at++] = (v & 0x7f) | 0x80;
        v >>>= 7;
    }
    out[at++] = v;
    return at;
}

// The frame in one array of its length: the header, its CRC-32 over the
// header and the payload, the body.
function assemble(header, payload, body) {
    const { kind, compression, dictionaryId, bodyLength, payloadLength } = header;
    const headerLength =
        2 +
        (dictionaryId !== 0 ? varintSize(dictionaryId) : 0) +
        varintSize(bodyLength) +
        (compression !== 0 ? varintSize(payloadLength) : 0);
    const frame = new Uint8Array(headerLength + 4 + bodyLength);
    frame[0] = 1;
    frame[1] = kind | (compression << 2) | (dictionaryId !== 0 ? 0x10 : 0);
    let at = 2;
    if (dictionaryId !== 0) at = writeVarint(frame, at, dictionaryId);
    at = writeVarint(frame, at, bodyLength);
    if (compression !== 0) at = writeVarint(frame, at, payloadLength);
    const checksum = crc32(payload, crc32Range(frame, 0, at, 0));
    frame[at] = checksum & 0xff;
    frame[at + 1] = (checksum >>> 8) & 0xff;
    frame[at + 2] = (checksum >>> 16) & 0xff;
    frame[at + 3] = checksum >>> 24;
    frame.set(body, at + 4);
    return frame;
}

/**
 * Encodes a value canonically and frames it (FrameFormat.md, "Writing
 * frames: writer within reader"): never a frame that a reader with the
 * limits refuses. The frame's size is checked first, then the payload as
 * the reader would decode it.
 * @param {FramePayload} content The kind and the value.
 * @param {FrameOptions & {policy?: CompressionPolicy}} [options]
 * @returns {Promise<Uint8Array>} The frame.
 * @throws {IMCodecError} For a value that does not match the schema, the
 *   code the JSON reader gives the same mistake (`json.type`, `json.value`,
 *   `json.unknown-field`) or `limit.depth`, with its path, before anything is
 *   written; then as {@link encodeFrameBytes}; then the `limit.*` (or, for
 *   unknown fields that are not whole fields, `payload.*`) error a reader
 *   would give the payload, with its path.
 */
export async function encodeFrame(content, options = {}) {
    const type = payloadType(content.kind);
    const limits = resolveLimits(options.limits);
    // The payload is written into the shared scratch buffer and read there,
    // by the deflater and into the frame, until the frame is made.
    const writer = takeScratchWriter();
    try {
        const withinCounts = type.encodeTo(writer, content.value, limits);
        const payload = writer.buf.subarray(0, writer.pos);
        let frame = frameBytes(content.kind, payload, options);
        if (frame instanceof Promise) frame = await frame;
        // The check has applied the depth limit and counted every repeated field;
        // only unknown fields (whose bytes the check does not read) or a count
        // past its limit need the reader itself, for its error and path.
        if (writer.wroteUnknown || !withinCounts) type.decode(payload, limits);
        return frame;
    } finally {
        giveScratchWriter(writer);
    }
}
