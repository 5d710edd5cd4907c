// The Tencent REST form (docs/spec/rest.md): Tencent Cloud IM `MsgBody` JSON
// read into the model (import), the model written back as canonical REST
// text (export), and REST validation. Every key, the model field it maps to,
// its value form and its presence come from the form's declaration,
// Schemas/imcodec/rest/v1/rest.json, as js/generated/rest.js holds it; the
// code knows the value forms, the shapes of documents and the rules the
// declaration states in words (a relay's MsgList or JsonMsgKey and MsgNum,
// the defaults of push-info objects read as absent).

import {
    ALIASES,
    ELEMENT_KEYS,
    ELEMS,
    ENVELOPE_ONLY_KEYS,
    FORMS,
    MESSAGE_LIST_KEYS,
    UNREPRESENTABLE,
    VALUE_FORMS,
} from "../generated/rest.js";
import { Message, MessageBatch } from "../generated/model.js";
import { ErrorCode, IMCodecError, pathText } from "./errors.js";
import { JSONNumber, JSONObject, base64Encode, parseJSON } from "./json.js";
import { resolveLimits } from "./limits.js";
import { utf8Length } from "./message.js";
import { limitsAppliedTo, measureDeclared, validateSkipping } from "./validate.js";

const utf8 = new TextEncoder();
// A leading U+FEFF is content, not a byte order mark to drop.
const strictUTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

// The count limits a declared key may name, with their codes (docs/spec/limits.md).
const COUNT_LIMITS = { maxRepeated: "limit.repeated" };

const ELEM_BY_TYPE = new Map(ELEMS.map((e) => [e.msgType, e]));
const ELEM_BY_KIND = new Map(ELEMS.map((e) => [e.kind, e]));
const ENVELOPE_ONLY = new Set(ENVELOPE_ONLY_KEYS);
const [TYPE_KEY, CONTENT_KEY] = ELEMENT_KEYS;
const BODY_KEY = FORMS.message.keys.find((k) => k.value === "body").key;
const U32_MAX = BigInt(VALUE_FORMS.uint32.max);

// Forms whose objects are messages (they have a body): their entries are a merger layer down.
function isMessageForm(form) {
    return FORMS[form].keys.some((k) => k.value === "body");
}

function isPlainObject(v) {
    return v instanceof JSONObject;
}

function isArray(v) {
    return Array.isArray(v);
}

// ---------------------------------------------------------------------------
// Import: a REST document -> the model's proto3 JSON, every problem in document order
// ---------------------------------------------------------------------------

/** The JSON nesting a REST document may reach: eight levels per merger layer and eight more. */
function maxNesting(limits) {
    return (limits.maxDepth + 1) * 8 + 8;
}

/**
 * Reads a document into the proto3 JSON value of the model, collecting every
 * problem in document order: the first `keep` with their paths, the rest
 * counted.
 */
class Importer {
    constructor(limits, keep = Infinity, watched = undefined) {
        this.limits = limits;
        this.keep = keep;
        /** `[code, path, limit, observed]`, path as an array of keys and indexes; a limit's numbers, else undefined. */
        this.problems = [];
        this.problemCount = 0;
        /** `Type.field` (proto3 JSON names) whose values are kept in `values`, as `[type, field, path, value]`. */
        this.watched = watched;
        this.values = [];
        this.shape = undefined;
        this.listKey = MESSAGE_LIST_KEYS[0];
    }

    problem(code, path, limit = undefined, observed = undefined) {
        this.problemCount += 1;
        if (this.problems.length < this.keep) this.problems.push([code, path, limit, observed]);
    }

    /** A scalar of a value form, as proto3 JSON; undefined after a problem. */
    scalar(valueForm, v, path) {
        const form = VALUE_FORMS[valueForm];
        if (form.json === "string") {
            if (typeof v !== "string") return this.problem(ErrorCode.restType, path);
            return form.model === "bytes" ? base64Encode(utf8.encode(v)) : v;
        }
        if (!(v instanceof JSONNumber)) return this.problem(ErrorCode.restType, path);
        if (form.json === "number") {
            const number = Number(v.text);
            // A literal past the largest double has no nearest double.
            return Number.isFinite(number) ? number : this.problem(ErrorCode.restRange, path);
        }
        if (!/^-?[0-9]+$/.test(v.text)) return this.problem(ErrorCode.restType, path);
        const n = BigInt(v.text);
        if (n < BigInt(form.min) || n > BigInt(form.max)) return this.problem(ErrorCode.restRange, path);
        return Number(n);
    }

