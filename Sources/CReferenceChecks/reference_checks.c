/*
 * The properties FuzzReference checks on the C reference, as a library:
 * the fuzz target calls them on every input, and `swift test` replays the
 * inputs saved in FuzzTesting/FailCases/FuzzReference through them
 * (FailCaseReplayTests). The operations are described in the header.
 */
#include "imcodec_reference_checks.h"

#include "imcodec_ref.h"

#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Findings                                                                  */
/* ------------------------------------------------------------------------ */

/* The description of the finding, and where to go back to once it is made:
   a finding ends the input's checks at once (what they allocated is not
   freed: the run stops there, or the replaying test fails). */
static char finding_text[512];
static jmp_buf finding_exit;

static void finding(const char *what, const imcodec_ref_error *err) {
    if (err != NULL) {
        snprintf(finding_text, sizeof finding_text, "%s (code '%s', path '%.200s', reason '%s')", what, err->code,
                 err->path, err->reason);
    } else {
        snprintf(finding_text, sizeof finding_text, "%s", what);
    }
    longjmp(finding_exit, 1);
}

static int has_prefix(const char *text, const char *prefix) { return strncmp(text, prefix, strlen(prefix)) == 0; }

/* Checks what every call answers: a known status, a code of the format on
   ERROR, an empty code and a reason on UNSUPPORTED. */
static void check_status(imcodec_ref_status status, const imcodec_ref_error *err, int frames) {
    switch (status) {
    case IMCODEC_REF_OK:
        return;
    case IMCODEC_REF_ERROR:
        if (has_prefix(err->code, "payload.") || has_prefix(err->code, "limit.")) return;
        if (frames && has_prefix(err->code, "frame.")) return;
        finding("an error without a code of the format", err);
        return;
    case IMCODEC_REF_UNSUPPORTED:
        if (err->code[0] != '\0' || !has_prefix(err->reason, "protobuf-c cannot"))
            finding("an unsupported answer without its reason", err);
        return;
    default:
        fprintf(stderr, "status %s\n", imcodec_ref_status_name(status));
        finding("an unexpected status", err);
    }
}

/* Whether two answers agree: the same status, and the same code and path
   (ERROR), or the same bytes (OK). Reasons are not part of the format. */
static int same_answer(imcodec_ref_status s1, const imcodec_ref_error *e1, const unsigned char *b1, size_t n1,
                       imcodec_ref_status s2, const imcodec_ref_error *e2, const unsigned char *b2, size_t n2) {
    if (s1 != s2) return 0;
    if (s1 == IMCODEC_REF_OK) return n1 == n2 && (n1 == 0 || memcmp(b1, b2, n1) == 0);
    if (s1 == IMCODEC_REF_ERROR) return strcmp(e1->code, e2->code) == 0 && strcmp(e1->path, e2->path) == 0;
    return 1;
}

/* The errors are large (their path holds 16 KiB): kept off the stack. */
static imcodec_ref_error err1, err2;

/* ------------------------------------------------------------------------ */
/* The operations                                                            */
/* ------------------------------------------------------------------------ */

/* An accepted payload is canonical: it decodes to itself. */
static void check_canonical(imcodec_ref_kind kind, const unsigned char *payload, size_t len) {
    unsigned char *again = NULL;
    size_t again_len = 0;
    imcodec_ref_status status = imcodec_ref_decode_payload(kind, payload, len, NULL, &again, &again_len, &err2);
    if (status != IMCODEC_REF_OK) finding("a canonical payload does not decode", &err2);
    if (again_len != len || (len > 0 && memcmp(again, payload, len) != 0))
        finding("a canonical payload decodes to other bytes", NULL);
    imcodec_ref_free(again);
}

static void fuzz_payload(const unsigned char *data, size_t size) {
    if (size < 1) return;
    imcodec_ref_kind kind = (imcodec_ref_kind)(1 + data[0] % 3);
    unsigned char *out = NULL;
    size_t out_len = 0;
    imcodec_ref_status status = imcodec_ref_decode_payload(kind, data + 1, size - 1, NULL, &out, &out_len, &err1);
    check_status(status, &err1, 0);
    if (status == IMCODEC_REF_OK) check_canonical(kind, out, out_len);
    imcodec_ref_free(out);
}

/* Frames `payload` with the given settings and checks it decodes to exactly
   what `expected` says the bare payload decodes to. */
