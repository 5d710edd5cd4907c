// The validator: one engine that executes the constraint declarations of
// Schemas/, as js/generated/rules.js holds them, on a decoded value
// (docs/spec/validation.md, "Reading the declarations"). It names no limit,
// field or finding code of its own but for the three named predicates of
// that page ("Named predicates"); the findings, codes, paths and severities
// are the Swift library's.

import * as model from "../generated/model.js";
import { ENUMS, LIMITS, MESSAGES, PROFILES, SEVERITIES } from "../generated/rules.js";

/**
 * One validation finding (docs/spec/validation.md, "Findings").
 * @typedef {object} Finding
 * @property {string} code The stable finding code (`limit.group.name-bytes`).
 * @property {string} path Where, in proto3 JSON names (`elems[0].groupTips.groupName`); "" for the root.
 * @property {"error" | "warning"} severity The code's severity.
 * @property {number} [limit] The limit crossed, when the finding has one.
 * @property {number} [actual] The observed number, when the finding has one.
 */

const SCALARS = new Set(["string", "bytes", "bool", "double", "int32", "uint32", "int64", "uint64"]);
const utf8 = new TextEncoder();

/** The error `validate` throws for a profile name the declarations do not know. */
export class UnknownProfileError extends Error {
    /** @param {string} profile */
    constructor(profile) {
        super(`unknown profile "${profile}"; known: ${Object.keys(PROFILES).join(", ")}`);
        this.name = "UnknownProfileError";
        this.profile = profile;
    }
}

/** The names a profile answers to: `sdk-guide` (the default), its earlier name `seed`, and `current`. */
export const profileNames = Object.freeze(Object.keys(PROFILES));

// Each message type's fields as objects, in the table's order and by proto name, made once per type.
const FIELDS = new Map();

function fieldsOf(typeName) {
    let fields = FIELDS.get(typeName);
    if (fields === undefined) {
        const list = MESSAGES[typeName].fields.map((f) => ({
            name: f[0], json: f[1], type: f[2], repeated: f[3], oneof: f[4], number: f[5],
        }));
        fields = { list, byName: new Map(list.map((f) => [f.name, f])) };
        FIELDS.set(typeName, fields);
    }
    return fields;
}

function fieldOf(typeName, name) {
    const field = fieldsOf(typeName).byName.get(name);
    if (!field) throw new Error(`${typeName} has no field ${name}`);
    return field;
}

function oneofProperty(oneof) {
    return oneof.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
}

function isMessageType(type) {
    return !SCALARS.has(type) && !(type in ENUMS);
}

function getValue(value, field) {
    if (field.oneof) {
        const member = value[oneofProperty(field.oneof)];
        return member && member.case === field.json ? member.value : undefined;
    }
    return value[field.json];
}

function isSet(value, field) {
    const v = getValue(value, field);
    if (field.repeated) return v !== undefined && v.length > 0;
    if (isMessageType(field.type) || field.oneof) return v !== undefined;
    if (v instanceof Uint8Array) return v.length > 0;
    return v !== undefined && v !== 0 && v !== 0n && v !== "" && v !== false;
}

function defaultOf(field) {
    if (field.repeated) return [];
    if (field.type === "string") return "";
    if (field.type === "bytes") return new Uint8Array(0);
    if (field.type === "bool") return false;
    if (field.type === "int64" || field.type === "uint64") return 0n;
    if (isMessageType(field.type)) return undefined;
    return 0;
}

function join(path, name) {
    return path ? `${path}.${name}` : name;
}

class Node {
    constructor(value, type, path, parent) {
        this.value = value;
        this.type = type;
        this.path = path;
        this.parent = parent;
    }

    enclosing(type) {
        for (let node = this.parent; node; node = node.parent) if (node.type === type) return node;
        return undefined;
    }
}

/**
 * What a field reference names (docs/spec/validation.md: `field`, `a.b`, `^Type.field`, `^Type`):
 * the holding value (undefined when the reference crosses an absent message or finds no enclosing one),
 * the field, the JSON path and, for a oneof's name, the oneof.
 */