    /** Walks the members of `obj` in order: the results by key, the keys present and those read without a problem. */
    members(obj, path, handlers, skip = undefined, aliases = {}) {
        const seen = new Set();
        const present = new Set();
        const clean = new Set();
        const results = new Map();
        const lower = new Map();
        for (const k of handlers.keys()) lower.set(k.toLowerCase(), k);
        for (const k of Object.keys(aliases)) lower.set(k.toLowerCase(), k);
        for (const [key, value] of obj.members) {
            const at = [...path, key];
            const canonical = Object.hasOwn(aliases, key) ? aliases[key] : key;
            if (seen.has(canonical)) {
                this.problem(ErrorCode.restDuplicateKey, at);
                continue;
            }
            seen.add(canonical);
            if (handlers.has(canonical)) {
                present.add(canonical);
                const before = this.problemCount;
                results.set(canonical, handlers.get(canonical)(value, at));
                if (this.problemCount === before) clean.add(canonical);
            } else if (skip !== undefined && skip.has(key)) {
                continue;
            } else if (lower.has(key.toLowerCase())) {
                this.problem(ErrorCode.restKeyCase, at);
                const known = lower.get(key.toLowerCase());
                present.add(Object.hasOwn(aliases, known) ? aliases[known] : known);
            } else {
                this.problem(ErrorCode.restUnknownKey, at);
            }
        }
        return { results, present, clean };
    }

    isObject(v, path) {
        if (isPlainObject(v)) return true;
        this.problem(ErrorCode.restType, path);
        return false;
    }

    isArray(v, path) {
        if (isArray(v)) return true;
        this.problem(ErrorCode.restType, path);
        return false;
    }

    within(v, path, code, limit) {
        if (v.length <= limit) return true;
        this.problem(code, path, limit, v.length);
        return false;
    }

    /** The value of a document of the shape asked for: `batch` true or false, or undefined for any shape. */
    document(text, batch) {
        const size = utf8Length(text);
        if (size > this.limits.maxDocumentBytes) {
            this.problem(ErrorCode.limitDocumentSize, [], this.limits.maxDocumentBytes, size);
            return undefined;
        }
        let root;
        try {
            root = parseJSON(text, { maxNesting: maxNesting(this.limits) });
        } catch (error) {
            if (!(error instanceof IMCodecError)) throw error;
            this.problem(error.code, [], error.limit, error.observed);
            return undefined;
        }
        let shape;
        if (isPlainObject(root)) {
            const keys = root.members.map(([k]) => k);
            shape = keys.some((k) => MESSAGE_LIST_KEYS.includes(k)) && !keys.includes(BODY_KEY) ? "batch" : "message";
        } else if (isArray(root)) {
            shape = "body";
        } else {
            this.problem(ErrorCode.restType, []);
            return undefined;
        }
        this.shape = shape;
        if (batch !== undefined && batch !== (shape === "batch")) {
            this.problem(ErrorCode.restType, []);
            return undefined;
        }
        if (shape === "body") return { elems: this.body(root, [BODY_KEY], 0) };
        if (shape === "message") return this.message(root, [], 0, "message");
        return this.messageList(root);
    }

