// The decoding limits (docs/spec/limits.md, "Decoding limits"): their defaults are
// generated from Schemas/ into js/generated/limits.js.

import { DEFAULT_LIMITS } from "../generated/limits.js";

/**
 * Bounds on what a decoder accepts, so that memory and time stay bounded
 * whatever the input claims. Each is checked before anything is allocated
 * for it.
 * @typedef {object} DecodingLimits
 * @property {number} maxFrameBytes The largest frame body (`limit.frame-size`).
 * @property {number} maxInflatedBytes The largest payload a compressed frame may declare (`limit.inflated-size`).
 * @property {number} maxInflateRatio The largest payload-to-body ratio of a compressed frame (`limit.inflate-ratio`).
 * @property {number} maxDepth How many merger layers may nest (`limit.depth`).
 * @property {number} maxElems The most elems one message may hold (`limit.elems`).
 * @property {number} maxRepeated The most entries any other repeated field may hold (`limit.repeated`).
 * @property {number} maxBatchMessages The most messages one batch may hold (`limit.batch-messages`).
 * @property {number} maxDocumentBytes The largest JSON document read, in UTF-8 bytes (`limit.document-size`).
 * @property {number} maxProblems The most problems a REST validation reports (`limit.problems`); unused here.
 */

export { DEFAULT_LIMITS };

/**
 * Complete limits: the documented defaults, with each member of `limits`
 * that is not `undefined` put in their place.
 * @param {Partial<DecodingLimits>} [limits]
 * @returns {DecodingLimits}
 * @throws {TypeError} For a member that is not a limit's name (a misspelling)
 *   or whose value is not a number.
 * @throws {RangeError} For a value that is not a whole number from 0 on.
 */
export function resolveLimits(limits) {
    if (limits === undefined || limits === null) return DEFAULT_LIMITS;
    if (limits === DEFAULT_LIMITS) return limits;
    if (typeof limits !== "object") throw new TypeError(`limits are an object of numbers, not ${typeof limits}`);
    const resolved = { ...DEFAULT_LIMITS };
    for (const name of Object.keys(limits)) {
        const value = limits[name];
        if (value === undefined) continue;
        if (!Object.hasOwn(DEFAULT_LIMITS, name)) {
            throw new TypeError(`${name} is not a limit (${Object.keys(DEFAULT_LIMITS).join(", ")})`);
        }
        if (typeof value !== "number") throw new TypeError(`limit ${name} is a ${typeof value}, not a number`);
        if (!Number.isInteger(value) || value < 0) throw new RangeError(`limit ${name} is ${value}, not a whole number`);
        resolved[name] = value;
    }
    return resolved;
}
