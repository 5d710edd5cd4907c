// TypeScript declarations of the package (js/package.json "types"), written
// by hand beside the JavaScript they describe; the messages and enums are
// generated from Schemas/ into js/generated/model.d.ts and exported from here.
// Checked with `tsc --noEmit --strict` on js/test/types/sample.ts
// (js/test/types/check-types.mjs).

import type { Event, Message, MessageBatch } from "../generated/model.js";

export * from "../generated/model.js";

/** Bytes in any form the web platform and Node hand out: a Uint8Array (Node's Buffer is one), an ArrayBuffer, a DataView or another typed array. */
export type BytesLike = ArrayBuffer | SharedArrayBuffer | ArrayBufferView;

/**
 * Bounds on what a decoder accepts (docs/spec/limits.md, "Decoding limits"),
 * each checked before anything is allocated for it.
 */
export interface DecodingLimits {
    /** The largest frame body (`limit.frame-size`). */
    maxFrameBytes: number;
    /** The largest payload a compressed frame may declare (`limit.inflated-size`). */
    maxInflatedBytes: number;
    /** The largest payload-to-body ratio of a compressed frame (`limit.inflate-ratio`). */
    maxInflateRatio: number;
    /** How many merger layers may nest (`limit.depth`). */
    maxDepth: number;
    /** The most elems one message may hold (`limit.elems`). */
    maxElems: number;
    /** The most entries any other repeated field may hold (`limit.repeated`). */
    maxRepeated: number;
    /** The most messages one batch may hold (`limit.batch-messages`). */
    maxBatchMessages: number;
    /** The largest JSON document read, in UTF-8 bytes (`limit.document-size`). */
    maxDocumentBytes: number;
    /** The most problems a REST validation reports (`limit.problems`); unused here. */
    maxProblems: number;
}

/** The documented defaults of the decoding limits. */
export declare const DEFAULT_LIMITS: Readonly<DecodingLimits>;

/**
 * Complete limits: the defaults with the given members in their place.
 * @throws {TypeError} For a name that is no limit's, or a value that is not a number.
 * @throws {RangeError} For a value that is not a whole number from 0 on.
 */
export declare function resolveLimits(limits?: Partial<DecodingLimits>): DecodingLimits;

/** Every stable code this implementation raises, by a JavaScript name (docs/spec/error-and-finding-codes.md). */
export declare const ErrorCode: {
    readonly frameTruncated: "frame.truncated";
    readonly frameVersion: "frame.version";
    readonly frameKind: "frame.kind";
    readonly frameCompression: "frame.compression";
    readonly frameReservedBits: "frame.reserved-bits";
    readonly frameDictionary: "frame.dictionary";
    readonly frameDictionaryUnavailable: "frame.dictionary-unavailable";
    readonly frameVarint: "frame.varint";
    readonly frameDeflate: "frame.deflate";
    readonly frameZstdUnavailable: "frame.zstd-unavailable";
    readonly framePayloadLength: "frame.payload-length";
    readonly frameChecksum: "frame.checksum";
    readonly frameTrailingBytes: "frame.trailing-bytes";
    readonly payloadTruncated: "payload.truncated";
    readonly payloadVarint: "payload.varint";
    readonly payloadTag: "payload.tag";
    readonly payloadGroup: "payload.group";
    readonly payloadLength: "payload.length";
    readonly payloadUTF8: "payload.utf8";
    readonly limitFrameSize: "limit.frame-size";
    readonly limitInflatedSize: "limit.inflated-size";
    readonly limitInflateRatio: "limit.inflate-ratio";
    readonly limitDepth: "limit.depth";
    readonly limitElems: "limit.elems";
    readonly limitRepeated: "limit.repeated";
    readonly limitBatchMessages: "limit.batch-messages";
    readonly limitDocumentSize: "limit.document-size";
    readonly jsonSyntax: "json.syntax";
    readonly jsonType: "json.type";
    readonly jsonValue: "json.value";
    readonly jsonUnknownField: "json.unknown-field";
    readonly jsonDuplicateField: "json.duplicate-field";
    readonly jsonDepth: "json.depth";
    readonly limitProblems: "limit.problems";
    readonly restType: "rest.type";
    readonly restRange: "rest.range";
    readonly restMissingKey: "rest.missing-key";
    readonly restUnknownKey: "rest.unknown-key";
    readonly restKeyCase: "rest.key-case";
    readonly restDuplicateKey: "rest.duplicate-key";
    readonly restMsgType: "rest.msg-type";
    readonly restRelayListAndKey: "rest.relay-list-and-key";
    readonly restRelayMsgNum: "rest.relay-msg-num";
    readonly restUnrepresentable: "rest.unrepresentable";
};

