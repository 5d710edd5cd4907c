/*
 * The streaming reader: chunks split anywhere, final errors, limits before
 * buffering.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FRAMES 16

typedef struct stream_result {
    int frames;
    bytes payloads[MAX_FRAMES];
    imcodec_ref_kind kinds[MAX_FRAMES];
    uint32_t dictionaries[MAX_FRAMES];
    imcodec_ref_status final_status; /* OK when the input ended without error */
    char code[48];
    char path[256];
    size_t buffered;
    int unsupported;
} stream_result;

static void result_free(stream_result *r) {
    for (int i = 0; i < r->frames && i < MAX_FRAMES; i++)
        b_free(&r->payloads[i]);
}

/* Feeds `len` bytes cut at the given offsets (ascending, within len). */
static stream_result run_stream(const imcodec_ref_limits *limits, const unsigned char *data, size_t len,
                                const size_t *cuts, size_t n_cuts) {
    static imcodec_ref_error err;
    stream_result r;
    memset(&r, 0, sizeof r);
    imcodec_ref_reader *reader = imcodec_ref_reader_new(limits);
    size_t start = 0;
    for (size_t c = 0; c <= n_cuts && r.final_status == IMCODEC_REF_OK; c++) {
        size_t end = c < n_cuts ? cuts[c] : len;
        if (imcodec_ref_reader_feed(reader, data + start, end - start) != IMCODEC_REF_OK) {
            r.final_status = IMCODEC_REF_MISUSE;
            break;
        }
        start = end;
        for (;;) {
            imcodec_ref_frame frame;
            imcodec_ref_status st = imcodec_ref_reader_next(reader, &frame, &err);
            if (st == IMCODEC_REF_NEED_MORE) break;
            if (st == IMCODEC_REF_UNSUPPORTED) {
                r.unsupported++;
                continue;
            }
            if (st != IMCODEC_REF_OK) {
                r.final_status = st;
                snprintf(r.code, sizeof r.code, "%s", err.code);
                snprintf(r.path, sizeof r.path, "%.200s", err.path);
                break;
            }
            if (r.frames < MAX_FRAMES) {
                bytes p = {0};
                b_raw(&p, frame.payload, frame.payload_len);
                if (p.data == NULL) p = b_hex("");
                r.payloads[r.frames] = p;
                r.kinds[r.frames] = frame.kind;
                r.dictionaries[r.frames] = frame.dictionary_id;
            }
            r.frames++;
        }
    }
    r.buffered = imcodec_ref_reader_buffered(reader);
    imcodec_ref_reader_free(reader);
    return r;
}

static bytes encode(imcodec_ref_kind kind, const bytes *payload, int compression, uint32_t dictionary_id) {
    unsigned char *out = NULL;
    size_t out_len = 0;
    imcodec_ref_status st =
        imcodec_ref_encode_frame(NULL, kind, payload->data, payload->len, (imcodec_ref_compression)compression, 0, 0,
                                 dictionary_id, NULL, &out, &out_len, NULL);
    if (st != IMCODEC_REF_OK) exit(2);
    bytes b = {0};
    b_raw(&b, out, out_len);
    imcodec_ref_free(out);
    return b;
}

static int same_frames(const stream_result *r, const bytes *payloads, const imcodec_ref_kind *kinds,
                       const uint32_t *dictionaries, int n) {
    if (r->frames != n) return 0;
    for (int i = 0; i < n; i++) {
        if (!b_equal(&payloads[i], r->payloads[i].data, r->payloads[i].len)) return 0;
        if (r->kinds[i] != kinds[i] || r->dictionaries[i] != dictionaries[i]) return 0;
    }
    return 1;
}

