// proto3 JSON (docs/spec/payloads.md, "JSON input"): a
// strict RFC 8259 parser that keeps what the mapping needs exactly (object
// members in order, so duplicates can be refused; numbers as their literal
// text, so 64-bit integers lose nothing), the scalar conversions with their
// codes, and a writer. The generated codecs call these.

import { toBytes } from "./bytes.js";
import { ErrorCode, IMCodecError } from "./errors.js";
import { DEFAULT_LIMITS } from "../generated/limits.js";

/** A JSON number in a parsed document, kept as its literal text. */
export class JSONNumber {
    /** @param {string} text The literal, as written. */
    constructor(text) {
        /** The literal. */
        this.text = text;
    }
}

/** A JSON object in a parsed document: its members in document order, duplicates kept. */
export class JSONObject {
    /** @param {Array<[string, any]>} members */
    constructor(members) {
        /** `[key, value]` pairs in document order. */
        this.members = members;
    }
}

function syntax(reason, index) {
    return new IMCodecError(ErrorCode.jsonSyntax, `${reason} at offset ${index}`);
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * Parses JSON text into a tree of `null`, booleans, strings,
 * {@link JSONNumber}, arrays and {@link JSONObject}. Nesting is kept on a
 * stack of its own, not the call stack.
 * @param {string} text The document.
 * @param {{maxNesting?: number, maxArrayEntries?: number}} [options]
 *   The deepest nesting of arrays and objects accepted (`json.depth` past it,
 *   the outermost being level 1), and how many entries an array keeps (later
 *   ones are parsed, then dropped).
 * @returns {any} The tree.
 * @throws {IMCodecError} `json.syntax`, `json.depth`.
 */
export function parseJSON(text, options = {}) {
    const maxNesting = options.maxNesting ?? Infinity;
    const maxEntries = options.maxArrayEntries ?? Infinity;
    let i = 0;
    const n = text.length;
    const skip = () => {
        while (i < n && WHITESPACE.has(text.charCodeAt(i))) i++;
    };
    const open = [];
    skip();
    for (;;) {
        skip();
        if (i >= n) throw syntax("the text ends where a value was expected", i);
        let value;
        const c = text[i];
        if (c === "{" || c === "[") {
            if (open.length + 1 > maxNesting) {
                throw new IMCodecError(ErrorCode.jsonDepth, "arrays and objects nest deeper than allowed", {
                    limit: maxNesting,
                    observed: open.length + 1,
                });
            }
            i++;
            skip();
            if (c === "{") {
                if (text[i] === "}") {
                    i++;
                    value = new JSONObject([]);
                } else {
                    open.push({ members: [], key: memberKey() });
                    continue;
                }
            } else if (text[i] === "]") {
                i++;
                value = [];
            } else {
                open.push({ elements: [] });
                continue;
            }
        } else if (c === '"') value = string();
        else if (c === "t") value = literal("true", true);
        else if (c === "f") value = literal("false", false);
        else if (c === "n") value = literal("null", null);
        else if (c === "-" || (c >= "0" && c <= "9")) value = number();
        else throw syntax("unexpected character", i);
        // A value is complete: add it to the innermost container and close
        // every container that ends after it.
        for (;;) {
            const container = open.pop();
            if (container === undefined) {
                skip();
                if (i !== n) throw syntax("unexpected text after the JSON value", i);
                return value;
            }
            skip();
            if (container.members) {
                container.members.push([container.key, value]);
                if (text[i] === ",") {
                    i++;
                    container.key = memberKey();
                    open.push(container);
                    break;
                }
                if (text[i] !== "}") throw syntax(i >= n ? "the text ends inside an object" : "expected ',' or '}'", i);
                i++;
                value = new JSONObject(container.members);
            } else {
                if (container.elements.length < maxEntries) container.elements.push(value);
                if (text[i] === ",") {
                    i++;
                    open.push(container);
                    break;
                }
                if (text[i] !== "]") throw syntax(i >= n ? "the text ends inside an array" : "expected ',' or ']'", i);
                i++;
                value = container.elements;
            }
        }
    }

    function memberKey() {
        skip();
        if (text[i] !== '"') throw syntax("an object member must start with a string key", i);
        const key = string();
        skip();
        if (text[i] !== ":") throw syntax("expected ':'", i);
        i++;
        return key;
    }

    function literal(word, value) {
        if (text.startsWith(word, i)) {
            i += word.length;
            return value;
        }
        throw syntax("invalid literal", i);
    }

    function number() {
        const start = i;
        if (text[i] === "-") i++;
        const digit = () => i < n && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39;
        if (!digit()) throw syntax("invalid number", i);
        if (text[i] === "0") i++;
        else while (digit()) i++;
        if (text[i] === ".") {
            i++;
            if (!digit()) throw syntax("invalid number", i);
            while (digit()) i++;
        }
        if (text[i] === "e" || text[i] === "E") {
            i++;
            if (text[i] === "+" || text[i] === "-") i++;
            if (!digit()) throw syntax("invalid number", i);
            while (digit()) i++;
        }
        return new JSONNumber(text.slice(start, i));
    }

    function hex4() {
        const digits = text.slice(i, i + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(digits)) throw syntax("invalid \\u escape", i);
        i += 4;
        return parseInt(digits, 16);
    }

    function string() {
        i++;
        let out = "";
        let run = i;
        for (;;) {
            if (i >= n) throw syntax("the text ends inside a string", i);
            const code = text.charCodeAt(i);
            if (code === 0x22) {
                out += text.slice(run, i);
                i++;
                return out;
            }
            if (code < 0x20) throw syntax("a control character inside a string must be escaped", i);
            if (code >= 0xd800 && code <= 0xdfff) {
                // Text held as UTF-16: a surrogate must be half of a pair.
                const next = text.charCodeAt(i + 1);
                if (code > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) throw syntax("a string is not valid Unicode", i);
                i += 2;
                continue;
            }
            if (code !== 0x5c) {
                i++;
                continue;
            }
            out += text.slice(run, i);
            i++;
            if (i >= n) throw syntax("the text ends inside an escape", i);
            const e = text[i++];
            switch (e) {
                case '"': out += '"'; break;
                case "\\": out += "\\"; break;
                case "/": out += "/"; break;
                case "b": out += "\b"; break;
                case "f": out += "\f"; break;
                case "n": out += "\n"; break;
                case "r": out += "\r"; break;
                case "t": out += "\t"; break;
                case "u": {
                    const unit = hex4();
                    if (unit >= 0xd800 && unit <= 0xdbff) {
                        if (text[i] !== "\\" || text[i + 1] !== "u") {
                            throw syntax("a high surrogate escape without its low surrogate", i);
                        }
                        i += 2;
                        const low = hex4();
                        if (low < 0xdc00 || low > 0xdfff) throw syntax("a high surrogate escape without its low surrogate", i);
                        out += String.fromCharCode(unit, low);
                    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
                        throw syntax("a low surrogate escape without its high surrogate", i);
                    } else {
                        out += String.fromCharCode(unit);
                    }
                    break;
                }
                default:
                    throw syntax("invalid escape", i - 1);
            }
            run = i;
        }
    }
}

/**
 * Turns a plain JavaScript value (from `JSON.parse`, or built in code) into
 * the tree {@link parseJSON} makes, so that it can be read as proto3 JSON.
 * Bigints become exact number literals; `-0` stays `-0`.
 * @param {any} value
 * @param {number} [maxNesting] The deepest nesting of arrays and objects accepted.
 * @param {number} [nesting] The nesting `value` is at (0 for the root).
 * @returns {any}
 * @throws {IMCodecError} `json.depth` past `maxNesting`.
 */
export function jsonTree(value, maxNesting = Infinity, nesting = 0) {
    if (value === null || typeof value === "string" || typeof value === "boolean") return value;
    if (typeof value === "number") return new JSONNumber(formatNumber(value));
    if (typeof value === "bigint") return new JSONNumber(value.toString());
    if (value instanceof JSONNumber || value instanceof JSONObject) return value;
    if (typeof value === "object" && nesting >= maxNesting) {
        throw new IMCodecError(ErrorCode.jsonDepth, "arrays and objects nest deeper than allowed", {
            limit: maxNesting,
            observed: nesting + 1,
        });
    }
    if (Array.isArray(value)) return value.map((entry) => jsonTree(entry, maxNesting, nesting + 1));
    if (typeof value === "object") {
        return new JSONObject(
            Object.entries(value)
                .filter(([, v]) => v !== undefined)
                .map(([k, v]) => [k, jsonTree(v, maxNesting, nesting + 1)]),
        );
    }
    throw new TypeError(`${typeof value} has no JSON form`);
}

function formatNumber(value) {
    if (Object.is(value, -0)) return "-0";
    return String(value);
}

function quote(text) {
    return JSON.stringify(text);
}

/**
 * Writes JSON text: of a plain value (objects, arrays, strings, booleans,
 * `null`, numbers with `-0` kept, bigints as number literals) or of a tree
 * from {@link parseJSON}.
 * @param {any} value
 * @param {{pretty?: boolean, maxNesting?: number}} [options] `pretty`: indent by two
 *   spaces, one member per line. `maxNesting`: the deepest nesting of arrays and
 *   objects written, the outermost being level 1; by default the nesting the
 *   message types' JSON readers accept with the default limits
 *   (`maxDepth * 8 + 64`), so that no value overflows the call stack.
 * @returns {string}
 * @throws {IMCodecError} `json.depth` past `maxNesting`.
 */
export function stringifyJSON(value, options = {}) {
    const pretty = options.pretty === true;
    const maxNesting = options.maxNesting ?? DEFAULT_LIMITS.maxDepth * 8 + 64;
    const out = [];
    let nesting = 0;
    const write = (v, indent) => {
        if (v === null || v === undefined) out.push("null");
        else if (typeof v === "string") out.push(quote(v));
        else if (typeof v === "boolean") out.push(v ? "true" : "false");
        else if (typeof v === "number") {
            if (!Number.isFinite(v)) throw new TypeError(`${v} has no JSON form`);
            out.push(formatNumber(v));
        } else if (typeof v === "bigint") out.push(v.toString());
        else if (v instanceof JSONNumber) out.push(v.text);
        else {
            if (++nesting > maxNesting) {
                throw new IMCodecError(ErrorCode.jsonDepth, "arrays and objects nest deeper than allowed", {
                    limit: maxNesting,
                    observed: nesting,
                });
            }
            const isArray = Array.isArray(v);
            const entries = isArray ? v.map((e) => [null, e]) : v instanceof JSONObject ? v.members : Object.entries(v);
            out.push(isArray ? "[" : "{");
            const inner = indent + "  ";
            entries.forEach(([key, element], index) => {
                if (index > 0) out.push(",");
                if (pretty) out.push("\n" + inner);
                if (!isArray) out.push(quote(key) + (pretty ? ": " : ":"));
                write(element, inner);
            });
            if (pretty && entries.length > 0) out.push("\n" + indent);
            out.push(isArray ? "]" : "}");
            nesting--;
        }
    };
    write(value, "");
    return out.join("");
}

// ---------------------------------------------------------------------------
// Base64 as proto3 JSON uses it: written standard with padding, read in the
// standard or URL-safe alphabet, padding optional, the bits the padding drops
// ignored whatever they are (RFC 4648, 3.5; docs/spec/payloads.md).
// ---------------------------------------------------------------------------

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const SEXTETS = new Int8Array(128).fill(-1);
for (let k = 0; k < 64; k++) SEXTETS[ALPHABET.charCodeAt(k)] = k;
SEXTETS["-".charCodeAt(0)] = 62;
SEXTETS["_".charCodeAt(0)] = 63;

/**
 * Base64 in the standard alphabet with padding.
 * @param {Uint8Array} bytes
 * @returns {string}
 */
export function base64Encode(bytes) {
    bytes = toBytes(bytes, "bytes");
    let out = "";
    let k = 0;
    for (; k + 3 <= bytes.length; k += 3) {
        const chunk = (bytes[k] << 16) | (bytes[k + 1] << 8) | bytes[k + 2];
        out += ALPHABET[chunk >> 18] + ALPHABET[(chunk >> 12) & 63] + ALPHABET[(chunk >> 6) & 63] + ALPHABET[chunk & 63];
    }
    const rest = bytes.length - k;
    if (rest > 0) {
        const chunk = (bytes[k] << 16) | (rest === 2 ? bytes[k + 1] << 8 : 0);
        out += ALPHABET[chunk >> 18] + ALPHABET[(chunk >> 12) & 63];
        out += rest === 2 ? ALPHABET[(chunk >> 6) & 63] : "=";
        out += "=";
    }
    return out;
}

/**
 * Decodes base64 text as proto3 JSON reads it.
 * @param {string} text
 * @returns {Uint8Array|null} The bytes, or null when the text is not base64.
 */
export function base64Decode(text) {
    let length = text.length;
    if (length % 4 === 0) {
        if (text[length - 1] === "=") length--;
        if (text[length - 1] === "=") length--;
    }
    if (length % 4 === 1) return null;
    const out = new Uint8Array(Math.floor((length * 3) / 4));
    let accumulator = 0;
    let bits = 0;
    let o = 0;
    for (let k = 0; k < length; k++) {
        const code = text.charCodeAt(k);
        const sextet = code < 128 ? SEXTETS[code] : -1;
        if (sextet < 0) return null;
        accumulator = (accumulator << 6) | sextet;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (accumulator >> bits) & 0xff;
            accumulator &= (1 << bits) - 1;
        }
    }
    return out.subarray(0, o);
}

