/*
 * CRC-32 by folding with carry-less multiplication.
 *
 * The message is a polynomial over GF(2) in zlib's bit-reflected order, and a
 * CRC is its remainder mod P(x) = 0x104C11DB7. Four 128-bit lanes are folded
 * forward 512 bits at a time: each lane's two 64-bit halves are multiplied
 * by x^k mod P for the distance moved, and the products added to the next
 * 128 bits. The lanes are then folded into one 128 bits at a time, reduced
 * to 64 and then 32 bits, and the remainder taken by Barrett reduction. The
 * constants are those powers of x mod P, bit-reflected, and floor(x^64 / P).
 * Every result is checked against zlib's crc32 in ChecksumTests.
 */
#include "imcodec_crc32.h"

#include <zlib.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

/* 1: PCLMULQDQ present, 0: absent, -1: not asked yet. Racing threads all
   store the same answer. */
static int pclmul_state = -1;

static int has_pclmul(void) {
    int state = __atomic_load_n(&pclmul_state, __ATOMIC_RELAXED);
    if (state < 0) {
        unsigned eax, ebx, ecx, edx;
        state = __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_PCLMUL) != 0;
        __atomic_store_n(&pclmul_state, state, __ATOMIC_RELAXED);
    }
    return state;
}

#define FOLD(lane, constants, next)                                                                            \
    _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(lane, constants, 0x00),                                 \
                                _mm_clmulepi64_si128(lane, constants, 0x11)),                                \
                  next)

/* The inverted CRC state after `len` bytes; len is at least 64 and a multiple of 16. */
__attribute__((target("pclmul,sse2"))) static uint32_t fold(uint32_t state, const unsigned char *p, size_t len) {
    const __m128i by512 = _mm_set_epi64x(0x1c6e41596LL, 0x154442bd4LL);
    const __m128i by128 = _mm_set_epi64x(0x0ccaa009eLL, 0x1751997d0LL);
    const __m128i by64 = _mm_set_epi64x(0, 0x163cd6124LL);
    const __m128i barrett = _mm_set_epi64x(0x1F7011641LL, 0x1DB710641LL);
    const __m128i low32 = _mm_set_epi32(0, 0, 0, -1);

    __m128i x0 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)p), _mm_cvtsi32_si128((int)state));
    __m128i x1 = _mm_loadu_si128((const __m128i *)(p + 16));
    __m128i x2 = _mm_loadu_si128((const __m128i *)(p + 32));
    __m128i x3 = _mm_loadu_si128((const __m128i *)(p + 48));
    p += 64;
    len -= 64;
    while (len >= 64) {
        x0 = FOLD(x0, by512, _mm_loadu_si128((const __m128i *)p));
        x1 = FOLD(x1, by512, _mm_loadu_si128((const __m128i *)(p + 16)));
        x2 = FOLD(x2, by512, _mm_loadu_si128((const __m128i *)(p + 32)));
        x3 = FOLD(x3, by512, _mm_loadu_si128((const __m128i *)(p + 48)));
        p += 64;
        len -= 64;
    }
    __m128i x = FOLD(x0, by128, x1);
    x = FOLD(x, by128, x2);
    x = FOLD(x, by128, x3);
    while (len >= 16) {
        x = FOLD(x, by128, _mm_loadu_si128((const __m128i *)p));
        p += 16;
        len -= 16;
    }
    /* 128 bits to 64. */
    __m128i t = _mm_clmulepi64_si128(x, by128, 0x10);
    x = _mm_xor_si128(_mm_srli_si128(x, 8), t);
    /* 64 bits to 32. */
    t = _mm_srli_si128(x, 4);
    x = _mm_clmulepi64_si128(_mm_and_si128(x, low32), by64, 0x00);
    x = _mm_xor_si128(x, t);
    /* Barrett reduction. */
    t = _mm_and_si128(x, low32);
    t = _mm_clmulepi64_si128(t, barrett, 0x10);
    t = _mm_and_si128(t, low32);
    t = _mm_clmulepi64_si128(t, barrett, 0x00);
    x = _mm_xor_si128(x, t);
    return (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(x, 4));
}
#endif

uint32_t imcodec_crc32(uint32_t crc, const unsigned char *bytes, size_t len) {
#if defined(__x86_64__)
    if (len >= 64 && has_pclmul()) {
        size_t folded = len & ~(size_t)15;
        crc = ~fold(~crc, bytes, folded);
        bytes += folded;
        len -= folded;
    }
#endif
    if (len >= 16) return (uint32_t)crc32_z(crc, bytes, len);
    /* A frame header or the tail of a fold: byte by byte with zlib's own
       table costs less than setting up zlib's word-at-a-time loop. */
    const z_crc_t *table = get_crc_table();
    uint32_t state = ~crc;
    while (len-- > 0) state = (uint32_t)table[(state ^ *bytes++) & 0xff] ^ (state >> 8);
    return ~state;
}
