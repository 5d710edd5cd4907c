/*
 * Frames (docs/spec/frame-format.md): header parsing, encoding, decoding.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Header                                                                    */

/*
 * Check 3 of docs/spec/frame-format.md: a header's sizes against the limits. The
 * reader makes it before anything is allocated for the body; the writer
 * makes it on the frame it is about to write, so it writes nothing a reader
 * with the same limits refuses.
 */
static imcodec_ref_status check_sizes(const imcodec_ref__header *header, const imcodec_ref_limits *limits,
                                      imcodec_ref_error *err) {
    if (header->body_len > limits->max_frame_bytes) {
        return imcodec_ref__fail_limit(err, "limit.frame-size", limits->max_frame_bytes, header->body_len,
                                       "a frame body of %u bytes is larger than %llu", (unsigned)header->body_len,
                                       (unsigned long long)limits->max_frame_bytes);
    }
    if (header->compression != 0) {
        if (header->payload_len > limits->max_inflated_bytes) {
            return imcodec_ref__fail_limit(err, "limit.inflated-size", limits->max_inflated_bytes, header->payload_len,
                                           "the frame declares a payload of %u bytes, more than %llu",
                                           (unsigned)header->payload_len,
                                           (unsigned long long)limits->max_inflated_bytes);
        }
        /* body < 2^32 and a ratio above 2^32 allows everything, so the product cannot overflow. */
        uint64_t ratio = limits->max_inflate_ratio;
        if (ratio < ((uint64_t)1 << 32) && header->payload_len > (uint64_t)header->body_len * ratio) {
            /* The observed ratio, rounded up; an empty body counts as one byte. */
            uint64_t body = header->body_len > 0 ? header->body_len : 1;
            uint64_t observed = ((uint64_t)header->payload_len + body - 1) / body;
            return imcodec_ref__fail_limit(err, "limit.inflate-ratio", ratio, observed,
                                           "the frame declares %u payload bytes from a body of %u",
                                           (unsigned)header->payload_len, (unsigned)header->body_len);
        }
    }
    return IMCODEC_REF_OK;
}

/*
 * A header varint: at most 5 bytes, at most 2^32 - 1, minimal. Returns OK,
 * NEED_MORE when the bytes end inside it, or ERROR frame.varint.
 */
static imcodec_ref_status read_header_varint(const unsigned char *bytes, size_t len, size_t *pos, uint32_t *value,
                                             const char *what, imcodec_ref_error *err) {
    uint32_t result = 0;
    for (unsigned i = 0; i < 5; i++) {
        if (*pos + i >= len) return IMCODEC_REF_NEED_MORE;
        unsigned char b = bytes[*pos + i];
        /* The fifth byte holds bits 28-31: anything more is too long or too large. */
        if (i == 4 && b > 0x0f) {
            return imcodec_ref__fail(err, "frame.varint", "the %s varint is longer than 5 bytes or above 2^32 - 1",
                                     what);
        }
        result |= (uint32_t)(b & 0x7f) << (7 * i);
        if ((b & 0x80) == 0) {
            if (i > 0 && b == 0) return imcodec_ref__fail(err, "frame.varint", "the %s varint is not minimal", what);
            *pos += i + 1;
            *value = result;
            return IMCODEC_REF_OK;
        }
    }
    return imcodec_ref__fail(err, "frame.varint", "the %s varint is longer than 5 bytes", what); /* not reached */
}

