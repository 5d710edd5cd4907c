// The one error type of the JavaScript implementation, with the stable codes
// of docs/spec/error-and-finding-codes.md.

/**
 * Every stable code this implementation raises, by a JavaScript name. The
 * strings are the format's codes (docs/spec/error-and-finding-codes.md),
 * shared by every implementation; match on them, never on an error's reason.
 * @readonly
 * @enum {string}
 */
export const ErrorCode = Object.freeze({
    frameTruncated: "frame.truncated",
    frameVersion: "frame.version",
    frameKind: "frame.kind",
    frameCompression: "frame.compression",
    frameReservedBits: "frame.reserved-bits",
    frameDictionary: "frame.dictionary",
    frameDictionaryUnavailable: "frame.dictionary-unavailable",
    frameVarint: "frame.varint",
    frameDeflate: "frame.deflate",
    frameZstdUnavailable: "frame.zstd-unavailable",
    framePayloadLength: "frame.payload-length",
    frameChecksum: "frame.checksum",
    frameTrailingBytes: "frame.trailing-bytes",
    payloadTruncated: "payload.truncated",
    payloadVarint: "payload.varint",
    payloadTag: "payload.tag",
    payloadGroup: "payload.group",
    payloadLength: "payload.length",
    payloadUTF8: "payload.utf8",
    limitFrameSize: "limit.frame-size",
    limitInflatedSize: "limit.inflated-size",
    limitInflateRatio: "limit.inflate-ratio",
    limitDepth: "limit.depth",
    limitElems: "limit.elems",
    limitRepeated: "limit.repeated",
    limitBatchMessages: "limit.batch-messages",
    limitDocumentSize: "limit.document-size",
    jsonSyntax: "json.syntax",
    jsonType: "json.type",
    jsonValue: "json.value",
    jsonUnknownField: "json.unknown-field",
    jsonDuplicateField: "json.duplicate-field",
    jsonDepth: "json.depth",
    limitProblems: "limit.problems",
    restType: "rest.type",
    restRange: "rest.range",
    restMissingKey: "rest.missing-key",
    restUnknownKey: "rest.unknown-key",
    restKeyCase: "rest.key-case",
    restDuplicateKey: "rest.duplicate-key",
    restMsgType: "rest.msg-type",
    restRelayListAndKey: "rest.relay-list-and-key",
    restRelayMsgNum: "rest.relay-msg-num",
    restUnrepresentable: "rest.unrepresentable",
});

/**
 * A problem with the input: a stable `code`, the `path` into the value where
 * it is, a human `reason` (whose wording may change), and for `limit.*` codes
 * the `limit` crossed and the `observed` value.
 *
 * The path is kept structured, as field names (strings) and entry indexes
 * (numbers), outermost first; {@link IMCodecError#pathText} is its text form
 * (`elems[2].text.text`, the empty string for the root).
 */
export class IMCodecError extends Error {
    /**
     * @param {string} code One of {@link ErrorCode}.
     * @param {string} reason What is wrong, for people.
     * @param {{path?: Array<string|number>, limit?: number, observed?: number}} [details]
     *   The path (root when absent) and, for limit errors, the limit and the observed value.
     */
    constructor(code, reason, details = {}) {
        super(reason);
        /** The error's name, for stack traces. */
        this.name = "IMCodecError";
        /** The stable code, one of {@link ErrorCode}. @type {string} */
        this.code = code;
        /** Where the problem is: field names and entry indexes, outermost first. @type {Array<string|number>} */
        this.path = details.path ? [...details.path] : [];
        /** What is wrong, for people; never match on it. @type {string} */
        this.reason = reason;
        /** For `limit.*` codes, the limit crossed. @type {number|undefined} */
        this.limit = details.limit;
        /** For `limit.*` codes, the value observed. @type {number|undefined} */
        this.observed = details.observed;
    }

    /**
     * The path as text, as the format writes it (Payloads.md, "Paths"):
     * fields joined by `.`, entries as `[i]`, the root as the empty string.
     * @returns {string}
     */
    get pathText() {
        return pathText(this.path);
    }

    /**
     * The error's code, path and reason on one line.
     * @returns {string}
     */
    toString() {
        const where = this.path.length ? this.pathText : "(root)";
        return `${this.code} at ${where}: ${this.reason}`;
    }
}

/**
 * The text form of a structured path.
 * @param {Array<string|number>} path
 * @returns {string}
 */
export function pathText(path) {
    let text = "";
    for (const part of path) {
        if (typeof part === "number") text += `[${part}]`;
        else text += text ? `.${part}` : part;
    }
    return text;
}

// Puts a field (and an entry index) in front of an error's path as it leaves
// a nested decoder; anything that is not an IMCodecError passes unchanged.
export function at(error, field, index) {
    if (error instanceof IMCodecError) {
        if (index === undefined) error.path.unshift(field);
        else error.path.unshift(field, index);
    }
    return error;
}

// The error for the first entry past a count limit: at `field[index]`, with
// the limit and the count that entry would make.
export function overLimit(code, field, index, limit) {
    return new IMCodecError(code, "more entries than the limit allows", {
        path: [field, index],
        limit,
        observed: index + 1,
    });
}

// The error for the first entry past a count limit, before the decoder that
// holds the field puts the field and the entry's index in front of its path.
export function atLimit(code, index, limit) {
    return new IMCodecError(code, "more entries than the limit allows", { limit, observed: index + 1 });
}
