// The entry point for a page or a program that loads the files as they are,
// without a bundler (package.json "exports", condition "default"):
// everything of src/api.js, with the platform's deflate picked where the code
// runs: node:zlib under Node (loaded only there), Compression Streams
// elsewhere. Bundlers take src/browser.js or src/node.js instead.

import { setPlatformDeflate } from "./deflate.js";
import { webDeflate } from "./deflate-web.js";

const isNode = typeof process !== "undefined" && process.versions != null && process.versions.node != null;
if (isNode) setPlatformDeflate(() => import("./deflate-node.js").then((module) => module.nodeDeflate()));
else setPlatformDeflate(() => webDeflate());

export * from "./api.js";
