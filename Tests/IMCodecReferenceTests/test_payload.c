/*
 * Payload decoding: every payload.* and limit.* code of docs/spec/payloads.md with
 * its path, canonical re-encoding, and the values protobuf-c cannot represent.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MESSAGE IMCODEC_REF_KIND_MESSAGE
#define BATCH IMCODEC_REF_KIND_BATCH
#define EVENT IMCODEC_REF_KIND_EVENT

static void error_hex(const char *name, imcodec_ref_kind kind, const char *hex, const imcodec_ref_limits *limits,
                      const char *code, const char *path) {
    bytes input = b_hex(hex);
    expect_payload_error(name, kind, &input, limits, code, path);
    b_free(&input);
}

static void ok_hex(const char *name, imcodec_ref_kind kind, const char *hex, const char *canonical_hex) {
    bytes input = b_hex(hex);
    bytes canonical = b_hex(canonical_hex != NULL ? canonical_hex : hex);
    expect_payload_ok(name, kind, &input, &canonical);
    b_free(&input);
    b_free(&canonical);
}

static void unsupported_hex(const char *name, imcodec_ref_kind kind, const char *hex, const char *path) {
    bytes input = b_hex(hex);
    expect_payload_unsupported(name, kind, &input, path);
    b_free(&input);
}

/* Writes a varint of `value` just before buffer[*start]. */
static void prepend_varint(unsigned char *buffer, size_t *start, size_t value) {
    unsigned char varint[10];
    size_t n = 0;
    while (value >= 0x80) {
        varint[n++] = (unsigned char)(value | 0x80);
        value >>= 7;
    }
    varint[n++] = (unsigned char)value;
    while (n > 0)
        buffer[--*start] = varint[--n];
}

/*
 * `levels` merger layers: Message{elems[0]{merger{messages[0]{...}}}}, built
 * from the inside out in one buffer so it costs O(levels).
 */
static bytes nested_mergers(size_t levels) {
    size_t cap = levels * 16 + 16;
    unsigned char *buffer = malloc(cap);
    if (buffer == NULL) exit(2);
    size_t start = cap;
    for (size_t i = 0; i < levels; i++) {
        prepend_varint(buffer, &start, cap - start); /* MergerElem.messages */
        buffer[--start] = 0x22;
        prepend_varint(buffer, &start, cap - start); /* Elem.merger */
        buffer[--start] = 0x4a;
        prepend_varint(buffer, &start, cap - start); /* Message.elems */
        buffer[--start] = 0x01;
        buffer[--start] = 0x92;
    }
    bytes b = {0};
    b_raw(&b, buffer + start, cap - start);
    if (b.data == NULL) b = b_hex("");
    free(buffer);
    return b;
}

static char *repeated_path(size_t layers) {
    const char *step = "elems[0].merger.messages[0]";
    char *path = malloc(layers * (strlen(step) + 1) + 1);
    if (path == NULL) exit(2);
    path[0] = '\0';
    for (size_t i = 0; i < layers; i++) {
        if (i > 0) strcat(path, ".");
        strcat(path, step);
    }
    return path;
}

static void test_tags(void) {
    error_hex("tag: field 0", MESSAGE, "00", NULL, "payload.tag", "");
    error_hex("tag: non-minimal field 0", MESSAGE, "80 00", NULL, "payload.tag", "");
    error_hex("tag: wire type 6", MESSAGE, "0e 00", NULL, "payload.tag", "");
    error_hex("tag: wire type 7", MESSAGE, "0f", NULL, "payload.tag", "");
    error_hex("tag: field 2^29", MESSAGE, "80 80 80 80 10", NULL, "payload.tag", "");
    error_hex("tag: 6 bytes", MESSAGE, "80 80 80 80 80 01", NULL, "payload.tag", "");
    error_hex("tag: in elems[0]", MESSAGE, "92 01 01 00", NULL, "payload.tag", "elems[0]");
    error_hex("tag: in elems[1]", MESSAGE, "92 01 00 92 01 01 07", NULL, "payload.tag", "elems[1]");
    ok_hex("tag: field 2^29 - 1 is an unknown field", MESSAGE, "f8 ff ff ff 0f 00", NULL);
}