static void check_framed(imcodec_ref_codec *codec, imcodec_ref_kind kind, const unsigned char *payload, size_t len,
                         imcodec_ref_compression compression, uint64_t threshold, int level, uint32_t dictionary,
                         imcodec_ref_status expected, const imcodec_ref_error *expected_err,
                         const unsigned char *expected_payload, size_t expected_len) {
    unsigned char *frame = NULL;
    size_t frame_len = 0;
    imcodec_ref_status status = imcodec_ref_encode_frame(codec, kind, payload, len, compression, threshold, level,
                                                         dictionary, NULL, &frame, &frame_len, &err2);
    if (status != IMCODEC_REF_OK) finding("a payload cannot be framed", &err2);
    /* A frame is at most its payload and a header (21 bytes at most). */
    if (frame_len > len + 21) finding("a frame is larger than its payload and a header", NULL);
    unsigned char *decoded = NULL;
    size_t decoded_len = 0;
    imcodec_ref_kind got_kind = 0;
    status = imcodec_ref_decode_frame(codec, frame, frame_len, NULL, &got_kind, NULL, NULL, &decoded, &decoded_len,
                                      &err2);
    if (!same_answer(expected, expected_err, expected_payload, expected_len, status, &err2, decoded, decoded_len))
        finding("a framed payload decodes otherwise than the bare payload", &err2);
    if (status == IMCODEC_REF_OK && got_kind != kind) finding("a frame decodes to another kind", NULL);
    imcodec_ref_free(decoded);
    imcodec_ref_free(frame);
}

static void fuzz_frame(imcodec_ref_codec *codec, const unsigned char *data, size_t size) {
    unsigned char *payload = NULL;
    size_t payload_len = 0;
    imcodec_ref_kind kind = 0;
    imcodec_ref_status status =
        imcodec_ref_decode_frame(codec, data, size, NULL, &kind, NULL, NULL, &payload, &payload_len, &err1);
    check_status(status, &err1, 1);
    if (status == IMCODEC_REF_OK) {
        check_canonical(kind, payload, payload_len);
        check_framed(codec, kind, payload, payload_len, IMCODEC_REF_COMPRESSION_NONE, 0, 0, 0, status, &err1,
                     payload, payload_len);
        check_framed(codec, kind, payload, payload_len, IMCODEC_REF_COMPRESSION_DEFLATE, 0, 1, 0, status, &err1,
                     payload, payload_len);
        check_framed(codec, kind, payload, payload_len, IMCODEC_REF_COMPRESSION_DEFLATE, 0, 6, 1, status, &err1,
                     payload, payload_len);
        check_framed(codec, kind, payload, payload_len, IMCODEC_REF_COMPRESSION_DEFLATE, 0, 6, 2, status, &err1,
                     payload, payload_len);
        if (imcodec_ref_zstd_available()) {
            check_framed(codec, kind, payload, payload_len, IMCODEC_REF_COMPRESSION_ZSTD, 0, 1, 0, status, &err1,
                         payload, payload_len);
            check_framed(codec, kind, payload, payload_len, IMCODEC_REF_COMPRESSION_ZSTD, 0, 3, 4, status, &err1,
                         payload, payload_len);
        }
    }
    imcodec_ref_free(payload);
}

static void fuzz_framing(imcodec_ref_codec *codec, const unsigned char *data, size_t size) {
    if (size < 4) return;
    imcodec_ref_kind kind = (imcodec_ref_kind)(1 + data[0] % 3);
    /* 0 none, 1 deflate, 2 zstd (deflate where the build has no zstd). */
    imcodec_ref_compression compression = (imcodec_ref_compression)(data[1] % 3);
    if (compression == IMCODEC_REF_COMPRESSION_ZSTD && !imcodec_ref_zstd_available())
        compression = IMCODEC_REF_COMPRESSION_DEFLATE;
    uint64_t threshold = (uint64_t)data[2] * 4;
    int level = data[3] % 10;
    uint32_t dictionary = (uint32_t)(data[3] >> 4) % 5; /* none, or 1 to 4 */
    const unsigned char *payload = data + 4;
    size_t len = size - 4;

    unsigned char *expected = NULL;
    size_t expected_len = 0;
    imcodec_ref_status status = imcodec_ref_decode_payload(kind, payload, len, NULL, &expected, &expected_len, &err1);
    check_status(status, &err1, 0);
    check_framed(codec, kind, payload, len, compression, threshold, level, dictionary, status, &err1, expected,
                 expected_len);
    imcodec_ref_free(expected);
}

