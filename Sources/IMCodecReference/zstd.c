/*
 * zstd bodies (docs/spec/frame-format.md, "zstd bodies"): magicless frames without the
 * content size, checksum and dictionary id fields, contexts reused across
 * frames, each dictionary digested once. A reader judges the zstd header
 * before libzstd does, and a compressed block whole, with room for a whole
 * block: the answer never depends on the room libzstd is given. Without
 * IMCODEC_REF_ZSTD (a build with no libzstd) every zstd body is
 * frame.zstd-unavailable.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#ifdef IMCODEC_REF_ZSTD
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>
#include <zstd_errors.h>

/* The largest window a reader accepts: 8 MiB. Levels 1-19 never need more. */
enum { MAX_WINDOW_LOG = 23, MAX_DICTIONARIES = 16 };

struct imcodec_ref__zstd {
    ZSTD_CCtx *cctx;
    ZSTD_DCtx *dctx;
    /* Digested dictionaries: compression ones per (id, level), decompression ones per id. */
    struct {
        uint32_t id;
        int level;
        ZSTD_CDict *dict;
    } cdicts[MAX_DICTIONARIES];
    struct {
        uint32_t id;
        ZSTD_DDict *dict;
    } ddicts[MAX_DICTIONARIES];
};

void imcodec_ref__zstd_free(imcodec_ref__zstd *z) {
    if (z == NULL) return;
    ZSTD_freeCCtx(z->cctx);
    ZSTD_freeDCtx(z->dctx);
    for (int i = 0; i < MAX_DICTIONARIES; i++) {
        ZSTD_freeCDict(z->cdicts[i].dict);
        ZSTD_freeDDict(z->ddicts[i].dict);
    }
    free(z);
}

static imcodec_ref__zstd *zstd_state(imcodec_ref__zstd **slot) {
    if (*slot == NULL) *slot = calloc(1, sizeof **slot);
    return *slot;
}

static const ZSTD_CDict *cdict_for(imcodec_ref__zstd *z, uint32_t id, int level) {
    int free_slot = -1;
    for (int i = 0; i < MAX_DICTIONARIES; i++) {
        if (z->cdicts[i].dict != NULL && z->cdicts[i].id == id && z->cdicts[i].level == level) return z->cdicts[i].dict;
        if (z->cdicts[i].dict == NULL && free_slot < 0) free_slot = i;
    }
    const unsigned char *bytes;
    size_t len;
    if (!imcodec_ref_dictionary(id, &bytes, &len)) return NULL;
    ZSTD_CDict *dict = ZSTD_createCDict(bytes, len, level);
    if (dict == NULL) return NULL;
    if (free_slot < 0) {
        /* More (id, level) pairs than slots: start again. */
        for (int i = 0; i < MAX_DICTIONARIES; i++) {
            ZSTD_freeCDict(z->cdicts[i].dict);
            z->cdicts[i].dict = NULL;
        }
        free_slot = 0;
    }
    z->cdicts[free_slot].id = id;
    z->cdicts[free_slot].level = level;
    z->cdicts[free_slot].dict = dict;
    return dict;
}

static const ZSTD_DDict *ddict_for(imcodec_ref__zstd *z, uint32_t id) {
    for (int i = 0; i < MAX_DICTIONARIES; i++) {
        if (z->ddicts[i].dict != NULL && z->ddicts[i].id == id) return z->ddicts[i].dict;
    }
    for (int i = 0; i < MAX_DICTIONARIES; i++) {
        if (z->ddicts[i].dict != NULL) continue;
        const unsigned char *bytes;
        size_t len;
        if (!imcodec_ref_dictionary(id, &bytes, &len)) return NULL;
        z->ddicts[i].id = id;
        z->ddicts[i].dict = ZSTD_createDDict(bytes, len);
        return z->ddicts[i].dict;
    }
    return NULL; /* more dictionaries than slots: not reached with the shipped ids */
}

