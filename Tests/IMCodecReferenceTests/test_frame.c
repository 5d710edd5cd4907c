/*
 * Frames: every frame.* and frame limit code of docs/spec/frame-format.md, the
 * order of the checks, round trips, and strict prefixes.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* A frame from its parts; the checksum is computed over the header and `payload`. */
static bytes build_frame(unsigned flags, int has_dictionary, uint32_t dictionary_id, const bytes *body,
                         int has_payload_len, uint32_t payload_len, const bytes *payload) {
    bytes f = {0};
    b_byte(&f, 0x01);
    b_byte(&f, flags);
    if (has_dictionary) b_varint(&f, dictionary_id);
    b_varint(&f, body->len);
    if (has_payload_len) b_varint(&f, payload_len);
    uLong crc = crc32(0L, Z_NULL, 0);
    crc = crc32(crc, f.data, (uInt)f.len);
    if (payload->len > 0) crc = crc32(crc, payload->data, (uInt)payload->len);
    for (int i = 0; i < 4; i++)
        b_byte(&f, (unsigned)(crc >> (8 * i)) & 0xff);
    b_raw(&f, body->data, body->len);
    return f;
}

static bytes stored_frame(unsigned kind, const bytes *payload) {
    return build_frame(kind, 0, 0, payload, 0, 0, payload);
}

/* A raw deflate stream of `in`, primed with dictionary 1 when asked. */
static bytes raw_deflate(const bytes *in, int with_dictionary) {
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) exit(2);
    if (with_dictionary) {
        const unsigned char *dictionary;
        size_t len;
        imcodec_ref_dictionary(1, &dictionary, &len);
        deflateSetDictionary(&z, dictionary, (uInt)len);
    }
    bytes out = {0};
    size_t cap = deflateBound(&z, in->len) + 16;
    out.data = malloc(cap);
    out.cap = cap;
    z.next_in = in->data;
    z.avail_in = (uInt)in->len;
    z.next_out = out.data;
    z.avail_out = (uInt)cap;
    if (deflate(&z, Z_FINISH) != Z_STREAM_END) exit(2);
    out.len = cap - z.avail_out;
    deflateEnd(&z);
    return out;
}

static bytes deflate_frame(unsigned kind, const bytes *payload, uint32_t declared) {
    bytes body = raw_deflate(payload, 0);
    bytes f = build_frame(kind | 0x04, 0, 0, &body, 1, declared, payload);
    b_free(&body);
    return f;
}

static void expect_frame_error(const char *name, const bytes *frame, size_t len, const imcodec_ref_limits *limits,
                               const char *code, const char *path) {
    static imcodec_ref_error err;
    unsigned char *payload = NULL;
    size_t payload_len = 0;
    imcodec_ref_status st =
        imcodec_ref_decode_frame(NULL, frame->data, len, limits, NULL, NULL, NULL, &payload, &payload_len, &err);
    check(st == IMCODEC_REF_ERROR && strcmp(err.code, code) == 0 && strcmp(err.path, path) == 0,
          "%s: expected %s at \"%s\", got %s %s at \"%s\" (%s)", name, code, path, imcodec_ref_status_name(st),
          err.code, err.path, err.reason);
    check(payload == NULL, "%s: no payload on error", name);
    imcodec_ref_free(payload);
}

static void frame_error_hex(const char *name, const char *hex, const imcodec_ref_limits *limits, const char *code) {
    bytes f = b_hex(hex);
    expect_frame_error(name, &f, f.len, limits, code, "");
    b_free(&f);
}