imcodec_ref_status imcodec_ref__parse_header(const unsigned char *bytes, size_t len, const imcodec_ref_limits *limits,
                                             imcodec_ref__header *header, imcodec_ref_error *err) {
    memset(header, 0, sizeof *header);
    /* Check 1: version, flags, reserved bits. */
    if (len < 2) return IMCODEC_REF_NEED_MORE;
    if (bytes[0] != 0x01) return imcodec_ref__fail(err, "frame.version", "frame version %u is not 1", bytes[0]);
    unsigned flags = bytes[1];
    header->kind = flags & 0x03;
    header->compression = (flags >> 2) & 0x03;
    if (header->kind == 0) return imcodec_ref__fail(err, "frame.kind", "frame kind 0 is not defined");
    if (header->compression > 2) {
        return imcodec_ref__fail(err, "frame.compression", "compression %u is not defined", header->compression);
    }
    if (flags & 0xe0)
        return imcodec_ref__fail(err, "frame.reserved-bits", "reserved flag bits are set (flags 0x%02x)", flags);

    /* Check 2: the header varints. */
    size_t pos = 2;
    imcodec_ref_status st;
    if (flags & 0x10) {
        /* The id is read first (frame.truncated, frame.varint), then judged:
           a dictionary on a stored frame, id 0 or an unknown id. */
        st = read_header_varint(bytes, len, &pos, &header->dictionary_id, "dictionary id", err);
        if (st != IMCODEC_REF_OK) return st;
        if (header->compression == 0) {
            return imcodec_ref__fail(err, "frame.dictionary", "the dictionary bit is set on an uncompressed frame");
        }
        if (!imcodec_ref_dictionary(header->dictionary_id, NULL, NULL)) {
            return imcodec_ref__fail(err, "frame.dictionary", "dictionary %u is not known",
                                     (unsigned)header->dictionary_id);
        }
    }
    st = read_header_varint(bytes, len, &pos, &header->body_len, "body length", err);
    if (st != IMCODEC_REF_OK) return st;
    header->payload_len = header->body_len;
    if (header->compression != 0) {
        st = read_header_varint(bytes, len, &pos, &header->payload_len, "payload length", err);
        if (st != IMCODEC_REF_OK) return st;
    }
    /* The checksum completes the header; the limits are checked on a whole header. */
    if (len - pos < 4) return IMCODEC_REF_NEED_MORE;
    header->header_len = pos;
    header->checksum = (uint32_t)bytes[pos] | (uint32_t)bytes[pos + 1] << 8 | (uint32_t)bytes[pos + 2] << 16 |
                       (uint32_t)bytes[pos + 3] << 24;
    header->frame_len = pos + 4 + (size_t)header->body_len;

    /* Check 3: the declared sizes, before anything is allocated for the body. */
    return check_sizes(header, limits, err);
}

/* ------------------------------------------------------------------------ */
/* Decoding                                                                  */

/*
 * Checks 5 and 6 on a complete frame: the payload bytes (inflated into a new
 * buffer, or pointing into the frame) and the checksum. *owned is the buffer
 * to free, NULL when the payload points into the frame.
 */
static imcodec_ref_status frame_payload(imcodec_ref_codec *codec, const unsigned char *frame,
                                        const imcodec_ref__header *header, const unsigned char **payload,
                                        unsigned char **owned, imcodec_ref_error *err) {
    const unsigned char *body = frame + header->header_len + 4;
    *owned = NULL;
    *payload = body;
    if (header->compression != 0) {
        const unsigned char *dictionary = NULL;
        size_t dictionary_len = 0;
        if (header->dictionary_id != 0) imcodec_ref_dictionary(header->dictionary_id, &dictionary, &dictionary_len);
        /* Exactly the declared size, which check 3 bounded. */
        unsigned char *buffer = malloc(header->payload_len > 0 ? header->payload_len : 1);
        if (buffer == NULL) return imcodec_ref__status(err, IMCODEC_REF_NO_MEMORY, "out of memory for the payload");
        imcodec_ref_status st;
        if (header->compression == 1) {
            st = imcodec_ref__inflate(codec, body, header->body_len, dictionary, dictionary_len, buffer,
                                      header->payload_len, err);
        } else {
            imcodec_ref__zstd *local = NULL;
            imcodec_ref__zstd **slot = codec != NULL ? imcodec_ref__codec_zstd(codec) : &local;
            st = imcodec_ref__zstd_decompress(slot, header->dictionary_id, body, header->body_len, buffer,
                                              header->payload_len, err);
            imcodec_ref__zstd_free(local);
        }
        if (st != IMCODEC_REF_OK) {
            free(buffer);
            return st;
        }
        *owned = buffer;
        *payload = buffer;
    }
    uLong crc = crc32_z(0L, Z_NULL, 0);
    crc = crc32_z(crc, frame, header->header_len);
    if (header->payload_len > 0) crc = crc32_z(crc, *payload, header->payload_len);
    if ((uint32_t)crc != header->checksum) {
        free(*owned);
        *owned = NULL;
        return imcodec_ref__fail(err, "frame.checksum", "checksum mismatch: stored 0x%08x, computed 0x%08x",
                                 (unsigned)header->checksum, (unsigned)crc);
    }
    return IMCODEC_REF_OK;
}

imcodec_ref_status imcodec_ref__decode_body(imcodec_ref_codec *codec, const unsigned char *frame,
                                            const imcodec_ref__header *header, const imcodec_ref_limits *limits,
                                            unsigned char **payload, size_t *payload_len, imcodec_ref_error *err) {
    const unsigned char *bytes;
    unsigned char *owned;
    imcodec_ref_status st = frame_payload(codec, frame, header, &bytes, &owned, err);
    if (st != IMCODEC_REF_OK) return st;
    st = imcodec_ref_decode_payload((imcodec_ref_kind)header->kind, bytes, header->payload_len, limits, payload,
                                    payload_len, err);
    free(owned);
    return st;
}

