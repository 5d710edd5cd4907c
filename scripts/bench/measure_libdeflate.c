/*
 * libdeflate against zlib for the default policy's frames (deflate level 6,
 * raw, threshold 256, a body kept only when smaller than the payload), on
 * the benchmarks' traffic corpus; docs/PERFORMANCE-INVESTIGATIONS.md, "libdeflate".
 *
 *   apt-get install -y libdeflate-dev
 *   swift run imcodec-devtools write-corpus --output /tmp/traffic.bin
 *   cc -O2 scripts/bench/measure_libdeflate.c -o /tmp/measure_libdeflate -lz -ldeflate
 *   /tmp/measure_libdeflate /tmp/traffic.bin
 *
 * Both compressors are set up once and reused, as the library's Deflater is;
 * times are the median of 101 passes over the whole corpus, per message
 * (messages under the threshold cost nothing here). Every libdeflate body is
 * inflated with zlib and compared with its payload.
 */
#include <libdeflate.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

enum { PASSES = 101, THRESHOLD = 256, LEVEL = 6 };

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s CORPUS\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (f == NULL) return perror(argv[1]), 1;
    unsigned char *payloads[4096];
    size_t lengths[4096], count = 0;
    unsigned char prefix[4];
    while (count < 4096 && fread(prefix, 1, 4, f) == 4) {
        size_t len = prefix[0] | prefix[1] << 8 | prefix[2] << 16 | (size_t)prefix[3] << 24;
        payloads[count] = malloc(len ? len : 1);
        if (fread(payloads[count], 1, len, f) != len) return fprintf(stderr, "short corpus\n"), 1;
        lengths[count++] = len;
    }
    fclose(f);

    unsigned char *out = malloc(1 << 24), *back = malloc(1 << 24);
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, LEVEL, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) return 1;
    z_stream inf;
    memset(&inf, 0, sizeof inf);
    if (inflateInit2(&inf, -15) != Z_OK) return 1;
    struct libdeflate_compressor *c = libdeflate_alloc_compressor(LEVEL);
    struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();

    /* Sizes, and libdeflate's output read back by zlib. */
    size_t zlib_bytes = 0, libdeflate_bytes = 0, raw = 0, compressed = 0;
    for (size_t i = 0; i < count; i++) {
        raw += lengths[i];
        if (lengths[i] < THRESHOLD) {
            zlib_bytes += lengths[i];
            libdeflate_bytes += lengths[i];
            continue;
        }
        deflateReset(&z);
        z.next_in = payloads[i];
        z.avail_in = (uInt)lengths[i];
        z.next_out = out;
        z.avail_out = (uInt)(lengths[i] - 1);
        int st = deflate(&z, Z_FINISH);
        zlib_bytes += st == Z_STREAM_END ? lengths[i] - 1 - z.avail_out : lengths[i];
        size_t n = libdeflate_deflate_compress(c, payloads[i], lengths[i], out, lengths[i] - 1);
        libdeflate_bytes += n ? n : lengths[i];
        if (n) {
            compressed++;
            inflateReset(&inf);
            inf.next_in = out;
            inf.avail_in = (uInt)n;
            inf.next_out = back;
            inf.avail_out = (uInt)lengths[i];
            if (inflate(&inf, Z_FINISH) != Z_STREAM_END || inf.avail_out != 0 ||
                memcmp(back, payloads[i], lengths[i]) != 0) {
                fprintf(stderr, "libdeflate body %zu does not inflate to its payload with zlib\n", i);
                return 1;
            }
        }
    }

    double zc[PASSES], lc[PASSES], zd[PASSES], ld[PASSES];
    static unsigned char bodies[4096][8192];
    size_t body_len[4096];
    for (int p = 0; p < PASSES; p++) {
        double t0 = now_ns();
        for (size_t i = 0; i < count; i++) {
            if (lengths[i] < THRESHOLD) continue;
            deflateReset(&z);
            z.next_in = payloads[i];
            z.avail_in = (uInt)lengths[i];
            z.next_out = out;
            z.avail_out = (uInt)(lengths[i] - 1);
            deflate(&z, Z_FINISH);
        }
        double t1 = now_ns();
        for (size_t i = 0; i < count; i++) {
            if (lengths[i] < THRESHOLD) continue;
            size_t n = libdeflate_deflate_compress(c, payloads[i], lengths[i], bodies[i % 4096],
                                                   lengths[i] - 1 < 8192 ? lengths[i] - 1 : 8192);
            body_len[i] = n;
        }
        double t2 = now_ns();
        for (size_t i = 0; i < count; i++) {
            if (lengths[i] < THRESHOLD || body_len[i] == 0) continue;
            inflateReset(&inf);
            inf.next_in = bodies[i];
            inf.avail_in = (uInt)body_len[i];
            inf.next_out = back;
            inf.avail_out = (uInt)lengths[i];
            inflate(&inf, Z_FINISH);
        }
        double t3 = now_ns();
        for (size_t i = 0; i < count; i++) {
            if (lengths[i] < THRESHOLD || body_len[i] == 0) continue;
            size_t in_used = 0;
            libdeflate_deflate_decompress_ex(d, bodies[i], body_len[i], back, lengths[i], &in_used, NULL);
        }
        double t4 = now_ns();
        zc[p] = (t1 - t0) / (double)count / 1000;
        lc[p] = (t2 - t1) / (double)count / 1000;
        zd[p] = (t3 - t2) / (double)count / 1000;
        ld[p] = (t4 - t3) / (double)count / 1000;
    }
    qsort(zc, PASSES, sizeof zc[0], compare);
    qsort(lc, PASSES, sizeof lc[0], compare);
    qsort(zd, PASSES, sizeof zd[0], compare);
    qsort(ld, PASSES, sizeof ld[0], compare);
    printf("%zu messages, %zu payload bytes, %zu compressed by libdeflate (threshold %d, level %d)\n", count, raw,
           compressed, THRESHOLD, LEVEL);
    printf("body bytes: zlib %zu (%.3f of the payloads), libdeflate %zu (%.3f)\n", zlib_bytes,
           (double)zlib_bytes / (double)raw, libdeflate_bytes, (double)libdeflate_bytes / (double)raw);
    printf("compress, µs/msg (median of %d passes): zlib %.2f, libdeflate %.2f (%.2f×)\n", PASSES, zc[PASSES / 2],
           lc[PASSES / 2], lc[PASSES / 2] / zc[PASSES / 2]);
    printf("decompress, µs/msg: zlib %.2f, libdeflate %.2f (%.2f×)\n", zd[PASSES / 2], ld[PASSES / 2],
           ld[PASSES / 2] / zd[PASSES / 2]);
    return 0;
}