static void test_header_checks(void) {
    frame_error_hex("truncated: empty", "", NULL, "frame.truncated");
    frame_error_hex("truncated: 1 byte", "01", NULL, "frame.truncated");
    frame_error_hex("truncated: 1 byte of a bad version", "02", NULL, "frame.truncated");
    frame_error_hex("truncated: no body length", "01 01", NULL, "frame.truncated");
    frame_error_hex("truncated: no checksum", "01 01 00 00 00 00", NULL, "frame.truncated");
    frame_error_hex("truncated: no dictionary id", "01 15", NULL, "frame.truncated");
    frame_error_hex("truncated: inside a varint", "01 01 80", NULL, "frame.truncated");
    frame_error_hex("version: 2", "02 01 00 00 00 00 00", NULL, "frame.version");
    frame_error_hex("version: 0", "00 01", NULL, "frame.version");
    frame_error_hex("version before kind", "02 00", NULL, "frame.version");
    frame_error_hex("kind: 0", "01 00 00 00 00 00 00", NULL, "frame.kind");
    frame_error_hex("kind before compression", "01 08", NULL, "frame.kind");
    frame_error_hex("compression: 3", "01 0d", NULL, "frame.compression");
    frame_error_hex("compression before reserved bits", "01 2d", NULL, "frame.compression");
    frame_error_hex("reserved bits: bit 5", "01 21 00 00 00 00 00", NULL, "frame.reserved-bits");
    frame_error_hex("reserved bits: bit 7", "01 81", NULL, "frame.reserved-bits");
    frame_error_hex("dictionary: bit with compression 0", "01 11 01 00 00 00 00 00", NULL, "frame.dictionary");
    frame_error_hex("dictionary: bit with compression 0, the id not there yet", "01 11", NULL, "frame.truncated");
    frame_error_hex("dictionary: bit with compression 0, judged after the id", "01 11 01", NULL, "frame.dictionary");
    frame_error_hex("dictionary: id 0", "01 15 00 00 00 00 00 00 00", NULL, "frame.dictionary");
    frame_error_hex("dictionary: unknown id 5", "01 15 05 00 00 00 00 00 00", NULL, "frame.dictionary");
    frame_error_hex("dictionary: unknown id 2^32 - 1", "01 15 ff ff ff ff 0f", NULL, "frame.dictionary");
    frame_error_hex("varint: non-minimal body length", "01 01 80 00 00 00 00 00", NULL, "frame.varint");
    frame_error_hex("varint: above 2^32 - 1", "01 01 ff ff ff ff 1f", NULL, "frame.varint");
    frame_error_hex("varint: 2^32 on a 10-byte input", "01 01 80 80 80 80 10 00 00 00", NULL, "frame.varint");
    frame_error_hex("varint: 6 bytes", "01 01 80 80 80 80 80 01", NULL, "frame.varint");
    frame_error_hex("varint: non-minimal dictionary id", "01 15 81 00", NULL, "frame.varint");
    frame_error_hex("varint: non-minimal payload length", "01 05 02 85 00", NULL, "frame.varint");
    frame_error_hex("varint: before dictionary lookup", "01 15 80 80 80 80 80", NULL, "frame.varint");
}

