// TypeScript declarations of "imcodec/web" (js/src/deflate-web.js).

export { webDeflate } from "./index.js";