/** One of the stable codes of {@link ErrorCode}. */
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * A problem with the input: a stable `code`, the `path` into the value, a
 * human `reason`, and for `limit.*` codes the `limit` and the `observed` value.
 */
export declare class IMCodecError extends Error {
    /**
     * @param code One of {@link ErrorCode}.
     * @param reason What is wrong, for people.
     * @param details The path (root when absent) and, for limit errors, the limit and the observed value.
     */
    constructor(code: string, reason: string, details?: { path?: Array<string | number>; limit?: number; observed?: number });
    /** The stable code, one of {@link ErrorCode}. */
    code: ErrorCodeValue;
    /** Where the problem is: field names and entry indexes, outermost first. */
    path: Array<string | number>;
    /** What is wrong, for people; never match on it. */
    reason: string;
    /** For `limit.*` codes, the limit crossed. */
    limit: number | undefined;
    /** For `limit.*` codes, the value observed. */
    observed: number | undefined;
    /** The path as text: `elems[2].text.text`, the empty string for the root. */
    get pathText(): string;
}

/** The text form of a structured path: `elems[2].text.text`. */
export declare function pathText(path: ReadonlyArray<string | number>): string;

/** The CRC-32 (IEEE) of bytes, continuing from `crc`. */
export declare function crc32(bytes: Uint8Array, crc?: number): number;

/** A JSON number kept as its text, so that 64-bit integers stay exact. */
export declare class JSONNumber {
    constructor(text: string);
    /** The number's text as written. */
    readonly text: string;
}

/** A JSON object in a parsed document: its members in document order, duplicates kept. */
export declare class JSONObject {
    constructor(members: Array<[string, unknown]>);
    /** The members, in their order. */
    readonly members: Array<[string, unknown]>;
}

/**
 * Parses JSON text into a tree of plain values, {@link JSONNumber}s and {@link JSONObject}s.
 * @throws {IMCodecError} `json.syntax`, `json.depth`.
 */
export declare function parseJSON(text: string, options?: { maxNesting?: number; maxArrayEntries?: number }): unknown;

/** Writes JSON text of a plain value or of a tree from {@link parseJSON}. @throws {IMCodecError} `json.depth` past `maxNesting` (by default the readers' JSON nesting). */
export declare function stringifyJSON(value: unknown, options?: { pretty?: boolean; maxNesting?: number }): string;

/**
 * A message type of the schema (`Message`, `Elem`, `Event`, ...); its values are plain objects.
 */
export interface MessageType<T> {
    /** The schema's full name (`imcodec.v1.Message`). */
    readonly typeName: string;
    /** A value with every field at its default, then `init`'s members. */
    create(init?: Partial<T>): T;
    /**
     * The canonical encoding of a value that matches the schema.
     * @throws {IMCodecError} `json.type`, `json.value`, `json.unknown-field`, `limit.depth`, with the path.
     */
    encode(value: T, limits?: Partial<DecodingLimits>): Uint8Array;
    /**
     * Decodes with the rules and limits of Payloads.md.
     * @throws {IMCodecError} `payload.*`, `limit.*`.
     */
    decode(bytes: BytesLike, limits?: Partial<DecodingLimits>): T;
    /** The proto3 JSON form as a plain object; the value is checked as by `encode`. */
    toJSON(value: T, limits?: Partial<DecodingLimits>): Record<string, unknown>;
    /** The proto3 JSON form as text; the value is checked as by `encode`. */
    toJSONString(value: T, options?: { pretty?: boolean; limits?: Partial<DecodingLimits> }): string;
    /**
     * Reads a plain object as proto3 JSON.
     * @throws {IMCodecError} `json.*`, `limit.*`.
     */
    fromJSON(json: unknown, limits?: Partial<DecodingLimits>): T;
    /**
     * Reads proto3 JSON text.
     * @throws {IMCodecError} `limit.document-size`, `json.*`, `limit.*`.
     */
    fromJSONString(text: string, limits?: Partial<DecodingLimits>): T;
}