function resolve(node, ref) {
    let value = node.value;
    let type = node.type;
    let path = node.path;
    if (ref.startsWith("^")) {
        const dot = ref.indexOf(".");
        const typeName = dot < 0 ? ref.slice(1) : ref.slice(1, dot);
        const enclosing = node.enclosing(typeName);
        if (!enclosing) {
            // No enclosing message: the field reads its default.
            const field = dot < 0 ? undefined : fieldOf(typeName, ref.slice(dot + 1).split(".")[0]);
            return { value: undefined, field, path: "", oneof: undefined };
        }
        if (dot < 0) return { value: enclosing.value, field: undefined, path: enclosing.path };
        ({ value, type, path } = enclosing);
        ref = ref.slice(dot + 1);
    }
    const parts = ref.split(".");
    for (let i = 0; i < parts.length; i++) {
        const last = i === parts.length - 1;
        const fields = fieldsOf(type);
        if (last && !fields.byName.has(parts[i]) && fields.list.some((f) => f.oneof === parts[i])) {
            return { value, field: undefined, path, oneof: parts[i] };
        }
        const field = fieldOf(type, parts[i]);
        path = join(path, field.json);
        if (last) return { value, field, path };
        value = value === undefined ? undefined : getValue(value, field);
        type = field.type;
    }
    throw new Error("unreachable");
}

function refIsSet(node, ref) {
    const r = resolve(node, ref);
    if (r.value === undefined) return false;
    if (r.oneof) return r.value[oneofProperty(r.oneof)] !== undefined;
    if (!r.field) return true;
    return isSet(r.value, r.field);
}

function refValue(node, ref) {
    const r = resolve(node, ref);
    if (!r.field) return undefined;
    if (r.value === undefined) return defaultOf(r.field);
    const v = getValue(r.value, r.field);
    return v === undefined ? defaultOf(r.field) : v;
}

function holds(node, condition) {
    let result;
    if (condition.present !== undefined) {
        result = refIsSet(node, condition.field) === condition.present;
    } else {
        const r = resolve(node, condition.field);
        const value = refValue(node, condition.field);
        const numbers = condition.numbers || [];
        const strings = condition.strings || [];
        const number = typeof value === "bigint" ? Number(value) : value;
        result = numbers.includes(number);
        if (r.field.type in ENUMS) result = result || strings.includes(ENUMS[r.field.type][String(value)]);
        else if (r.field.type === "string") result = result || strings.includes(value);
    }
    return result !== Boolean(condition.negate);
}

function allHold(node, conditions) {
    return (conditions || []).every((c) => holds(node, c));
}

function utf8Length(value) {
    return value instanceof Uint8Array ? value.length : utf8.encode(value).length;
}

function varintSize(n) {
    let size = 1;
    while (n >= 0x80) {
        n = Math.floor(n / 128);
        size += 1;
    }
    return size;
}

function toNumber(value) {
    return typeof value === "bigint" ? Number(value) : value;
}

class Run {
    constructor(profile, skipped = []) {
        if (!Object.hasOwn(PROFILES, profile)) throw new UnknownProfileError(profile);
        this.profile = PROFILES[profile];
        this.skipped = new Set(skipped);
        /** @type {Finding[]} */
        this.findings = [];
    }

    report(code, path, limit, actual) {
        const finding = { code, path, severity: SEVERITIES[code] };
        if (limit !== undefined && limit !== null) finding.limit = toNumber(limit);
        if (actual !== undefined && actual !== null) finding.actual = toNumber(actual);
        this.findings.push(finding);
    }

    bound(name) {
        const limit = LIMITS[name];
        const value = limit.values[this.profile];
        if (value === null || value === undefined || value === false) return undefined;
        return value;
    }

