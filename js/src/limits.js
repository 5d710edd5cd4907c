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
 * Complete limits: the documented defaults, with every member of `limits`
 * that is a number put in their place.
 * @param {Partial<DecodingLimits>} [limits]
 * @returns {DecodingLimits}
 */
export function resolveLimits(limits) {
    if (limits === undefined || limits === null) return DEFAULT_LIMITS;
    const resolved = { ...DEFAULT_LIMITS };
    for (const name of Object.keys(DEFAULT_LIMITS)) {
        const value = limits[name];
        if (typeof value === "number") resolved[name] = value;
    }
    return resolved;
}
