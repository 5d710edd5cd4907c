// What every generated message type offers: creating, encoding, decoding and
// the proto3 JSON form, around the generated per-message functions.

import { toBytes } from "./bytes.js";
import { checkValue } from "./check.js";
import { ErrorCode, IMCodecError } from "./errors.js";
import { jsonTree, parseJSON, stringifyJSON } from "./json.js";
import { resolveLimits } from "./limits.js";
import { DecodeContext, WireReader, giveScratchWriter, takeScratchWriter } from "./wire.js";

/**
 * A message type of the schema, as the generated modules export it (`Message`,
 * `Elem`, `Event`, ...): its values are plain objects (see each type's
 * typedef).
 * @template T
 * @typedef {object} MessageType
 * @property {string} typeName The schema's full name (`imcodec.v1.Message`).
 * @property {(init?: Partial<T>) => T} create A value with every field at its default, then `init`'s members.
 * @property {(value: T, limits?: Partial<import("./limits.js").DecodingLimits>) => Uint8Array} encode
 *   The canonical encoding (Payloads.md, "Canonical encoding") of a value that
 *   matches the schema: anything else throws {@link IMCodecError} with the code the
 *   JSON reader gives the same mistake (`json.type`, `json.value`,
 *   `json.unknown-field`) and its path, and `limit.depth` past `maxDepth` merger layers.
 * @property {(bytes: import("./bytes.js").BytesLike, limits?: Partial<import("./limits.js").DecodingLimits>) => T} decode
 *   Decodes with the rules and limits of Payloads.md; throws {@link IMCodecError} (`payload.*`, `limit.*`).
 * @property {(value: T, limits?: Partial<import("./limits.js").DecodingLimits>) => object} toJSON
 *   The proto3 JSON form as a plain object (`-0` kept as `-0`); the value is checked as by `encode`.
 * @property {(value: T, options?: {pretty?: boolean, limits?: Partial<import("./limits.js").DecodingLimits>}) => string} toJSONString
 *   The proto3 JSON form as text; the value is checked as by `encode`.
 * @property {(json: any, limits?: Partial<import("./limits.js").DecodingLimits>) => T} fromJSON
 *   Reads a plain object as proto3 JSON; throws `json.*` (`json.depth` past the nesting
 *   `fromJSONString` allows) and `limit.*`.
 * @property {(text: string, limits?: Partial<import("./limits.js").DecodingLimits>) => T} fromJSONString
 *   Reads proto3 JSON text (duplicate members refused, 64-bit integers exact); throws
 *   `limit.document-size`, `json.*` and `limit.*`.
 */

/**
 * The UTF-8 length of a string, without encoding it.
 * @param {string} text
 * @returns {number}
 */
export function utf8Length(text) {
    let n = 0;
    for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c < 0x80) n += 1;
        else if (c < 0x800) n += 2;
        else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
            n += 4;
            i++;
        } else n += 3;
    }
    return n;
}

/**
 * Builds a message type from its generated functions. Called by the
 * generated modules only.
 * @param {{name: string, create: Function, encode: Function, merge: Function, toJSON: Function, fromJSON: Function, shape: Function}} spec
 * @returns {MessageType<any>}
 */
export function messageType(spec) {
    const { name, create, encode, merge, toJSON, fromJSON, shape } = spec;
    const type = Object.freeze({
        typeName: name,
        /** @internal The fields, for src/check.js. */
        shape,
        create(init) {
            const value = create();
            return init ? Object.assign(value, init) : value;
        },
        encode(value, limits) {
            checkValue(type, value, resolveLimits(limits));
            const writer = takeScratchWriter();
            try {
                encode(writer, value);
                return writer.finish();
            } finally {
                giveScratchWriter(writer);
            }
        },
        /**
         * @internal Checks and encodes into a writer, for the frame layer.
         * @returns {boolean} Whether every repeated field is within its count limit.
         */
        encodeTo(writer, value, limits) {
            const withinCounts = checkValue(type, value, limits);
            encode(writer, value);
            return withinCounts;
        },
        decode(bytes, limits) {
            const reader = new WireReader(toBytes(bytes, "bytes"));
            const value = create();
            merge(reader, value, new DecodeContext(resolveLimits(limits)));
            return value;
        },
        toJSON(value, limits) {
            checkValue(type, value, resolveLimits(limits));
            return toJSON(value);
        },
        toJSONString(value, options) {
            const limits = resolveLimits(options?.limits);
            checkValue(type, value, limits);
            // The nesting the JSON readers accept with these limits, which
            // holds any value within maxDepth merger layers.
            return stringifyJSON(toJSON(value), { pretty: options?.pretty, maxNesting: limits.maxDepth * 8 + 64 });
        },
        fromJSON(json, limits) {
            const resolved = resolveLimits(limits);
            return fromJSON(jsonTree(json, resolved.maxDepth * 8 + 64), new DecodeContext(resolved));
        },
        fromJSONString(text, limits) {
            const resolved = resolveLimits(limits);
            const size = utf8Length(text);
            if (size > resolved.maxDocumentBytes) {
                throw new IMCodecError(ErrorCode.limitDocumentSize, `a JSON document of ${size} bytes is too large`, {
                    limit: resolved.maxDocumentBytes,
                    observed: size,
                });
            }
            // Each merger layer nests about five JSON containers
            // (Payloads.md, "Limits"); no field takes more entries than the
            // largest count limit, so an array keeps one more than that.
            const largest = Math.max(resolved.maxElems, resolved.maxRepeated, resolved.maxBatchMessages);
            const tree = parseJSON(text, {
                maxNesting: resolved.maxDepth * 8 + 64,
                maxArrayEntries: largest + 1,
            });
            return fromJSON(tree, new DecodeContext(resolved));
        },
    });
    return type;
}