    visit(node) {
        const declared = MESSAGES[node.type];
        for (const applied of declared.limits || []) this.apply(node, undefined, applied);
        for (const check of declared.checks || []) if (allHold(node, check.when)) this.check(node, check);
        for (const [name, rules] of Object.entries(declared.fieldRules || {})) {
            const field = fieldOf(node.type, name);
            this.fieldRules(node, field, rules);
            for (const applied of rules.applied || []) this.apply(node, field, applied);
        }
        this.descend(node);
    }

    descend(node) {
        for (const field of fieldsOf(node.type).list) {
            if (!isMessageType(field.type)) continue;
            const value = getValue(node.value, field);
            if (value === undefined) continue;
            const path = join(node.path, field.json);
            if (field.repeated) {
                if (value.length === 0 || this.tooDeep(node, field, path)) continue;
                value.forEach((entry, i) => this.visit(new Node(entry, field.type, `${path}[${i}]`, node)));
            } else {
                this.visit(new Node(value, field.type, path, node));
            }
        }
    }

    /** MEASURE_LAYERS: a list at a layer past the limit is reported once and not visited. */
    tooDeep(node, field, path) {
        const rules = (MESSAGES[node.type].fieldRules || {})[field.name];
        for (const applied of (rules && rules.applied) || []) {
            const limit = LIMITS[applied.limit];
            if (limit.measure !== "layers") continue;
            const bound = this.bound(applied.limit);
            if (bound === undefined) continue;
            let layer = 0;
            for (let walker = node; walker; walker = walker.parent) if (walker.type === node.type) layer += 1;
            if (layer > bound) {
                this.report(limit.code, path, bound, layer);
                return true;
            }
        }
        return false;
    }

    fieldRules(node, field, rules) {
        const path = join(node.path, field.json);
        const value = getValue(node.value, field);
        if (rules.nonEmpty && !isSet(node.value, field)) this.report(rules.nonEmpty, path);
        if (rules.range) {
            const { code, min, max } = rules.range;
            if (!(Number.isFinite(value) && value >= min && value <= max)) {
                this.report(code, path, Math.trunc(Math.max(Math.abs(min), Math.abs(max))));
            }
        }
        if (rules.definedEnum && ENUMS[field.type][String(value)] === undefined) {
            this.report("enum.unknown-value", path, undefined, value);
        }
        if (rules.discriminator && value === 0 && allHold(node, rules.discriminatorWhen)) {
            this.report("enum.unspecified", path, undefined, 0);
        }
        if (rules.namedValues && ENUMS[rules.namedValues.enum][String(value)] === undefined) {
            this.report(rules.namedValues.code, path, undefined, value);
        }
    }

    apply(node, field, applied) {
        const limit = LIMITS[applied.limit];
        if (limit.appliesTo || this.skipped.has(applied.limit)) return;
        const bound = this.bound(applied.limit);
        if (bound === undefined || !allHold(node, applied.when)) return;
        const holderPath = node.path;
        const path = field ? join(holderPath, field.json) : holderPath;
        const m = limit.measure;
        if (limit.predicate) {
            PREDICATES[limit.predicate](this, node, field, path, limit, bound);
        } else if (m === "layers") {
            // applied when the traversal reaches the list (tooDeep)
        } else if (m === "entries") {
            const entries = getValue(node.value, field);
            const counted = [];
            entries.forEach((entry, i) => {
                if (allHold(new Node(entry, field.type, `${path}[${i}]`, node), applied.countWhen)) counted.push(i);
            });
            if (counted.length > bound) {
                const at = applied.report === "first_excess" ? `${path}[${counted[bound]}]` : path;
                this.report(limit.code, at, bound, counted.length);
            }
        } else if (m === "encoded_bytes") {
            this.encodedBytes(node, field, path, limit, bound);
        } else if (m === "per_key") {
            const key = applied.key ? refValue(node, applied.key) : undefined;
            if (key === undefined || !(key in bound)) return;
            const value = getValue(node.value, field);
            const measured = field.repeated ? value.length : toNumber(value);
            if (measured > bound[key]) this.report(limit.code, path, bound[key], measured);
        } else if (applied.entryField) {
            getValue(node.value, field).forEach((entry, i) => {
                const sub = fieldOf(field.type, applied.entryField);
                if (sub.oneof && !isSet(entry, sub)) return;
                this.measure(limit, bound, getValue(entry, sub), `${path}[${i}].${sub.json}`);
            });
        } else if (field.repeated) {
            getValue(node.value, field).forEach((value, i) => this.measure(limit, bound, value, `${path}[${i}]`));
        } else if (limit.sumWith) {
            let total = this.amount(limit, getValue(node.value, field));
            for (const other of limit.sumWith) total += this.amount(limit, getValue(node.value, fieldOf(node.type, other)));
            if (total > bound) this.report(limit.code, applied.report === "holder" ? holderPath : path, bound, total);
        } else {
            const at = applied.report === "holder" ? holderPath : path;
            this.measure(limit, bound, getValue(node.value, field), at);
        }
    }

