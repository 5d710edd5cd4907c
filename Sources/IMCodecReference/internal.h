/*
 * Declarations shared between the library's source files; not installed.
 */
#ifndef IMCODEC_REF_INTERNAL_H
#define IMCODEC_REF_INTERNAL_H

#include "imcodec_ref.h"

#include <protobuf-c/protobuf-c.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* next_in is const: the library never writes to its input. */
#ifndef ZLIB_CONST
#define ZLIB_CONST
#endif
#include <zlib.h>

/* Sets an error's code and reason (printf-style); path empty, no limit. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
imcodec_ref_status
imcodec_ref__fail(imcodec_ref_error *err, const char *code, const char *format, ...);

/* Like imcodec_ref__fail, for a limit.* code with its limit and observed value. */
#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
imcodec_ref_status
imcodec_ref__fail_limit(imcodec_ref_error *err, const char *code, uint64_t limit, uint64_t observed, const char *format,
                        ...);

/* Sets a non-ERROR status (MISUSE, UNSUPPORTED, NO_MEMORY) with a reason; empty code. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
imcodec_ref_status
imcodec_ref__status(imcodec_ref_error *err, imcodec_ref_status status, const char *format, ...);

/* The descriptor of a payload kind, or NULL. */
const ProtobufCMessageDescriptor *imcodec_ref__kind_descriptor(imcodec_ref_kind kind);

/* Header fields of a frame, as parsed by imcodec_ref__parse_header. */
typedef struct imcodec_ref__header {
    unsigned kind;
    unsigned compression;
    uint32_t dictionary_id; /* 0 when absent */
    uint32_t body_len;
    uint32_t payload_len; /* the body length when not compressed */
    size_t header_len;    /* bytes before the checksum */
    uint32_t checksum;
    size_t frame_len; /* header + checksum + body */
} imcodec_ref__header;

/*
 * Checks 1-3 of docs/spec/frame-format.md on the bytes available. Returns OK with the
 * header, ERROR, or NEED_MORE when the bytes end inside the header and no
 * error is determined yet (a single-frame decoder turns that into
 * frame.truncated).
 */
imcodec_ref_status imcodec_ref__parse_header(const unsigned char *bytes, size_t len, const imcodec_ref_limits *limits,
                                             imcodec_ref__header *header, imcodec_ref_error *err);

/* The longest possible header including the checksum: 2 + 5 + 5 + 5 + 4. */
#define IMCODEC_REF__MAX_HEADER 21

/*
 * Checks 4-7 on a complete frame of exactly header->frame_len bytes whose
 * header was parsed: inflate, checksum, payload decoding. Answers the
 * canonical payload.
 */
imcodec_ref_status imcodec_ref__decode_body(imcodec_ref_codec *codec, const unsigned char *frame,
                                            const imcodec_ref__header *header, const imcodec_ref_limits *limits,
                                            unsigned char **payload, size_t *payload_len, imcodec_ref_error *err);

/*
 * Inflates `body` into exactly `out_len` bytes (docs/spec/frame-format.md step 5).
 * Returns OK, ERROR (frame.deflate, frame.payload-length), NO_MEMORY.
 */
imcodec_ref_status imcodec_ref__inflate(imcodec_ref_codec *codec, const unsigned char *body, size_t body_len,
                                        const unsigned char *dictionary, size_t dictionary_len, unsigned char *out,
                                        size_t out_len, imcodec_ref_error *err);

/*
 * Deflates `in` with a raw stream into `out` of capacity `cap`. Returns 1 and
 * the length when the whole stream fit, 0 when it did not, -1 on a zlib
 * failure.
 */
int imcodec_ref__deflate(imcodec_ref_codec *codec, int level, const unsigned char *dictionary, size_t dictionary_len,
                         const unsigned char *in, size_t in_len, unsigned char *out, size_t cap, size_t *out_len);

/* zstd contexts and digested dictionaries of a codec (zstd.c). */
typedef struct imcodec_ref__zstd imcodec_ref__zstd;

/* Frees what *slot holds; NULL is allowed. */
void imcodec_ref__zstd_free(imcodec_ref__zstd *z);

/*
 * Compresses `in` into one magicless zstd frame in `out` of capacity `cap`,
 * creating the contexts in *slot on first use. Returns 1 and the length when
 * it fit, 0 when it did not, -1 on a libzstd failure, -2 when built without
 * libzstd.
 */
int imcodec_ref__zstd_compress(imcodec_ref__zstd **slot, int level, uint32_t dictionary_id, const unsigned char *in,
                               size_t in_len, unsigned char *out, size_t cap, size_t *out_len);

/*
 * Decompresses a zstd body into exactly `out_len` bytes (docs/spec/frame-format.md
 * step 5). Returns OK, ERROR (frame.zstd, frame.zstd-window,
 * frame.payload-length, frame.zstd-unavailable) or NO_MEMORY.
 */
imcodec_ref_status imcodec_ref__zstd_decompress(imcodec_ref__zstd **slot, uint32_t dictionary_id,
                                                const unsigned char *body, size_t body_len, unsigned char *out,
                                                size_t out_len, imcodec_ref_error *err);

/* The codec's zstd slot (codec.c); NULL for a NULL codec. */
imcodec_ref__zstd **imcodec_ref__codec_zstd(imcodec_ref_codec *codec);

#endif /* IMCODEC_REF_INTERNAL_H */