static void test_limits(void) {
    imcodec_ref_limits limits = imcodec_ref_limits_default();
    static imcodec_ref_error err;
    unsigned char *payload = NULL;
    size_t payload_len = 0;

    /* 4 MiB + 1 body bytes declared; nothing follows the header. */
    alloc_reset();
    frame_error_hex("frame-size: 4 MiB + 1", "01 01 81 80 80 02 00 00 00 00", NULL, "limit.frame-size");
    bytes f = b_hex("01 01 81 80 80 02 00 00 00 00");
    imcodec_ref_decode_frame(NULL, f.data, f.len, NULL, NULL, NULL, NULL, &payload, &payload_len, &err);
    check(err.limit == 4194304 && err.observed == 4194305, "frame-size: limit %lld observed %lld", err.limit,
          err.observed);
    b_free(&f);
    frame_error_hex("frame-size: 2^32 - 1", "01 01 ff ff ff ff 0f 00 00 00 00", NULL, "limit.frame-size");
    /* The checksum completes the header: a header cut inside it is truncated, whatever it declares. */
    frame_error_hex("frame-size: 10-byte input claiming 2^32 - 1", "01 01 ff ff ff ff 0f 00 00 00", NULL,
                    "frame.truncated");
    limits.max_frame_bytes = UINT32_MAX;
    frame_error_hex("truncated: body of 2^32 - 1 allowed but absent", "01 01 ff ff ff ff 0f 00 00 00 00", &limits,
                    "frame.truncated");
    check(alloc_largest() < 65536, "frame: a claimed 2^32 - 1 body allocates nothing big (%zu)", alloc_largest());
    limits = imcodec_ref_limits_default();

    frame_error_hex("inflated-size: 16 MiB + 1", "01 05 ff ff 03 81 80 80 08 00 00 00 00", NULL, "limit.inflated-size");
    frame_error_hex("inflate-ratio: 251 from 1", "01 05 01 fb 01 00 00 00 00 00", NULL, "limit.inflate-ratio");
    f = b_hex("01 05 01 fb 01 00 00 00 00 00");
    imcodec_ref_decode_frame(NULL, f.data, f.len, NULL, NULL, NULL, NULL, &payload, &payload_len, &err);
    check(err.limit == 250 && err.observed == 251, "inflate-ratio: limit %lld observed %lld", err.limit, err.observed);
    b_free(&f);
    frame_error_hex("inflate-ratio: 1 from 0", "01 05 00 01 00 00 00 00", NULL, "limit.inflate-ratio");
    frame_error_hex("inflate-ratio: 250 from 1 passes to the body check", "01 05 01 fa 01 00 00 00 00", NULL,
                    "frame.truncated");
    limits.max_frame_bytes = 2;
    frame_error_hex("frame-size: custom limit", "01 01 03 00 00 00 00 00 00 00", &limits, "limit.frame-size");
    frame_error_hex("frame-size before inflated-size", "01 05 03 81 80 80 08 00 00 00 00", &limits, "limit.frame-size");
}

