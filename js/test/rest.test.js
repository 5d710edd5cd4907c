// The Tencent REST form (src/rest.js): the README's example, paths, profiles,
// and every case of Vectors/rest in process: imports with their payloads and
// exports, exports with their text or error, validations with their findings.

import assert from "node:assert/strict";
import { test } from "node:test";
import { Message, MessageBatch } from "../src/index.js";
import { batchToREST, messageToREST, restPath, restToBatch, restToMessage, validateREST } from "../src/rest.js";
import { UnknownProfileError } from "../src/validate.js";
import { hex, repoText, thrown } from "./helpers.js";

const FILES = ["elems", "envelope", "export", "relay", "strictness", "validate"];

function cases(operation) {
    return FILES.flatMap((file) => JSON.parse(repoText(`Vectors/rest/${file}.json`)).cases)
        .filter((c) => c.operation === operation);
}

function toHex(bytes) {
    return Buffer.from(bytes).toString("hex");
}

function text(input) {
    return input.restText ?? JSON.stringify(input.rest);
}

test("the README's MsgBody imports, exports as it was, and is clean under current", () => {
    const body = '[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hello world"}}]';
    const message = restToMessage(body);
    assert.equal(message.elems[0].kind.value.text, "hello world");
    assert.equal(messageToREST(message), body);
    assert.deepEqual(validateREST(body, "current"), []);
});

test("a message list is a batch, and a message is not; each error has the first problem's code and path", async () => {
    const list = '{"GroupId":"g","RspMsgList":[{"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"a"}}]}]}';
    const batch = restToBatch(list);
    assert.equal(batch.messages[0].groupId, "g");
    assert.equal(batchToREST(batch), '{"MsgList":[{"GroupId":"g","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"a"}}]}]}');
    const error = await thrown(() => restToMessage(list));
    assert.deepEqual([error.code, error.pathText], ["rest.type", ""]);
    const missing = await thrown(() => restToMessage('[{"MsgType":"TIMTextElem","MsgContent":{"text":"a"}}]'));
    assert.deepEqual([missing.code, missing.pathText], ["rest.key-case", "MsgBody[0].MsgContent.text"]);
});

test("a number past the largest double is rest.range, and a leading U+FEFF in text data is kept", async () => {
    const far = await thrown(() => restToMessage('[{"MsgType":"TIMLocationElem","MsgContent":{"Desc":"d","Latitude":1e400,"Longitude":0}}]'));
    assert.deepEqual([far.code, far.pathText], ["rest.range", "MsgBody[0].MsgContent.Latitude"]);
    const face = '[{"MsgType":"TIMFaceElem","MsgContent":{"Index":0,"Data":"\ufeffx"}}]';
    assert.equal(messageToREST(restToMessage(face)), face);
});

test("payload paths become REST paths one component at a time", () => {
    assert.equal(restPath("elems[1].image.levels[0].url"), "MsgBody[1].MsgContent.ImageInfoArray[0].URL");
    assert.equal(restPath("offlinePushInfo.iosSound"), "OfflinePushInfo.ApnsInfo.Sound");
    assert.equal(restPath("messages[2].elems[0].merger.messages[1].seq", "RspMsgList"),
        "RspMsgList[2].MsgBody[0].MsgContent.MsgList[1].MsgSeq");
    assert.equal(restPath(""), "");
});

test("an unknown profile is refused before the document is read", () => {
    assert.throws(() => validateREST("[]", "strict"), UnknownProfileError);
});

test("every rest-import vector imports to its payload and exports to its text, or fails with its problem", async () => {
    const all = cases("rest-import");
    for (const c of all) {
        const read = c.kind === "batch" ? restToBatch : restToMessage;
        if (c.result === "valid") {
            const value = read(text(c.input), c.limits);
            const type = c.kind === "batch" ? MessageBatch : Message;
            assert.equal(toHex(type.encode(value)), c.expected.payloadHex, c.id);
            const written = (c.kind === "batch" ? batchToREST : messageToREST)(type.decode(hex(c.expected.payloadHex)));
            assert.deepEqual(JSON.parse(written), c.expected.rest, c.id);
            if (c.flags?.includes("Canonical")) assert.equal(written, c.input.restText, c.id);
        } else {
            const error = await thrown(() => read(text(c.input), c.limits));
            assert.deepEqual([error.code, error.pathText], [c.expected.error.code, c.expected.error.path ?? ""], c.id);
        }
    }
    assert.ok(all.length > 150, `${all.length} rest-import vectors`);
});

test("every rest-export vector writes its text or fails at its payload path", async () => {
    const all = cases("rest-export");
    for (const c of all) {
        const type = c.kind === "batch" ? MessageBatch : Message;
        const write = () => (c.kind === "batch" ? batchToREST : messageToREST)(type.decode(hex(c.input.payloadHex)));
        if (c.result === "valid") {
            assert.deepEqual(JSON.parse(write()), c.expected.rest, c.id);
        } else {
            const error = await thrown(write);
            assert.deepEqual([error.code, error.pathText], [c.expected.error.code, c.expected.error.path ?? ""], c.id);
        }
    }
    assert.ok(all.length > 20, `${all.length} rest-export vectors`);
});

test("every rest-validate vector gets exactly its findings", () => {
    const all = cases("rest-validate");
    for (const c of all) {
        const left = validateREST(text(c.input), c.input.profile, c.limits);
        for (const want of c.expected.findings ?? []) {
            const i = left.findIndex((f) => f.code === want.code && f.path === (want.path ?? "") &&
                f.severity === want.severity && (want.limit === undefined || want.limit === f.limit) &&
                (want.actual === undefined || want.actual === (f.actual ?? 0)));
            assert.ok(i >= 0, `${c.id}: no finding ${JSON.stringify(want)} in ${JSON.stringify(left)}`);
            left.splice(i, 1);
        }
        assert.deepEqual(left, [], `${c.id}: findings the vector does not expect`);
    }
    assert.equal(all.length, 51);
});