    messageList(obj) {
        const lists = [];
        const groupKey = FORMS.message.keys.find((k) => k.field === "groupId");
        const entries = (v, path) => {
            if (!this.isArray(v, path)) return undefined;
            if (!this.within(v, path, ErrorCode.limitBatchMessages, this.limits.maxBatchMessages)) return undefined;
            const out = [];
            v.forEach((e, i) => {
                if (this.isObject(e, [...path, i])) out.push(this.message(e, [...path, i], 0, "message"));
            });
            lists.push(out);
            return out;
        };
        const handlers = new Map([[groupKey.key, (v, p) => this.scalar(groupKey.value, v, p)]]);
        for (const k of MESSAGE_LIST_KEYS) handlers.set(k, entries);
        const { results, present } = this.members(obj, [], handlers, ENVELOPE_ONLY);
        this.listKey = obj.members.map(([k]) => k).find((k) => MESSAGE_LIST_KEYS.includes(k) && present.has(k))
            ?? MESSAGE_LIST_KEYS[0];
        const group = results.get(groupKey.key) || "";
        const messages = lists.flat();
        for (const m of messages) if (group && !m[groupKey.field]) m[groupKey.field] = group;
        return { messages };
    }

    /** How the value of a declared key is read. */
    handler(key, layer) {
        switch (key.value) {
            case "body": return (v, p) => this.body(v, p, layer);
            case "object": return (v, p) => this.object(key.form, v, p, layer);
            case "objects": return (v, p) => this.objects(key, v, p, layer);
            case "strings": return (v, p) => this.strings(key, v, p);
            default: return (v, p) => this.scalar(key.value, v, p);
        }
    }

    /** Reads an object of a declared form: the model JSON, the results, the keys present and read cleanly. */
    table(form, obj, path, layer, skip = undefined, aliases = {}, special = {}) {
        const { keys, model } = FORMS[form];
        const handlers = new Map(keys.map((k) => [k.key, special[k.key] ?? this.handler(k, layer)]));
        const { results, present, clean } = this.members(obj, path, handlers, skip, aliases);
        if (this.watched !== undefined) {
            for (const k of keys) {
                if (clean.has(k.key) && this.watched.has(`${model}.${k.field}`)) {
                    this.values.push([model, k.field, [...path, k.key], results.get(k.key)]);
                }
            }
        }
        const inUse = keys.some((k) => k.presence === "group" && present.has(k.key));
        for (const k of keys) {
            if ((k.presence === "required" || (k.presence === "group" && inUse)) && !present.has(k.key)) {
                this.problem(ErrorCode.restMissingKey, [...path, k.key]);
            }
        }
        const out = {};
        for (const k of keys) {
            const value = results.get(k.key);
            if (value !== undefined) out[k.field ?? k.outside[1]] = value;
        }
        return { out, results, present, clean };
    }

    message(obj, path, layer, form) {
        return this.table(form, obj, path, layer, ENVELOPE_ONLY, ALIASES).out;
    }

    /**
     * An object-valued key: a key declared `outside` (ApnsInfo.Sound) moves to
     * its model message, the holder; an object whose values are all defaults
     * is absent, as export leaves it out.
     */
    object(form, v, path, layer) {
        if (!this.isObject(v, path)) return undefined;
        const { out } = this.table(form, v, path, layer);
        for (const k of FORMS[form].keys) {
            if (k.value !== "object") continue;
            const inner = out[k.field];
            if (inner === undefined) continue;
            for (const sub of FORMS[k.form].keys) {
                if (sub.outside === undefined) continue;
                const moved = inner[sub.outside[1]];
                delete inner[sub.outside[1]];
                if (moved) out[sub.outside[1]] = moved;
            }
            if (Object.keys(inner).length === 0) delete out[k.field];
        }
        return pruned(out);
    }

    objects(key, v, path, layer) {
        if (!this.isArray(v, path)) return undefined;
        const messages = isMessageForm(key.form);
        if (messages && layer + 1 > this.limits.maxDepth) {
            this.problem(ErrorCode.limitDepth, path, this.limits.maxDepth, layer + 1);
            return undefined;
        }
        if (!this.within(v, path, COUNT_LIMITS[key.limit], this.limits[key.limit])) return undefined;
        const out = [];
        v.forEach((e, i) => {
            const at = [...path, i];
            if (!this.isObject(e, at)) return;
            out.push(messages ? this.message(e, at, layer + 1, key.form) : this.table(key.form, e, at, layer).out);
        });
        return out;
    }