// ---------------------------------------------------------------------------
// Scalars: the conversions the generated readers call, with their codes.
// ---------------------------------------------------------------------------

function typeName(value) {
    if (value === null) return "null";
    if (typeof value === "boolean") return "boolean";
    if (typeof value === "string") return "string";
    if (value instanceof JSONNumber) return "number";
    if (Array.isArray(value)) return "array";
    return "object";
}

function typeError(value, expected) {
    return new IMCodecError(ErrorCode.jsonType, `expected ${expected}, found ${typeName(value)}`);
}

function valueError(reason) {
    return new IMCodecError(ErrorCode.jsonValue, reason);
}

// A number given as a string follows the JSON number grammar (RFC 8259, 6).
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
const INTEGER = /^-?(0|[1-9]\d*)$/;
const TWO_53 = 2 ** 53;

// The integer a number or numeric string denotes: digits with an optional
// minus sign are read exactly; a fraction or exponent is accepted when the
// value is whole and within 2^53.
function integer(value) {
    let text;
    if (value instanceof JSONNumber) text = value.text;
    else if (typeof value === "string") text = value;
    else throw typeError(value, "an integer");
    if (INTEGER.test(text)) return BigInt(text);
    if (JSON_NUMBER.test(text)) {
        const number = Number(text);
        if (Number.isFinite(number) && Number.isInteger(number) && Math.abs(number) <= TWO_53) return BigInt(number);
    }
    throw valueError(`${text} is not an integer`);
}

