// The deflate codec the frame functions use when given none. Which one it is
// is set by the entry point that was loaded (package.json "exports"):
// src/node.js sets node:zlib, src/browser.js leaves Compression Streams, and
// src/index.js, for a page or program that loads the files as they are,
// picks one where the code runs. This module names no platform's module, so
// that a bundle for browsers has no `node:` import.

import { webDeflate } from "./deflate-web.js";

let choose = () => webDeflate();
let platform;
// The codec once `platform` has resolved, so that the frame functions need
// not wait for a promise on every call.
let resolved;

/**
 * The deflate codec of the platform this runs on: {@link nodeDeflate} under
 * Node (through the package's `node` entry or src/index.js), {@link webDeflate}
 * (Compression Streams, no preset dictionaries) in a browser. A page that
 * ships pako passes `webDeflate({pako})` as the `deflate` option instead.
 * @returns {Promise<import("./frame.js").DeflateCodec>}
 */
export function platformDeflate() {
    if (platform === undefined) {
        const chosen = Promise.resolve(choose());
        platform = chosen;
        chosen.then(
            (codec) => {
                if (platform === chosen) resolved = codec;
            },
            () => {},
        );
    }
    return platform;
}

/**
 * The codec {@link platformDeflate} has resolved to, or undefined while it
 * has not (yet).
 * @returns {import("./frame.js").DeflateCodec | undefined}
 */
export function resolvedPlatformDeflate() {
    return resolved;
}

/**
 * Sets the codec {@link platformDeflate} gives, for the entry points.
 * @param {() => import("./frame.js").DeflateCodec | Promise<import("./frame.js").DeflateCodec>} factory
 *   Called once, on first use.
 */
export function setPlatformDeflate(factory) {
    choose = factory;
    platform = undefined;
    resolved = undefined;
}