    strings(key, v, path) {
        if (!this.isArray(v, path)) return undefined;
        if (!this.within(v, path, COUNT_LIMITS[key.limit], this.limits[key.limit])) return undefined;
        return v.map((s, i) => this.scalar("string", s, [...path, i]));
    }

    body(v, path, layer) {
        if (!this.isArray(v, path)) return undefined;
        if (!this.within(v, path, ErrorCode.limitElems, this.limits.maxElems)) return undefined;
        return v.map((e, i) => this.elem(e, [...path, i], layer));
    }

    elem(v, path, layer) {
        if (!this.isObject(v, path)) return undefined;
        let elem;
        for (const [key, value] of v.members) {
            if (key === TYPE_KEY) {
                if (typeof value === "string") elem = ELEM_BY_TYPE.get(value);
                break;
            }
        }
        const msgType = (x, p) => {
            if (this.scalar("string", x, p) !== undefined && !ELEM_BY_TYPE.has(x)) this.problem(ErrorCode.restMsgType, p);
        };
        const msgContent = (x, p) => {
            if (!this.isObject(x, p) || elem === undefined) return undefined;
            if (elem.form === "relay") return this.relay(x, p, layer);
            return this.table(elem.form, x, p, layer).out;
        };
        const handlers = new Map([[TYPE_KEY, msgType], [CONTENT_KEY, msgContent]]);
        const { results, present } = this.members(v, path, handlers);
        for (const key of ELEMENT_KEYS) if (!present.has(key)) this.problem(ErrorCode.restMissingKey, [...path, key]);
        if (elem === undefined) return undefined;
        return { [elem.kind]: results.get(CONTENT_KEY) ?? {} };
    }

    /** The relay's rules beyond its table (docs/spec/rest.md, form relay). */
    relay(v, path, layer) {
        const keys = Object.fromEntries(FORMS.relay.keys.map((k) => [k.field, k]));
        const listKey = keys.messages.key;
        const jsonKey = keys.jsonMsgKey.key;
        const numKey = keys.msgNum.key;
        let listLength;
        const msgList = (x, p) => {
            if (isArray(x) && layer + 1 <= this.limits.maxDepth && x.length <= this.limits[keys.messages.limit]) {
                listLength = x.length; // MsgNum is compared with the number of entries, whatever they hold
            }
            return this.objects(keys.messages, x, p, layer);
        };
        const jsonMsgKey = (x, p) => {
            const value = this.scalar(keys.jsonMsgKey.value, x, p);
            if (value === "") return this.problem(ErrorCode.restRange, p); // names no stored list
            return value;
        };
        const { out, results, present, clean } = this.table("relay", v, path, layer, undefined, {}, {
            [listKey]: msgList,
            [jsonKey]: jsonMsgKey,
        });
        if (!present.has(listKey) && !present.has(jsonKey)) this.problem(ErrorCode.restMissingKey, [...path, listKey]);
        if (present.has(listKey) && present.has(jsonKey)) this.problem(ErrorCode.restRelayListAndKey, path);
        if (clean.has(numKey) && listLength !== undefined && results.get(numKey) !== listLength) {
            this.problem(ErrorCode.restRelayMsgNum, [...path, numKey]);
        }
        return out;
    }
}

function pruned(out) {
    for (const [k, v] of Object.entries(out)) if (v === "" || v === 0 || v === undefined) delete out[k];
    return Object.keys(out).length === 0 ? undefined : out;
}

function problemError(importer) {
    const [code, path, limit, observed] = importer.problems[0];
    const where = pathText(path) || "(root)";
    return new IMCodecError(code, `the REST document is not valid: ${code} at ${where}`, { path, limit, observed });
}

function imported(text, batch, limits) {
    if (typeof text !== "string") throw new TypeError("a REST document is text");
    const resolved = resolveLimits(limits);
    const importer = new Importer(resolved, 1);
    const value = importer.document(text, batch);
    if (importer.problemCount > 0) throw problemError(importer);
    return (batch ? MessageBatch : Message).fromJSON(value, resolved);
}