/** What a frame holds: the testee protocol's `PayloadKind` numbers. */
export declare const FrameKind: { readonly message: 1; readonly batch: 2; readonly event: 3 };
/** How a frame's body is stored. */
export declare const FrameCompression: { readonly none: 0; readonly deflate: 1; readonly zstd: 2 };
/** The longest header: version, flags, three 5-byte varints and the checksum. */
export declare const MAX_HEADER_BYTES: 21;

/** Raw deflate as a platform offers it. */
export interface DeflateCodec {
    /** What it is, for reports (`node:zlib`, `compression-streams`, ...). */
    name: string;
    /** Whether it takes preset dictionaries. */
    dictionaries: boolean;
    /** Inflates a body into exactly `payloadLength` bytes, or throws `frame.deflate` or `frame.payload-length`. */
    inflateRaw(body: Uint8Array, payloadLength: number, dictionary: Uint8Array | null): Promise<Uint8Array>;
    /** Deflates a payload into a raw stream, primed with the dictionary when one is given. */
    deflateRaw(payload: Uint8Array, level: number, dictionary: Uint8Array | null): Promise<Uint8Array>;
    /** `inflateRaw` without a promise, for a codec whose work is synchronous (`node:zlib`). */
    inflateRawSync?(body: Uint8Array, payloadLength: number, dictionary: Uint8Array | null): Uint8Array;
    /** `deflateRaw` without a promise; it must not keep `payload` after it returns. */
    deflateRawSync?(payload: Uint8Array, level: number, dictionary: Uint8Array | null): Uint8Array;
}

/** Options of the frame functions and the {@link FrameReader}. */
export interface FrameOptions {
    /** The readers' limits; defaults for the rest. */
    limits?: Partial<DecodingLimits>;
    /** The deflate codec; the platform's when absent. */
    deflate?: DeflateCodec;
}

/** When a payload is compressed: the testee protocol's `encode_frame` policy. */
export interface CompressionPolicy {
    /** 0 never, 1 deflate when it pays (the default); 2 (zstd) is refused with `frame.zstd-unavailable`. */
    compression?: 0 | 1 | 2;
    /** Payloads shorter than this are stored (256). */
    threshold?: number;
    /** The zlib level 1 to 9, or 0 (the default) for 6. */
    level?: number;
    /** A shipped preset dictionary, 0 (the default) for none. */
    dictionaryId?: number;
}

/** Options of the frame writers. */
export interface EncodeFrameOptions extends FrameOptions {
    /** When the payload is compressed. */
    policy?: CompressionPolicy;
}

/** A frame header as read, before the body. */
export interface FrameHeader {
    kind: number;
    compression: number;
    /** 0 when none is named. */
    dictionaryId: number;
    /** Body bytes after the header. */
    bodyLength: number;
    /** The payload's length: the body's when stored. */
    payloadLength: number;
    /** The stored CRC-32. */
    checksum: number;
    /** The header's length, checksum included. */
    length: number;
}

/** A decoded frame: its header fields and its payload bytes. */
export interface Frame {
    kind: number;
    compression: number;
    dictionaryId: number;
    /** The payload: the body, inflated when compressed. */
    payload: Uint8Array;
}

/** A frame's content: its kind and the value of that kind. */
export type FramePayload =
    | { kind: 1; value: Message }
    | { kind: 2; value: MessageBatch }
    | { kind: 3; value: Event };