static void test_body_checks(void) {
    bytes payload = sample_message(1);
    bytes good = stored_frame(1, &payload);

    /* Checksum: a flipped payload byte, a flipped kind bit, a flipped checksum byte. */
    bytes f = stored_frame(1, &payload);
    f.data[f.len - 1] ^= 0x01;
    expect_frame_error("checksum: payload byte", &f, f.len, NULL, "frame.checksum", "");
    b_free(&f);
    f = stored_frame(1, &payload);
    f.data[1] = 0x03;
    expect_frame_error("checksum: kind bits", &f, f.len, NULL, "frame.checksum", "");
    b_free(&f);
    f = stored_frame(1, &payload);
    f.data[4] ^= 0x80;
    expect_frame_error("checksum: stored checksum", &f, f.len, NULL, "frame.checksum", "");
    /* The checksum is checked before trailing bytes. */
    b_byte(&f, 0x00);
    expect_frame_error("checksum before trailing bytes", &f, f.len, NULL, "frame.checksum", "");
    b_free(&f);

    /* Trailing bytes. */
    f = stored_frame(1, &payload);
    b_byte(&f, 0x01);
    expect_frame_error("trailing-bytes: one byte", &f, f.len, NULL, "frame.trailing-bytes", "");
    b_free(&f);
    bytes bad_payload = b_hex("0a 01 ff");
    f = stored_frame(1, &bad_payload);
    expect_frame_error("payload error through a frame", &f, f.len, NULL, "payload.utf8", "msgId");
    b_byte(&f, 0x01);
    expect_frame_error("trailing bytes before payload decoding", &f, f.len, NULL, "frame.trailing-bytes", "");
    b_free(&f);
    b_free(&bad_payload);
    bytes deep = b_hex("92 01 06 4a 04 22 02 92 01");
    f = stored_frame(1, &deep);
    imcodec_ref_limits limits = imcodec_ref_limits_default();
    limits.max_depth = 0;
    expect_frame_error("payload truncated through a frame", &f, f.len, NULL, "payload.truncated",
                       "elems[0].merger.messages[0].elems[0]");
    expect_frame_error("payload limit through a frame", &f, f.len, &limits, "limit.depth",
                       "elems[0].merger.messages[0]");
    b_free(&f);
    b_free(&deep);

    /* Deflate: corrupt, ending early, ending before the body, wrong sizes. */
    bytes body = raw_deflate(&payload, 0);
    bytes corrupt = b_hex("ff ff ff ff");
    f = build_frame(0x05, 0, 0, &corrupt, 1, (uint32_t)payload.len, &payload);
    expect_frame_error("deflate: corrupt", &f, f.len, NULL, "frame.deflate", "");
    b_free(&f);
    b_free(&corrupt);
    bytes cut = {0};
    b_raw(&cut, body.data, body.len - 1);
    f = build_frame(0x05, 0, 0, &cut, 1, (uint32_t)payload.len, &payload);
    expect_frame_error("deflate: the body ends inside the stream", &f, f.len, NULL, "frame.deflate", "");
    b_free(&f);
    b_free(&cut);
    bytes longer = {0};
    b_raw(&longer, body.data, body.len);
    b_byte(&longer, 0x00);
    f = build_frame(0x05, 0, 0, &longer, 1, (uint32_t)payload.len, &payload);
    expect_frame_error("deflate: the stream ends before the body", &f, f.len, NULL, "frame.deflate", "");
    b_free(&f);
    b_free(&longer);
    f = build_frame(0x05, 0, 0, &body, 1, (uint32_t)payload.len + 1, &payload);
    expect_frame_error("payload-length: produces fewer", &f, f.len, NULL, "frame.payload-length", "");
    b_free(&f);
    f = build_frame(0x05, 0, 0, &body, 1, (uint32_t)payload.len - 1, &payload);
    expect_frame_error("payload-length: wants more", &f, f.len, NULL, "frame.payload-length", "");
    b_free(&f);
    f = build_frame(0x05, 0, 0, &body, 1, 0, &payload);
    expect_frame_error("payload-length: declared 0", &f, f.len, NULL, "frame.payload-length", "");
    b_free(&f);
    /* An empty stored block, then a non-final block: the stream does not end. */
    bytes empty_payload = b_hex("");
    bytes unfinished = b_hex("00 00 00 ff ff");
    f = build_frame(0x05, 0, 0, &unfinished, 1, 0, &empty_payload);
    expect_frame_error("deflate: no final block", &f, f.len, NULL, "frame.deflate", "");
    b_free(&f);
    b_free(&unfinished);
    bytes final_empty = b_hex("03 00");
    f = build_frame(0x05, 0, 0, &final_empty, 1, 0, &empty_payload);
    {
        static imcodec_ref_error err;
        unsigned char *out = NULL;
        size_t out_len = 1;
        imcodec_ref_status st =
            imcodec_ref_decode_frame(NULL, f.data, f.len, NULL, NULL, NULL, NULL, &out, &out_len, &err);
        check(st == IMCODEC_REF_OK && out_len == 0, "deflate: an empty final block inflates to nothing (%s %s)",
              imcodec_ref_status_name(st), err.code);
        imcodec_ref_free(out);
    }
    b_free(&f);
    b_free(&final_empty);
    b_free(&empty_payload);
    /* The deflate check comes before the checksum. */
    f = build_frame(0x05, 0, 0, &body, 1, (uint32_t)payload.len - 1, &good);
    expect_frame_error("payload-length before checksum", &f, f.len, NULL, "frame.payload-length", "");
    b_free(&f);
    /* A dictionary stream read without the dictionary, and the reverse. */
    bytes dict_body = raw_deflate(&payload, 1);
    f = build_frame(0x05, 0, 0, &dict_body, 1, (uint32_t)payload.len, &payload);
    expect_frame_error("deflate: dictionary stream without dictionary", &f, f.len, NULL, "frame.deflate", "");
    b_free(&f);
    f = build_frame(0x15, 1, 1, &dict_body, 1, (uint32_t)payload.len, &payload);
    {
        static imcodec_ref_error err;
        unsigned char *out = NULL;
        size_t out_len = 0;
        uint32_t dictionary_id = 0;
        imcodec_ref_compression compression = IMCODEC_REF_COMPRESSION_NONE;
        imcodec_ref_status st = imcodec_ref_decode_frame(NULL, f.data, f.len, NULL, NULL, &compression, &dictionary_id,
                                                         &out, &out_len, &err);
        check(st == IMCODEC_REF_OK && dictionary_id == 1 && compression == IMCODEC_REF_COMPRESSION_DEFLATE &&
                  b_equal(&payload, out, out_len),
              "dictionary frame built by hand decodes (%s %s)", imcodec_ref_status_name(st), err.code);
        imcodec_ref_free(out);
    }
    b_free(&f);
    b_free(&dict_body);

    /* Strict prefixes of valid frames are all truncated. */
    bytes deflated = deflate_frame(1, &payload, (uint32_t)payload.len);
    bytes dict = {0};
    {
        unsigned char *out = NULL;
        size_t out_len = 0;
        imcodec_ref_encode_frame(NULL, IMCODEC_REF_KIND_MESSAGE, payload.data, payload.len,
                                 IMCODEC_REF_COMPRESSION_DEFLATE, 0, 0, 1, NULL, &out, &out_len, NULL);
        b_raw(&dict, out, out_len);
        imcodec_ref_free(out);
    }
    const bytes *valid[] = {&good, &deflated, &dict};
    const char *names[] = {"stored", "deflate", "dictionary"};
    for (int v = 0; v < 3; v++) {
        int all = 1;
        for (size_t k = 0; k < valid[v]->len; k++) {
            static imcodec_ref_error err;
            unsigned char *out = NULL;
            size_t out_len = 0;
            imcodec_ref_status st =
                imcodec_ref_decode_frame(NULL, valid[v]->data, k, NULL, NULL, NULL, NULL, &out, &out_len, &err);
            if (st != IMCODEC_REF_ERROR || strcmp(err.code, "frame.truncated") != 0) {
                all = 0;
                fprintf(stderr, "  %s prefix of %zu bytes: %s %s\n", names[v], k, imcodec_ref_status_name(st),
                        err.code);
            }
            imcodec_ref_free(out);
        }
        check(all, "every strict prefix of a %s frame (%zu bytes) is frame.truncated", names[v], valid[v]->len);
        static imcodec_ref_error err;
        unsigned char *out = NULL;
        size_t out_len = 0;
        imcodec_ref_status st =
            imcodec_ref_decode_frame(NULL, valid[v]->data, valid[v]->len, NULL, NULL, NULL, NULL, &out, &out_len, &err);
        check(st == IMCODEC_REF_OK && b_equal(&payload, out, out_len), "the whole %s frame decodes (%s %s)", names[v],
              imcodec_ref_status_name(st), err.code);
        imcodec_ref_free(out);
    }
    b_free(&dict);
    b_free(&deflated);
    b_free(&body);
    b_free(&good);
    b_free(&payload);
}