/**
 * Reads a REST document that holds one message: a `MsgBody` array or a
 * message object (a send request, a callback, one history entry).
 * @param {string} text The document.
 * @param {Partial<import("./limits.js").DecodingLimits>} [limits] Bounds on size, nesting and counts.
 * @returns {object} The `Message`.
 * @throws {IMCodecError} The first problem in document order, with its JSON
 *   path: `json.syntax`, `json.depth`, `rest.*`, `limit.*` (docs/spec/rest.md, "Errors").
 */
export function restToMessage(text, limits) {
    return imported(text, false, limits);
}

/**
 * Reads a REST message list (`{"MsgList": [...]}` or `{"RspMsgList": [...]}`).
 * @param {string} text The document.
 * @param {Partial<import("./limits.js").DecodingLimits>} [limits]
 * @returns {object} The `MessageBatch`.
 * @throws {IMCodecError} As {@link restToMessage}.
 */
export function restToBatch(text, limits) {
    return imported(text, true, limits);
}

// ---------------------------------------------------------------------------
// Export: the model -> canonical REST text
// ---------------------------------------------------------------------------

function unrepresentable(path, reason) {
    return new IMCodecError(ErrorCode.restUnrepresentable, reason, { path });
}

/** Whether a model field holds something other than its default. */
function isSet(value) {
    if (value === undefined || value === null) return false;
    if (value instanceof Uint8Array || Array.isArray(value)) return value.length > 0;
    if (typeof value === "object") return true;
    return value !== "" && value !== 0 && value !== 0n && value !== false;
}

function checkUnknown(message, path) {
    if (message.$unknown !== undefined && message.$unknown.length > 0) {
        throw unrepresentable(path, "unknown fields have no REST form");
    }
}

function textOf(bytes, path) {
    try {
        return strictUTF8.decode(bytes);
    } catch {
        throw unrepresentable(path, "not UTF-8");
    }
}

function checkDeclared(entries, message, path, extra) {
    for (const [name, condition] of entries) {
        const value = message[name];
        let fails;
        if (condition === "uint32") fails = BigInt(value) < 0n || BigInt(value) > U32_MAX;
        else if (condition === "levelType") fails = !(value >= 1 && value <= 3);
        else if (condition !== undefined) fails = extra(condition);
        else fails = isSet(value);
        if (fails) throw unrepresentable([...path, name], `REST has no ${name} of this value`);
    }
}

function checkObjectForm(form, value, path) {
    checkUnknown(value, path);
    for (const k of FORMS[form].keys) {
        if (k.value === "object" && value[k.field] !== undefined) checkObjectForm(k.form, value[k.field], [...path, k.field]);
    }
}

function checkTable(decl, content, path) {
    for (const key of FORMS[decl.form].keys) {
        if (VALUE_FORMS[key.value].model === "bytes") textOf(content[key.field], [...path, key.field]);
        else if (key.value === "double" && !Number.isFinite(content[key.field])) {
            throw unrepresentable([...path, key.field], "JSON has no NaN or infinity");
        }
    }
    checkDeclared(decl.unrepresentable ?? [], content, path);
    checkUnknown(content, path);
}

/**
 * Throws rest.unrepresentable at the first model value the REST form cannot
 * hold, in the order of docs/spec/rest.md; iterative over merger layers.
 */