    amount(limit, value) {
        switch (limit.measure) {
            case "utf8_bytes":
                if (limit.afterPrefix) {
                    const prefix = this.bound(limit.afterPrefix);
                    if (prefix === undefined || !value.startsWith(prefix)) return undefined;
                    value = value.slice(prefix.length);
                }
                return utf8Length(value);
            case "utf16_units":
                return value.length;
            case "value":
                return toNumber(value);
            default:
                throw new Error(`not a size: ${limit.code}`);
        }
    }

    measure(limit, bound, value, path) {
        const m = limit.measure;
        if (m === "utf8_bytes" || m === "utf16_units" || m === "value") {
            const measured = this.amount(limit, value);
            if (measured !== undefined && measured > bound) this.report(limit.code, path, bound, measured);
        } else if (m === "flag") {
            if (limit.charset) {
                const bytes = value instanceof Uint8Array ? value : utf8.encode(value);
                const ranges = [];
                for (let i = 0; i < limit.charset.length; i += 2) {
                    ranges.push([limit.charset.charCodeAt(i), limit.charset.charCodeAt(i + 1)]);
                }
                for (const byte of bytes) {
                    if (!ranges.some(([low, high]) => byte >= low && byte <= high)) {
                        this.report(limit.code, path, undefined, byte);
                        break;
                    }
                }
            } else if (value === "" || value === 0 || value === false || value === undefined) {
                this.report(limit.code, path);
            }
        } else if (m === "string_set") {
            if (value && !bound.includes(value)) this.report(limit.code, path);
        } else if (m === "number_set" || m === "number_range") {
            const inside = m === "number_range" ? value >= bound[0] && value <= bound[1] : bound.includes(value);
            if (!inside) this.report(limit.code, path, undefined, value);
        } else if (m === "exact") {
            if (value !== bound) this.report(limit.code, path, bound, value);
        } else if (m === "prefix") {
            if (!value.startsWith(bound)) this.report(limit.code, path);
        } else if (m === "forbidden_prefix") {
            if (value.startsWith(bound)) this.report(limit.code, path);
        } else {
            throw new Error(`measure ${m} of ${limit.code}`);
        }
    }

    /** MEASURE_ENCODED_BYTES: each entry's tag, length prefix and canonical size, `exclude`d fields left out. */
    encodedBytes(node, field, path, limit, bound) {
        const excluded = (limit.exclude || []).map((e) => e.split("."));
        const fields = fieldsOf(field.type).list;
        const tag = varintSize(field.number * 8);
        let total = 0;
        for (const entry of getValue(node.value, field)) {
            let copy = entry;
            for (const sub of fields) {
                if (sub.repeated || !isMessageType(sub.type)) continue;
                const child = getValue(entry, sub);
                if (child === undefined) continue;
                for (const [typeName, name] of excluded) {
                    if (sub.type !== typeName) continue;
                    const cleared = { ...child, [fieldOf(typeName, name).json]: [] };
                    copy = sub.oneof
                        ? { ...copy, [oneofProperty(sub.oneof)]: { case: sub.json, value: cleared } }
                        : { ...copy, [sub.json]: cleared };
                }
            }
            const size = model[field.type].encode(copy).length;
            total += tag + varintSize(size) + size;
        }
        if (total > bound) this.report(limit.code, path, bound, total);
    }

