// The package's entry point for Node (package.json "exports", condition
// "node"): everything of src/api.js, with node:zlib as the platform's deflate.

import { setPlatformDeflate } from "./deflate.js";
import { nodeDeflate } from "./deflate-node.js";

setPlatformDeflate(nodeDeflate);

export * from "./api.js";
export { nodeDeflate };
