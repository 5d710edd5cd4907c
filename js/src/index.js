// The imcodec format in JavaScript: payloads (js/generated/model.js, from
// Schemas/), frames and streams. Runs in browsers and in Node 20 alike; the
// deflate codec is the platform's (src/deflate.js).

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
export { platformDeflate } from "./deflate.js";
export { DICTIONARY_IDS, loadDictionary } from "../generated/dictionaries.js";
export * from "../generated/model.js";