function checkRepresentable(message, path) {
    const pushKey = FORMS.message.keys.find((k) => k.value === "object");
    const textKeys = FORMS.message.keys.filter((k) => VALUE_FORMS[k.value].model === "bytes");
    const stack = [["message", message, path]];
    while (stack.length > 0) {
        const [step, value, where] = stack.pop();
        if (step === "message") {
            checkDeclared(UNREPRESENTABLE.message, value, where);
            if (value[pushKey.field] !== undefined) checkObjectForm(pushKey.form, value[pushKey.field], [...where, pushKey.field]);
            for (const k of textKeys) textOf(value[k.field], [...where, k.field]);
            stack.push(["messageEnd", value, where]);
            for (let i = value.elems.length - 1; i >= 0; i--) stack.push(["elem", value.elems[i], [...where, "elems", i]]);
        } else if (step === "messageEnd") {
            checkDeclared(UNREPRESENTABLE.messageEnd, value, where);
            checkUnknown(value, where);
        } else if (step === "elem") {
            const kind = value.kind;
            if (kind === undefined || kind === null) {
                throw unrepresentable(where, "an elem of no known kind has no REST element type");
            }
            const contentPath = [...where, kind.case];
            const decl = ELEM_BY_KIND.get(kind.case);
            if (decl === undefined) throw unrepresentable(contentPath, `${kind.case} is not a REST element type`);
            const content = kind.value;
            if (decl.form === "relay") {
                stack.push(["mergerEnd", value, where]);
                for (let i = content.messages.length - 1; i >= 0; i--) {
                    stack.push(["message", content.messages[i], [...contentPath, "messages", i]]);
                }
                continue;
            }
            if (decl.form === "image") {
                content.levels.forEach((level, i) => {
                    const levelPath = [...contentPath, "levels", i];
                    checkDeclared(UNREPRESENTABLE.imageLevel, level, levelPath);
                    checkUnknown(level, levelPath);
                });
                checkUnknown(content, contentPath);
            } else {
                checkTable(decl, content, contentPath);
            }
            checkUnknown(value, where);
        } else {
            const merger = value.kind.value;
            const contentPath = [...where, value.kind.case];
            const withList = merger.messages.length > 0 || !merger.jsonMsgKey;
            checkDeclared(UNREPRESENTABLE.relay, merger, contentPath, (condition) =>
                condition === "listLength"
                    ? merger.msgNum !== 0 && withList && merger.msgNum !== merger.messages.length
                    : Boolean(merger.jsonMsgKey) && merger.messages.length > 0,
            );
            checkUnknown(merger, contentPath);
            checkUnknown(value, where);
        }
    }
}

/** Writes a checked model as REST values (plain objects in key order). */
const writer = {
    scalar(key, value) {
        if (VALUE_FORMS[key.value].model === "bytes") return strictUTF8.decode(value);
        return typeof value === "bigint" ? Number(value) : value;
    },

    /** The keys of a form; `written` gives the values of some keys (null leaves a key out). */
    table(form, message, written = {}) {
        const keys = FORMS[form].keys;
        const inUse = keys.some((k) => k.presence === "group" && isSet(message[k.field]));
        const out = {};
        for (const k of keys) {
            if (Object.hasOwn(written, k.key)) {
                if (written[k.key] !== null) out[k.key] = written[k.key];
                continue;
            }
            const value = message[k.field];
            if (k.value === "objects") out[k.key] = value.map((entry) => this.table(k.form, entry));
            else if (k.value === "strings") out[k.key] = [...value];
            else if (k.presence === "group" ? inUse : k.presence === "required" || isSet(value)) {
                out[k.key] = this.scalar(k, value);
            }
        }
        return out;
    },

    /** An object-valued key's object, its `outside` keys read from the holder; null when it holds nothing. */
    object(form, value) {
        const written = {};
        for (const k of FORMS[form].keys) {
            if (k.value !== "object") continue;
            const sub = value[k.field];
            const out = {};
            for (const a of FORMS[k.form].keys) {
                const v = a.outside !== undefined ? value[a.outside[1]] : sub?.[a.field];
                if (isSet(v)) out[a.key] = this.scalar(a, v);
            }
            written[k.key] = Object.keys(out).length > 0 ? out : null;
        }
        const out = this.table(form, value, written);
        for (const k of FORMS[form].keys) if (out[k.key] !== undefined && !isSet(out[k.key])) delete out[k.key];
        return Object.keys(out).length > 0 ? out : null;
    },

    /**
     * A message: `style` "top" (a bare MsgBody when nothing else is set),
     * "list" (an entry of a message list: always an object) or "entry" (a
     * MsgList entry of a relay: the forwarded form's required keys always).
     */
    message(m, style) {
        const form = style === "entry" ? "forwardedMessage" : "message";
        const out = {};
        for (const k of FORMS[form].keys) {
            const value = m[k.field];
            if (k.value === "body") out[k.key] = value.map((e) => this.elem(e));
            else if (k.value === "object") {
                const object = value === undefined ? null : this.object(k.form, value);
                if (object !== null) out[k.key] = object;
            } else if (k.presence === "required" || isSet(value)) out[k.key] = this.scalar(k, value);
        }
        const keys = Object.keys(out);
        return style === "top" && keys.length === 1 && keys[0] === BODY_KEY ? out[BODY_KEY] : out;
    },

    elem(e) {
        const decl = ELEM_BY_KIND.get(e.kind.case);
        const content = e.kind.value;
        const out = decl.form === "relay" ? this.relay(content) : this.table(decl.form, content);
        return { [TYPE_KEY]: decl.msgType, [CONTENT_KEY]: out };
    },

    relay(merger) {
        const keys = Object.fromEntries(FORMS.relay.keys.map((k) => [k.field, k]));
        return this.table("relay", merger, {
            [keys.msgNum.key]: merger.msgNum || merger.messages.length,
            [keys.messages.key]: merger.jsonMsgKey ? null : merger.messages.map((m) => this.message(m, "entry")),
            [keys.jsonMsgKey.key]: merger.jsonMsgKey || null,
        });
    },
};

