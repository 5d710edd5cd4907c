/*
 * zstd compression alone on the benchmarks' traffic corpus, with the frame
 * format's parameters (docs/PERFORMANCE.md, "zstd frames"): magicless, no
 * content size, checksum or dictionary id, the dictionary digested once into
 * a ZSTD_CDict, a body one byte smaller than the payload.
 *
 *   swift run imcodec-devtools write-corpus --output /tmp/traffic.bin
 *   cc -O2 scripts/measure_zstd.c -o /tmp/measure_zstd -lzstd
 *   /tmp/measure_zstd /tmp/traffic.bin Schemas/dictionaries/4.bin LEVEL MODE
 *
 * MODE 0: ZSTD_compress2 with the CDict referenced (what the library does);
 * 1: ZSTD_compress_usingCDict; 2: the dictionary forced to be attached; 3:
 * forced to be copied into the context. Prints the best of 50 passes.
 */
#define ZSTD_STATIC_LINKING_ONLY
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <zstd.h>

enum { MAX_MESSAGES = 4096, PASSES = 50 };

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s CORPUS DICTIONARY LEVEL MODE\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (f == NULL) return perror(argv[1]), 1;
    static unsigned char *payloads[MAX_MESSAGES];
    static size_t lengths[MAX_MESSAGES];
    size_t count = 0;
    unsigned char prefix[4];
    while (count < MAX_MESSAGES && fread(prefix, 1, 4, f) == 4) {
        size_t len = prefix[0] | prefix[1] << 8 | prefix[2] << 16 | (size_t)prefix[3] << 24;
        payloads[count] = malloc(len + 1);
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

    ZSTD_CCtx *c = ZSTD_createCCtx();
    ZSTD_CDict *cdict = ZSTD_createCDict(dictionary, dictionary_len, level);
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
    ZSTD_CCtx_setParameter(c, ZSTD_c_format, ZSTD_f_zstd1_magicless);
    ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 0);
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 0);
    ZSTD_CCtx_setParameter(c, ZSTD_c_dictIDFlag, 0);
    if (mode == 2) ZSTD_CCtx_setParameter(c, ZSTD_c_forceAttachDict, ZSTD_dictForceAttach);
    if (mode == 3) ZSTD_CCtx_setParameter(c, ZSTD_c_forceAttachDict, ZSTD_dictForceCopy);
    ZSTD_CCtx_refCDict(c, cdict);

    static unsigned char out[1 << 20];
    double best = 1e300;
    size_t bytes = 0;
    for (int pass = 0; pass < PASSES; pass++) {
        double start = now_ns();
        bytes = 0;
        for (size_t i = 0; i < count; i++) {
            size_t cap = lengths[i] > 1 ? lengths[i] - 1 : 1;
            size_t written = mode == 1 ? ZSTD_compress_usingCDict(c, out, cap, payloads[i], lengths[i], cdict)
                                       : ZSTD_compress2(c, out, cap, payloads[i], lengths[i]);
            bytes += ZSTD_isError(written) ? lengths[i] : written;
        }
        double per_message = (now_ns() - start) / (double)count / 1000;
        if (per_message < best) best = per_message;
    }
    printf("level %d, mode %d, dictionary of %zu bytes: %.2f µs/msg, %zu body bytes\n", level, mode, dictionary_len,
           best, bytes);
    ZSTD_freeCDict(cdict);
    ZSTD_freeCCtx(c);
    return 0;
}
