// TypeScript declarations of "imcodec/rest" (js/src/rest.js): the Tencent
// REST form (docs/spec/rest.md), read from and written to the model, and
// validated.

import type { DecodingLimits } from "./index.js";
import type { Message, MessageBatch } from "../generated/model.js";
import type { Finding } from "./validate.js";

/**
 * Reads a REST document that holds one message: a `MsgBody` array or a message object (a send request, a
 * callback, one history entry).
 * @throws IMCodecError the first problem in document order, with its JSON path (`json.syntax`, `json.depth`,
 *   `rest.*`, `limit.*`).
 */
export declare function restToMessage(text: string, limits?: Partial<DecodingLimits>): Message;

/**
 * Reads a REST message list (`{"MsgList": [...]}` or `{"RspMsgList": [...]}`).
 * @throws IMCodecError as {@link restToMessage}.
 */
export declare function restToBatch(text: string, limits?: Partial<DecodingLimits>): MessageBatch;

/**
 * Writes a message as its canonical REST document: a bare `MsgBody` array when no envelope field is set, else a
 * message object.
 * @throws IMCodecError `rest.unrepresentable` at the payload path of the first value the form cannot hold.
 */
export declare function messageToREST(message: Message): string;

/**
 * Writes a batch as a canonical REST message list, `{"MsgList": [...]}`.
 * @throws IMCodecError `rest.unrepresentable`, as {@link messageToREST}.
 */
export declare function batchToREST(batch: MessageBatch): string;

/**
 * Every finding of a REST document: its import problems when it does not import (then `limit.problems` past
 * `maxProblems`), else the validator's findings at REST paths and the rules measured on the REST form.
 * @param profile `sdk-guide` (the default), `seed` or `current`.
 * @throws UnknownProfileError for a profile name no declaration knows.
 */
export declare function validateREST(text: string, profile?: string, limits?: Partial<DecodingLimits>): Finding[];

/**
 * The REST path of a payload path (`elems[1].image.levels[0].url` → `MsgBody[1].MsgContent.ImageInfoArray[0].URL`);
 * `listKey`, the document's message-list key, for a path into a batch.
 */
export declare function restPath(path: string, listKey?: string): string;