static void test_varints(void) {
    error_hex("varint: 11 bytes in seq", MESSAGE, "38 ff ff ff ff ff ff ff ff ff ff 01", NULL, "payload.varint", "seq");
    error_hex("varint: 11 bytes in an unknown field", MESSAGE, "a0 06 ff ff ff ff ff ff ff ff ff ff 01", NULL,
              "payload.varint", "");
    error_hex("varint: in elems[0].face.index", MESSAGE, "92 01 0e 42 0c 08 ff ff ff ff ff ff ff ff ff ff 01", NULL,
              "payload.varint", "elems[0].face.index");
    ok_hex("varint: 10 bytes", MESSAGE, "38 ff ff ff ff ff ff ff ff ff 01", NULL);
    ok_hex("varint: bits beyond 64 ignored", MESSAGE, "38 80 80 80 80 80 80 80 80 80 7f",
           "38 80 80 80 80 80 80 80 80 80 01");
    ok_hex("varint: non-minimal accepted", MESSAGE, "38 85 80 00", "38 05");
    ok_hex("varint: uint32 takes the low 32 bits", MESSAGE, "40 ff ff ff ff ff ff ff ff ff 01", "40 ff ff ff ff 0f");
    ok_hex("varint: int32 takes the low 32 bits", MESSAGE, "92 01 08 42 06 08 85 80 80 80 10", "92 01 04 42 02 08 05");
    ok_hex("varint: int32 negatives are 10 bytes", MESSAGE, "48 ff ff ff ff 0f", "48 ff ff ff ff ff ff ff ff ff 01");
    ok_hex("varint: bool is any non-zero", MESSAGE, "50 80 02", "50 01");
    ok_hex("varint: open enum value kept", MESSAGE, "48 4d", NULL);
}

static void test_truncation(void) {
    error_hex("truncated: string body", MESSAGE, "0a 05 61", NULL, "payload.truncated", "msgId");
    error_hex("truncated: tag", MESSAGE, "92", NULL, "payload.truncated", "");
    error_hex("truncated: missing varint", MESSAGE, "38", NULL, "payload.truncated", "seq");
    error_hex("truncated: inside varint", MESSAGE, "38 80", NULL, "payload.truncated", "seq");
    error_hex("truncated: length prefix", MESSAGE, "0a 80", NULL, "payload.truncated", "msgId");
    error_hex("truncated: double", MESSAGE, "92 01 05 3a 03 11 00 00", NULL, "payload.truncated",
              "elems[0].location.longitude");
    error_hex("truncated: unknown fixed32", MESSAGE, "a5 06 00 00", NULL, "payload.truncated", "");
    error_hex("truncated: unknown fixed64", MESSAGE, "a1 06 00 00 00 00 00 00 00", NULL, "payload.truncated", "");
    error_hex("truncated: unknown bytes", MESSAGE, "a2 06 02 00", NULL, "payload.truncated", "");
    error_hex("truncated: field past its message", MESSAGE, "92 01 03 0a 05 61", NULL, "payload.truncated",
              "elems[0].text");
    error_hex("truncated: nested message", MESSAGE, "92 01 05 0a", NULL, "payload.truncated", "elems[0]");
    error_hex("truncated: second repeated entry", MESSAGE, "72 01 61 72 02 62", NULL, "payload.truncated",
              "targetedReceivers[1]");
    error_hex("truncated: open group", MESSAGE, "a3 01 08 01", NULL, "payload.truncated", "");
    error_hex("truncated: group cut by its message's end", MESSAGE, "92 01 02 a3 01 a4 01", NULL, "payload.truncated",
              "elems[0]");
}

static void test_lengths(void) {
    error_hex("length: 2^31 - 1", MESSAGE, "0a ff ff ff ff 07", NULL, "payload.length", "msgId");
    error_hex("length: 2^32 - 1", MESSAGE, "0a ff ff ff ff 0f", NULL, "payload.length", "msgId");
    error_hex("length: 2^32 on a 10-byte input", MESSAGE, "0a 80 80 80 80 10 00 00 00 00", NULL, "payload.length",
              "msgId");
    error_hex("length: 10-byte length", MESSAGE, "0a ff ff ff ff ff ff ff ff ff 01", NULL, "payload.length", "msgId");
    error_hex("length: 2^31 - 2 is truncated", MESSAGE, "0a fe ff ff ff 07", NULL, "payload.truncated", "msgId");
    error_hex("length: unknown field", MESSAGE, "a2 06 ff ff ff ff 07", NULL, "payload.length", "");
    error_hex("length: nested message", MESSAGE, "92 01 ff ff ff ff 07", NULL, "payload.length", "elems[0]");
    error_hex("length: 11-byte length prefix", MESSAGE, "0a ff ff ff ff ff ff ff ff ff ff 01", NULL, "payload.varint",
              "msgId");
    alloc_reset();
    error_hex("length: 2^32 allocates nothing big", MESSAGE, "92 01 80 80 80 80 10 00 00 00", NULL, "payload.length",
              "elems[0]");
    check(alloc_largest() < 65536, "length: largest allocation %zu", alloc_largest());
}

