// The platform's deflate: node:zlib under Node, Compression Streams in a
// browser, chosen where the code runs.

let platform;

/**
 * The deflate codec of the platform this runs on: {@link nodeDeflate} under
 * Node, {@link webDeflate} (Compression Streams, no preset dictionaries)
 * elsewhere. A page that ships pako passes `webDeflate({pako})` as the
 * `deflate` option instead.
 * @returns {Promise<import("./frame.js").DeflateCodec>}
 */
export function platformDeflate() {
    if (platform === undefined) {
        const isNode = typeof process !== "undefined" && process.versions != null && process.versions.node != null;
        platform = isNode
            ? import("./deflate-node.js").then((module) => module.nodeDeflate())
            : import("./deflate-web.js").then((module) => module.webDeflate());
    }
    return platform;
}
