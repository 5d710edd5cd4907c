// Everything the package exports, whichever entry point is loaded
// (index.js, browser.js, node.js): payloads (js/generated/model.js, from
// Schemas/), frames and streams. Nothing here names a platform's module; the
// entry points differ only in the deflate codec platformDeflate() gives and,
// under Node, the UTF-8 decoder and CRC-32 they set (src/node.js).

export { ErrorCode, IMCodecError, pathText } from "./errors.js";
export { DEFAULT_LIMITS, resolveLimits } from "./limits.js";
export { crc32 } from "./crc32.js";
export { parseJSON, stringifyJSON, JSONNumber, JSONObject } from "./json.js";
export {
    FrameKind,
    FrameCompression,
    MAX_HEADER_BYTES,
    readFrameHeader,
    checkFrameSizes,
    decodeFrame,
    decodeFramePayload,
    decodePayload,
    encodeFrame,
    encodeFrameBytes,
    payloadType,
} from "./frame.js";
export { FrameReader, readFrames } from "./frame-reader.js";
export { platformDeflate, setPlatformDeflate } from "./deflate.js";
export { webDeflate } from "./deflate-web.js";
export { DICTIONARY_IDS, loadDictionary } from "../generated/dictionaries.js";
export * from "../generated/model.js";
