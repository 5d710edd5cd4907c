// The entry point for a page or a program that loads the files as they are,
// without a bundler (package.json "exports", condition "default"):
// everything of src/api.js, with the platform's deflate picked where the code
// runs: node:zlib under Node (loaded only there), Compression Streams
// elsewhere. Bundlers take src/browser.js or src/node.js instead.

import { setNativeCRC32 } from "./crc32.js";
import { setPlatformDeflate } from "./deflate.js";
import { webDeflate } from "./deflate-web.js";
import { setUTF8Slice } from "./wire.js";

const isNode = typeof process !== "undefined" && process.versions != null && process.versions.node != null;
if (isNode) {
    setPlatformDeflate(() =>
        import("./deflate-node.js").then((module) => {
            setNativeCRC32(module.nodeCRC32);
            return module.nodeDeflate();
        }),
    );
    // Node's Buffer is a global: src/node.js's UTF-8 decoder without an import.
    setUTF8Slice(globalThis.Buffer?.prototype.utf8Slice);
} else setPlatformDeflate(() => webDeflate());

export * from "./api.js";