static void test_utf8(void) {
    error_hex("utf8: 0xff", MESSAGE, "0a 01 ff", NULL, "payload.utf8", "msgId");
    error_hex("utf8: repeated entry", MESSAGE, "72 01 61 72 01 c0", NULL, "payload.utf8", "targetedReceivers[1]");
    error_hex("utf8: surrogate", MESSAGE, "0a 03 ed a0 80", NULL, "payload.utf8", "msgId");
    error_hex("utf8: overlong", MESSAGE, "0a 02 c0 80", NULL, "payload.utf8", "msgId");
    error_hex("utf8: above U+10FFFF", MESSAGE, "0a 04 f4 90 80 80", NULL, "payload.utf8", "msgId");
    error_hex("utf8: cut sequence", MESSAGE, "12 02 e2 82", NULL, "payload.utf8", "sender");
    error_hex("utf8: nested", MESSAGE, "92 01 05 0a 03 0a 01 ff", NULL, "payload.utf8", "elems[0].text.text");
    error_hex("utf8: snake_case to lowerCamelCase", MESSAGE, "22 01 ff", NULL, "payload.utf8", "groupId");
    error_hex("utf8: repeated snake_case field", MESSAGE, "7a 01 ff", NULL, "payload.utf8", "atUserList[0]");
    error_hex("utf8: event", EVENT, "12 03 0a 01 ff", NULL, "payload.utf8", "recall.msgId");
    ok_hex("utf8: 4-byte sequence", MESSAGE, "0a 04 f0 9f 98 80", NULL);
    ok_hex("utf8: bytes fields are not checked", MESSAGE, "92 01 05 12 03 0a 01 ff", NULL);
    ok_hex("utf8: cloud custom data is bytes", MESSAGE, "8a 01 03 ff fe 80", NULL);
    ok_hex("utf8: unknown fields are not checked", MESSAGE, "a2 06 01 ff", NULL);
}

static void test_groups(void) {
    error_hex("group: stray end", MESSAGE, "0c", NULL, "payload.group", "");
    error_hex("group: mismatched end", MESSAGE, "a3 01 ac 01", NULL, "payload.group", "");
    error_hex("group: mismatched inner end", MESSAGE, "a3 01 ab 01 a4 01", NULL, "payload.group", "");
    error_hex("group: stray end in elems[0]", MESSAGE, "92 01 01 0c", NULL, "payload.group", "elems[0]");
    error_hex("group: bad tag inside a group", MESSAGE, "a3 01 00", NULL, "payload.tag", "");
    unsupported_hex("group: a valid unknown group", MESSAGE, "a3 01 08 01 a4 01", "");
    unsupported_hex("group: a known number with wire type 3", MESSAGE, "0b 0c", "");
}