int imcodec_ref__zstd_compress(imcodec_ref__zstd **slot, int level, uint32_t dictionary_id, const unsigned char *in,
                               size_t in_len, unsigned char *out, size_t cap, size_t *out_len) {
    imcodec_ref__zstd *z = zstd_state(slot);
    if (z == NULL) return -1;
    if (z->cctx == NULL) {
        z->cctx = ZSTD_createCCtx();
        if (z->cctx == NULL) return -1;
    }
    ZSTD_CCtx *c = z->cctx;
    ZSTD_CCtx_reset(c, ZSTD_reset_session_and_parameters);
    if (ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_format, ZSTD_f_zstd1_magicless)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 0)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 0)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_dictIDFlag, 0))) {
        return -1;
    }
    if (dictionary_id != 0) {
        const ZSTD_CDict *dict = cdict_for(z, dictionary_id, level);
        if (dict == NULL || ZSTD_isError(ZSTD_CCtx_refCDict(c, dict))) return -1;
    }
    if (cap == 0) return 0;
    size_t written = ZSTD_compress2(c, out, cap, in, in_len);
    if (ZSTD_isError(written)) return ZSTD_getErrorCode(written) == ZSTD_error_dstSize_tooSmall ? 0 : -1;
    *out_len = written;
    return 1;
}

/* A libzstd error while decoding: frame.zstd, but for memory. */
static imcodec_ref_status decode_error(size_t ret, imcodec_ref_error *err) {
    if (ZSTD_getErrorCode(ret) == ZSTD_error_memory_allocation) {
        return imcodec_ref__status(err, IMCODEC_REF_NO_MEMORY, "zstd ran out of memory");
    }
    return imcodec_ref__fail(err, "frame.zstd", "the zstd frame is corrupt: %s", ZSTD_getErrorName(ret));
}

static imcodec_ref_status too_long(size_t out_len, imcodec_ref_error *err) {
    return imcodec_ref__fail(err, "frame.payload-length", "the zstd frame produces more than the declared %zu bytes",
                             out_len);
}

/*
 * Step 1: the zstd frame header, judged whole before any block: input that
 * ends inside it or a reserved bit (frame.zstd), the window (frame.zstd-window,
 * a single-segment frame's window being its content size), a dictionary id
 * other than the named dictionary's (frame.zstd), a content size other than
 * the payload length (frame.payload-length).
 */
static imcodec_ref_status check_header(const unsigned char *body, size_t body_len, size_t out_len,
                                       const ZSTD_DDict *dict, ZSTD_frameHeader *zfh, imcodec_ref_error *err) {
    size_t ret = ZSTD_getFrameHeader_advanced(zfh, body, body_len, ZSTD_f_zstd1_magicless);
    if (ZSTD_isError(ret) && ZSTD_getErrorCode(ret) == ZSTD_error_frameParameter_windowTooLarge) {
        return imcodec_ref__fail(err, "frame.zstd-window", "the zstd frame's window is larger than 2^%d",
                                 MAX_WINDOW_LOG);
    }
    if (ZSTD_isError(ret)) return decode_error(ret, err);
    if (ret != 0) return imcodec_ref__fail(err, "frame.zstd", "the body ends inside the zstd frame header");
    if (zfh->windowSize > (1ull << MAX_WINDOW_LOG)) {
        return imcodec_ref__fail(err, "frame.zstd-window", "the zstd frame's window is larger than 2^%d",
                                 MAX_WINDOW_LOG);
    }
    if (zfh->dictID != 0 && zfh->dictID != (dict != NULL ? ZSTD_getDictID_fromDDict(dict) : 0)) {
        return imcodec_ref__fail(err, "frame.zstd", "the zstd frame names dictionary id %u", zfh->dictID);
    }
    if (zfh->frameContentSize != ZSTD_CONTENTSIZE_UNKNOWN && zfh->frameContentSize != out_len) {
        return imcodec_ref__fail(err, "frame.payload-length", "the zstd frame's content size is %llu, not %zu",
                                 zfh->frameContentSize, out_len);
    }
    return IMCODEC_REF_OK;
}

/* Feeds body[*pos, end) to the decoder; an error is frame.zstd. */
static imcodec_ref_status feed(ZSTD_DCtx *d, ZSTD_outBuffer *output, const unsigned char *body, size_t *pos,
                               size_t end, imcodec_ref_error *err) {
    ZSTD_inBuffer in = {body, end, *pos};
    while (in.pos < in.size) {
        size_t before = in.pos;
        size_t ret = ZSTD_decompressStream(d, output, &in);
        if (ZSTD_isError(ret)) return decode_error(ret, err);
        if (in.pos == before) break; /* the frame ended: what is left is judged by the caller */
    }
    *pos = in.pos;
    return IMCODEC_REF_OK;
}

