// A TypeScript program that uses the package as js/README.md shows it,
// checked with `tsc --noEmit --strict` (js/test/types/check-types.mjs),
// which also checks that a misspelled field in it fails.

import {
    Elem,
    FrameReader,
    IMCodecError,
    Message,
    Priority,
    TextElem,
    decodeFramePayload,
    encodeFrame,
    type FramePayload,
} from "imcodec";
import { validate, type Finding } from "imcodec/validate";
import { messageToREST, restToMessage, validateREST } from "imcodec/rest";
import { webDeflate } from "imcodec/web";

declare const socket: WebSocket;
declare function show(payload: FramePayload): void;

// js/README.md, "Use".
const message = Message.fromJSONString('{"msgId": "m1", "sender": "alice", "elems": [{"text": {"text": "hi"}}]}');
const frame: Uint8Array = await encodeFrame({ kind: 1, value: message });
const { kind, value } = await decodeFramePayload(frame);
if (kind === 1) console.log(Message.toJSONString(value));

const reader = new FrameReader();
socket.onmessage = async (event: MessageEvent<ArrayBuffer>) => {
    reader.append(event.data);
    for (let payload; (payload = await reader.nextPayload()) !== null; ) show(payload);
};

// Values built in code: fields, a oneof, an enum, a 64-bit integer.
const built = Message.create({
    msgId: "m2",
    priority: Priority.HIGH,
    timestamp: 1_700_000_000n,
    elems: [Elem.create({ kind: { case: "text", value: TextElem.create({ text: "hello" }) } })],
});
const first = built.elems[0]?.kind;
if (first?.case === "text") console.log(first.value.text.toUpperCase());
const bytes: Uint8Array = Message.encode(built, { maxDepth: 10 });
const back: Message = Message.decode(bytes.buffer);
console.log(back.timestamp + 1n, back.random + 1);

// js/README.md, "Deflate and what a page reads without help".
const pako: unknown = await import("./pako.esm.mjs" as string);
await encodeFrame({ kind: 1, value: built }, { deflate: webDeflate({ pako }), policy: { dictionaryId: 2, level: 0 } });

try {
    Message.encode(back);
} catch (error) {
    if (error instanceof IMCodecError) console.log(error.code, error.pathText, error.limit);
}

// js/README.md, "Validating before sending".
const unsent = Message.fromJSONString('{"msgId": "m1", "sender": "alice", "elems": []}');
const findings: Finding[] = validate(unsent, Message, "sdk-guide");
for (const finding of findings) console.log(finding.severity, finding.code, finding.path, finding.limit ?? 0);

// js/README.md, "The Tencent REST form".
const fromREST: Message = restToMessage('[{"MsgType": "TIMTextElem", "MsgContent": {"Text": "hello world"}}]');
const restText: string = messageToREST(fromREST);
for (const finding of validateREST(restText, "current")) console.log(finding.code, finding.path);
