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
// Iterations are interleaved (every measure once per iteration, in turn) and
// the table prints medians. protobuf.js is not measured beside it: Debian has
// no node-protobufjs and npm's registry is unreachable here (js/README.md,
// "Speed").
//
//   swift build --product imcodec-devtools
//   .build/debug/imcodec-devtools write-corpus --output /tmp/traffic.bin
//   node js/bench/bench.js /tmp/traffic.bin [ITERATIONS]

import { readFileSync } from "node:fs";
import zlib from "node:zlib";
import { FrameReader, Message, decodeFramePayload, encodeFrame, encodeFrameBytes } from "../src/node.js";

const [file, iterationsText] = process.argv.slice(2);
if (!file) {
    process.stderr.write("usage: node js/bench/bench.js CORPUS [ITERATIONS]\n");
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
console.log("| measure | µs per message | MB/s of payload |");
console.log("|---|---:|---:|");
for (const name of names) {
    const seconds = median(times[name]);
    console.log(`| ${name} | ${((seconds / payloads.length) * 1e6).toFixed(2)} | ${(bytes / seconds / 1e6).toFixed(0)} |`);
}
console.log(`| FrameReader: a 1 MiB frame fed one byte at a time | ${(median(dripTimes) * 1e3).toFixed(0)} ms for the frame | |`);
