// The check a value passes before it is encoded or printed: its shape against
// the schema (the generated `shape` of each message type), with the codes the
// proto3 JSON reader gives the same mistakes, and its merger layers against
// the depth limit, so that no path recurses without bound.

import { ErrorCode, IMCodecError } from "./errors.js";
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

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

// Per message type: its fields by property name, and its oneofs' members by
// case name; built on first use from the generated shape.
const compiled = new WeakMap();

function compile(type) {
    let table = compiled.get(type);
    if (table !== undefined) return table;
    const fields = new Map();
    const oneofs = new Map();
    for (const [name, kind, flags, message, oneof] of type.shape()) {
        const field = { name, kind, repeated: (flags & REPEATED) !== 0, layer: (flags & LAYER) !== 0, message };
        if (oneof === undefined) fields.set(name, field);
        else {
            if (!oneofs.has(oneof)) oneofs.set(oneof, new Map());
            oneofs.get(oneof).set(name, field);
        }
    }
    table = { name: type.typeName.slice(type.typeName.lastIndexOf(".") + 1), fields, oneofs };
    compiled.set(type, table);
    return table;
}

function describe(value) {
    if (value === null) return "null";
    if (Array.isArray(value)) return "an array";
    if (isBytes(value)) return "bytes";
    return typeof value;
}

function typeError(path, value, expected) {
    return new IMCodecError(ErrorCode.jsonType, `expected ${expected}, found ${describe(value)}`, { path });
}

function valueError(path, reason) {
    return new IMCodecError(ErrorCode.jsonValue, reason, { path });
}

function isPlainObject(value) {
    return typeof value === "object" && value !== null && !Array.isArray(value) && !isBytes(value);
}

function checkInteger(value, path, low, high, what) {
    if (typeof value !== "number") throw typeError(path, value, what);
    if (!Number.isInteger(value) || value < low || value > high) throw valueError(path, `${value} is not ${what}`);
}

function checkLong(value, path, low, high, what) {
    let big;
    if (typeof value === "bigint") big = value;
    else if (typeof value === "number") {
        if (!Number.isSafeInteger(value)) throw valueError(path, `${value} is not ${what} (give a bigint)`);
        big = BigInt(value);
    } else throw typeError(path, value, `${what} (a bigint)`);
    if (big < low || big > high) throw valueError(path, `${big} is not ${what}`);
}

function checkScalar(field, value, path) {
    switch (field.kind) {
        case T_STRING:
            if (typeof value !== "string") throw typeError(path, value, "a string");
            if (typeof value.isWellFormed === "function" && !value.isWellFormed()) {
                throw valueError(path, "a string with a lone surrogate has no UTF-8 form");
            }
            return;
        case T_BOOL:
            if (typeof value !== "boolean") throw typeError(path, value, "true or false");
            return;
        case T_BYTES:
            if (!isBytes(value)) throw typeError(path, value, "bytes (a Uint8Array)");
            return;
        case T_DOUBLE:
            if (typeof value !== "number") throw typeError(path, value, "a number");
            return;
        case T_INT32:
        case T_ENUM:
            checkInteger(value, path, -(2 ** 31), 2 ** 31 - 1, "a 32-bit integer");
            return;
        case T_UINT32:
            checkInteger(value, path, 0, 2 ** 32 - 1, "an unsigned 32-bit integer");
            return;
        case T_INT64:
            checkLong(value, path, INT64_MIN, INT64_MAX, "a 64-bit integer");
            return;
        case T_UINT64:
            checkLong(value, path, 0n, UINT64_MAX, "an unsigned 64-bit integer");
            return;
        default:
            throw new Error(`field type ${field.kind} is not known`);
    }
}

function checkSingle(field, value, path, layer, limits) {
    if (field.kind === T_MESSAGE) checkMessage(field.message, value, path, layer, limits);
    else checkScalar(field, value, path);
}

function checkField(field, value, path, layer, limits) {
    if (!field.repeated) {
        checkSingle(field, value, path, layer, limits);
        return;
    }
    if (!Array.isArray(value)) throw typeError(path, value, "an array");
    let entryLayer = layer;
    if (field.layer) {
        entryLayer = layer + 1;
        if (value.length > 0 && entryLayer > limits.maxDepth) {
            throw new IMCodecError(ErrorCode.limitDepth, "messages nest deeper than the depth budget", {
                path: [...path, 0],
                limit: limits.maxDepth,
                observed: entryLayer,
            });
        }
    }
    for (let index = 0; index < value.length; index++) {
        checkSingle(field, value[index], [...path, index], entryLayer, limits);
    }
}

function checkMessage(type, value, path, layer, limits) {
    if (!isPlainObject(value)) throw typeError(path, value, `an object (${type.typeName})`);
    const table = compile(type);
    for (const key of Object.keys(value)) {
        const member = value[key];
        if (member === undefined) continue;
        const field = table.fields.get(key);
        if (field !== undefined) {
            if (member === null && field.kind === T_MESSAGE && !field.repeated) continue;
            checkField(field, member, [...path, key], layer, limits);
            continue;
        }
        const oneof = table.oneofs.get(key);
        if (oneof !== undefined) {
            if (member === null) continue;
            checkOneof(oneof, member, [...path, key], path, layer, limits);
            continue;
        }
        if (key === "$unknown") {
            if (!(member instanceof Uint8Array)) throw typeError([...path, key], member, "a Uint8Array");
            continue;
        }
        throw new IMCodecError(ErrorCode.jsonUnknownField, `${table.name} has no field named ${key}`, {
            path: [...path, key],
        });
    }
}

function checkOneof(members, value, oneofPath, path, layer, limits) {
    if (!isPlainObject(value)) throw typeError(oneofPath, value, "a oneof's {case, value}");
    for (const key of Object.keys(value)) {
        if (key !== "case" && key !== "value") {
            throw new IMCodecError(ErrorCode.jsonUnknownField, `a oneof's value has no member named ${key}`, {
                path: [...oneofPath, key],
            });
        }
    }
    if (typeof value.case !== "string") throw typeError([...oneofPath, "case"], value.case, "a member's name");
    const field = members.get(value.case);
    if (field === undefined) {
        throw new IMCodecError(ErrorCode.jsonUnknownField, `the oneof has no member named ${value.case}`, {
            path: [...path, value.case],
        });
    }
    checkSingle(field, value.value, [...path, value.case], layer, limits);
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
 */
export function checkValue(type, value, limits) {
    checkMessage(type, value, [], 0, limits);
}