/**
 * The canonical text of docs/spec/rest.md, "Export": compact, strings as
 * JSON.stringify escapes them (which is the documented escaping), doubles as
 * JavaScript writes them, `-0` kept.
 */
function dump(v) {
    if (Array.isArray(v)) return "[" + v.map(dump).join(",") + "]";
    if (typeof v === "string") return JSON.stringify(v);
    if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
    return "{" + Object.entries(v).map(([k, x]) => JSON.stringify(k) + ":" + dump(x)).join(",") + "}";
}

/**
 * Writes a message as its canonical REST document: a bare `MsgBody` array
 * when no envelope field is set, else a message object.
 * @param {object} message A `Message`.
 * @returns {string}
 * @throws {IMCodecError} `rest.unrepresentable` at the payload path of the
 *   first value the REST form cannot hold.
 */
export function messageToREST(message) {
    checkRepresentable(message, []);
    return dump(writer.message(message, "top"));
}

/**
 * Writes a batch as a canonical REST message list, `{"MsgList": [...]}`.
 * @param {object} batch A `MessageBatch`.
 * @returns {string}
 * @throws {IMCodecError} `rest.unrepresentable`, as {@link messageToREST}.
 */
export function batchToREST(batch) {
    batch.messages.forEach((m, i) => checkRepresentable(m, ["messages", i]));
    checkUnknown(batch, []);
    return dump({ [MESSAGE_LIST_KEYS[0]]: batch.messages.map((m) => writer.message(m, "list")) });
}

// ---------------------------------------------------------------------------
// Validation: import problems, else the validator's findings at REST paths
// and the limits measured on the REST form
// ---------------------------------------------------------------------------

// The limit measured on the REST text (the compact canonical MsgBody) instead of the model's encoding.
const BODY_LIMIT = "maxMessageBodyBytes";
// A message need not name its target outside a relay: REST requests name it in the call.
const TARGET_MISSING = "rule.message.target-missing";
// The model's finding (defined_enum) that a REST-only limit's finding on the same value replaces.
const UNKNOWN_ENUM = "enum.unknown-value";

const ELEM_PLACE = "";

// For each form, the REST keys of each model field and the place they lead to.
const STEPS = (() => {
    const steps = { [ELEM_PLACE]: {} };
    for (const [name, form] of Object.entries(FORMS)) {
        steps[name] = {};
        for (const k of form.keys) {
            if (k.field !== undefined) steps[name][k.field] = [[k.key], k.value === "body" ? ELEM_PLACE : k.form];
        }
    }
    for (const [name, form] of Object.entries(FORMS)) {
        for (const k of form.keys) {
            if (k.outside === undefined) continue;
            for (const [holder, holderForm] of Object.entries(FORMS)) {
                if (holderForm.model !== k.outside[0]) continue;
                for (const outer of holderForm.keys) {
                    if (outer.form === name) steps[holder][k.outside[1]] = [[outer.key, k.key], undefined];
                }
            }
        }
    }
    for (const e of ELEMS) steps[ELEM_PLACE][e.kind] = [[CONTENT_KEY], e.form];
    return steps;
})();