    check(node, check) {
        const at = check.at === undefined ? undefined : check.at === "." ? node.path : resolve(node, check.at).path;
        const fields = check.fields;
        switch (check.form) {
            case "absent":
                for (const name of fields) {
                    if (!refIsSet(node, name)) continue;
                    const r = resolve(node, name);
                    const value = getValue(r.value, r.field);
                    let actual;
                    if (check.actual === "count") actual = value.length;
                    else if (check.actual === "value" && r.field.type !== "string" && r.field.type !== "bytes") {
                        actual = value;
                    }
                    this.report(check.code, at ?? r.path, undefined, actual);
                }
                break;
            case "present":
                for (const name of fields) if (!refIsSet(node, name)) this.report(check.code, at ?? resolve(node, name).path);
                break;
            case "at_least_one":
            case "at_most_one": {
                const count = fields.filter((name) => refIsSet(node, name)).length;
                if ((check.form === "at_least_one" && count === 0) || (check.form === "at_most_one" && count > 1)) {
                    this.report(check.code, at ?? node.path);
                }
                break;
            }
            case "equals_count": {
                const number = toNumber(refValue(node, fields[0]));
                const count = refValue(node, fields[1]).length;
                if (number !== count) this.report(check.code, at ?? resolve(node, fields[0]).path, count, number);
                break;
            }
            case "not_above": {
                const value = toNumber(refValue(node, fields[0]));
                const ceiling = toNumber(refValue(node, fields[1]));
                if (ceiling && value > ceiling) this.report(check.code, at ?? resolve(node, fields[0]).path, ceiling, value);
                break;
            }
            case "unique": {
                const r = resolve(node, fields[0]);
                const seen = new Set();
                refValue(node, fields[0]).forEach((entry, i) => {
                    const sub = fieldOf(r.field.type, fields[1]);
                    const value = getValue(entry, sub);
                    if (check.numbers && !check.numbers.includes(value)) return;
                    if (seen.has(value)) this.report(check.code, `${r.path}[${i}].${sub.json}`);
                    seen.add(value);
                });
                break;
            }
            case "entries_present": {
                const r = resolve(node, fields[0]);
                const entries = refValue(node, fields[0]);
                if (entries.length === 0) this.report(check.code, r.path);
                entries.forEach((entry, i) => {
                    const entryNode = new Node(entry, r.field.type, `${r.path}[${i}]`, node);
                    if (!refIsSet(entryNode, fields[1])) this.report(check.code, entryNode.path);
                });
                break;
            }
            case "entries_absent": {
                const r = resolve(node, fields[0]);
                refValue(node, fields[0]).forEach((entry, i) => {
                    const entryNode = new Node(entry, r.field.type, `${r.path}[${i}]`, node);
                    if (allHold(entryNode, check.entryWhen)) this.report(check.code, resolve(entryNode, fields[1]).path);
                });
                break;
            }
            case "predicate":
                PREDICATES[check.predicate](this, node, undefined, at ?? node.path, check);
                break;
            default:
                throw new Error(`form ${check.form}`);
        }
    }
}

// The named predicates (docs/spec/validation.md, "Named predicates").

function shortSide(level) {
    return level.width > 0 && level.height > 0 ? Math.min(level.width, level.height) : undefined;
}

const AT_ALL_USER_ID = "__kImSDK_MesssageAtALL__";