function inRange(number, low, high, what) {
    if (number < low || number > high) throw valueError(`${number} is not ${what}`);
    return number;
}

/** The proto3 JSON scalar readers the generated code calls; each throws `json.type` or `json.value`. */
export const J = Object.freeze({
    /** @returns {string} */
    string(value) {
        if (typeof value !== "string") throw typeError(value, "a string");
        return value;
    },
    /** @returns {boolean} */
    bool(value) {
        if (typeof value !== "boolean") throw typeError(value, "true or false");
        return value;
    },
    /** @returns {Uint8Array} */
    bytes(value) {
        if (typeof value !== "string") throw typeError(value, "a base64 string");
        const bytes = base64Decode(value);
        if (bytes === null) throw valueError("not base64");
        return bytes;
    },
    /** @returns {number} */
    int32(value) {
        return Number(inRange(integer(value), -(2n ** 31n), 2n ** 31n - 1n, "a 32-bit integer"));
    },
    /** @returns {number} */
    uint32(value) {
        return Number(inRange(integer(value), 0n, 2n ** 32n - 1n, "an unsigned 32-bit integer"));
    },
    /** @returns {bigint} */
    int64(value) {
        return inRange(integer(value), -(2n ** 63n), 2n ** 63n - 1n, "a 64-bit integer");
    },
    /** @returns {bigint} */
    uint64(value) {
        return inRange(integer(value), 0n, 2n ** 64n - 1n, "an unsigned 64-bit integer");
    },
    /** @returns {number} */
    double(value) {
        if (value instanceof JSONNumber) {
            const number = Number(value.text);
            if (!Number.isFinite(number)) throw valueError(`${value.text} is out of range`);
            return number;
        }
        if (typeof value !== "string") throw typeError(value, "a number");
        if (value === "NaN") return NaN;
        if (value === "Infinity") return Infinity;
        if (value === "-Infinity") return -Infinity;
        const number = JSON_NUMBER.test(value) ? Number(value) : NaN;
        if (!Number.isFinite(number)) throw valueError(`${value} is not a number`);
        return number;
    },
    /**
     * An enum: a value name of the schema, or a number (kept when the schema
     * does not name it).
     * @param {any} value
     * @param {Record<string, number>} numbers The schema's names and numbers.
     * @param {string} enumName For the reason.
     * @returns {number}
     */
    enumValue(value, numbers, enumName) {
        if (typeof value === "string") {
            const number = numbers[value];
            if (number === undefined || !Object.hasOwn(numbers, value)) {
                throw valueError(`${value} is not a value of ${enumName}: use one of ${Object.keys(numbers).join(", ")} or a number`);
            }
            return number;
        }
        if (value instanceof JSONNumber) return J.int32(value);
        throw typeError(value, "an enum name or number");
    },
    /** @returns {Array<[string, any]>} An object's members. */
    members(value) {
        if (!(value instanceof JSONObject)) throw typeError(value, "an object");
        return value.members;
    },
    /** @returns {any[]} An array's elements. */
    array(value) {
        if (!Array.isArray(value)) throw typeError(value, "an array");
        return value;
    },
    /** A double as proto3 JSON writes it: a number, or `"NaN"`, `"Infinity"`, `"-Infinity"`. */
    writeDouble(value) {
        if (Number.isNaN(value)) return "NaN";
        if (value === Infinity) return "Infinity";
        if (value === -Infinity) return "-Infinity";
        return value;
    },
});

/**
 * Records that a field (or a oneof) was given in an object.
 * @param {Uint8Array} seen One flag per field and oneof.
 * @param {number} index The field's or oneof's flag.
 * @param {string} key The member name as written.
 * @throws {IMCodecError} `json.duplicate-field` at the member when it was given before.
 */
export function markSeen(seen, index, key) {
    if (seen[index]) {
        throw new IMCodecError(ErrorCode.jsonDuplicateField, `${key} repeats a field or a oneof already set`, {
            path: key === "" ? [] : [key],
        });
    }
    seen[index] = 1;
}

/**
 * The error for a member the schema does not have, at the member as written.
 * @param {string} key
 * @param {string} message The message's schema name, for the reason.
 * @returns {IMCodecError}
 */
export function unknownField(key, message) {
    return new IMCodecError(ErrorCode.jsonUnknownField, `${message} has no field named ${key}`, {
        path: key === "" ? [] : [key],
    });
}
