// The package's entry point for browsers and bundlers that build for them
// (package.json "exports", condition "browser"): everything of src/api.js,
// with Compression Streams as the platform's deflate and no `node:` import
// anywhere in its module graph.

export * from "./api.js";
