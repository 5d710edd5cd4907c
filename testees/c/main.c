/*
 * imcodec-c-testee: the C reference implementation behind the testee protocol
 * (Schemas/imcodec/testee/v1/testee.proto).
 *
 * Reads requests from standard input and answers each on standard output,
 * both framed as a 4-byte little-endian length and that many bytes of a
 * serialized message. Exits 0 when standard input ends. Every answer is a
 * Response: a result, a failure with the format's code and path, `skipped`
 * for operations this implementation does not support, or `runtime_error`
 * for a request it cannot handle, including valid values protobuf-c cannot
 * represent (listed in failure-list.txt beside this file).
 */
#include "constraints.h"
#include "imcodec/testee/v1/testee.pb-c.h"
#include "imcodec_ref.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Requests larger than this are answered with runtime_error without being buffered. */
#define MAX_REQUEST_BYTES ((size_t)1 << 30)

typedef Imcodec__Testee__V1__Request Request;
typedef Imcodec__Testee__V1__Response Response;

/* ------------------------------------------------------------------------ */
/* Standard input and output                                                 */

static size_t read_fully(void *buffer, size_t len) {
    size_t done = 0;
    while (done < len) {
        size_t n = fread((unsigned char *)buffer + done, 1, len - done, stdin);
        if (n == 0) break;
        done += n;
    }
    return done;
}

static size_t skip_input(size_t len) {
    unsigned char sink[65536];
    size_t done = 0;
    while (done < len) {
        size_t want = len - done < sizeof sink ? len - done : sizeof sink;
        size_t n = fread(sink, 1, want, stdin);
        if (n == 0) break;
        done += n;
    }
    return done;
}

static int write_response(const Response *response) {
    size_t size = imcodec__testee__v1__response__get_packed_size(response);
    if (size > UINT32_MAX) return 0;
    unsigned char *buffer = malloc(size + 4);
    if (buffer == NULL) return 0;
    buffer[0] = (unsigned char)(size & 0xff);
    buffer[1] = (unsigned char)((size >> 8) & 0xff);
    buffer[2] = (unsigned char)((size >> 16) & 0xff);
    buffer[3] = (unsigned char)((size >> 24) & 0xff);
    imcodec__testee__v1__response__pack(response, buffer + 4);
    int ok = fwrite(buffer, 1, size + 4, stdout) == size + 4 && fflush(stdout) == 0;
    free(buffer);
    return ok;
}

/* ------------------------------------------------------------------------ */
/* Building responses                                                        */

/*
 * Everything a response points to, released after it is written. Strings in
 * Failure and `skipped` / `runtime_error` live in `text`.
 */
typedef struct answer {
    Response response;
    Imcodec__Testee__V1__Failure failure;
    Imcodec__Testee__V1__DecodedFrame frame;
    Imcodec__Testee__V1__StreamResult stream;
    Imcodec__Testee__V1__DecodedFrame **frames;
    size_t n_frames;
    unsigned char **buffers;
    size_t n_buffers;
    size_t buffers_capacity;
    Imcodec__Testee__V1__Findings findings;
    Imcodec__Testee__V1__Finding *finding_items;
    Imcodec__Testee__V1__Finding **finding_list;
    imcodec_ref_findings validation;
    char *code;
    char *path;
    char *text;
} answer;

static void answer_init(answer *a) {
    memset(a, 0, sizeof *a);
    imcodec__testee__v1__response__init(&a->response);
    imcodec__testee__v1__failure__init(&a->failure);
    imcodec__testee__v1__decoded_frame__init(&a->frame);
    imcodec__testee__v1__stream_result__init(&a->stream);
    imcodec__testee__v1__findings__init(&a->findings);
}

static void answer_release(answer *a) {
    for (size_t i = 0; i < a->n_buffers; i++)
        imcodec_ref_free(a->buffers[i]);
    free(a->buffers);
    for (size_t i = 0; i < a->n_frames; i++)
        free(a->frames[i]);
    free(a->frames);
    free(a->finding_items);
    free(a->finding_list);
    imcodec_ref_findings_free(&a->validation);
    free(a->code);
    free(a->path);
    free(a->text);
}

