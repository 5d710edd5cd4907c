// TypeScript declarations of "imcodec/node" (js/src/deflate-node.js).

import type { DeflateCodec } from "./index.js";

/** The deflate codec of Node: `node:zlib`, which takes preset dictionaries. */
export declare function nodeDeflate(): DeflateCodec;

/** zlib's CRC-32 (`zlib.crc32`, from Node 20.15) with its arguments, or undefined where Node has none. */
export declare const nodeCRC32: ((bytes: Uint8Array, crc: number) => number) | undefined;