imcodec_ref_status imcodec_ref_decode_frame(imcodec_ref_codec *codec, const unsigned char *bytes, size_t len,
                                            const imcodec_ref_limits *limits, imcodec_ref_kind *kind,
                                            imcodec_ref_compression *compression, uint32_t *dictionary_id,
                                            unsigned char **payload, size_t *payload_len, imcodec_ref_error *err) {
    if (payload == NULL || payload_len == NULL) {
        return imcodec_ref__status(err, IMCODEC_REF_MISUSE, "payload and payload_len are required");
    }
    *payload = NULL;
    *payload_len = 0;
    if (bytes == NULL && len > 0) return imcodec_ref__status(err, IMCODEC_REF_MISUSE, "bytes is NULL");
    imcodec_ref_limits defaults = imcodec_ref_limits_default();
    if (limits == NULL) limits = &defaults;

    imcodec_ref__header header;
    imcodec_ref_status st = imcodec_ref__parse_header(bytes, len, limits, &header, err);
    if (st == IMCODEC_REF_NEED_MORE) {
        return imcodec_ref__fail(err, "frame.truncated", "the input ends inside the frame header after %zu bytes", len);
    }
    if (st != IMCODEC_REF_OK) return st;
    /* Check 4. */
    if (len < header.frame_len) {
        return imcodec_ref__fail(err, "frame.truncated", "the input ends after %zu of the frame's %zu bytes", len,
                                 header.frame_len);
    }
    const unsigned char *frame_bytes;
    unsigned char *owned;
    st = frame_payload(codec, bytes, &header, &frame_bytes, &owned, err);
    if (st != IMCODEC_REF_OK) return st;
    /* Trailing bytes are a property of the frame, checked before its payload is decoded. */
    if (len > header.frame_len) {
        free(owned);
        return imcodec_ref__fail(err, "frame.trailing-bytes", "%zu bytes follow the %zu-byte frame",
                                 len - header.frame_len, header.frame_len);
    }
    st = imcodec_ref_decode_payload((imcodec_ref_kind)header.kind, frame_bytes, header.payload_len, limits, payload,
                                    payload_len, err);
    free(owned);
    if (st != IMCODEC_REF_OK) return st;
    if (kind != NULL) *kind = (imcodec_ref_kind)header.kind;
    if (compression != NULL) *compression = (imcodec_ref_compression)header.compression;
    if (dictionary_id != NULL) *dictionary_id = header.dictionary_id;
    return IMCODEC_REF_OK;
}

/* ------------------------------------------------------------------------ */
/* Encoding                                                                  */

static size_t put_varint(unsigned char *out, uint32_t value) {
    size_t n = 0;
    while (value >= 0x80) {
        out[n++] = (unsigned char)(value | 0x80);
        value >>= 7;
    }
    out[n++] = (unsigned char)value;
    return n;
}

