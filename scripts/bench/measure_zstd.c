/*
 * zstd compression alone on the benchmarks' traffic corpus, with the frame
 * format's parameters (docs/PERFORMANCE-INVESTIGATIONS.md, "zstd frames"): magicless, no
 * content size, checksum or dictionary id, the dictionary digested once into
 * a ZSTD_CDict, a body one byte smaller than the payload. Then decompression
 * of the same bodies, the library's way (a stream into a buffer of the
 * payload's length, ZSTD_d_stableOutBuffer) and in one call
 * (ZSTD_decompressDCtx).
 *
 *   swift run imcodec-devtools write-corpus --output /tmp/traffic.bin
 *   cc -O2 scripts/bench/measure_zstd.c -o /tmp/measure_zstd -lzstd
 *   /tmp/measure_zstd /tmp/traffic.bin Schemas/dictionaries/4.bin LEVEL MODE [PARAMETER=VALUE...]
 *
 * MODE 0: ZSTD_compress2 with the CDict referenced (what the library does);
 * 1: ZSTD_compress_usingCDict; 2: the dictionary forced to be attached; 3:
 * forced to be copied into the context. PARAMETERs override the level's
 * compression parameters for payloads of 512 bytes (the CDict is then made
 * with ZSTD_createCDict_advanced, and the context is given the same):
 * wlog, hlog, clog, slog, mml, tlen, strategy. Prints the best of 50 passes.
 */
#define ZSTD_STATIC_LINKING_ONLY
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zstd.h>

