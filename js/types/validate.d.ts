// TypeScript declarations of "imcodec/validate" (js/src/validate.js): the
// validator, one engine over the constraint declarations of Schemas/
// (docs/spec/validation.md, "Reading the declarations").

import type { MessageType } from "./index.js";

/** One validation finding (docs/spec/validation.md, "Findings"). */
export interface Finding {
    /** The stable finding code (`limit.group.name-bytes`). */
    code: string;
    /** Where, in proto3 JSON names (`elems[0].groupTips.groupName`); "" for the root. */
    path: string;
    /** The code's severity: warnings never fail an operation. */
    severity: "error" | "warning";
    /** The limit crossed, when the finding has one. */
    limit?: number;
    /** The observed number, when the finding has one. */
    actual?: number;
}

/** The error `validate` throws for a profile name no declaration knows. */
export declare class UnknownProfileError extends Error {
    readonly profile: string;
}

/** The names a profile answers to: `sdk-guide` (the default), its earlier name `seed`, and `current`. */
export declare const profileNames: readonly string[];

/**
 * Every finding of a decoded value under a profile: the rules of docs/spec/limits.md, executed from the
 * declarations of Schemas/. Never throws on a decoded value, however odd.
 *
 * @param value A decoded `Message`, `MessageBatch` or `Event`.
 * @param type The value's message type, or its name (default `Message`).
 * @param profile `sdk-guide` (the default), `seed` or `current`.
 * @throws UnknownProfileError for a profile name no declaration knows.
 */
export declare function validate<T>(value: T, type?: MessageType<T> | string, profile?: string): Finding[];
