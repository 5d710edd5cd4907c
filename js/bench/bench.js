#!/usr/bin/env node
// The JavaScript implementation's speed under Node on the benchmarks' traffic
// corpus (docs/PERFORMANCE.md, "How it is measured": 1,000 messages shaped
// like IM traffic), printed as a markdown table:
//
// - payload decode and encode (encode checks the value against the schema
//   first, as the API always does), per message;
// - frames with the default policy (deflate level 6 from 256 bytes) through
//   node:zlib, against node:zlib's deflateRawSync / inflateRawSync of the
//   same payloads alone: what the frame layer adds;
// - the streaming reader fed a 1 MiB frame one byte at a time.
//
// With --protobufjs DIR (a protobufjs 7 package folder, with its
// @protobufjs/* dependencies resolvable from it; never part of this
// repository), protobuf.js runs beside it in the same iterations, on the
// same messages read from Schemas/ by protobuf.js's own parser: its decode
// and encode, and the same with node:zlib around it (inflateRawSync or
// deflateRawSync at level 6 from 256 bytes, the default policy's), and the
// table gives each of ours as a ratio to its peer.
//
// Iterations are interleaved (every measure once per iteration, in turn) and
// the table prints medians.
//
//   swift build --product imcodec-devtools
//   .build/debug/imcodec-devtools write-corpus --output /tmp/traffic.bin
//   node js/bench/bench.js /tmp/traffic.bin [ITERATIONS] [--protobufjs DIR]

import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import zlib from "node:zlib";
import { FrameReader, Message, decodeFramePayload, encodeFrame, encodeFrameBytes } from "../src/node.js";

const args = process.argv.slice(2);
const pbjsAt = args.indexOf("--protobufjs");
const pbjsDir = pbjsAt >= 0 ? args.splice(pbjsAt, 2)[1] : undefined;
const [file, iterationsText] = args;
if (!file) {
    process.stderr.write("usage: node js/bench/bench.js CORPUS [ITERATIONS] [--protobufjs DIR]\n");
    process.exit(64);
}
const iterations = Number(iterationsText ?? 15);

const data = readFileSync(file);
const payloads = [];
for (let at = 0; at + 4 <= data.length; ) {
    const length = data.readUInt32LE(at);
    payloads.push(new Uint8Array(data.buffer, data.byteOffset + at + 4, length).slice());
    at += 4 + length;
}
const values = payloads.map((payload) => Message.decode(payload));
const frames = await Promise.all(values.map((value) => encodeFrame({ kind: 1, value })));
const deflated = payloads.map((payload) => (payload.length >= 256 ? zlib.deflateRawSync(payload, { level: 6 }) : null));
const bytes = payloads.reduce((sum, payload) => sum + payload.length, 0);

// protobuf.js, when given: Schemas/ read by its parser, imports resolved
// against Schemas/ and the system's protobuf includes.
let pbjs = null;
if (pbjsDir !== undefined) {
    const protobuf = createRequire(import.meta.url)(pbjsDir);
    const schemas = new URL("../../Schemas/", import.meta.url).pathname;
    const root = new protobuf.Root();
    root.resolvePath = (origin, target) => {
        for (const base of [schemas, "/usr/include/"]) if (existsSync(base + target)) return base + target;
        return protobuf.util.path.resolve(origin, target);
    };
    root.loadSync(["imcodec/v1/model.proto"]);
    root.resolveAll();
    const type = root.lookupType("imcodec.v1.Message");
    pbjs = { protobuf, type, values: payloads.map((payload) => type.decode(payload)) };
}

