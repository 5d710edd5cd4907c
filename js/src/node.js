// The package's entry point for Node (package.json "exports", condition
// "node"): everything of src/api.js, with node:zlib as the platform's deflate
// and CRC-32, and Buffer's UTF-8 decoder reading string fields.

import { Buffer } from "node:buffer";
import { setNativeCRC32 } from "./crc32.js";
import { setPlatformDeflate } from "./deflate.js";
import { nodeCRC32, nodeDeflate } from "./deflate-node.js";
import { setUTF8Slice } from "./wire.js";

setPlatformDeflate(nodeDeflate);
setNativeCRC32(nodeCRC32);
setUTF8Slice(Buffer.prototype.utf8Slice);

export * from "./api.js";
export { nodeDeflate };