void test_reader(void) {
    bytes payloads[5];
    imcodec_ref_kind kinds[5] = {IMCODEC_REF_KIND_MESSAGE, IMCODEC_REF_KIND_MESSAGE, IMCODEC_REF_KIND_MESSAGE,
                                 IMCODEC_REF_KIND_EVENT, IMCODEC_REF_KIND_BATCH};
    uint32_t dictionaries[5] = {0, 0, 1, 0, 0};
    payloads[0] = sample_message(1);
    payloads[1] = sample_message(2);
    payloads[2] = sample_message(3);
    payloads[3] = b_hex("22 04 08 01 10 07");
    payloads[4] = b_hex("");
    int compressions[5] = {0, 1, 1, 0, 0};
    bytes stream = {0};
    size_t boundaries[6] = {0};
    for (int i = 0; i < 5; i++) {
        bytes f = encode(kinds[i], &payloads[i], compressions[i], dictionaries[i]);
        b_raw(&stream, f.data, f.len);
        boundaries[i + 1] = stream.len;
        b_free(&f);
    }

    /* One chunk. */
    stream_result r = run_stream(NULL, stream.data, stream.len, NULL, 0);
    check(r.final_status == IMCODEC_REF_OK && same_frames(&r, payloads, kinds, dictionaries, 5) && r.buffered == 0,
          "reader: one chunk gives 5 frames (got %d, %s)", r.frames, r.code);
    result_free(&r);

    /* Two chunks, split at every offset. */
    int all = 1;
    for (size_t k = 0; k <= stream.len; k++) {
        size_t cut = k;
        r = run_stream(NULL, stream.data, stream.len, &cut, 1);
        if (!(r.final_status == IMCODEC_REF_OK && same_frames(&r, payloads, kinds, dictionaries, 5) &&
              r.buffered == 0)) {
            if (all) fprintf(stderr, "  split at %zu: %d frames, %s\n", k, r.frames, r.code);
            all = 0;
        }
        result_free(&r);
    }
    check(all, "reader: split at every offset of a %zu-byte stream", stream.len);

    /* One-byte chunks. */
    size_t *cuts = malloc(stream.len * sizeof *cuts);
    for (size_t k = 0; k < stream.len; k++)
        cuts[k] = k + 1;
    r = run_stream(NULL, stream.data, stream.len, cuts, stream.len - 1);
    check(r.final_status == IMCODEC_REF_OK && same_frames(&r, payloads, kinds, dictionaries, 5) && r.buffered == 0,
          "reader: one-byte chunks (got %d, %s)", r.frames, r.code);
    result_free(&r);
    free(cuts);

    /* Three chunks, every pair of cuts, on the last three (small) frames. */
    const unsigned char *tail = stream.data + boundaries[2];
    size_t tail_len = stream.len - boundaries[2];
    all = 1;
    for (size_t i = 0; i <= tail_len; i++) {
        for (size_t j = i; j <= tail_len; j++) {
            size_t pair[2] = {i, j};
            r = run_stream(NULL, tail, tail_len, pair, 2);
            if (!(r.final_status == IMCODEC_REF_OK && same_frames(&r, payloads + 2, kinds + 2, dictionaries + 2, 3) &&
                  r.buffered == 0)) {
                all = 0;
            }
            result_free(&r);
        }
    }
    check(all, "reader: every pair of cuts in a %zu-byte stream", tail_len);

    /* A 1 MiB frame fed one byte at a time: the reader keeps each byte once, in one buffer reserved from the
     * header, so the work is linear in the frame's length: it holds exactly the bytes fed so far after every
     * byte, and makes a handful of allocations in all, not one per chunk. */
    {
        size_t n = (size_t)1 << 20;
        bytes big = {0};
        b_tag(&big, 1, 2);
        b_varint(&big, n);
        unsigned char *filler = malloc(n);
        memset(filler, 'a', n);
        b_raw(&big, filler, n);
        free(filler);
        bytes f = encode(IMCODEC_REF_KIND_MESSAGE, &big, 0, 0);
        imcodec_ref_reader *reader = imcodec_ref_reader_new(NULL);
        alloc_reset();
        int frames = 0, ok = 1;
        for (size_t k = 0; k < f.len && ok; k++) {
            ok = imcodec_ref_reader_feed(reader, f.data + k, 1) == IMCODEC_REF_OK;
            for (;;) {
                imcodec_ref_frame frame;
                imcodec_ref_status st = imcodec_ref_reader_next(reader, &frame, NULL);
                if (st == IMCODEC_REF_NEED_MORE) break;
                if (st != IMCODEC_REF_OK || !b_equal(&big, frame.payload, frame.payload_len)) {
                    ok = 0;
                    break;
                }
                frames++;
            }
            if (imcodec_ref_reader_buffered(reader) != (frames > 0 ? 0 : k + 1)) ok = 0;
        }
        size_t allocations = alloc_count();
        check(ok && frames == 1 && allocations <= 8,
              "reader: a %zu-byte frame fed one byte at a time is read whole (%d frames, %zu allocations)", f.len,
              frames, allocations);
        imcodec_ref_reader_free(reader);
        b_free(&big);
        b_free(&f);
    }

    /* An incomplete tail is not an error: the reader holds its bytes. */
    for (size_t drop = 1; drop < boundaries[5] - boundaries[4]; drop++) {
        size_t cut = stream.len / 2;
        r = run_stream(NULL, stream.data, stream.len - drop, &cut, 1);
        check(r.final_status == IMCODEC_REF_OK && r.frames == 4 && r.buffered == boundaries[5] - boundaries[4] - drop,
              "reader: stream missing its last %zu bytes holds them (frames %d, buffered %zu)", drop, r.frames,
              r.buffered);
        result_free(&r);
    }

    /* Errors are final. */
    bytes broken = {0};
    b_raw(&broken, stream.data, stream.len);
    broken.data[boundaries[1] + 1] = 0x00; /* frame 2's kind becomes 0 */
    r = run_stream(NULL, broken.data, broken.len, NULL, 0);
    check(r.final_status == IMCODEC_REF_ERROR && r.frames == 1 && strcmp(r.code, "frame.kind") == 0,
          "reader: an error after one frame (frames %d, %s)", r.frames, r.code);
    result_free(&r);
    {
        static imcodec_ref_error err;
        imcodec_ref_reader *reader = imcodec_ref_reader_new(NULL);
        imcodec_ref_frame frame;
        imcodec_ref_reader_feed(reader, broken.data, broken.len);
        imcodec_ref_status first = imcodec_ref_reader_next(reader, &frame, &err);
        imcodec_ref_status second = imcodec_ref_reader_next(reader, &frame, &err);
        imcodec_ref_status third = imcodec_ref_reader_next(reader, &frame, &err);
        check(first == IMCODEC_REF_OK && second == IMCODEC_REF_ERROR && third == IMCODEC_REF_ERROR &&
                  strcmp(err.code, "frame.kind") == 0,
              "reader: the error repeats");
        check(imcodec_ref_reader_feed(reader, stream.data, stream.len) == IMCODEC_REF_ERROR,
              "reader: feeding a failed reader answers its error");
        imcodec_ref_reader_free(reader);
    }
    b_free(&broken);

    /* A payload error carries its path through the stream. */
    {
        bytes bad = b_hex("92 01 05 0a 03 0a 01 ff");
        bytes f = encode(IMCODEC_REF_KIND_MESSAGE, &bad, 0, 0);
        size_t cut = 3;
        r = run_stream(NULL, f.data, f.len, &cut, 1);
        check(r.final_status == IMCODEC_REF_ERROR && strcmp(r.code, "payload.utf8") == 0 &&
                  strcmp(r.path, "elems[0].text.text") == 0,
              "reader: payload error with path (%s at %s)", r.code, r.path);
        result_free(&r);
        b_free(&f);
        b_free(&bad);
    }

    /* A valid frame protobuf-c cannot represent is skipped over; reading goes on. */
    {
        bytes nul = b_hex("0a 02 61 00");
        bytes s = encode(IMCODEC_REF_KIND_MESSAGE, &nul, 0, 0);
        bytes f = encode(IMCODEC_REF_KIND_MESSAGE, &payloads[0], 0, 0);
        b_raw(&s, f.data, f.len);
        r = run_stream(NULL, s.data, s.len, NULL, 0);
        check(r.final_status == IMCODEC_REF_OK && r.unsupported == 1 && r.frames == 1 &&
                  b_equal(&payloads[0], r.payloads[0].data, r.payloads[0].len),
              "reader: unsupported frame then a frame (unsupported %d, frames %d)", r.unsupported, r.frames);
        result_free(&r);
        b_free(&s);
        b_free(&f);
        b_free(&nul);
    }

    /* Limits are checked on the header, before the body is buffered. */
    {
        bytes header = b_hex("01 01 81 80 80 02 00 00 00 00");
        alloc_reset();
        for (size_t cut = 0; cut <= header.len; cut++) {
            r = run_stream(NULL, header.data, header.len, &cut, 1);
            check(r.final_status == IMCODEC_REF_ERROR && strcmp(r.code, "limit.frame-size") == 0,
                  "reader: frame-size from a header split at %zu (%s)", cut, r.code);
            result_free(&r);
        }
        check(alloc_largest() < 65536, "reader: a refused header allocates nothing big (%zu)", alloc_largest());
        b_free(&header);

        imcodec_ref_limits limits = imcodec_ref_limits_default();
        limits.max_frame_bytes = 100000;
        bytes partial = b_hex("01 01 a0 8d 06 00 00 00 00 00 00");
        alloc_reset();
        size_t cut = 2;
        r = run_stream(&limits, partial.data, partial.len, &cut, 1);
        check(r.final_status == IMCODEC_REF_OK && r.buffered == partial.len && alloc_largest() >= 100000 &&
                  alloc_largest() <= 100000 + 21,
              "reader: buffers one incomplete frame of its declared size (buffered %zu, largest allocation %zu)",
              r.buffered, alloc_largest());
        result_free(&r);
        b_free(&partial);
    }

    /* Feeding before the chunk is used up is misuse. */
    {
        imcodec_ref_reader *reader = imcodec_ref_reader_new(NULL);
        imcodec_ref_reader_feed(reader, stream.data, stream.len);
        check(imcodec_ref_reader_feed(reader, stream.data, stream.len) == IMCODEC_REF_MISUSE,
              "reader: feeding over an unread chunk is misuse");
        imcodec_ref_frame frame;
        check(imcodec_ref_reader_next(reader, &frame, NULL) == IMCODEC_REF_OK, "reader: next without an error struct");
        imcodec_ref_reader_free(reader);
        check(imcodec_ref_reader_next(NULL, &frame, NULL) == IMCODEC_REF_MISUSE, "reader: NULL reader");
    }

    b_free(&stream);
    for (int i = 0; i < 5; i++)
        b_free(&payloads[i]);
}
