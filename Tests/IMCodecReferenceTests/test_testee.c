/*
 * The testee executable over its protocol: length-prefixed requests on
 * standard input, responses on standard output, exit 0 at end of input.
 */
#include "test_util.h"

#include "imcodec/testee/v1/testee.pb-c.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef Imcodec__Testee__V1__Request Request;
typedef Imcodec__Testee__V1__Response Response;

typedef struct testee {
    pid_t pid;
    FILE *to;
    FILE *from;
} testee;

static int testee_start(testee *t, const char *path) {
    int in_pipe[2], out_pipe[2];
    if (pipe(in_pipe) != 0 || pipe(out_pipe) != 0) return 0;
    pid_t pid = fork();
    if (pid < 0) return 0;
    if (pid == 0) {
        dup2(in_pipe[0], 0);
        dup2(out_pipe[1], 1);
        close(in_pipe[0]);
        close(in_pipe[1]);
        close(out_pipe[0]);
        close(out_pipe[1]);
        execl(path, path, (char *)NULL);
        _exit(127);
    }
    close(in_pipe[0]);
    close(out_pipe[1]);
    t->pid = pid;
    t->to = fdopen(in_pipe[1], "wb");
    t->from = fdopen(out_pipe[0], "rb");
    return t->to != NULL && t->from != NULL;
}

static void send_raw(testee *t, const unsigned char *data, size_t len) {
    unsigned char prefix[4] = {(unsigned char)len, (unsigned char)(len >> 8), (unsigned char)(len >> 16),
                               (unsigned char)(len >> 24)};
    fwrite(prefix, 1, 4, t->to);
    if (len > 0) fwrite(data, 1, len, t->to);
    fflush(t->to);
}

static Response *receive(testee *t) {
    unsigned char prefix[4];
    if (fread(prefix, 1, 4, t->from) != 4) return NULL;
    size_t len = (size_t)prefix[0] | (size_t)prefix[1] << 8 | (size_t)prefix[2] << 16 | (size_t)prefix[3] << 24;
    unsigned char *data = malloc(len > 0 ? len : 1);
    if (data == NULL || fread(data, 1, len, t->from) != len) {
        free(data);
        return NULL;
    }
    Response *response = imcodec__testee__v1__response__unpack(NULL, len, data);
    free(data);
    return response;
}

static Response *call(testee *t, const Request *request) {
    size_t len = imcodec__testee__v1__request__get_packed_size(request);
    unsigned char *data = malloc(len > 0 ? len : 1);
    imcodec__testee__v1__request__pack(request, data);
    send_raw(t, data, len);
    free(data);
    return receive(t);
}

static Response *call_decode_payload(testee *t, int kind, const bytes *payload,
                                     const Imcodec__Testee__V1__Limits *limits) {
    Request request = IMCODEC__TESTEE__V1__REQUEST__INIT;
    Imcodec__Testee__V1__DecodePayloadRequest op = IMCODEC__TESTEE__V1__DECODE_PAYLOAD_REQUEST__INIT;
    op.kind = (Imcodec__Testee__V1__PayloadKind)kind;
    op.payload.data = payload->data;
    op.payload.len = payload->len;
    request.case_id = (char *)"decode-payload";
    request.limits = (Imcodec__Testee__V1__Limits *)limits;
    request.operation_case = IMCODEC__TESTEE__V1__REQUEST__OPERATION_DECODE_PAYLOAD;
    request.decode_payload = &op;
    return call(t, &request);
}

static int is_failure(const Response *r, const char *code, const char *path) {
    return r != NULL && r->result_case == IMCODEC__TESTEE__V1__RESPONSE__RESULT_FAILURE &&
           strcmp(r->failure->code, code) == 0 && strcmp(r->failure->path, path) == 0;
}