imcodec_ref_status imcodec_ref_encode_frame(imcodec_ref_codec *codec, imcodec_ref_kind kind,
                                            const unsigned char *payload, size_t len,
                                            imcodec_ref_compression compression, uint64_t threshold, int level,
                                            uint32_t dictionary_id, const imcodec_ref_limits *limits,
                                            unsigned char **out, size_t *out_len, imcodec_ref_error *err) {
    static const unsigned char empty[1] = {0};
    const imcodec_ref_limits lim = limits != NULL ? *limits : imcodec_ref_limits_default();
    if (out == NULL || out_len == NULL)
        return imcodec_ref__status(err, IMCODEC_REF_MISUSE, "out and out_len are required");
    *out = NULL;
    *out_len = 0;
    if (payload == NULL && len > 0) return imcodec_ref__status(err, IMCODEC_REF_MISUSE, "payload is NULL");
    if (payload == NULL) payload = empty;
    if (kind < 1 || kind > 3) return imcodec_ref__fail(err, "frame.kind", "frame kind %d is not 1, 2 or 3", (int)kind);
    if (compression != IMCODEC_REF_COMPRESSION_NONE && compression != IMCODEC_REF_COMPRESSION_DEFLATE &&
        compression != IMCODEC_REF_COMPRESSION_ZSTD) {
        return imcodec_ref__fail(err, "frame.compression", "compression %d is not 0, 1 or 2", (int)compression);
    }
    if (compression == IMCODEC_REF_COMPRESSION_ZSTD) {
        if (!imcodec_ref_zstd_available()) {
            return imcodec_ref__fail(err, "frame.zstd-unavailable", "zstd asked for, and this build has no libzstd");
        }
        if (level < 0 || level > 19)
            return imcodec_ref__status(err, IMCODEC_REF_MISUSE, "zstd level %d is not 0-19", level);
    } else if (compression == IMCODEC_REF_COMPRESSION_DEFLATE && (level < 0 || level > 9)) {
        return imcodec_ref__status(err, IMCODEC_REF_MISUSE, "zlib level %d is not 0-9", level);
    }
    const unsigned char *dictionary = NULL;
    size_t dictionary_len = 0;
    if (dictionary_id != 0 && !imcodec_ref_dictionary(dictionary_id, &dictionary, &dictionary_len)) {
        return imcodec_ref__fail(err, "frame.dictionary", "dictionary %u is not known", (unsigned)dictionary_id);
    }
    if (len > UINT32_MAX)
        return imcodec_ref__status(err, IMCODEC_REF_MISUSE, "a payload of %zu bytes does not fit a frame", len);
    /* The stored frame, the one written when compression is not kept. */
    imcodec_ref__header stored = {.kind = (unsigned)kind, .body_len = (uint32_t)len, .payload_len = (uint32_t)len};
    /* A payload past max_inflated_bytes is never kept compressed, so when the
       stored frame is refused too, no frame of it is accepted. */
    if ((uint64_t)len > lim.max_inflated_bytes) {
        imcodec_ref_status st = check_sizes(&stored, &lim, err);
        if (st != IMCODEC_REF_OK) return st;
    }

    /* Room for the longest header, then the body: at most the payload. */
    unsigned char *frame = malloc(IMCODEC_REF__MAX_HEADER + len);
    if (frame == NULL) return imcodec_ref__status(err, IMCODEC_REF_NO_MEMORY, "out of memory for the frame");

    /* Compress into a scratch buffer one byte smaller than the payload: a body that does not fit is not worth it. */
    unsigned char *body = NULL;
    size_t body_len = 0;
    int deflated = 0;
    if (compression != IMCODEC_REF_COMPRESSION_NONE && (uint64_t)len >= threshold && len > 1 &&
        (uint64_t)len <= lim.max_inflated_bytes) {
        body = malloc(len - 1);
        if (body == NULL) {
            free(frame);
            return imcodec_ref__status(err, IMCODEC_REF_NO_MEMORY, "out of memory for the body");
        }
        int fit;
        if (compression == IMCODEC_REF_COMPRESSION_DEFLATE) {
            fit = imcodec_ref__deflate(codec, level == 0 ? Z_DEFAULT_COMPRESSION : level, dictionary, dictionary_len,
                                       payload, len, body, len - 1, &body_len);
        } else {
            imcodec_ref__zstd *local = NULL;
            imcodec_ref__zstd **slot = codec != NULL ? imcodec_ref__codec_zstd(codec) : &local;
            fit = imcodec_ref__zstd_compress(slot, level == 0 ? 3 : level, dictionary_id, payload, len, body, len - 1,
                                             &body_len);
            imcodec_ref__zstd_free(local);
        }
        if (fit < 0) {
            free(body);
            free(frame);
            return imcodec_ref__status(err, IMCODEC_REF_NO_MEMORY, "compression failed");
        }
        /* A body the readers would refuse (too large, inflating past their
           size or ratio limit) is not kept: the payload is stored instead. */
        imcodec_ref__header compressed = {.kind = (unsigned)kind,
                                          .compression = (unsigned)compression,
                                          .body_len = (uint32_t)body_len,
                                          .payload_len = (uint32_t)len};
        deflated = fit == 1 && check_sizes(&compressed, &lim, NULL) == IMCODEC_REF_OK;
    }
    if (!deflated) {
        imcodec_ref_status st = check_sizes(&stored, &lim, err);
        if (st != IMCODEC_REF_OK) {
            free(body);
            free(frame);
            return st;
        }
    }

    size_t pos = 0;
    frame[pos++] = 0x01;
    frame[pos++] = (unsigned char)((unsigned)kind | (deflated ? (unsigned)compression << 2 : 0u) |
                                   (deflated && dictionary_id ? 0x10u : 0u));
    if (deflated && dictionary_id != 0) pos += put_varint(frame + pos, dictionary_id);
    pos += put_varint(frame + pos, (uint32_t)(deflated ? body_len : len));
    if (deflated) pos += put_varint(frame + pos, (uint32_t)len);
    uLong crc = crc32_z(0L, Z_NULL, 0);
    crc = crc32_z(crc, frame, pos);
    if (len > 0) crc = crc32_z(crc, payload, len);
    frame[pos++] = (unsigned char)(crc & 0xff);
    frame[pos++] = (unsigned char)((crc >> 8) & 0xff);
    frame[pos++] = (unsigned char)((crc >> 16) & 0xff);
    frame[pos++] = (unsigned char)((crc >> 24) & 0xff);
    if (deflated) {
        memcpy(frame + pos, body, body_len);
        pos += body_len;
    } else if (len > 0) {
        memcpy(frame + pos, payload, len);
        pos += len;
    }
    free(body);
    *out = frame;
    *out_len = pos;
    return IMCODEC_REF_OK;
}