enum { MAX_MESSAGES = 4096, PASSES = 50 };

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int override(ZSTD_compressionParameters *p, const char *argument) {
    char key[32];
    unsigned value;
    if (sscanf(argument, "%31[^=]=%u", key, &value) != 2) return 0;
    if (strcmp(key, "wlog") == 0) p->windowLog = value;
    else if (strcmp(key, "hlog") == 0) p->hashLog = value;
    else if (strcmp(key, "clog") == 0) p->chainLog = value;
    else if (strcmp(key, "slog") == 0) p->searchLog = value;
    else if (strcmp(key, "mml") == 0) p->minMatch = value;
    else if (strcmp(key, "tlen") == 0) p->targetLength = value;
    else if (strcmp(key, "strategy") == 0) p->strategy = (ZSTD_strategy)value;
    else return 0;
    return 1;
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: %s CORPUS DICTIONARY LEVEL MODE [PARAMETER=VALUE...]\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (f == NULL) return perror(argv[1]), 1;
    static unsigned char *payloads[MAX_MESSAGES], *bodies[MAX_MESSAGES];
    static size_t lengths[MAX_MESSAGES], body_lengths[MAX_MESSAGES];
    size_t count = 0;
    unsigned char prefix[4];
    while (count < MAX_MESSAGES && fread(prefix, 1, 4, f) == 4) {
        size_t len = prefix[0] | prefix[1] << 8 | prefix[2] << 16 | (size_t)prefix[3] << 24;
        payloads[count] = malloc(len + 1);
        bodies[count] = malloc(len + 1);
        if (fread(payloads[count], 1, len, f) != len) return fprintf(stderr, "short corpus\n"), 1;
        lengths[count++] = len;
    }
    fclose(f);
    FILE *d = fopen(argv[2], "rb");
    if (d == NULL) return perror(argv[2]), 1;
    static unsigned char dictionary[1 << 17];
    size_t dictionary_len = fread(dictionary, 1, sizeof dictionary, d);
    fclose(d);
    int level = atoi(argv[3]), mode = atoi(argv[4]);
    ZSTD_compressionParameters params = ZSTD_getCParams(level, 512, dictionary_len);
    for (int i = 5; i < argc; i++) {
        if (!override(&params, argv[i])) return fprintf(stderr, "unknown parameter %s\n", argv[i]), 2;
    }

    ZSTD_CCtx *c = ZSTD_createCCtx();
    ZSTD_CDict *cdict;
    if (argc > 5) {
        cdict = ZSTD_createCDict_advanced(dictionary, dictionary_len, ZSTD_dlm_byCopy, ZSTD_dct_auto, params,
                                          ZSTD_defaultCMem);
        ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, (int)params.windowLog);
        ZSTD_CCtx_setParameter(c, ZSTD_c_hashLog, (int)params.hashLog);
        ZSTD_CCtx_setParameter(c, ZSTD_c_chainLog, (int)params.chainLog);
        ZSTD_CCtx_setParameter(c, ZSTD_c_searchLog, (int)params.searchLog);
        ZSTD_CCtx_setParameter(c, ZSTD_c_minMatch, (int)params.minMatch);
        ZSTD_CCtx_setParameter(c, ZSTD_c_targetLength, (int)params.targetLength);
        ZSTD_CCtx_setParameter(c, ZSTD_c_strategy, (int)params.strategy);
    } else {
        cdict = ZSTD_createCDict(dictionary, dictionary_len, level);
        ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
    }
    ZSTD_CCtx_setParameter(c, ZSTD_c_format, ZSTD_f_zstd1_magicless);
    ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 0);
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 0);
    ZSTD_CCtx_setParameter(c, ZSTD_c_dictIDFlag, 0);
    if (mode == 2) ZSTD_CCtx_setParameter(c, ZSTD_c_forceAttachDict, ZSTD_dictForceAttach);
    if (mode == 3) ZSTD_CCtx_setParameter(c, ZSTD_c_forceAttachDict, ZSTD_dictForceCopy);
    ZSTD_CCtx_refCDict(c, cdict);

    double best = 1e300;
    size_t bytes = 0, compressed = 0;
    for (int pass = 0; pass < PASSES; pass++) {
        double start = now_ns();
        bytes = 0;
        compressed = 0;
        for (size_t i = 0; i < count; i++) {
            size_t cap = lengths[i] > 1 ? lengths[i] - 1 : 1;
            size_t written = mode == 1 ? ZSTD_compress_usingCDict(c, bodies[i], cap, payloads[i], lengths[i], cdict)
                                       : ZSTD_compress2(c, bodies[i], cap, payloads[i], lengths[i]);
            body_lengths[i] = ZSTD_isError(written) ? 0 : written;
            bytes += ZSTD_isError(written) ? lengths[i] : written;
            compressed += !ZSTD_isError(written);
        }
        double per_message = (now_ns() - start) / (double)count / 1000;
        if (per_message < best) best = per_message;
    }
    printf("level %d (wlog %u hlog %u clog %u slog %u mml %u tlen %u strategy %d), mode %d, dictionary of %zu bytes: "
           "%.2f µs/msg, %zu body bytes (%zu of %zu compressed)\n",
           level, params.windowLog, params.hashLog, params.chainLog, params.searchLog, params.minMatch,
           params.targetLength, (int)params.strategy, mode, dictionary_len, best, bytes, compressed, count);
    if (mode == 1) return 0; /* with its magic and fields: not the frame format's bodies */

    ZSTD_DCtx *dx = ZSTD_createDCtx();
    ZSTD_DCtx_setParameter(dx, ZSTD_d_format, ZSTD_f_zstd1_magicless);
    ZSTD_DCtx_setParameter(dx, ZSTD_d_windowLogMax, 23);
    ZSTD_DCtx_setParameter(dx, ZSTD_d_stableOutBuffer, 1);
    ZSTD_DDict *ddict = ZSTD_createDDict(dictionary, dictionary_len);
    static unsigned char out[1 << 20];
    double best_stream = 1e300, best_once = 1e300;
    for (int pass = 0; pass < PASSES; pass++) {
        for (int once = 0; once < 2; once++) {
            double start = now_ns();
            for (size_t i = 0; i < count; i++) {
                if (body_lengths[i] == 0) continue;
                ZSTD_DCtx_reset(dx, ZSTD_reset_session_only);
                ZSTD_DCtx_refDDict(dx, ddict);
                size_t produced;
                if (once) {
                    produced = ZSTD_decompressDCtx(dx, out, lengths[i], bodies[i], body_lengths[i]);
                } else {
                    ZSTD_inBuffer in = {bodies[i], body_lengths[i], 0};
                    ZSTD_outBuffer o = {out, lengths[i], 0};
                    size_t left = ZSTD_decompressStream(dx, &o, &in);
                    produced = left == 0 ? o.pos : (size_t)-1;
                }
                if (produced != lengths[i]) return fprintf(stderr, "message %zu does not decompress\n", i), 1;
            }
            double per_message = (now_ns() - start) / (double)count / 1000;
            double *slot = once ? &best_once : &best_stream;
            if (per_message < *slot) *slot = per_message;
        }
    }
    for (size_t i = 0; i < count; i++) {
        if (body_lengths[i] == 0) continue;
        ZSTD_DCtx_reset(dx, ZSTD_reset_session_only);
        ZSTD_DCtx_refDDict(dx, ddict);
        size_t produced = ZSTD_decompressDCtx(dx, out, lengths[i], bodies[i], body_lengths[i]);
        if (produced != lengths[i] || memcmp(out, payloads[i], lengths[i]) != 0) {
            return fprintf(stderr, "message %zu decompresses to other bytes\n", i), 1;
        }
    }
    printf("decompress: %.2f µs/msg as a stream into the payload (the library's way), %.2f µs/msg in one call\n",
           best_stream, best_once);
    ZSTD_freeDDict(ddict);
    ZSTD_freeDCtx(dx);
    ZSTD_freeCDict(cdict);
    ZSTD_freeCCtx(c);
    return 0;
}