const PREDICATES = {
    "image.scaled-short-side"(run, node, field, path, limit, bound) {
        const side = shortSide(node.value);
        if (side === undefined) return;
        const image = node.enclosing("ImageElem");
        const originalType = Number(Object.keys(ENUMS.ImageLevelType).find(
            (n) => ENUMS.ImageLevelType[n] === "IMAGE_LEVEL_TYPE_ORIGINAL"));
        const original = image ? image.value.levels.find((l) => l.type === originalType) : undefined;
        const originalSide = original ? shortSide(original) : undefined;
        if (originalSide !== undefined) {
            const expected = Math.min(bound, originalSide);
            if (side !== expected) run.report(limit.code, path, expected, side);
        } else if (side > bound) {
            run.report(limit.code, path, bound, side);
        }
    },
    "add-source"(run, node, field, path, limit, prefix) {
        const value = getValue(node.value, field);
        if (!value) return;
        if (!value.startsWith(prefix)) {
            run.report(limit.code, path);
            return;
        }
        const name = value.slice(prefix.length);
        if (!name || !/^[A-Za-z]+$/.test(name)) run.report(limit.code, path);
    },
    "at-type"(run, node, field, path, check) {
        const message = node.value;
        const named = ENUMS.GroupAtType[String(message.atType)];
        const all = message.atUserList.includes(AT_ALL_USER_ID);
        const user = message.atUserList.some((u) => u !== AT_ALL_USER_ID);
        const follows = {
            GROUP_AT_TYPE_AT_ME: user && !all,
            GROUP_AT_TYPE_AT_ALL: all,
            GROUP_AT_TYPE_AT_ALL_AT_ME: all && user,
        }[named];
        if (follows === false) run.report(check.code, path);
    },
};

/**
 * Every finding of a decoded value under a profile: the rules of docs/spec/limits.md, executed from the
 * declarations of Schemas/. Never throws on a decoded value, however odd.
 *
 * @param {object} value A decoded `Message`, `MessageBatch` or `Event` (as `decode` or `fromJSON` return it).
 * @param {string | {typeName: string}} [type] The value's message type: the type (`Message`, `MessageBatch`,
 *   `Event` from the model) or its name (default `Message`).
 * @param {string} [profile] `sdk-guide` (the default), `seed` or `current`.
 * @returns {Finding[]} Every finding; errors and warnings alike (`severity`).
 * @throws {UnknownProfileError} For a profile name no declaration knows.
 * @throws {TypeError} For a type that is not a message of the schema.
 */
export function validate(value, type = "Message", profile = "sdk-guide") {
    const name = (typeof type === "string" ? type : type.typeName).replace(/^imcodec\.v1\./, "");
    if (!Object.hasOwn(MESSAGES, name)) throw new TypeError(`${name} is not a message type of the schema`);
    const run = new Run(profile);
    run.visit(new Node(value, name, "", undefined));
    return run.findings;
}

/**
 * @internal Every finding of a decoded value but those of the limits named in `skipped`, for a form that
 * measures those limits itself (src/rest.js).
 */
export function validateSkipping(value, typeName, profile, skipped) {
    const run = new Run(profile, skipped);
    run.visit(new Node(value, typeName, "", undefined));
    return run.findings;
}

/**
 * @internal The fields governed by limits that apply only to one form (`appliesTo`, "rest"): a map from
 * `Type.field` (the field's proto3 JSON name) to the names of those limits.
 */
export function limitsAppliedTo(scope) {
    const out = new Map();
    for (const [typeName, declared] of Object.entries(MESSAGES)) {
        for (const [name, rules] of Object.entries(declared.fieldRules || {})) {
            for (const applied of rules.applied || []) {
                if (LIMITS[applied.limit].appliesTo !== scope) continue;
                const key = `${typeName}.${fieldOf(typeName, name).json}`;
                out.set(key, [...(out.get(key) || []), applied.limit]);
            }
        }
    }
    return out;
}

/**
 * @internal A declared limit applied to one value measured elsewhere, at `path`: for a size measure
 * (`encoded_bytes`) the value is the size. The findings, empty when the profile has no such rule.
 * @throws {UnknownProfileError} For a profile name no declaration knows.
 */
export function measureDeclared(name, value, path, profile) {
    const run = new Run(profile);
    const bound = run.bound(name);
    if (bound === undefined) return [];
    const limit = LIMITS[name];
    if (limit.measure === "encoded_bytes") {
        if (value > bound) run.report(limit.code, path, bound, value);
    } else {
        run.measure(limit, bound, value, path);
    }
    return run.findings;
}