/* Keeps a library buffer alive until the response is written. */
static int keep(answer *a, unsigned char *buffer) {
    if (a->n_buffers == a->buffers_capacity) {
        size_t capacity = a->buffers_capacity == 0 ? 8 : a->buffers_capacity * 2;
        unsigned char **buffers = realloc(a->buffers, capacity * sizeof *buffers);
        if (buffers == NULL) {
            imcodec_ref_free(buffer);
            return 0;
        }
        a->buffers = buffers;
        a->buffers_capacity = capacity;
    }
    a->buffers[a->n_buffers++] = buffer;
    return 1;
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static char *
format_text(answer *a, const char *format, ...) {
    char buffer[512];
    va_list args;
    va_start(args, format);
    vsnprintf(buffer, sizeof buffer, format, args);
    va_end(args);
    free(a->text);
    a->text = malloc(strlen(buffer) + 1);
    if (a->text != NULL) strcpy(a->text, buffer);
    return a->text != NULL ? a->text : (char *)"out of memory";
}

static void set_runtime_error(answer *a, const char *reason) {
    a->response.result_case = IMCODEC__TESTEE__V1__RESPONSE__RESULT_RUNTIME_ERROR;
    a->response.runtime_error = format_text(a, "%s", reason);
}

static void set_skipped(answer *a, const char *reason) {
    a->response.result_case = IMCODEC__TESTEE__V1__RESPONSE__RESULT_SKIPPED;
    a->response.skipped = format_text(a, "%s", reason);
}

static char *copy_string(const char *text) {
    char *copy = malloc(strlen(text) + 1);
    if (copy != NULL) strcpy(copy, text);
    return copy;
}

/* Fills a Failure from an ERROR; returns 0 when out of memory. */
static int fill_failure(answer *a, Imcodec__Testee__V1__Failure *failure, const imcodec_ref_error *err) {
    free(a->code);
    free(a->path);
    a->code = copy_string(err->code);
    a->path = copy_string(err->path);
    char *reason = format_text(a, "%s", err->reason);
    if (a->code == NULL || a->path == NULL || a->text == NULL) return 0;
    failure->code = a->code;
    failure->path = a->path;
    failure->reason = reason;
    return 1;
}

/* Turns a non-OK status into the response; returns 1 when it did. */
static int answer_status(answer *a, imcodec_ref_status status, const imcodec_ref_error *err) {
    switch (status) {
    case IMCODEC_REF_OK:
    case IMCODEC_REF_NEED_MORE:
        return 0;
    case IMCODEC_REF_ERROR:
        if (err->path_truncated) {
            /* Not a skip: the input was rejected, but its path does not fit
               the library's fixed buffer, so the answer would be wrong. The
               case fails with a runtime error that says why. */
            a->response.result_case = IMCODEC__TESTEE__V1__RESPONSE__RESULT_RUNTIME_ERROR;
            a->response.runtime_error =
                format_text(a, "%s rejected the input, but its path is longer than the %d bytes the C reference holds",
                            err->code, IMCODEC_REF_PATH_CAPACITY - 1);
        } else if (fill_failure(a, &a->failure, err)) {
            a->response.result_case = IMCODEC__TESTEE__V1__RESPONSE__RESULT_FAILURE;
            a->response.failure = &a->failure;
        } else {
            set_runtime_error(a, "out of memory");
        }
        return 1;
    case IMCODEC_REF_UNSUPPORTED:
        /* A valid value protobuf-c cannot represent is a failure of this
           implementation, not an unsupported operation: it is answered as a
           runtime error and listed in the committed failure list
           (testees/c/failure-list.txt) with its reason. */
        a->response.result_case = IMCODEC__TESTEE__V1__RESPONSE__RESULT_RUNTIME_ERROR;
        a->response.runtime_error = err->path[0] != '\0' ? format_text(a, "%s at %s", err->reason, err->path)
                                                         : format_text(a, "%s", err->reason);
        return 1;
    case IMCODEC_REF_MISUSE:
    case IMCODEC_REF_NO_MEMORY:
        a->response.result_case = IMCODEC__TESTEE__V1__RESPONSE__RESULT_RUNTIME_ERROR;
        a->response.runtime_error = format_text(a, "%s: %s", imcodec_ref_status_name(status), err->reason);
        return 1;
    }
    set_runtime_error(a, "unexpected status");
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Operations                                                                */

static imcodec_ref_limits request_limits(const Request *request) {
    imcodec_ref_limits limits = imcodec_ref_limits_default();
    const Imcodec__Testee__V1__Limits *l = request->limits;
    if (l == NULL) return limits;
    /* 0 means the implementation's default. */
    if (l->max_frame_bytes) limits.max_frame_bytes = l->max_frame_bytes;
    if (l->max_inflated_bytes) limits.max_inflated_bytes = l->max_inflated_bytes;
    if (l->max_inflate_ratio) limits.max_inflate_ratio = l->max_inflate_ratio;
    if (l->max_depth) limits.max_depth = l->max_depth;
    if (l->max_elems) limits.max_elems = l->max_elems;
    if (l->max_repeated) limits.max_repeated = l->max_repeated;
    if (l->max_batch_messages) limits.max_batch_messages = l->max_batch_messages;
    return limits;
}

static int valid_kind(Imcodec__Testee__V1__PayloadKind kind) {
    return kind >= 1 && kind <= 3;
}

static void decode_payload(answer *a, const Imcodec__Testee__V1__DecodePayloadRequest *op,
                           const imcodec_ref_limits *limits, imcodec_ref_error *err) {
    if (!valid_kind(op->kind)) {
        set_runtime_error(a, "decode_payload needs a payload kind of 1, 2 or 3");
        return;
    }
    unsigned char *out = NULL;
    size_t out_len = 0;
    imcodec_ref_status st = imcodec_ref_decode_payload((imcodec_ref_kind)op->kind, op->payload.data, op->payload.len,
                                                       limits, &out, &out_len, err);
    if (answer_status(a, st, err)) return;
    if (!keep(a, out)) {
        set_runtime_error(a, "out of memory");
        return;
    }
    a->response.result_case = IMCODEC__TESTEE__V1__RESPONSE__RESULT_PAYLOAD;
    a->response.payload.data = out;
    a->response.payload.len = out_len;
}

static void decode_frame(answer *a, const Imcodec__Testee__V1__DecodeFrameRequest *op, const imcodec_ref_limits *limits,
                         imcodec_ref_codec *codec, imcodec_ref_error *err) {
    imcodec_ref_kind kind = IMCODEC_REF_KIND_MESSAGE;
    imcodec_ref_compression compression = IMCODEC_REF_COMPRESSION_NONE;
    uint32_t dictionary_id = 0;
    unsigned char *payload = NULL;
    size_t payload_len = 0;
    imcodec_ref_status st = imcodec_ref_decode_frame(codec, op->frame.data, op->frame.len, limits, &kind, &compression,
                                                     &dictionary_id, &payload, &payload_len, err);
    if (answer_status(a, st, err)) return;
    if (!keep(a, payload)) {
        set_runtime_error(a, "out of memory");
        return;
    }
    a->frame.kind = (Imcodec__Testee__V1__PayloadKind)kind;
    a->frame.compression = (uint32_t)compression;
    a->frame.dictionary_id = dictionary_id;
    a->frame.payload.data = payload;
    a->frame.payload.len = payload_len;
    a->response.result_case = IMCODEC__TESTEE__V1__RESPONSE__RESULT_FRAME;
    a->response.frame = &a->frame;
}

/*
 * Frames the canonical re-encoding of the payload, as a writer holding the
 * decoded value would, and answers with the failure a reader with the
 * request's limits would give its frame: the frame's sizes, then the payload
 * decoded with the limits.
 */
static void encode_frame(answer *a, const Imcodec__Testee__V1__EncodeFrameRequest *op, const imcodec_ref_limits *limits,
                         imcodec_ref_codec *codec, imcodec_ref_error *err) {
    if (!valid_kind(op->kind)) {
        set_runtime_error(a, "encode_frame needs a payload kind of 1, 2 or 3");
        return;
    }
    if (op->compression > 2) {
        set_runtime_error(a, "encode_frame compression must be 0, 1 or 2");
        return;
    }
    /* The level is the compressor's: with compression 0 it is not looked at. */
    if (op->compression != 0 && op->level > (op->compression == 2 ? 19u : 9u)) {
        set_runtime_error(a, "encode_frame level must be 0-9 (0-19 for zstd)");
        return;
    }
    if (op->dictionary_id != 0 && !imcodec_ref_dictionary(op->dictionary_id, NULL, NULL)) {
        imcodec_ref_status st = IMCODEC_REF_ERROR;
        imcodec_ref_error_clear(err);
        snprintf(err->code, sizeof err->code, "frame.dictionary");
        snprintf(err->reason, sizeof err->reason, "dictionary %u is not known", (unsigned)op->dictionary_id);
        answer_status(a, st, err);
        return;
    }
    /* Refused as a reader with these limits would refuse the frame: its
       sizes first (a frame of the payload as given), then its payload. */
    unsigned char *frame = NULL;
    size_t frame_len = 0;
    imcodec_ref_status st = imcodec_ref_encode_frame(codec, (imcodec_ref_kind)op->kind, op->payload.data,
                                                     op->payload.len, (imcodec_ref_compression)op->compression,
                                                     op->threshold, (int)op->level, op->dictionary_id, limits, &frame,
                                                     &frame_len, err);
    imcodec_ref_free(frame);
    if (answer_status(a, st, err)) return;
    unsigned char *canonical = NULL;
    size_t canonical_len = 0;
    st = imcodec_ref_decode_payload((imcodec_ref_kind)op->kind, op->payload.data, op->payload.len, limits, &canonical,
                                    &canonical_len, err);
    if (answer_status(a, st, err)) return;
    if (!keep(a, canonical)) {
        set_runtime_error(a, "out of memory");
        return;
    }
    frame = NULL;
    frame_len = 0;
    st = imcodec_ref_encode_frame(codec, (imcodec_ref_kind)op->kind, canonical, canonical_len,
                                  (imcodec_ref_compression)op->compression, op->threshold, (int)op->level,
                                  op->dictionary_id, limits, &frame, &frame_len, err);
    if (answer_status(a, st, err)) return;
    if (!keep(a, frame)) {
        set_runtime_error(a, "out of memory");
        return;
    }
    a->response.result_case = IMCODEC__TESTEE__V1__RESPONSE__RESULT_FRAME_BYTES;
    a->response.frame_bytes.data = frame;
    a->response.frame_bytes.len = frame_len;
}

/* Appends one decoded frame (its payload copied, as the reader reuses its buffer). */
static int add_frame(answer *a, const imcodec_ref_frame *frame) {
    Imcodec__Testee__V1__DecodedFrame **frames = realloc(a->frames, (a->n_frames + 1) * sizeof *frames);
    if (frames == NULL) return 0;
    a->frames = frames;
    Imcodec__Testee__V1__DecodedFrame *decoded = malloc(sizeof *decoded);
    if (decoded == NULL) return 0;
    unsigned char *payload = malloc(frame->payload_len > 0 ? frame->payload_len : 1);
    /* keep() frees the payload when it cannot hold it. */
    if (payload == NULL || !keep(a, payload)) {
        free(decoded);
        return 0;
    }
    imcodec__testee__v1__decoded_frame__init(decoded);
    if (frame->payload_len > 0) memcpy(payload, frame->payload, frame->payload_len);
    decoded->kind = (Imcodec__Testee__V1__PayloadKind)frame->kind;
    decoded->compression = (uint32_t)frame->compression;
    decoded->dictionary_id = frame->dictionary_id;
    decoded->payload.data = payload;
    decoded->payload.len = frame->payload_len;
    a->frames[a->n_frames++] = decoded;
    return 1;
}

static void decode_stream(answer *a, const Imcodec__Testee__V1__DecodeStreamRequest *op,
                          const imcodec_ref_limits *limits, imcodec_ref_error *err) {
    imcodec_ref_reader *reader = imcodec_ref_reader_new(limits);
    if (reader == NULL) {
        set_runtime_error(a, "out of memory");
        return;
    }
    imcodec_ref_status failed = IMCODEC_REF_OK;
    for (size_t i = 0; i < op->n_chunks && failed == IMCODEC_REF_OK; i++) {
        imcodec_ref_status st = imcodec_ref_reader_feed(reader, op->chunks[i].data, op->chunks[i].len);
        if (st != IMCODEC_REF_OK) {
            set_runtime_error(a, "the reader refused a chunk");
            imcodec_ref_reader_free(reader);
            return;
        }
        for (;;) {
            imcodec_ref_frame frame;
            st = imcodec_ref_reader_next(reader, &frame, err);
            if (st == IMCODEC_REF_NEED_MORE) break;
            if (st == IMCODEC_REF_OK) {
                if (!add_frame(a, &frame)) {
                    set_runtime_error(a, "out of memory");
                    imcodec_ref_reader_free(reader);
                    return;
                }
                continue;
            }
            if (st == IMCODEC_REF_ERROR && !err->path_truncated) {
                failed = st;
                break;
            }
            /* Unsupported values and internal failures answer the whole request. */
            answer_status(a, st, err);
            imcodec_ref_reader_free(reader);
            return;
        }
    }
    if (failed == IMCODEC_REF_ERROR) {
        if (!fill_failure(a, &a->failure, err)) {
            set_runtime_error(a, "out of memory");
            imcodec_ref_reader_free(reader);
            return;
        }
        a->stream.failure = &a->failure;
    } else {
        /* Bytes of an incomplete frame left when the input ended. */
        a->stream.incomplete_tail = imcodec_ref_reader_buffered(reader) > 0;
    }
    imcodec_ref_reader_free(reader);
    a->stream.frames = a->frames;
    a->stream.n_frames = a->n_frames;
    a->response.result_case = IMCODEC__TESTEE__V1__RESPONSE__RESULT_STREAM;
    a->response.stream = &a->stream;
}

/* Decodes the payload and answers every finding of the named profile. */
static void validate(answer *a, const Imcodec__Testee__V1__ValidateRequest *op, const imcodec_ref_limits *limits,
                     imcodec_ref_error *err) {
    if (!valid_kind(op->kind)) {
        set_runtime_error(a, "validate needs a payload kind of 1, 2 or 3");
        return;
    }
    const imcodec_ref_validation_limits *profile = imcodec_ref_validation_profile(op->profile);
    if (profile == NULL) {
        a->response.result_case = IMCODEC__TESTEE__V1__RESPONSE__RESULT_RUNTIME_ERROR;
        a->response.runtime_error = format_text(a, "unknown profile \"%s\"; known: %s", op->profile,
                                                  IMCODEC_REF_VALIDATION_PROFILE_LIST);
        return;
    }
    imcodec_ref_status st = imcodec_ref_validate_payload((imcodec_ref_kind)op->kind, op->payload.data,
                                                         op->payload.len, limits, profile, &a->validation, err);
    if (answer_status(a, st, err)) return;
    size_t n = a->validation.count;
    a->finding_items = malloc((n > 0 ? n : 1) * sizeof *a->finding_items);
    a->finding_list = malloc((n > 0 ? n : 1) * sizeof *a->finding_list);
    if (a->finding_items == NULL || a->finding_list == NULL) {
        set_runtime_error(a, "out of memory");
        return;
    }
    for (size_t i = 0; i < n; i++) {
        const imcodec_ref_finding *finding = &a->validation.items[i];
        Imcodec__Testee__V1__Finding *item = &a->finding_items[i];
        imcodec__testee__v1__finding__init(item);
        item->code = (char *)finding->code;
        item->path = finding->path;
        item->severity = (char *)(finding->warning ? "warning" : "error");
        item->limit = finding->limit;
        item->actual = finding->actual;
        a->finding_list[i] = item;
    }
    a->findings.findings = a->finding_list;
    a->findings.n_findings = n;
    a->response.result_case = IMCODEC__TESTEE__V1__RESPONSE__RESULT_FINDINGS;
    a->response.findings = &a->findings;
}

static void handle(answer *a, const unsigned char *bytes, size_t len, imcodec_ref_codec *codec,
                   imcodec_ref_error *err) {
    Request *request = imcodec__testee__v1__request__unpack(NULL, len, bytes);
    if (request == NULL) {
        set_runtime_error(a, "the request is not a valid imcodec.testee.v1.Request");
        return;
    }
    imcodec_ref_limits limits = request_limits(request);
    switch (request->operation_case) {
    case IMCODEC__TESTEE__V1__REQUEST__OPERATION_DECODE_PAYLOAD:
        decode_payload(a, request->decode_payload, &limits, err);
        break;
    case IMCODEC__TESTEE__V1__REQUEST__OPERATION_DECODE_FRAME:
        decode_frame(a, request->decode_frame, &limits, codec, err);
        break;
    case IMCODEC__TESTEE__V1__REQUEST__OPERATION_ENCODE_FRAME:
        encode_frame(a, request->encode_frame, &limits, codec, err);
        break;
    case IMCODEC__TESTEE__V1__REQUEST__OPERATION_DECODE_STREAM:
        decode_stream(a, request->decode_stream, &limits, err);
        break;
    case IMCODEC__TESTEE__V1__REQUEST__OPERATION_VALIDATE:
        validate(a, request->validate, &limits, err);
        break;
    case IMCODEC__TESTEE__V1__REQUEST__OPERATION_JSON_TO_PAYLOAD:
        set_skipped(a, "the C reference does not implement json_to_payload");
        break;
    case IMCODEC__TESTEE__V1__REQUEST__OPERATION_PAYLOAD_TO_JSON:
        set_skipped(a, "the C reference does not implement payload_to_json");
        break;
    case IMCODEC__TESTEE__V1__REQUEST__OPERATION_REST_TO_PAYLOAD:
    case IMCODEC__TESTEE__V1__REQUEST__OPERATION_PAYLOAD_TO_REST:
    case IMCODEC__TESTEE__V1__REQUEST__OPERATION_VALIDATE_REST:
        set_skipped(a, "the C reference does not implement Tencent REST JSON");
        break;
    default:
        set_runtime_error(a, "the request names no operation the C reference knows");
        break;
    }
    imcodec__testee__v1__request__free_unpacked(request, NULL);
}

int main(void) {
    imcodec_ref_codec *codec = imcodec_ref_codec_new();
    imcodec_ref_error *err = malloc(sizeof *err);
    if (codec == NULL || err == NULL) {
        fprintf(stderr, "imcodec-c-testee: out of memory\n");
        return 1;
    }
    for (;;) {
        unsigned char prefix[4];
        size_t got = read_fully(prefix, 4);
        if (got == 0) break;
        if (got < 4) {
            fprintf(stderr, "imcodec-c-testee: input ends inside a length prefix\n");
            break;
        }
        size_t len = (size_t)prefix[0] | (size_t)prefix[1] << 8 | (size_t)prefix[2] << 16 | (size_t)prefix[3] << 24;
        answer a;
        answer_init(&a);
        imcodec_ref_error_clear(err);
        if (len > MAX_REQUEST_BYTES) {
            if (skip_input(len) < len) {
                fprintf(stderr, "imcodec-c-testee: input ends inside a request\n");
                break;
            }
            set_runtime_error(&a, "the request is larger than 1 GiB");
        } else {
            unsigned char *bytes = malloc(len > 0 ? len : 1);
            if (bytes == NULL) {
                if (skip_input(len) < len) break;
                set_runtime_error(&a, "out of memory for the request");
            } else {
                if (read_fully(bytes, len) < len) {
                    fprintf(stderr, "imcodec-c-testee: input ends inside a request\n");
                    free(bytes);
                    break;
                }
                handle(&a, bytes, len, codec, err);
                free(bytes);
            }
        }
        int written = write_response(&a.response);
        answer_release(&a);
        if (!written) {
            fprintf(stderr, "imcodec-c-testee: cannot write a response\n");
            break;
        }
    }
    free(err);
    imcodec_ref_codec_free(codec);
    return 0;
}
