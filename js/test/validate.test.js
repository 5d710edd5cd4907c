// The validator (src/validate.js): the README's example, profiles, types and
// the validate vectors of Vectors/limits, each with the findings it expects.

import assert from "node:assert/strict";
import { test } from "node:test";
import { Event, Message, MessageBatch } from "../src/index.js";
import { UnknownProfileError, profileNames, validate } from "../src/validate.js";
import { repoText } from "./helpers.js";

const TYPES = { message: Message, batch: MessageBatch, event: Event };

function bytes(hex) {
    return Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

test("the README's message without a target or elems gets both findings, at their paths", () => {
    const message = Message.fromJSONString('{"msgId": "m1", "sender": "alice", "elems": []}');
    const found = validate(message, Message, "sdk-guide").map((f) => [f.severity, f.code, f.path]);
    assert.deepEqual(found.sort(), [
        ["error", "rule.message.elems-missing", "elems"],
        ["error", "rule.message.target-missing", ""],
    ]);
});

test("a clean group message has no finding in any profile", () => {
    const message = Message.fromJSON({
        msgId: "m1", sender: "alice", groupId: "@TGS#2C5SZEAEF", groupType: "Public", elems: [{ text: { text: "hi" } }],
    });
    for (const profile of profileNames) assert.deepEqual(validate(message, Message, profile), []);
});

test("a type is the model's type or its name; an unknown profile or type is refused", () => {
    const event = Event.fromJSON({ recall: {} });
    assert.deepEqual(validate(event, Event), validate(event, "Event"));
    assert.equal(validate(event, Event)[0].code, "rule.recall.msg-id-missing");
    assert.throws(() => validate(event, Event, "strict"), UnknownProfileError);
    assert.throws(() => validate(event, "Elephant"), TypeError);
});

test("a 31-byte group name breaks the sdk-guide limit with limit and actual", () => {
    const message = Message.fromJSON({
        msgId: "m1", sender: "alice", groupId: "@TGS#1", groupType: "Public",
        elems: [{ groupTips: { type: "GROUP_TIPS_TYPE_INFO_CHANGE", groupName: "x".repeat(31), platform: "iOS" } }],
    });
    assert.deepEqual(validate(message), [{
        code: "limit.group.name-bytes", path: "elems[0].groupTips.groupName", severity: "error", limit: 30, actual: 31,
    }]);
});

test("every validate vector gets exactly its findings", () => {
    let cases = 0;
    for (const file of ["validation-rules", "validation-reporting", "validation-sdk-guide", "validation-current"]) {
        for (const c of JSON.parse(repoText(`Vectors/limits/${file}.json`)).cases) {
            if (c.operation !== "validate") continue;
            cases += 1;
            const type = TYPES[c.kind];
            const left = validate(type.decode(bytes(c.input.payloadHex), c.limits ?? {}), type, c.input.profile);
            for (const want of c.expected.findings ?? []) {
                const i = left.findIndex((f) => f.code === want.code && f.path === (want.path ?? "") &&
                    f.severity === want.severity && (want.limit === undefined || want.limit === f.limit) &&
                    (want.actual === undefined || want.actual === (f.actual ?? 0)));
                assert.ok(i >= 0, `${c.id}: no finding ${JSON.stringify(want)} in ${JSON.stringify(left)}`);
                left.splice(i, 1);
            }
            assert.deepEqual(left, [], `${c.id}: findings the vector does not expect`);
        }
    }
    assert.ok(cases > 600, `${cases} validate vectors`);
});
