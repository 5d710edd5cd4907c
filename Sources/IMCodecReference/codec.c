/*
 * zlib streams: raw deflate (windowBits -15), reused across frames.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

struct imcodec_ref_codec {
    z_stream deflater;
    int deflater_ready;
    int deflater_level;
    z_stream inflater;
    int inflater_ready;
    imcodec_ref__zstd *zstd;
};

imcodec_ref__zstd **imcodec_ref__codec_zstd(imcodec_ref_codec *codec) {
    return codec != NULL ? &codec->zstd : NULL;
}

/* memLevel 8 is zlib's default; 9 compresses no better on IM payloads. */
enum { MEM_LEVEL = 8, WINDOW_BITS = -15 };

imcodec_ref_codec *imcodec_ref_codec_new(void) {
    return calloc(1, sizeof(imcodec_ref_codec));
}

static void codec_release(imcodec_ref_codec *codec) {
    if (codec->deflater_ready) deflateEnd(&codec->deflater);
    if (codec->inflater_ready) inflateEnd(&codec->inflater);
    codec->deflater_ready = 0;
    codec->inflater_ready = 0;
    imcodec_ref__zstd_free(codec->zstd);
    codec->zstd = NULL;
}

void imcodec_ref_codec_free(imcodec_ref_codec *codec) {
    if (codec == NULL) return;
    codec_release(codec);
    free(codec);
}

/* Readies the deflater at `level`, set up once and reset afterwards. */
static int deflater_prepare(imcodec_ref_codec *codec, int level) {
    if (!codec->deflater_ready) {
        memset(&codec->deflater, 0, sizeof codec->deflater);
        if (deflateInit2(&codec->deflater, level, Z_DEFLATED, WINDOW_BITS, MEM_LEVEL, Z_DEFAULT_STRATEGY) != Z_OK) {
            return 0;
        }
        codec->deflater_ready = 1;
        codec->deflater_level = level;
        return 1;
    }
    if (deflateReset(&codec->deflater) != Z_OK) return 0;
    if (codec->deflater_level != level) {
        /* Right after a reset deflateParams only records the new level. */
        if (deflateParams(&codec->deflater, level, Z_DEFAULT_STRATEGY) != Z_OK) return 0;
        codec->deflater_level = level;
    }
    return 1;
}

int imcodec_ref__deflate(imcodec_ref_codec *codec, int level, const unsigned char *dictionary, size_t dictionary_len,
                         const unsigned char *in, size_t in_len, unsigned char *out, size_t cap, size_t *out_len) {
    static const unsigned char empty[1] = {0};
    imcodec_ref_codec local;
    imcodec_ref_codec *c = codec;
    if (c == NULL) {
        memset(&local, 0, sizeof local);
        c = &local;
    }
    int result = -1;
    if (in_len > UINT32_MAX || cap > UINT32_MAX || dictionary_len > UINT32_MAX) goto done;
    if (!deflater_prepare(c, level)) goto done;
    z_stream *z = &c->deflater;
    if (dictionary != NULL && deflateSetDictionary(z, dictionary, (uInt)dictionary_len) != Z_OK) goto done;
    z->next_in = in != NULL ? in : empty;
    z->avail_in = (uInt)in_len;
    unsigned char sink[1];
    z->next_out = cap > 0 ? out : sink;
    z->avail_out = (uInt)cap;
    int ret = deflate(z, Z_FINISH);
    if (ret == Z_STREAM_END) {
        *out_len = cap - z->avail_out;
        result = 1;
    } else if (ret == Z_OK || ret == Z_BUF_ERROR) {
        result = 0; /* did not fit */
    }
    z->next_out = NULL; /* the sink goes out of scope */
done:
    if (c == &local) codec_release(&local);
    return result;
}

