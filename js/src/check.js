// The check a value passes before it is encoded or printed: its shape against
// the schema (the generated `shape` of each message type), with the codes the
// proto3 JSON reader gives the same mistakes, and its merger layers against
// the depth limit, so that no path recurses without bound. It also counts
// each repeated field against its count limit, which it reports instead of
// refusing (encodeFrame then lets the reader give the error).

import { ErrorCode, IMCodecError, at } from "./errors.js";
import { isBytes } from "./bytes.js";

// Field types: descriptor.proto's FieldDescriptorProto.Type numbers.
const T_DOUBLE = 1;
const T_INT64 = 3;
const T_UINT64 = 4;
const T_INT32 = 5;
const T_BOOL = 8;
const T_STRING = 9;
const T_MESSAGE = 11;
const T_BYTES = 12;
const T_UINT32 = 13;
const T_ENUM = 14;

const REPEATED = 1;
const LAYER = 2;
const COUNTED_BY_ELEMS = 4;
const COUNTED_BY_BATCH = 8;

// Whether the value being checked has a repeated field past its count limit
// (which encode writes, and a reader refuses: see checkValue).
let overCount = false;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

// Whether a single field's value is one of its type's common values, which
// the check accepts at once (anything else gets the full check and its
// error). A switch, not a function per type: one call site that calls many
// functions is slower than the tests themselves.
function acceptsAtOnce(kind, value) {
    switch (kind) {
        case T_STRING:
            return typeof value === "string" && (HAS_WELL_FORMED ? value.isWellFormed() : !SURROGATE.test(value));
        case T_BOOL:
            return typeof value === "boolean";
        case T_DOUBLE:
            return typeof value === "number";
        case T_INT32:
        case T_ENUM:
            return typeof value === "number" && (value | 0) === value;
        case T_UINT32:
            return typeof value === "number" && value >>> 0 === value;
        case T_INT64:
            return typeof value === "bigint" && value >= INT64_MIN && value <= INT64_MAX;
        case T_UINT64:
            return typeof value === "bigint" && value >= 0n && value <= UINT64_MAX;
        case T_BYTES:
            return value instanceof Uint8Array;
        default:
            return false;
    }
}

// Per message type: its fields by property name, and its oneofs' members by
// case name; built on first use from the generated shape.
const compiled = new WeakMap();

function compile(type) {
    let table = compiled.get(type);
    if (table !== undefined) return table;
    const fields = new Map();
    const oneofs = new Map();
    for (const [name, kind, flags, message, oneof] of type.shape()) {
        const field = {
            name,
            kind,
            repeated: (flags & REPEATED) !== 0,
            layer: (flags & LAYER) !== 0,
            countLimit:
                (flags & COUNTED_BY_ELEMS) !== 0 ? "maxElems" : (flags & COUNTED_BY_BATCH) !== 0 ? "maxBatchMessages" : "maxRepeated",
            message,
            // The message type's table, looked up on first use.
            table: null,
            // Only a single scalar's common values are accepted at once.
            quick: (flags & REPEATED) === 0 ? kind : 0,
        };
        if (oneof === undefined) fields.set(name, field);
        else {
            if (!oneofs.has(oneof)) oneofs.set(oneof, new Map());
            oneofs.get(oneof).set(name, field);
        }
    }
    table = {
        type,
        name: type.typeName.slice(type.typeName.lastIndexOf(".") + 1),
        fields,
        oneofs,
        list: [...fields.values()],
        oneofList: [...oneofs.entries()],
    };
    compiled.set(type, table);
    return table;
}

function describe(value) {
    if (value === null) return "null";
    if (Array.isArray(value)) return "an array";
    if (isBytes(value)) return "bytes";
    return typeof value;
}

// Errors are made where the mistake is, with an empty path; each level puts
// its field (and entry index) in front as the error passes (`at`), so that a
// value that matches costs no path.
function typeError(value, expected) {
    return new IMCodecError(ErrorCode.jsonType, `expected ${expected}, found ${describe(value)}`);
}

function valueError(reason) {
    return new IMCodecError(ErrorCode.jsonValue, reason);
}

function unknownField(reason, key) {
    return new IMCodecError(ErrorCode.jsonUnknownField, reason, { path: [key] });
}

function isPlainObject(value) {
    return typeof value === "object" && value !== null && !Array.isArray(value) && !isBytes(value);
}

function checkInteger(value, low, high, what) {
    if (typeof value !== "number") throw typeError(value, what);
    if (!Number.isInteger(value) || value < low || value > high) throw valueError(`${value} is not ${what}`);
}

function checkLong(value, low, high, what) {
    let big;
    if (typeof value === "bigint") big = value;
    else if (typeof value === "number") {
        if (!Number.isSafeInteger(value)) throw valueError(`${value} is not ${what} (give a bigint)`);
        big = BigInt(value);
    } else throw typeError(value, `${what} (a bigint)`);
    if (big < low || big > high) throw valueError(`${big} is not ${what}`);
}