/**
 * Reads a frame header from the start of `bytes`; null when the bytes end inside it.
 * @throws {IMCodecError} `frame.version`, `frame.kind`, `frame.compression`, `frame.reserved-bits`, `frame.dictionary`, `frame.varint`.
 */
export declare function readFrameHeader(bytes: BytesLike): FrameHeader | null;
/** Check 3: a header's sizes against the limits. @throws {IMCodecError} `limit.frame-size`, `limit.inflated-size`, `limit.inflate-ratio`. */
export declare function checkFrameSizes(header: FrameHeader, limits: DecodingLimits): void;
/** Decodes one frame (steps 1 to 7); the payload is not decoded. @throws {IMCodecError} `frame.*`, `limit.*`. */
export declare function decodeFrame(bytes: BytesLike, options?: FrameOptions): Promise<Frame>;
/** Decodes one frame and its payload (steps 1 to 8). @throws {IMCodecError} `frame.*`, `payload.*`, `limit.*`. */
export declare function decodeFramePayload(bytes: BytesLike, options?: FrameOptions): Promise<FramePayload>;
/** Step 8: decodes a payload of a kind. @throws {IMCodecError} `payload.*`, `limit.*`. */
export declare function decodePayload(kind: 1, payload: BytesLike, limits?: Partial<DecodingLimits>): Message;
export declare function decodePayload(kind: 2, payload: BytesLike, limits?: Partial<DecodingLimits>): MessageBatch;
export declare function decodePayload(kind: 3, payload: BytesLike, limits?: Partial<DecodingLimits>): Event;
export declare function decodePayload(kind: number, payload: BytesLike, limits?: Partial<DecodingLimits>): Message | MessageBatch | Event;
/** Encodes a value canonically and frames it; never a frame a reader with the limits refuses. */
export declare function encodeFrame(content: FramePayload, options?: EncodeFrameOptions): Promise<Uint8Array>;
/** Frames payload bytes as given. */
export declare function encodeFrameBytes(kind: 1 | 2 | 3, payload: BytesLike, options?: EncodeFrameOptions): Promise<Uint8Array>;
/** The message type of a frame kind. */
export declare function payloadType(kind: 1): MessageType<Message>;
export declare function payloadType(kind: 2): MessageType<MessageBatch>;
export declare function payloadType(kind: 3): MessageType<Event>;
export declare function payloadType(kind: number): MessageType<Message> | MessageType<MessageBatch> | MessageType<Event>;

/** Reads frames written back to back from bytes that arrive in chunks split anywhere. */
export declare class FrameReader {
    constructor(options?: FrameOptions);
    /** Adds bytes that arrived; the reader keeps them: do not change them afterwards. */
    append(chunk: BytesLike): void;
    /** The bytes appended and not yet returned as frames. */
    readonly bufferedByteCount: number;
    /** The next complete frame, or null when more bytes are needed. */
    next(): Promise<Frame | null>;
    /** The next complete frame's decoded payload, or null. */
    nextPayload(): Promise<FramePayload | null>;
    /** Ends the stream. @throws {IMCodecError} `frame.truncated` when it ends inside a frame. */
    finish(): void;
}

/** Reads the frames of a stream of chunks (a `ReadableStream` body, a Node stream, any async iterable). */
export declare function readFrames(chunks: AsyncIterable<BytesLike>, options?: FrameOptions): AsyncGenerator<Frame>;

/** The deflate codec of the platform this runs on. */
export declare function platformDeflate(): Promise<DeflateCodec>;
/** Sets the codec {@link platformDeflate} gives (the entry points do). */
export declare function setPlatformDeflate(factory: () => DeflateCodec | Promise<DeflateCodec>): void;
/** Compression Streams, or pako when given (which takes preset dictionaries). */
export declare function webDeflate(options?: { pako?: unknown }): DeflateCodec;
/** The ids of the shipped preset dictionaries. */
export declare const DICTIONARY_IDS: ReadonlyArray<number>;
/** A shipped dictionary's bytes, loaded on first use. */
export declare function loadDictionary(id: number): Promise<Uint8Array>;