static void test_depth(void) {
    imcodec_ref_limits limits = imcodec_ref_limits_default();
    char *path;
    bytes b;

    limits.max_depth = 0;
    b = nested_mergers(1);
    expect_payload_error("depth: layer 1 over 0", MESSAGE, &b, &limits, "limit.depth", "elems[0].merger.messages[0]");
    b_free(&b);
    error_hex("depth: a group at layer 1 over 0", MESSAGE, "a3 01 a4 01", &limits, "limit.depth", "");
    error_hex("depth: event modification message", EVENT, "1a 09 0a 07 92 01 04 4a 02 22 00", &limits, "limit.depth",
              "modification.message.elems[0].merger.messages[0]");
    ok_hex("depth: batch messages are layer 0", BATCH, "0a 03 92 01 00 0a 00", NULL);

    limits.max_depth = 1;
    b = nested_mergers(2);
    expect_payload_error("depth: layer 2 over 1", MESSAGE, &b, &limits, "limit.depth",
                         "elems[0].merger.messages[0].elems[0].merger.messages[0]");
    b_free(&b);
    /* A group inside a layer-1 message is at layer 2. */
    error_hex("depth: group in a layer-1 message", MESSAGE, "92 01 08 4a 06 22 04 a3 01 a4 01", &limits, "limit.depth",
              "elems[0].merger.messages[0]");
    limits.max_depth = 2;
    error_hex("depth: nested groups", MESSAGE, "a3 01 ab 01 b3 01 b4 01 ac 01 a4 01", &limits, "limit.depth", "");

    /* The default 100 layers: 100 decode, 101 do not. */
    b = nested_mergers(100);
    expect_payload_ok("depth: 100 layers", MESSAGE, &b, NULL);
    b_free(&b);
    b = nested_mergers(101);
    path = repeated_path(101);
    expect_payload_error("depth: 101 layers", MESSAGE, &b, NULL, "limit.depth", path);
    b_free(&b);

    /* 10,000 layers: rejected by the pre-scan, never reaching protobuf-c's recursion. */
    b = nested_mergers(10000);
    expect_payload_error("depth: 10,000 layers", MESSAGE, &b, NULL, "limit.depth", path);
    free(path);
    /* With the depth limit raised past what protobuf-c can take, the answer is unsupported, not a crash. */
    limits.max_depth = 1000000;
    {
        static imcodec_ref_error err;
        unsigned char *out = NULL;
        size_t out_len = 0;
        imcodec_ref_status st = imcodec_ref_decode_payload(MESSAGE, b.data, b.len, &limits, &out, &out_len, &err);
        check(st == IMCODEC_REF_UNSUPPORTED, "depth: 10,000 layers with max_depth 10^6 is unsupported, got %s",
              imcodec_ref_status_name(st));
        imcodec_ref_free(out);
    }
    b_free(&b);
}

static void test_repeated_limits(void) {
    imcodec_ref_limits limits = imcodec_ref_limits_default();
    static imcodec_ref_error err;
    unsigned char *out = NULL;
    size_t out_len = 0;

    limits.max_elems = 2;
    error_hex("elems: 3 over 2", MESSAGE, "92 01 00 92 01 00 92 01 00", &limits, "limit.elems", "elems[2]");
    bytes b = b_hex("92 01 00 92 01 00 92 01 00");
    imcodec_ref_decode_payload(MESSAGE, b.data, b.len, &limits, &out, &out_len, &err);
    check(err.limit == 2 && err.observed == 3, "elems: limit %lld observed %lld", err.limit, err.observed);
    b_free(&b);
    error_hex("elems: nested message", MESSAGE, "92 01 0d 4a 0b 22 09 92 01 00 92 01 00 92 01 00", &limits,
              "limit.elems", "elems[0].merger.messages[0].elems[2]");
    limits.max_elems = 1000;

    limits.max_repeated = 1;
    error_hex("repeated: strings", MESSAGE, "72 01 61 72 01 62", &limits, "limit.repeated", "targetedReceivers[1]");
    /* The count is checked before the entry is read. */
    error_hex("repeated: limit before the entry's bytes", MESSAGE, "72 01 61 72 05", &limits, "limit.repeated",
              "targetedReceivers[1]");
    error_hex("repeated: merger messages", MESSAGE, "92 01 06 4a 04 22 00 22 00", &limits, "limit.repeated",
              "elems[0].merger.messages[1]");
    error_hex("repeated: image levels", MESSAGE, "92 01 06 1a 04 1a 00 1a 00", &limits, "limit.repeated",
              "elems[0].image.levels[1]");
    error_hex("repeated: receipts", EVENT, "0a 04 0a 00 0a 00", &limits, "limit.repeated", "readReceipt.receipts[1]");
    /* A merged message keeps counting: the second merger's first message is entry 1. */
    error_hex("repeated: counts continue across a merge", MESSAGE, "92 01 08 4a 02 22 00 4a 02 22 00", &limits,
              "limit.repeated", "elems[0].merger.messages[1]");
    /* A different oneof member in between starts the merger afresh. */
    ok_hex("repeated: a oneof change starts afresh", MESSAGE, "92 01 0a 4a 02 22 00 0a 00 4a 02 22 00",
           "92 01 04 4a 02 22 00");
    limits.max_repeated = 10000;

    limits.max_batch_messages = 1;
    error_hex("batch: 2 over 1", BATCH, "0a 00 0a 00", &limits, "limit.batch-messages", "messages[1]");
    limits.max_batch_messages = 1000;

    error_hex("utf8: index continues across a merge", MESSAGE, "92 01 0a 4a 03 12 01 61 4a 03 12 01 ff", NULL,
              "payload.utf8", "elems[0].merger.abstracts[1]");
}