imcodec_ref_status imcodec_ref__inflate(imcodec_ref_codec *codec, const unsigned char *body, size_t body_len,
                                        const unsigned char *dictionary, size_t dictionary_len, unsigned char *out,
                                        size_t out_len, imcodec_ref_error *err) {
    static const unsigned char empty[1] = {0};
    imcodec_ref_codec local;
    imcodec_ref_codec *c = codec;
    if (c == NULL) {
        memset(&local, 0, sizeof local);
        c = &local;
    }
    imcodec_ref_status st;
    if (body_len > UINT32_MAX || out_len > UINT32_MAX || dictionary_len > UINT32_MAX) {
        st = imcodec_ref__status(err, IMCODEC_REF_MISUSE, "lengths beyond 2^32 - 1");
        goto done;
    }
    if (!c->inflater_ready) {
        memset(&c->inflater, 0, sizeof c->inflater);
        int ret = inflateInit2(&c->inflater, WINDOW_BITS);
        if (ret != Z_OK) {
            st = imcodec_ref__status(err, IMCODEC_REF_NO_MEMORY, "inflateInit2 failed (%d)", ret);
            goto done;
        }
        c->inflater_ready = 1;
    } else if (inflateReset(&c->inflater) != Z_OK) {
        st = imcodec_ref__status(err, IMCODEC_REF_NO_MEMORY, "inflateReset failed");
        goto done;
    }
    z_stream *z = &c->inflater;
    if (dictionary != NULL && inflateSetDictionary(z, dictionary, (uInt)dictionary_len) != Z_OK) {
        st = imcodec_ref__fail(err, "frame.deflate", "the preset dictionary was refused");
        goto done;
    }

    unsigned char spare[1];
    z->next_in = body != NULL ? body : empty;
    z->avail_in = (uInt)body_len;
    z->next_out = out_len > 0 ? out : spare;
    z->avail_out = (uInt)out_len;
    int ret;
    int probing = 0;
    do {
        ret = inflate(z, Z_NO_FLUSH);
    } while (ret == Z_OK && z->avail_in > 0 && z->avail_out > 0);

    if (ret == Z_OK || ret == Z_BUF_ERROR) {
        if (z->avail_out > 0) {
            st = imcodec_ref__fail(err, "frame.deflate", "the body ends before the deflate stream does");
            goto done;
        }
        /* The buffer is full and the stream has not ended: one more byte of
           room tells a stream that wants to write more from one that ends or
           is cut short. */
        z->next_out = spare;
        z->avail_out = 1;
        probing = 1;
        ret = inflate(z, Z_NO_FLUSH);
        if (z->avail_out == 0) {
            st = imcodec_ref__fail(err, "frame.payload-length",
                                   "the deflate stream produces more than the declared %zu bytes", out_len);
            goto done;
        }
        if (ret == Z_OK || ret == Z_BUF_ERROR) {
            st = imcodec_ref__fail(err, "frame.deflate", "the body ends before the deflate stream does");
            goto done;
        }
    }
    if (ret == Z_STREAM_END) {
        if (z->avail_in > 0) {
            st = imcodec_ref__fail(err, "frame.deflate", "the deflate stream ends %u bytes before the body does",
                                   (unsigned)z->avail_in);
        } else if (!probing && z->avail_out > 0) {
            st = imcodec_ref__fail(err, "frame.payload-length",
                                   "the deflate stream produces %zu bytes, not the declared %zu",
                                   out_len - z->avail_out, out_len);
        } else {
            st = IMCODEC_REF_OK;
        }
    } else if (ret == Z_MEM_ERROR) {
        st = imcodec_ref__status(err, IMCODEC_REF_NO_MEMORY, "inflate ran out of memory");
    } else {
        st = imcodec_ref__fail(err, "frame.deflate", "the deflate stream is corrupt: %s",
                               z->msg != NULL ? z->msg : "inflate failed");
    }
done:
    if (c->inflater_ready) {
        c->inflater.next_out = NULL; /* the spare byte goes out of scope */
        c->inflater.next_in = NULL;
    }
    if (c == &local) codec_release(&local);
    return st;
}
