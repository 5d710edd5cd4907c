/*
 * FuzzReference: the C reference's decoders under libFuzzer and
 * AddressSanitizer, in C only (no Swift in the loop), at C speed.
 *
 * The checks are Sources/CReferenceChecks (what each operation byte
 * does and what must hold is in its header); a broken property aborts, so
 * libFuzzer saves the input, and `swift test` replays saved inputs through
 * the same checks.
 *
 * Every input is timed (the 100 ms bound of docs/FUZZING.md): inputs over
 * IMCODEC_FUZZ_SLOW_MS (default 100) are written as slow-HASH to
 * IMCODEC_FUZZ_SLOW_DIR when it is set, and at exit one line reports the
 * slowest, in the same form as the Swift targets:
 *
 *   slowest input: 1.234 ms, 57 bytes, fnv1a 0123456789abcdef; inputs: 1200; over 100 ms: 0
 *
 * An input run several times in a row counts with its fastest run.
 */
#include "imcodec_reference_checks.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The harness's own failure (it cannot allocate): not a finding about the
   reference, but the run cannot go on. */
static void harness_failure(const char *what) {
    fprintf(stderr, "finding: %s\n", what);
    abort();
}

/* ------------------------------------------------------------------------ */
/* Timing                                                                    */
/* ------------------------------------------------------------------------ */

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static uint64_t fnv1a(const unsigned char *bytes, size_t len) {
    uint64_t hash = 0xcbf29ce484222325u;
    for (size_t i = 0; i < len; i++) hash = (hash ^ bytes[i]) * 0x100000001b3u;
    return hash;
}

/* A byte buffer kept between inputs; grows only when an input is larger
   than any before (so libFuzzer's per-input malloc balance is undisturbed). */
typedef struct kept {
    unsigned char *bytes;
    size_t capacity;
    long long len; /* -1: empty */
} kept;

static void kept_set(kept *k, const unsigned char *bytes, size_t len) {
    if (k->capacity < len) {
        free(k->bytes);
        k->bytes = malloc(len);
        if (k->bytes == NULL) harness_failure("out of memory in the harness");
        k->capacity = len;
    }
    if (len > 0) memcpy(k->bytes, bytes, len);
    k->len = (long long)len;
}

static int kept_holds(const kept *k, const unsigned char *bytes, size_t len) {
    return k->len == (long long)len && (len == 0 || memcmp(k->bytes, bytes, len) == 0);
}

static struct {
    int started;
    uint64_t threshold_ns;
    const char *directory;
    kept last, slowest;
    uint64_t last_fastest, slowest_ns;
    unsigned long long inputs, over;
} timing = {.last.len = -1, .slowest.len = -1};

static void save(const char *path, const unsigned char *bytes, size_t len) {
    FILE *file = fopen(path, "wb");
    if (file == NULL) {
        fprintf(stderr, "cannot write %s\n", path);
        return;
    }
    if (len > 0) fwrite(bytes, 1, len, file);
    fclose(file);
}

static void finish_last(void) {
    if (timing.last.len < 0) return;
    timing.inputs++;
    if (timing.last_fastest > timing.threshold_ns) timing.over++;
    if (timing.last_fastest > timing.slowest_ns || timing.slowest.len < 0) {
        timing.slowest_ns = timing.last_fastest;
        kept_set(&timing.slowest, timing.last.bytes, (size_t)timing.last.len);
    }
}

static void report(void) {
    finish_last();
    timing.last.len = -1;
    if (timing.slowest.len < 0) return;
    size_t len = (size_t)timing.slowest.len;
    uint64_t micro = timing.slowest_ns / 1000;
    fprintf(stderr, "slowest input: %llu.%03llu ms, %zu bytes, fnv1a %016llx; inputs: %llu; over %llu ms: %llu\n",
            (unsigned long long)(micro / 1000), (unsigned long long)(micro % 1000), len,
            (unsigned long long)fnv1a(timing.slowest.bytes, len), timing.inputs,
            (unsigned long long)(timing.threshold_ns / 1000000), timing.over);
    if (timing.directory != NULL) {
        char path[4096];
        snprintf(path, sizeof path, "%s/slowest", timing.directory);
        save(path, timing.slowest.bytes, len);
    }
}

static void record(const unsigned char *data, size_t size, uint64_t elapsed) {
    if (!timing.started) {
        timing.started = 1;
        const char *ms = getenv("IMCODEC_FUZZ_SLOW_MS");
        timing.threshold_ns = (ms != NULL ? strtoull(ms, NULL, 10) : 100) * 1000000u;
        timing.directory = getenv("IMCODEC_FUZZ_SLOW_DIR");
        atexit(report);
    }
    if (kept_holds(&timing.last, data, size)) {
        if (elapsed < timing.last_fastest) timing.last_fastest = elapsed;
    } else {
        finish_last();
        kept_set(&timing.last, data, size);
        timing.last_fastest = elapsed;
    }
    if (elapsed > timing.threshold_ns && timing.directory != NULL) {
        char path[4096];
        snprintf(path, sizeof path, "%s/slow-%016llx", timing.directory, (unsigned long long)fnv1a(data, size));
        save(path, data, size);
        fprintf(stderr, "slow input: %llu.%03llu ms, %zu bytes, written to %s\n",
                (unsigned long long)(elapsed / 1000000), (unsigned long long)(elapsed / 1000 % 1000), size, path);
    }
}

/* ------------------------------------------------------------------------ */
/* libFuzzer                                                                 */
/* ------------------------------------------------------------------------ */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uint64_t began = now_ns();
    const char *finding = imcodec_reference_check(data, size);
    if (finding != NULL) {
        fprintf(stderr, "finding: %s\n", finding);
        abort();
    }
    record(data, size, now_ns() - began);
    return 0;
}