static const char *describe(const Response *r) {
    static char text[256];
    if (r == NULL) return "no response";
    switch (r->result_case) {
    case IMCODEC__TESTEE__V1__RESPONSE__RESULT_FAILURE:
        snprintf(text, sizeof text, "failure %s at %s", r->failure->code, r->failure->path);
        return text;
    case IMCODEC__TESTEE__V1__RESPONSE__RESULT_SKIPPED:
        snprintf(text, sizeof text, "skipped: %s", r->skipped);
        return text;
    case IMCODEC__TESTEE__V1__RESPONSE__RESULT_RUNTIME_ERROR:
        snprintf(text, sizeof text, "runtime_error: %s", r->runtime_error);
        return text;
    default:
        snprintf(text, sizeof text, "result %d", (int)r->result_case);
        return text;
    }
}

void test_testee(const char *path) {
    testee t;
    if (!check(testee_start(&t, path), "testee: starts %s", path)) return;
    Response *r;

    bytes sample = sample_message(5);
    r = call_decode_payload(&t, 1, &sample, NULL);
    check(r != NULL && r->result_case == IMCODEC__TESTEE__V1__RESPONSE__RESULT_PAYLOAD &&
              b_equal(&sample, r->payload.data, r->payload.len),
          "testee: decode_payload answers the canonical payload (%s)", describe(r));
    if (r) imcodec__testee__v1__response__free_unpacked(r, NULL);

    bytes bad = b_hex("92 01 05 0a 03 0a 01 ff");
    r = call_decode_payload(&t, 1, &bad, NULL);
    check(is_failure(r, "payload.utf8", "elems[0].text.text"), "testee: decode_payload failure (%s)", describe(r));
    if (r) imcodec__testee__v1__response__free_unpacked(r, NULL);
    b_free(&bad);

    bytes nested = b_hex("92 01 04 4a 02 22 00");
    Imcodec__Testee__V1__Limits limits = IMCODEC__TESTEE__V1__LIMITS__INIT;
    limits.max_elems = 5; /* a zero max_depth means the default */
    r = call_decode_payload(&t, 1, &nested, &limits);
    check(r != NULL && r->result_case == IMCODEC__TESTEE__V1__RESPONSE__RESULT_PAYLOAD,
          "testee: zero limits are defaults (%s)", describe(r));
    if (r) imcodec__testee__v1__response__free_unpacked(r, NULL);
    bytes two = b_hex("92 01 00 92 01 00");
    limits.max_elems = 1;
    r = call_decode_payload(&t, 1, &two, &limits);
    check(is_failure(r, "limit.elems", "elems[1]"), "testee: request limits apply (%s)", describe(r));
    if (r) imcodec__testee__v1__response__free_unpacked(r, NULL);
    b_free(&two);
    b_free(&nested);

    bytes nul = b_hex("0a 02 61 00");
    r = call_decode_payload(&t, 1, &nul, NULL);
    check(r != NULL && r->result_case == IMCODEC__TESTEE__V1__RESPONSE__RESULT_RUNTIME_ERROR &&
              strstr(r->runtime_error, "protobuf-c cannot") != NULL,
          "testee: unrepresentable value is a runtime error (%s)", describe(r));
    if (r) imcodec__testee__v1__response__free_unpacked(r, NULL);
    b_free(&nul);

    r = call_decode_payload(&t, 0, &sample, NULL);
    check(r != NULL && r->result_case == IMCODEC__TESTEE__V1__RESPONSE__RESULT_RUNTIME_ERROR,
          "testee: kind 0 is a runtime error (%s)", describe(r));
    if (r) imcodec__testee__v1__response__free_unpacked(r, NULL);

    /* encode_frame, then decode_frame of the answer. */
    {
        Request request = IMCODEC__TESTEE__V1__REQUEST__INIT;
        Imcodec__Testee__V1__EncodeFrameRequest op = IMCODEC__TESTEE__V1__ENCODE_FRAME_REQUEST__INIT;
        op.kind = IMCODEC__TESTEE__V1__PAYLOAD_KIND__PAYLOAD_KIND_MESSAGE;
        op.payload.data = sample.data;
        op.payload.len = sample.len;
        op.compression = 1;
        op.dictionary_id = 1;
        request.operation_case = IMCODEC__TESTEE__V1__REQUEST__OPERATION_ENCODE_FRAME;
        request.encode_frame = &op;
        r = call(&t, &request);
        check(r != NULL && r->result_case == IMCODEC__TESTEE__V1__RESPONSE__RESULT_FRAME_BYTES,
              "testee: encode_frame (%s)", describe(r));
        if (r != NULL && r->result_case == IMCODEC__TESTEE__V1__RESPONSE__RESULT_FRAME_BYTES) {
            Request decode = IMCODEC__TESTEE__V1__REQUEST__INIT;
            Imcodec__Testee__V1__DecodeFrameRequest dop = IMCODEC__TESTEE__V1__DECODE_FRAME_REQUEST__INIT;
            dop.frame = r->frame_bytes;
            decode.operation_case = IMCODEC__TESTEE__V1__REQUEST__OPERATION_DECODE_FRAME;
            decode.decode_frame = &dop;
            Response *d = call(&t, &decode);
            check(d != NULL && d->result_case == IMCODEC__TESTEE__V1__RESPONSE__RESULT_FRAME && d->frame->kind == 1 &&
                      d->frame->compression == 1 && d->frame->dictionary_id == 1 &&
                      b_equal(&sample, d->frame->payload.data, d->frame->payload.len),
                  "testee: decode_frame of the encoded frame (%s)", describe(d));

            /* The same frame as a stream, cut in three, plus a cut-off copy. */
            bytes s = {0};
            b_raw(&s, r->frame_bytes.data, r->frame_bytes.len);
            b_raw(&s, r->frame_bytes.data, r->frame_bytes.len - 1);
            Request stream = IMCODEC__TESTEE__V1__REQUEST__INIT;
            Imcodec__Testee__V1__DecodeStreamRequest sop = IMCODEC__TESTEE__V1__DECODE_STREAM_REQUEST__INIT;
            ProtobufCBinaryData chunks[3] = {
                {5, s.data}, {s.len / 2 - 5, s.data + 5}, {s.len - s.len / 2, s.data + s.len / 2}};
            sop.n_chunks = 3;
            sop.chunks = chunks;
            stream.operation_case = IMCODEC__TESTEE__V1__REQUEST__OPERATION_DECODE_STREAM;
            stream.decode_stream = &sop;
            Response *sr = call(&t, &stream);
            check(sr != NULL && sr->result_case == IMCODEC__TESTEE__V1__RESPONSE__RESULT_STREAM &&
                      sr->stream->n_frames == 1 && sr->stream->failure == NULL && sr->stream->incomplete_tail &&
                      b_equal(&sample, sr->stream->frames[0]->payload.data, sr->stream->frames[0]->payload.len),
                  "testee: decode_stream with an incomplete tail (%s)", describe(sr));
            if (sr) imcodec__testee__v1__response__free_unpacked(sr, NULL);

            s.data[1] = 0x00; /* the first frame's kind becomes 0 */
            chunks[0].data = s.data;
            sr = call(&t, &stream);
            check(sr != NULL && sr->result_case == IMCODEC__TESTEE__V1__RESPONSE__RESULT_STREAM &&
                      sr->stream->n_frames == 0 && sr->stream->failure != NULL &&
                      strcmp(sr->stream->failure->code, "frame.kind") == 0 && !sr->stream->incomplete_tail,
                  "testee: decode_stream failure (%s)", describe(sr));
            if (sr) imcodec__testee__v1__response__free_unpacked(sr, NULL);
            b_free(&s);
            if (d) imcodec__testee__v1__response__free_unpacked(d, NULL);
        }
        if (r) imcodec__testee__v1__response__free_unpacked(r, NULL);
    }

    /* Unsupported operations and malformed requests. */
    {
        Request request = IMCODEC__TESTEE__V1__REQUEST__INIT;
        Imcodec__Testee__V1__ValidateRequest op = IMCODEC__TESTEE__V1__VALIDATE_REQUEST__INIT;
        static unsigned char receiver_only[] = {0x1a, 0x03, 'b', 'o', 'b'};
        op.kind = IMCODEC__TESTEE__V1__PAYLOAD_KIND__PAYLOAD_KIND_MESSAGE;
        op.payload.data = receiver_only;
        op.payload.len = sizeof receiver_only;
        op.profile = (char *)"sdk-guide";
        request.operation_case = IMCODEC__TESTEE__V1__REQUEST__OPERATION_VALIDATE;
        request.validate = &op;
        r = call(&t, &request);
        check(r != NULL && r->result_case == IMCODEC__TESTEE__V1__RESPONSE__RESULT_FINDINGS &&
                  r->findings->n_findings == 1 &&
                  strcmp(r->findings->findings[0]->code, "rule.message.elems-missing") == 0 &&
                  strcmp(r->findings->findings[0]->path, "elems") == 0 &&
                  strcmp(r->findings->findings[0]->severity, "error") == 0,
              "testee: validate answers the findings (%s)", describe(r));
        if (r) imcodec__testee__v1__response__free_unpacked(r, NULL);
        op.profile = (char *)"newest";
        r = call(&t, &request);
        check(r != NULL && r->result_case == IMCODEC__TESTEE__V1__RESPONSE__RESULT_RUNTIME_ERROR,
              "testee: validate with an unknown profile is a runtime error (%s)", describe(r));
        if (r) imcodec__testee__v1__response__free_unpacked(r, NULL);
        Request json = IMCODEC__TESTEE__V1__REQUEST__INIT;
        Imcodec__Testee__V1__JsonToPayloadRequest json_op = IMCODEC__TESTEE__V1__JSON_TO_PAYLOAD_REQUEST__INIT;
        json.operation_case = IMCODEC__TESTEE__V1__REQUEST__OPERATION_JSON_TO_PAYLOAD;
        json.json_to_payload = &json_op;
        r = call(&t, &json);
        check(r != NULL && r->result_case == IMCODEC__TESTEE__V1__RESPONSE__RESULT_SKIPPED,
              "testee: json_to_payload is skipped (%s)", describe(r));
        if (r) imcodec__testee__v1__response__free_unpacked(r, NULL);
        Request empty = IMCODEC__TESTEE__V1__REQUEST__INIT;
        r = call(&t, &empty);
        check(r != NULL && r->result_case == IMCODEC__TESTEE__V1__RESPONSE__RESULT_RUNTIME_ERROR,
              "testee: a request with no operation is a runtime error, not a skip (%s)", describe(r));
        if (r) imcodec__testee__v1__response__free_unpacked(r, NULL);
        bytes future = b_hex("a2 01 00"); /* operation 20, unknown to this schema */
        send_raw(&t, future.data, future.len);
        r = receive(&t);
        check(r != NULL && r->result_case == IMCODEC__TESTEE__V1__RESPONSE__RESULT_SKIPPED,
              "testee: an unknown operation is skipped (%s)", describe(r));
        if (r) imcodec__testee__v1__response__free_unpacked(r, NULL);
        b_free(&future);
        bytes garbage = b_hex("ff ff ff");
        send_raw(&t, garbage.data, garbage.len);
        r = receive(&t);
        check(r != NULL && r->result_case == IMCODEC__TESTEE__V1__RESPONSE__RESULT_RUNTIME_ERROR,
              "testee: a malformed request is a runtime error (%s)", describe(r));
        if (r) imcodec__testee__v1__response__free_unpacked(r, NULL);
        b_free(&garbage);
    }

    b_free(&sample);
    fclose(t.to);
    int status = 0;
    waitpid(t.pid, &status, 0);
    check(WIFEXITED(status) && WEXITSTATUS(status) == 0, "testee: exits 0 at end of input (status %d)", status);
    fclose(t.from);
}
