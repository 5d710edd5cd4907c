// The deflate codec the frame functions use when given none. Which one it is
// is set by the entry point that was loaded (package.json "exports"):
// src/node.js sets node:zlib, src/browser.js leaves Compression Streams, and
// src/index.js, for a page or program that loads the files as they are,
// picks one where the code runs. This module names no platform's module, so
// that a bundle for browsers has no `node:` import.

import { webDeflate } from "./deflate-web.js";

let choose = () => webDeflate();
let platform;

/**
 * The deflate codec of the platform this runs on: {@link nodeDeflate} under
 * Node (through the package's `node` entry or src/index.js), {@link webDeflate}
 * (Compression Streams, no preset dictionaries) in a browser. A page that
 * ships pako passes `webDeflate({pako})` as the `deflate` option instead.
 * @returns {Promise<import("./frame.js").DeflateCodec>}
 */
export function platformDeflate() {
    if (platform === undefined) platform = Promise.resolve(choose());
    return platform;
}

/**
 * Sets the codec {@link platformDeflate} gives, for the entry points.
 * @param {() => import("./frame.js").DeflateCodec | Promise<import("./frame.js").DeflateCodec>} factory
 *   Called once, on first use.
 */
export function setPlatformDeflate(factory) {
    choose = factory;
    platform = undefined;
}