function checkScalar(kind, value) {
    switch (kind) {
        case T_STRING:
            if (typeof value !== "string") throw typeError(value, "a string");
            if (!wellFormed(value)) throw valueError("a string with a lone surrogate has no UTF-8 form");
            return;
        case T_BOOL:
            if (typeof value !== "boolean") throw typeError(value, "true or false");
            return;
        case T_BYTES:
            if (!isBytes(value)) throw typeError(value, "bytes (a Uint8Array)");
            return;
        case T_DOUBLE:
            if (typeof value !== "number") throw typeError(value, "a number");
            return;
        case T_INT32:
        case T_ENUM:
            if ((value | 0) !== value) checkInteger(value, -(2 ** 31), 2 ** 31 - 1, "a 32-bit integer");
            return;
        case T_UINT32:
            if (value >>> 0 !== value) checkInteger(value, 0, 2 ** 32 - 1, "an unsigned 32-bit integer");
            return;
        case T_INT64:
            checkLong(value, INT64_MIN, INT64_MAX, "a 64-bit integer");
            return;
        case T_UINT64:
            checkLong(value, 0n, UINT64_MAX, "an unsigned 64-bit integer");
            return;
        default:
            throw new Error(`field type ${kind} is not known`);
    }
}

// Whether a string has a UTF-8 form (no lone surrogate): isWellFormed where
// the platform has it, else a scan (only strings with a surrogate are scanned).
const SURROGATE = /[\ud800-\udfff]/;
const HAS_WELL_FORMED = typeof String.prototype.isWellFormed === "function";
function wellFormed(text) {
    if (HAS_WELL_FORMED) return text.isWellFormed();
    if (!SURROGATE.test(text)) return true;
    return !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}

function checkSingle(field, value, layer, limits) {
    if (field.kind === T_MESSAGE) checkMessage(field.table ?? (field.table = compile(field.message)), value, layer, limits);
    else checkScalar(field.kind, value);
}

function checkField(field, value, layer, limits) {
    if (!field.repeated) {
        checkSingle(field, value, layer, limits);
        return;
    }
    if (!Array.isArray(value)) throw typeError(value, "an array");
    if (value.length > limits[field.countLimit]) overCount = true;
    let entryLayer = layer;
    if (field.layer) {
        entryLayer = layer + 1;
        if (value.length > 0 && entryLayer > limits.maxDepth) {
            throw new IMCodecError(ErrorCode.limitDepth, "messages nest deeper than the depth budget", {
                path: [0],
                limit: limits.maxDepth,
                observed: entryLayer,
            });
        }
    }
    for (let index = 0; index < value.length; index++) {
        try {
            checkSingle(field, value[index], entryLayer, limits);
        } catch (error) {
            throw at(error, index);
        }
    }
}

function checkMessage(table, value, layer, limits) {
    if (!isPlainObject(value)) throw typeError(value, `an object (${table.type.typeName})`);
    // The schema's fields first, by name; then a count of the value's
    // properties tells whether it has one the schema does not name.
    let present = 0;
    const list = table.list;
    for (let n = 0; n < list.length; n++) {
        const field = list[n];
        const member = value[field.name];
        if (member === undefined) continue;
        present++;
        if (acceptsAtOnce(field.quick, member)) continue;
        if (member === null && field.kind === T_MESSAGE && !field.repeated) continue;
        try {
            checkField(field, member, layer, limits);
        } catch (error) {
            throw at(error, field.name);
        }
    }
    const oneofs = table.oneofList;
    for (let n = 0; n < oneofs.length; n++) {
        const key = oneofs[n][0];
        const member = value[key];
        if (member === undefined) continue;
        present++;
        if (member !== null) checkOneof(oneofs[n][1], member, key, layer, limits);
    }
    const unknown = value.$unknown;
    if (unknown !== undefined) {
        present++;
        if (!(unknown instanceof Uint8Array)) throw at(typeError(unknown, "a Uint8Array"), "$unknown");
    }
    let count = 0;
    for (const key in value) count++;
    if (count === present) return;
    for (const key in value) {
        if (value[key] !== undefined && !table.fields.has(key) && !table.oneofs.has(key) && key !== "$unknown") {
            throw unknownField(`${table.name} has no field named ${key}`, key);
        }
    }
}

function checkOneof(members, value, oneofKey, layer, limits) {
    if (!isPlainObject(value)) throw at(typeError(value, "a oneof's {case, value}"), oneofKey);
    for (const key in value) {
        if (key !== "case" && key !== "value") {
            throw at(unknownField(`a oneof's value has no member named ${key}`, key), oneofKey);
        }
    }
    const name = value.case;
    if (typeof name !== "string") throw at(at(typeError(name, "a member's name"), "case"), oneofKey);
    const field = members.get(name);
    if (field === undefined) throw unknownField(`the oneof has no member named ${name}`, name);
    try {
        checkSingle(field, value.value, layer, limits);
    } catch (error) {
        throw at(error, name);
    }
}

/**
 * Checks a value against its message type before it is encoded or printed.
 * Properties that are `undefined` are absent; so is `null` for a message
 * field or a oneof.
 * @param {import("./message.js").MessageType<any>} type
 * @param {unknown} value
 * @param {import("./limits.js").DecodingLimits} limits Complete limits: `maxDepth` is applied.
 * @throws {IMCodecError} With the code the proto3 JSON reader gives the same
 *   mistake, at its path: `json.type` (a value of the wrong type: a string
 *   for a number, an elem's fields without `{case, value}`), `json.value` (an
 *   integer out of its type's range, a fraction, a string with a lone
 *   surrogate), `json.unknown-field` (a property the schema does not name);
 *   `limit.depth` for more merger layers than `maxDepth`.
 * @returns {boolean} Whether every repeated field is within its count limit
 *   (`maxElems`, `maxBatchMessages`, `maxRepeated`): a value that matches the
 *   schema, has no unknown fields and is within them is one a reader with the
 *   limits decodes, so encodeFrame need not decode it again to know.
 */
export function checkValue(type, value, limits) {
    overCount = false;
    checkMessage(compile(type), value, 0, limits);
    return !overCount;
}