/* One reading of a stream: the payloads, back to back with their lengths,
   and the final status and error. */
typedef struct reading {
    unsigned char *bytes;
    size_t len, capacity;
    size_t frames;
    imcodec_ref_status status;
    imcodec_ref_error *err;
} reading;

static void reading_append(reading *r, const void *bytes, size_t len) {
    if (r->len + len > r->capacity) {
        size_t capacity = r->capacity ? r->capacity : 256;
        while (capacity < r->len + len) capacity *= 2;
        unsigned char *grown = realloc(r->bytes, capacity);
        if (grown == NULL) finding("out of memory in the harness", NULL);
        r->bytes = grown;
        r->capacity = capacity;
    }
    if (len > 0) memcpy(r->bytes + r->len, bytes, len);
    r->len += len;
}

static void read_stream(const unsigned char *stream, size_t size, const size_t sizes[2], reading *r) {
    imcodec_ref_reader *reader = imcodec_ref_reader_new(NULL);
    if (reader == NULL) finding("out of memory in the harness", NULL);
    const imcodec_ref_limits limits = imcodec_ref_limits_default();
    size_t offset = 0;
    unsigned turn = 0;
    r->status = IMCODEC_REF_NEED_MORE;
    do {
        size_t chunk = sizes != NULL ? sizes[turn++ % 2] : size;
        if (chunk > size - offset) chunk = size - offset;
        imcodec_ref_status status = imcodec_ref_reader_feed(reader, stream + offset, chunk);
        if (status != IMCODEC_REF_OK) finding("the reader refuses a chunk", NULL);
        offset += chunk;
        for (;;) {
            imcodec_ref_frame frame;
            status = imcodec_ref_reader_next(reader, &frame, r->err);
            if (imcodec_ref_reader_buffered(reader) > limits.max_frame_bytes + 21)
                finding("the reader holds more than one frame", NULL);
            if (status == IMCODEC_REF_NEED_MORE) break;
            check_status(status, r->err, 1);
            r->frames++;
            uint32_t tag = (uint32_t)status;
            reading_append(r, &tag, sizeof tag);
            if (status == IMCODEC_REF_ERROR) {
                reading_append(r, r->err->code, strlen(r->err->code));
                reading_append(r, r->err->path, strlen(r->err->path));
                r->status = status;
                imcodec_ref_reader_free(reader);
                return;
            }
            if (status == IMCODEC_REF_OK) {
                uint64_t len = frame.payload_len;
                reading_append(r, &len, sizeof len);
                reading_append(r, frame.payload, frame.payload_len);
            }
        }
    } while (offset < size);
    r->status = imcodec_ref_reader_buffered(reader) == 0 ? IMCODEC_REF_OK : IMCODEC_REF_NEED_MORE;
    imcodec_ref_reader_free(reader);
}

static void fuzz_stream(const unsigned char *data, size_t size) {
    if (size < 2) return;
    const size_t sizes[2] = {1 + (size_t)(data[0] & 0x3F), 1 + (size_t)data[1]};
    reading whole = {.err = &err1}, chunked = {.err = &err2};
    read_stream(data + 2, size - 2, NULL, &whole);
    read_stream(data + 2, size - 2, sizes, &chunked);
    if (whole.status != chunked.status || whole.frames != chunked.frames || whole.len != chunked.len ||
        (whole.len > 0 && memcmp(whole.bytes, chunked.bytes, whole.len) != 0))
        finding("reading in chunks differs from reading everything at once", NULL);
    free(whole.bytes);
    free(chunked.bytes);
}

/* ------------------------------------------------------------------------ */
/* Entry                                                                     */
/* ------------------------------------------------------------------------ */

const char *imcodec_reference_check(const unsigned char *data, size_t size) {
    if (size < 1) return NULL;
    /* Fresh streams per input, so nothing carries from one input to the
       next and a finding replays alone. */
    imcodec_ref_codec *volatile codec = imcodec_ref_codec_new();
    if (codec == NULL) return "out of memory in the harness";
    if (setjmp(finding_exit) != 0) {
        imcodec_ref_codec_free(codec);
        return finding_text;
    }
    switch (data[0] & 3) {
    case 0: fuzz_payload(data + 1, size - 1); break;
    case 1: fuzz_frame(codec, data + 1, size - 1); break;
    case 2: fuzz_framing(codec, data + 1, size - 1); break;
    default: fuzz_stream(data + 1, size - 1); break;
    }
    imcodec_ref_codec_free(codec);
    return NULL;
}