/**
 * The REST path of a payload path (`elems[1].image.levels[0].url` →
 * `MsgBody[1].MsgContent.ImageInfoArray[0].URL`), one component at a time; a
 * field without a REST key stays as it is.
 * @param {string} path A path into a message, or, with `listKey`, into a batch.
 * @param {string} [listKey] The document's message-list key.
 * @returns {string}
 */
export function restPath(path, listKey) {
    let place = listKey === undefined ? "message" : undefined;
    let out = "";
    let position = 0;
    for (const [, name, index] of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
        if (index !== undefined) {
            out += `[${index}]`;
            continue;
        }
        let keys;
        if (position++ === 0 && listKey !== undefined && name === "messages") {
            keys = [listKey];
            place = "message";
        } else {
            const step = place === undefined ? undefined : STEPS[place][name];
            [keys, place] = step ?? [[name], undefined];
        }
        for (const key of keys) out = out === "" ? key : `${out}.${key}`;
    }
    return out;
}

/**
 * Every finding of a REST document (docs/spec/rest.md, "Validation"): when it
 * does not import, its import problems (the first `maxProblems`, then one
 * `limit.problems` finding with their number); else the validator's findings
 * on the imported value at REST paths, the body size measured on the
 * canonical `MsgBody` text, and the limits the declarations mark as the REST
 * form's own (download flags, image formats) on the values the document holds.
 * @param {string} text A `MsgBody` array, a message object or a message list.
 * @param {string} [profile] `sdk-guide` (the default), `seed` or `current`.
 * @param {Partial<import("./limits.js").DecodingLimits>} [limits] Bounds while reading, and `maxProblems`.
 * @returns {import("./validate.js").Finding[]}
 * @throws {import("./validate.js").UnknownProfileError} For a profile name no declaration knows.
 */
export function validateREST(text, profile = "sdk-guide", limits = undefined) {
    const resolved = resolveLimits(limits);
    const restLimits = limitsAppliedTo("rest");
    measureDeclared(BODY_LIMIT, 0, "", profile); // refuses an unknown profile before reading
    const importer = new Importer(resolved, resolved.maxProblems, new Set(restLimits.keys()));
    const value = importer.document(text, undefined);
    if (importer.problemCount > 0) {
        const findings = importer.problems.map(([code, path, limit, observed]) => {
            const finding = { code, path: pathText(path), severity: "error" };
            if (limit !== undefined) Object.assign(finding, { limit, actual: observed });
            return finding;
        });
        if (importer.problemCount > importer.problems.length) {
            findings.push({
                code: ErrorCode.limitProblems,
                path: "",
                severity: "error",
                limit: resolved.maxProblems,
                actual: importer.problemCount,
            });
        }
        return findings;
    }
    const batch = importer.shape === "batch";
    const listKey = batch ? importer.listKey : undefined;
    const model = (batch ? MessageBatch : Message).fromJSON(value, resolved);
    const messages = batch ? model.messages : [model];

    const measured = [];
    const measuredAt = new Set();
    for (const [type, field, path, number] of importer.values) {
        for (const limit of restLimits.get(`${type}.${field}`)) {
            const found = measureDeclared(limit, number, pathText(path), profile);
            for (const finding of found) measuredAt.add(finding.path);
            measured.push(...found);
        }
    }

    const findings = [];
    for (const finding of validateSkipping(model, batch ? "MessageBatch" : "Message", profile, [BODY_LIMIT])) {
        const path = restPath(finding.path, listKey);
        if (finding.code === TARGET_MISSING && !path.split(".").includes(CONTENT_KEY)) continue;
        if (finding.code === UNKNOWN_ENUM && measuredAt.has(path)) continue;
        findings.push({ ...finding, path });
    }
    messages.forEach((message, index) => {
        const size = utf8Length(dump(message.elems.map((e) => writer.elem(e))));
        const path = batch ? `${listKey}[${index}].${BODY_KEY}` : BODY_KEY;
        findings.push(...measureDeclared(BODY_LIMIT, size, path, profile));
    });
    return [...findings, ...measured];
}