/*
 * Steps 2 and 3 block by block, the rule itself: each block's header is read
 * here, and the block is given to zstd whole, with room for a whole block past
 * the payload length, so that whether a compressed block is corrupt never
 * depends on the room left (frame.zstd whatever it would have written), and a
 * sound block that goes past the payload length is frame.payload-length.
 * Memory: the payload length plus one block (at most 128 KiB).
 */
static imcodec_ref_status decode_by_block(ZSTD_DCtx *d, const ZSTD_DDict *dict, const ZSTD_frameHeader *zfh,
                                          const unsigned char *body, size_t body_len, unsigned char *out,
                                          size_t out_len, imcodec_ref_error *err) {
    size_t block_max = zfh->blockSizeMax;
    unsigned char *room = malloc(out_len + block_max + 1);
    if (room == NULL) return imcodec_ref__status(err, IMCODEC_REF_NO_MEMORY, "out of memory for zstd");
    ZSTD_DCtx_reset(d, ZSTD_reset_session_only);
    ZSTD_DCtx_refDDict(d, dict);
    ZSTD_outBuffer output = {room, out_len + block_max, 0};
    size_t pos = 0;
    /* The header alone first, so that libzstd never decodes the frame in one
       pass (it does, when a content size is given), where it skips the
       block-size checks. */
    imcodec_ref_status st = feed(d, &output, body, &pos, zfh->headerSize, err);
    for (int last = 0; st == IMCODEC_REF_OK && !last;) {
        if (body_len - pos < 3) {
            st = imcodec_ref__fail(err, "frame.zstd", "the body ends inside a zstd block header");
            break;
        }
        uint32_t header = (uint32_t)body[pos] | (uint32_t)body[pos + 1] << 8 | (uint32_t)body[pos + 2] << 16;
        unsigned type = (header >> 1) & 3;
        size_t size = header >> 3, stored = type == 1 ? 1 : size;
        size_t available = body_len - pos - 3 < stored ? body_len - pos - 3 : stored;
        last = header & 1;
        if (type == 3) {
            st = imcodec_ref__fail(err, "frame.zstd", "a zstd block of the reserved type 3");
        } else if (size > block_max) {
            st = imcodec_ref__fail(err, "frame.zstd", "a zstd block of %zu bytes, past its maximum of %zu", size,
                                   block_max);
        } else if (type == 0 && output.pos + available > out_len) {
            st = too_long(out_len, err); /* a raw block is copied as its bytes arrive */
        } else if (available < stored) {
            st = imcodec_ref__fail(err, "frame.zstd", "the body ends inside a zstd block");
        } else if (type == 1 && output.pos + size > out_len) {
            st = too_long(out_len, err);
        } else {
            st = feed(d, &output, body, &pos, pos + 3 + stored, err);
            if (st == IMCODEC_REF_OK && output.pos > out_len) st = too_long(out_len, err);
        }
    }
    if (st == IMCODEC_REF_OK && zfh->checksumFlag) {
        if (body_len - pos < 4) {
            st = imcodec_ref__fail(err, "frame.zstd", "the body ends inside the zstd content checksum");
        } else {
            st = feed(d, &output, body, &pos, pos + 4, err);
        }
    }
    if (st == IMCODEC_REF_OK && pos != body_len) {
        st = imcodec_ref__fail(err, "frame.zstd", "the zstd frame ends %zu bytes before the body does", body_len - pos);
    }
    if (st == IMCODEC_REF_OK && output.pos != out_len) {
        st = imcodec_ref__fail(err, "frame.payload-length", "the zstd frame produces %zu bytes, not the declared %zu",
                               output.pos, out_len);
    }
    if (st == IMCODEC_REF_OK && out_len > 0) memcpy(out, room, out_len);
    free(room);
    return st;
}

