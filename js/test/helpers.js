// Helpers of the unit tests.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The repository's root folder. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Bytes from hex with optional spaces. @param {string} text */
export function hex(text) {
    return Uint8Array.from(Buffer.from(text.replace(/\s+/g, ""), "hex"));
}

/** A repository file's text. @param {string} path Relative to the root. */
export function repoText(path) {
    return readFileSync(ROOT + path, "utf8");
}

/**
 * Runs `body` and returns the error it throws (sync or async), failing when it throws none.
 * @param {() => any} body
 */
export async function thrown(body) {
    try {
        await body();
    } catch (error) {
        return error;
    }
    throw new Error("expected an error, none was thrown");
}