/* Encodes and decodes; checks the header fields and the payload. */
static void round_trip(imcodec_ref_codec *codec, const char *name, imcodec_ref_kind kind, const bytes *payload,
                       imcodec_ref_compression compression, uint64_t threshold, int level, uint32_t dictionary_id,
                       imcodec_ref_compression expect_compression, uint32_t expect_dictionary) {
    static imcodec_ref_error err;
    unsigned char *frame = NULL;
    size_t frame_len = 0;
    imcodec_ref_status st = imcodec_ref_encode_frame(codec, kind, payload->data, payload->len, compression, threshold,
                                                     level, dictionary_id, NULL, &frame, &frame_len, &err);
    if (!check(st == IMCODEC_REF_OK, "%s: encode %s %s", name, imcodec_ref_status_name(st), err.reason)) return;
    check(frame_len <= payload->len + IMCODEC_REF__MAX_HEADER_FOR_TESTS, "%s: frame no larger than payload + header",
          name);
    imcodec_ref_kind got_kind = (imcodec_ref_kind)0;
    imcodec_ref_compression got_compression = (imcodec_ref_compression)9;
    uint32_t got_dictionary = 99;
    unsigned char *out = NULL;
    size_t out_len = 0;
    st = imcodec_ref_decode_frame(codec, frame, frame_len, NULL, &got_kind, &got_compression, &got_dictionary, &out,
                                  &out_len, &err);
    check(st == IMCODEC_REF_OK && got_kind == kind && got_compression == expect_compression &&
              got_dictionary == expect_dictionary && b_equal(payload, out, out_len),
          "%s: decode %s %s (kind %d compression %d dictionary %u)", name, imcodec_ref_status_name(st), err.code,
          (int)got_kind, (int)got_compression, (unsigned)got_dictionary);
    imcodec_ref_free(out);
    imcodec_ref_free(frame);
}

