/*
 * CRC-32 by folding with carry-less multiplication.
 *
 * The message is a polynomial over GF(2) in zlib's bit-reflected order, and a
 * CRC is its remainder mod P(x) = 0x104C11DB7. Four 128-bit lanes are folded
 * forward 512 bits at a time: each lane's two 64-bit halves are multiplied
 * by x^k mod P for the distance moved, and the products added to the next
 * 128 bits. The lanes (or, below 64 bytes, the first 16 bytes alone) are
 * then folded on 128 bits at a time and the last partial block shifted in
 * (byte shuffles move the 16-byte window on by its length), reduced
 * to 64 and then 32 bits, and the remainder taken by Barrett reduction. The
 * constants are those powers of x mod P, bit-reflected, and floor(x^64 / P).
 * Every result is checked against zlib's crc32 in ChecksumTests.
 */
#include "imcodec_crc32.h"

#include <zlib.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

/* 1: PCLMULQDQ and SSSE3 present, 0: not, -1: not asked yet. Racing
   threads all store the same answer. */
static int pclmul_state = -1;

static int has_pclmul(void) {
    int state = __atomic_load_n(&pclmul_state, __ATOMIC_RELAXED);
    if (state < 0) {
        unsigned eax, ebx, ecx, edx;
        state = __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_PCLMUL) != 0 && (ecx & bit_SSSE3) != 0;
        __atomic_store_n(&pclmul_state, state, __ATOMIC_RELAXED);
    }
    return state;
}

/* Byte shuffles for the last, partial block: 16 bytes from `shuffle + n`
   move a vector's bytes n places towards its end (zeros in front), 16
   bytes from `shuffle + 16 + n` move them n places towards its start
   (zeros behind); 16 bytes from `keep + n` keep the last n bytes. */
static const unsigned char shuffle[48] = {
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80};
static const unsigned char keep[32] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};

#define FOLD(lane, constants, next)                                                                            \
    _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(lane, constants, 0x00),                                 \
                                _mm_clmulepi64_si128(lane, constants, 0x11)),                                \
                  next)

/* The inverted CRC state after `len` bytes; len is at least 16. */
__attribute__((target("pclmul,ssse3"))) static uint32_t fold(uint32_t state, const unsigned char *p, size_t len) {
    const unsigned char *end = p + len;
    const size_t tail = len & 15;
    len -= tail;
    const __m128i by512 = _mm_set_epi64x(0x1c6e41596LL, 0x154442bd4LL);
    const __m128i by128 = _mm_set_epi64x(0x0ccaa009eLL, 0x1751997d0LL);
    const __m128i by64 = _mm_set_epi64x(0, 0x163cd6124LL);
    const __m128i barrett = _mm_set_epi64x(0x1F7011641LL, 0x1DB710641LL);
    const __m128i low32 = _mm_set_epi32(0, 0, 0, -1);

    __m128i x = _mm_xor_si128(_mm_loadu_si128((const __m128i *)p), _mm_cvtsi32_si128((int)state));
    if (len >= 64) {
        /* Four lanes, 64 bytes a step, folded into one at the end. */
        __m128i x1 = _mm_loadu_si128((const __m128i *)(p + 16));
        __m128i x2 = _mm_loadu_si128((const __m128i *)(p + 32));
        __m128i x3 = _mm_loadu_si128((const __m128i *)(p + 48));
        p += 64;
        len -= 64;
        while (len >= 64) {
            x = FOLD(x, by512, _mm_loadu_si128((const __m128i *)p));
            x1 = FOLD(x1, by512, _mm_loadu_si128((const __m128i *)(p + 16)));
            x2 = FOLD(x2, by512, _mm_loadu_si128((const __m128i *)(p + 32)));
            x3 = FOLD(x3, by512, _mm_loadu_si128((const __m128i *)(p + 48)));
            p += 64;
            len -= 64;
        }
        x = FOLD(x, by128, x1);
        x = FOLD(x, by128, x2);
        x = FOLD(x, by128, x3);
    } else {
        p += 16;
        len -= 16;
    }
    while (len >= 16) {
        x = FOLD(x, by128, _mm_loadu_si128((const __m128i *)p));
        p += 16;
        len -= 16;
    }
    if (tail > 0) {
        /* The window of the last 16 bytes moves on by `tail` bytes: the
           state's first `tail` bytes leave it and are folded forward 16
           bytes (onto the window's end, zeros in front of them add
           nothing), the rest move to its start, and the new bytes fill
           its end. */
        __m128i leaving = _mm_shuffle_epi8(x, _mm_loadu_si128((const __m128i *)(shuffle + tail)));
        __m128i staying = _mm_shuffle_epi8(x, _mm_loadu_si128((const __m128i *)(shuffle + 16 + tail)));
        __m128i arriving = _mm_and_si128(_mm_loadu_si128((const __m128i *)(end - 16)),
                                         _mm_loadu_si128((const __m128i *)(keep + tail)));
        x = FOLD(leaving, by128, _mm_or_si128(staying, arriving));
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
    if (len >= 16 && has_pclmul()) return ~fold(~crc, bytes, len);
#endif
    if (len >= 16) return (uint32_t)crc32_z(crc, bytes, len);
    /* A frame header (under 16 bytes): byte by byte with zlib's own table
       costs less than setting up zlib's word-at-a-time loop. */
    const z_crc_t *table = get_crc_table();
    uint32_t state = ~crc;
    while (len-- > 0) state = (uint32_t)table[(state ^ *bytes++) & 0xff] ^ (state >> 8);
    return ~state;
}