let sink = 0;
const measures = {
    "payload decode": () => {
        for (const payload of payloads) sink += Message.decode(payload).elems.length;
    },
    "payload encode": () => {
        for (const value of values) sink += Message.encode(value).length;
    },
    "frame decode (payload decoded)": async () => {
        for (const frame of frames) sink += (await decodeFramePayload(frame)).kind;
    },
    "frame encode (default policy)": async () => {
        for (const value of values) sink += (await encodeFrame({ kind: 1, value })).length;
    },
    "node:zlib inflateRawSync alone": () => {
        for (let i = 0; i < payloads.length; i++) {
            if (deflated[i] !== null) sink += zlib.inflateRawSync(deflated[i]).length;
        }
    },
    "node:zlib deflateRawSync alone": () => {
        for (const payload of payloads) if (payload.length >= 256) sink += zlib.deflateRawSync(payload, { level: 6 }).length;
    },
};
// Each of ours and its protobuf.js peer.
const PEERS = {
    "payload decode": "protobuf.js decode",
    "payload encode": "protobuf.js encode",
    "frame decode (payload decoded)": "node:zlib inflateRawSync + protobuf.js decode",
    "frame encode (default policy)": "protobuf.js encode + node:zlib deflateRawSync",
};
if (pbjs !== null) {
    const { type, values: pbValues } = pbjs;
    Object.assign(measures, {
        "protobuf.js decode": () => {
            for (const payload of payloads) sink += type.decode(payload).elems.length;
        },
        "protobuf.js encode": () => {
            for (const value of pbValues) sink += type.encode(value).finish().length;
        },
        "node:zlib inflateRawSync + protobuf.js decode": () => {
            for (let i = 0; i < payloads.length; i++) {
                const payload = deflated[i] !== null ? zlib.inflateRawSync(deflated[i]) : payloads[i];
                sink += type.decode(payload).elems.length;
            }
        },
        "protobuf.js encode + node:zlib deflateRawSync": () => {
            for (const value of pbValues) {
                const payload = type.encode(value).finish();
                sink += (payload.length >= 256 ? zlib.deflateRawSync(payload, { level: 6 }) : payload).length;
            }
        },
    });
}

const times = Object.fromEntries(Object.keys(measures).map((name) => [name, []]));
const names = Object.keys(measures);
for (let iteration = 0; iteration < iterations + 2; iteration++) {
    for (let k = 0; k < names.length; k++) {
        const name = names[(k + iteration) % names.length];
        const started = process.hrtime.bigint();
        await measures[name]();
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        // The first two iterations warm the JIT up and are not kept.
        if (iteration >= 2) times[name].push(seconds);
    }
}

function median(list) {
    const sorted = [...list].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
}

// The streaming reader: a stored 1 MiB frame, one byte per append and next().
const big = await encodeFrameBytes(1, new Uint8Array(1 << 20).fill(7), { policy: { compression: 0 } });
const dripTimes = [];
for (let round = 0; round < 3; round++) {
    const reader = new FrameReader();
    const started = process.hrtime.bigint();
    let read = null;
    for (let at = 0; at < big.length; at++) {
        reader.append(big.subarray(at, at + 1));
        read = (await reader.next()) ?? read;
    }
    dripTimes.push(Number(process.hrtime.bigint() - started) / 1e9);
    sink += read.payload.length;
}

console.log(`Node ${process.version}; ${payloads.length} messages, mean payload ${Math.round(bytes / payloads.length)} bytes;` +
    ` median of ${iterations} interleaved iterations (checksum ${sink % 997})\n`);
// Each iteration's ratio of ours to its peer, then their median: timed back
// to back, the ratio moves less than either time on a busy machine.
function ratio(name) {
    const peer = PEERS[name];
    if (pbjs === null || peer === undefined) return "";
    const each = times[name].map((seconds, i) => seconds / times[peer][i]);
    return `${median(each).toFixed(2)}× ${peer}`;
}
if (pbjs !== null) console.log(`protobuf.js ${pbjs.protobuf.util.Long ? "with" : "without"} long, beside it\n`);
console.log("| measure | µs per message | MB/s of payload | time ÷ peer's |");
console.log("|---|---:|---:|---|");
for (const name of names) {
    const seconds = median(times[name]);
    console.log(`| ${name} | ${((seconds / payloads.length) * 1e6).toFixed(2)} | ${(bytes / seconds / 1e6).toFixed(0)} | ${ratio(name)} |`);
}
console.log(`| FrameReader: a 1 MiB frame fed one byte at a time | ${(median(dripTimes) * 1e3).toFixed(0)} ms for the frame | | |`);
