// The JavaScript implementation (js/) under the conformance runner: serves
// handler.mjs over the testee protocol's framing on standard input and output
// (docs/spec/testee-protocol.md). Runs under
// Node 20; `testee` beside this file starts it.

import { Request, Response } from "../../js/generated/testee.js";
import { nodeDeflate } from "../../js/src/deflate-node.js";
import { handle } from "./handler.mjs";

const deflate = nodeDeflate();

function respond(result) {
    const [name] = Object.keys(result);
    const response = Response.create({ result: { case: name, value: result[name] } });
    const bytes = Response.encode(response);
    const prefix = new Uint8Array(4);
    new DataView(prefix.buffer).setUint32(0, bytes.length, true);
    process.stdout.write(prefix);
    process.stdout.write(bytes);
}

// Requests: a 4-byte little-endian length, then that many bytes.
const MAX_REQUEST = 1 << 30;
let pending = Buffer.alloc(0);
for await (const chunk of process.stdin) {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    for (;;) {
        if (pending.length < 4) break;
        const length = pending.readUInt32LE(0);
        if (length > MAX_REQUEST) {
            process.stderr.write(`imcodec_testee.mjs: a request of ${length} bytes is more than it reads\n`);
            process.exit(1);
        }
        if (pending.length < 4 + length) break;
        const body = new Uint8Array(pending.buffer, pending.byteOffset + 4, length).slice();
        pending = pending.subarray(4 + length);
        let request;
        try {
            request = Request.decode(body);
        } catch (error) {
            respond({ runtimeError: `the request does not parse: ${error}` });
            continue;
        }
        respond(await handle(request, { deflate }));
    }
}
if (pending.length > 0) {
    process.stderr.write("imcodec_testee.mjs: the input ends inside a request\n");
    process.exitCode = 1;
}