static void test_canonical(void) {
    ok_hex("canonical: empty", MESSAGE, "", NULL);
    ok_hex("canonical: unknown fields after known ones", MESSAGE, "a0 06 05 0a 01 61", "0a 01 61 a0 06 05");
    ok_hex("canonical: unknown fields keep arrival order", MESSAGE, "a8 06 01 a0 06 02 0a 01 61",
           "0a 01 61 a8 06 01 a0 06 02");
    ok_hex("canonical: field order", MESSAGE, "12 01 62 0a 01 61", "0a 01 61 12 01 62");
    ok_hex("canonical: last scalar wins", MESSAGE, "38 01 38 02", "38 02");
    ok_hex("canonical: defaults omitted", MESSAGE, "38 00 0a 00 50 00", "");
    ok_hex("canonical: empty message fields written", MESSAGE, "82 01 00 92 01 00", NULL);
    ok_hex("canonical: +0.0 omitted", MESSAGE, "92 01 0b 3a 09 11 00 00 00 00 00 00 00 00", "92 01 02 3a 00");
    ok_hex("canonical: oneof member replaced", MESSAGE, "92 01 0c 0a 03 0a 01 61 1a 00 0a 03 0a 01 62",
           "92 01 05 0a 03 0a 01 62");
    ok_hex("canonical: oneof scalar member at default is written", MESSAGE, "92 01 08 52 06 42 04 62 02 18 00", NULL);
    ok_hex("canonical: unknown elem kind kept", MESSAGE, "92 01 03 a8 01 07", NULL);
    ok_hex("canonical: unknown nested message bytes kept raw", MESSAGE, "a2 06 03 ff 80 00", NULL);
    ok_hex("canonical: batch", BATCH, "0a 03 0a 01 61 0a 00", NULL);
    ok_hex("canonical: event", EVENT, "22 04 08 01 10 07", NULL);
    bytes sample = sample_message(3);
    expect_payload_ok("canonical: realistic message", MESSAGE, &sample, NULL);
    b_free(&sample);

    static imcodec_ref_error err;
    unsigned char *out = NULL;
    size_t out_len = 0;
    check(imcodec_ref_decode_payload((imcodec_ref_kind)0, NULL, 0, NULL, &out, &out_len, &err) == IMCODEC_REF_MISUSE,
          "kind 0 is misuse");
    check(imcodec_ref_decode_payload((imcodec_ref_kind)4, NULL, 0, NULL, &out, &out_len, NULL) == IMCODEC_REF_MISUSE,
          "kind 4 is misuse");
}

static void test_unsupported(void) {
    unsupported_hex("unsupported: known field, wrong wire type", MESSAGE, "08 05", "");
    unsupported_hex("unsupported: string with NUL", MESSAGE, "0a 02 61 00", "msgId");
    unsupported_hex("unsupported: repeated string with NUL", MESSAGE, "72 01 61 72 01 00", "targetedReceivers[1]");
    unsupported_hex("unsupported: -0.0", MESSAGE, "92 01 0b 3a 09 11 00 00 00 00 00 00 00 80",
                    "elems[0].location.longitude");
    unsupported_hex("unsupported: singular message twice", MESSAGE, "82 01 00 82 01 00", "offlinePushInfo");
    unsupported_hex("unsupported: oneof message twice", MESSAGE, "92 01 04 0a 00 0a 00", "elems[0].text");
    unsupported_hex("unsupported: non-minimal tag of an unknown field", MESSAGE, "a0 86 00 05", "");
    /* An error anywhere wins over an unsupported construct before it. */
    error_hex("unsupported: an error still wins", MESSAGE, "0a 02 61 00 12 01 ff", NULL, "payload.utf8", "sender");
}

void test_payload(void) {
    test_tags();
    test_varints();
    test_truncation();
    test_lengths();
    test_utf8();
    test_groups();
    test_depth();
    test_repeated_limits();
    test_canonical();
    test_unsupported();
}