static void test_round_trips(void) {
    imcodec_ref_codec *codec = imcodec_ref_codec_new();
    bytes small = b_hex("0a 01 61");
    bytes empty = b_hex("");
    /* A batch of realistic messages. */
    bytes big = {0};
    for (int i = 0; i < 8; i++) {
        bytes m = sample_message(i);
        b_message(&big, 1, &m);
        b_free(&m);
    }
    /* A bytes field of pseudo-random data, which deflate cannot shrink. */
    bytes random_bytes = {0};
    {
        bytes custom = {0}, elem = {0};
        unsigned state = 12345;
        bytes data = {0};
        for (int i = 0; i < 600; i++) {
            state = state * 1103515245u + 12345u;
            b_byte(&data, (state >> 16) & 0xff);
        }
        b_tag(&custom, 1, 2);
        b_varint(&custom, data.len);
        b_raw(&custom, data.data, data.len);
        b_message(&elem, 2, &custom);
        b_message(&random_bytes, 18, &elem);
        b_free(&custom);
        b_free(&elem);
        b_free(&data);
    }
    for (int pass = 0; pass < 2; pass++) {
        imcodec_ref_codec *c = pass == 0 ? NULL : codec;
        round_trip(c, "none", IMCODEC_REF_KIND_BATCH, &big, IMCODEC_REF_COMPRESSION_NONE, 0, 0, 0,
                   IMCODEC_REF_COMPRESSION_NONE, 0);
        round_trip(c, "deflate", IMCODEC_REF_KIND_BATCH, &big, IMCODEC_REF_COMPRESSION_DEFLATE, 256, 6, 0,
                   IMCODEC_REF_COMPRESSION_DEFLATE, 0);
        round_trip(c, "deflate level 1", IMCODEC_REF_KIND_BATCH, &big, IMCODEC_REF_COMPRESSION_DEFLATE, 0, 1, 0,
                   IMCODEC_REF_COMPRESSION_DEFLATE, 0);
        round_trip(c, "deflate level 9", IMCODEC_REF_KIND_BATCH, &big, IMCODEC_REF_COMPRESSION_DEFLATE, 0, 9, 0,
                   IMCODEC_REF_COMPRESSION_DEFLATE, 0);
        round_trip(c, "dictionary", IMCODEC_REF_KIND_BATCH, &big, IMCODEC_REF_COMPRESSION_DEFLATE, 0, 0, 1,
                   IMCODEC_REF_COMPRESSION_DEFLATE, 1);
        round_trip(c, "below threshold is stored", IMCODEC_REF_KIND_BATCH, &big, IMCODEC_REF_COMPRESSION_DEFLATE,
                   big.len + 1, 0, 1, IMCODEC_REF_COMPRESSION_NONE, 0);
        round_trip(c, "at threshold is compressed", IMCODEC_REF_KIND_BATCH, &big, IMCODEC_REF_COMPRESSION_DEFLATE,
                   big.len, 0, 0, IMCODEC_REF_COMPRESSION_DEFLATE, 0);
        round_trip(c, "incompressible is stored", IMCODEC_REF_KIND_MESSAGE, &random_bytes,
                   IMCODEC_REF_COMPRESSION_DEFLATE, 0, 9, 0, IMCODEC_REF_COMPRESSION_NONE, 0);
        round_trip(c, "small is stored", IMCODEC_REF_KIND_MESSAGE, &small, IMCODEC_REF_COMPRESSION_DEFLATE, 0, 0, 1,
                   IMCODEC_REF_COMPRESSION_NONE, 0);
        round_trip(c, "empty", IMCODEC_REF_KIND_BATCH, &empty, IMCODEC_REF_COMPRESSION_DEFLATE, 0, 0, 0,
                   IMCODEC_REF_COMPRESSION_NONE, 0);
        round_trip(c, "dictionary ignored without compression", IMCODEC_REF_KIND_EVENT, &empty,
                   IMCODEC_REF_COMPRESSION_NONE, 0, 0, 1, IMCODEC_REF_COMPRESSION_NONE, 0);
    }
    if (!imcodec_ref_zstd_available()) {
        /* Built without libzstd: zstd is refused both ways with its own code. */
        static imcodec_ref_error err;
        unsigned char *out = NULL;
        size_t out_len = 0;
        imcodec_ref_status st = imcodec_ref_encode_frame(codec, IMCODEC_REF_KIND_BATCH, big.data, big.len,
                                                         IMCODEC_REF_COMPRESSION_ZSTD, 0, 0, 0, NULL, &out, &out_len,
                                                         &err);
        check(st == IMCODEC_REF_ERROR && strcmp(err.code, "frame.zstd-unavailable") == 0,
              "without libzstd: encoding zstd is frame.zstd-unavailable");
        /* A zstd frame of "a" (0a 01 61) as one raw block, by hand: CRC-32 of 01 09 08 03 0a 01 61. */
        bytes frame = b_hex("01 09 08 03 00 00 00 00 00 00 19 00 00 0a 01 61");
        uLong crc = crc32(0L, frame.data, 4);
        crc = crc32(crc, frame.data + 13, 3);
        for (int i = 0; i < 4; i++) frame.data[4 + i] = (unsigned char)(crc >> (8 * i));
        st = imcodec_ref_decode_frame(codec, frame.data, frame.len, NULL, NULL, NULL, NULL, &out, &out_len, &err);
        check(st == IMCODEC_REF_ERROR && strcmp(err.code, "frame.zstd-unavailable") == 0,
              "without libzstd: a zstd frame is frame.zstd-unavailable (%s)", err.code);
        b_free(&frame);
    }
    for (int pass = 0; pass < 2 && imcodec_ref_zstd_available(); pass++) {
        imcodec_ref_codec *c = pass == 0 ? NULL : codec;
        round_trip(c, "zstd", IMCODEC_REF_KIND_BATCH, &big, IMCODEC_REF_COMPRESSION_ZSTD, 0, 0, 0,
                   IMCODEC_REF_COMPRESSION_ZSTD, 0);
        round_trip(c, "zstd level 19", IMCODEC_REF_KIND_BATCH, &big, IMCODEC_REF_COMPRESSION_ZSTD, 0, 19, 0,
                   IMCODEC_REF_COMPRESSION_ZSTD, 0);
        for (uint32_t id = 1; id <= 4; id++) {
            round_trip(c, "zstd with a dictionary", IMCODEC_REF_KIND_BATCH, &big, IMCODEC_REF_COMPRESSION_ZSTD, 0, 1,
                       id, IMCODEC_REF_COMPRESSION_ZSTD, id);
        }
        round_trip(c, "zstd incompressible is stored", IMCODEC_REF_KIND_MESSAGE, &random_bytes,
                   IMCODEC_REF_COMPRESSION_ZSTD, 0, 3, 0, IMCODEC_REF_COMPRESSION_NONE, 0);
        round_trip(c, "zstd small is stored", IMCODEC_REF_KIND_MESSAGE, &small, IMCODEC_REF_COMPRESSION_ZSTD, 0, 0, 0,
                   IMCODEC_REF_COMPRESSION_NONE, 0);
    }
    /* A reused codec across alternating levels and dictionaries. */
    for (int i = 0; i < 20; i++) {
        round_trip(codec, "reused codec", IMCODEC_REF_KIND_BATCH, &big, IMCODEC_REF_COMPRESSION_DEFLATE, 0, i % 10,
                   (uint32_t)(i % 2), IMCODEC_REF_COMPRESSION_DEFLATE, (uint32_t)(i % 2));
    }

    static imcodec_ref_error err;
    unsigned char *out = NULL;
    size_t out_len = 0;
    imcodec_ref_status st = imcodec_ref_encode_frame(NULL, (imcodec_ref_kind)0, small.data, small.len,
                                                     IMCODEC_REF_COMPRESSION_NONE, 0, 0, 0, NULL, &out, &out_len, &err);
    check(st == IMCODEC_REF_ERROR && strcmp(err.code, "frame.kind") == 0, "encode: kind 0 is frame.kind");
    st = imcodec_ref_encode_frame(NULL, IMCODEC_REF_KIND_MESSAGE, small.data, small.len, (imcodec_ref_compression)3, 0,
                                  0, 0, NULL, &out, &out_len, &err);
    check(st == IMCODEC_REF_ERROR && strcmp(err.code, "frame.compression") == 0, "encode: compression 3");
    st = imcodec_ref_encode_frame(NULL, IMCODEC_REF_KIND_MESSAGE, small.data, small.len, IMCODEC_REF_COMPRESSION_ZSTD,
                                  0, 20, 0, NULL, &out, &out_len, &err);
    check(imcodec_ref_zstd_available() ? st == IMCODEC_REF_MISUSE : st == IMCODEC_REF_ERROR,
          "encode: zstd level 20 is misuse (frame.zstd-unavailable without libzstd)");
    st = imcodec_ref_encode_frame(NULL, IMCODEC_REF_KIND_MESSAGE, small.data, small.len, IMCODEC_REF_COMPRESSION_NONE,
                                  0, 0, 7, NULL, &out, &out_len, &err);
    check(st == IMCODEC_REF_ERROR && strcmp(err.code, "frame.dictionary") == 0, "encode: unknown dictionary");
    st = imcodec_ref_encode_frame(NULL, IMCODEC_REF_KIND_MESSAGE, small.data, small.len, IMCODEC_REF_COMPRESSION_DEFLATE,
                                  0, 10, 0, NULL, &out, &out_len, &err);
    check(st == IMCODEC_REF_MISUSE, "encode: level 10 is misuse");
    check(out == NULL, "encode: no output on failure");
    /* Compression 0 compresses nothing: the level is not looked at. */
    st = imcodec_ref_encode_frame(NULL, IMCODEC_REF_KIND_MESSAGE, small.data, small.len, IMCODEC_REF_COMPRESSION_NONE,
                                  0, 25, 0, NULL, &out, &out_len, &err);
    check(st == IMCODEC_REF_OK && out != NULL && out_len == small.len + 7 && out[1] == 0x01,
          "encode: level 25 with compression 0 stores the payload");
    imcodec_ref_free(out);
    out = NULL;

    b_free(&random_bytes);
    b_free(&big);
    b_free(&small);
    b_free(&empty);
    imcodec_ref_codec_free(codec);
}

void test_frame(void) {
    test_header_checks();
    test_limits();
    test_body_checks();
    test_round_trips();
}
