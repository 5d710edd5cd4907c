// TypeScript declarations of "imcodec/node" (js/src/deflate-node.js).

import type { DeflateCodec } from "./index.js";

/** The deflate codec of Node: `node:zlib`, which takes preset dictionaries. */
export declare function nodeDeflate(): DeflateCodec;