imcodec_ref_status imcodec_ref__zstd_decompress(imcodec_ref__zstd **slot, uint32_t dictionary_id,
                                                const unsigned char *body, size_t body_len, unsigned char *out,
                                                size_t out_len, imcodec_ref_error *err) {
    imcodec_ref__zstd *z = zstd_state(slot);
    if (z == NULL) return imcodec_ref__status(err, IMCODEC_REF_NO_MEMORY, "out of memory for zstd");
    if (z->dctx == NULL) {
        z->dctx = ZSTD_createDCtx();
        if (z->dctx == NULL) return imcodec_ref__status(err, IMCODEC_REF_NO_MEMORY, "out of memory for zstd");
        /* Decoding straight into the payload buffer allocates no window:
           memory is the declared payload length, which check 3 bounded. */
        if (ZSTD_isError(ZSTD_DCtx_setParameter(z->dctx, ZSTD_d_format, ZSTD_f_zstd1_magicless)) ||
            ZSTD_isError(ZSTD_DCtx_setParameter(z->dctx, ZSTD_d_windowLogMax, MAX_WINDOW_LOG)) ||
            ZSTD_isError(ZSTD_DCtx_setParameter(z->dctx, ZSTD_d_stableOutBuffer, 1))) {
            return imcodec_ref__status(err, IMCODEC_REF_NO_MEMORY, "libzstd refused the frame parameters");
        }
    }
    ZSTD_DCtx *d = z->dctx;
    const ZSTD_DDict *dict = NULL;
    if (dictionary_id != 0) {
        dict = ddict_for(z, dictionary_id);
        if (dict == NULL) return imcodec_ref__status(err, IMCODEC_REF_NO_MEMORY, "out of memory for a dictionary");
    }
    ZSTD_frameHeader zfh;
    imcodec_ref_status st = check_header(body, body_len, out_len, dict, &zfh, err);
    if (st != IMCODEC_REF_OK) return st;
    /* A frame with a content size (writers leave it out) is decoded block by block. */
    if (zfh.frameContentSize != ZSTD_CONTENTSIZE_UNKNOWN) {
        return decode_by_block(d, dict, &zfh, body, body_len, out, out_len, err);
    }
    /* Otherwise in one pass into exactly the payload, which gives the rule's
       answer unless zstd runs out of room: then whether the block was sound
       is judged block by block with room to spare. */
    ZSTD_DCtx_reset(d, ZSTD_reset_session_only);
    ZSTD_DCtx_refDDict(d, dict);
    unsigned char spare[1];
    ZSTD_inBuffer in = {body, body_len, 0};
    ZSTD_outBuffer output = {out_len > 0 ? out : spare, out_len, 0};
    for (;;) {
        size_t in_pos = in.pos, out_pos = output.pos;
        size_t ret = ZSTD_decompressStream(d, &output, &in);
        if (ZSTD_isError(ret)) {
            if (ZSTD_getErrorCode(ret) == ZSTD_error_dstSize_tooSmall) {
                return decode_by_block(d, dict, &zfh, body, body_len, out, out_len, err);
            }
            return decode_error(ret, err);
        }
        if (ret == 0) {
            if (in.pos != in.size) {
                return imcodec_ref__fail(err, "frame.zstd", "the zstd frame ends %zu bytes before the body does",
                                         in.size - in.pos);
            }
            if (output.pos != output.size) {
                return imcodec_ref__fail(err, "frame.payload-length",
                                         "the zstd frame produces %zu bytes, not the declared %zu", output.pos,
                                         out_len);
            }
            return IMCODEC_REF_OK;
        }
        if (in.pos == in.size || (in.pos == in_pos && output.pos == out_pos)) {
            return imcodec_ref__fail(err, "frame.zstd", "the body ends before the zstd frame does");
        }
    }
}

#else /* no libzstd */

void imcodec_ref__zstd_free(imcodec_ref__zstd *z) {
    (void)z;
}

int imcodec_ref__zstd_compress(imcodec_ref__zstd **slot, int level, uint32_t dictionary_id, const unsigned char *in,
                               size_t in_len, unsigned char *out, size_t cap, size_t *out_len) {
    (void)slot, (void)level, (void)dictionary_id, (void)in, (void)in_len, (void)out, (void)cap, (void)out_len;
    return -2;
}

imcodec_ref_status imcodec_ref__zstd_decompress(imcodec_ref__zstd **slot, uint32_t dictionary_id,
                                                const unsigned char *body, size_t body_len, unsigned char *out,
                                                size_t out_len, imcodec_ref_error *err) {
    (void)slot, (void)dictionary_id, (void)body, (void)body_len, (void)out, (void)out_len;
    return imcodec_ref__fail(err, "frame.zstd-unavailable", "a zstd frame, and this build has no libzstd");
}

#endif

int imcodec_ref_zstd_available(void) {
#ifdef IMCODEC_REF_ZSTD
    return 1;
#else
    return 0;
#endif
}
