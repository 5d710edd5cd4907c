/*
 * UTF-8 validation.
 *
 * The vector check looks at every byte together with the three before it.
 * Three 16-entry tables, indexed by the high and low nibble of the previous
 * byte and the high nibble of the byte itself, each give a set of error bits
 * that pair could be; their intersection is the errors the pair is. A
 * continuation byte that follows another continuation is an error unless a
 * three- or four-byte lead stands two or three bytes back, which a saturating
 * subtraction finds; the two answers must agree. Every answer is compared
 * with the scalar check and with Swift's own validator in UTF8Tests.
 */
#include "imcodec_utf8.h"

#include <stdint.h>
#include <string.h>

/* The `len` bytes at `p` (0 to 16) as two little-endian words, zeros after
   them. Built from whole-word loads that stay inside the bytes: a copy
   through a buffer in memory would make a following vector load wait for the
   byte stores (a failed store-to-load forwarding costs more than checking a
   short string). */
static inline void load_words(const unsigned char *p, size_t len, uint64_t *low_out, uint64_t *high_out) {
    uint64_t low = 0, high = 0;
    if (len >= 8) {
        memcpy(&low, p, 8);
        if (len > 8) {
            uint64_t last;
            memcpy(&last, p + len - 8, 8);
            high = len == 16 ? last : last >> (8 * (16 - len));
        }
    } else if (len >= 4) {
        uint32_t first, last;
        memcpy(&first, p, 4);
        memcpy(&last, p + len - 4, 4);
        low = (uint64_t)first | (uint64_t)last << (8 * (len - 4));
    } else if (len > 0) {
        low = (uint64_t)p[0] | (uint64_t)p[len / 2] << (8 * (len / 2)) | (uint64_t)p[len - 1] << (8 * (len - 1));
    }
    *low_out = low;
    *high_out = high;
}

/* Whether `len` bytes (at most 16) are ASCII, without vectors: most string
   fields are short ASCII (ids, user names, URLs' pieces), and this answers
   them in a few instructions. */
static inline int short_ascii(const unsigned char *p, size_t len) {
    uint64_t low, high;
    load_words(p, len, &low, &high);
    return ((low | high) & 0x8080808080808080ULL) == 0;
}

int imcodec_utf8_check_scalar(const unsigned char *p, size_t len) {
    int ascii = 1;
    size_t i = 0;
    while (i < len) {
        /* Eight ASCII bytes at a time. */
        if (len - i >= 8) {
            uint64_t word;
            memcpy(&word, p + i, 8);
            if ((word & 0x8080808080808080ULL) == 0) {
                i += 8;
                continue;
            }
        }
        unsigned char lead = p[i];
        if (lead < 0x80) {
            i += 1;
            continue;
        }
        ascii = 0;
        size_t need;
        unsigned char low = 0x80, high = 0xBF; /* the range of the second byte */
        if (lead >= 0xC2 && lead <= 0xDF) {
            need = 1;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            need = 2;
            if (lead == 0xE0) low = 0xA0;      /* overlong */
            if (lead == 0xED) high = 0x9F;     /* surrogates */
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            need = 3;
            if (lead == 0xF0) low = 0x90;      /* overlong */
            if (lead == 0xF4) high = 0x8F;     /* above U+10FFFF */
        } else {
            return IMCODEC_UTF8_INVALID;
        }
        if (len - i <= need) return IMCODEC_UTF8_INVALID;
        if (p[i + 1] < low || p[i + 1] > high) return IMCODEC_UTF8_INVALID;
        for (size_t k = 2; k <= need; k++) {
            if ((p[i + k] & 0xC0) != 0x80) return IMCODEC_UTF8_INVALID;
        }
        i += need + 1;
    }
    return ascii ? IMCODEC_UTF8_ASCII : IMCODEC_UTF8_VALID;
}

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

/* 1: SSSE3 present, 0: absent, -1: not asked yet. Racing threads all store
   the same answer. */
static int ssse3_state = -1;

static int has_ssse3(void) {
    int state = __atomic_load_n(&ssse3_state, __ATOMIC_RELAXED);
    if (state < 0) {
        unsigned eax, ebx, ecx, edx;
        state = __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_SSSE3) != 0;
        __atomic_store_n(&ssse3_state, state, __ATOMIC_RELAXED);
    }
    return state;
}

/* The error bits of a pair of bytes (the previous byte, this byte). */
#define TOO_SHORT (1 << 0)      /* a lead not followed by a continuation: 11______ 0_______, 11______ 11______ */
#define TOO_LONG (1 << 1)       /* a continuation after ASCII: 0_______ 10______ */
#define OVERLONG_3 (1 << 2)     /* 11100000 100_____ */
#define TOO_LARGE (1 << 3)      /* above U+10FFFF: 11110100 1001____, 11110100 101_____, 11110101+ 1001____ ... */
#define SURROGATE (1 << 4)      /* 11101101 101_____ */
#define OVERLONG_2 (1 << 5)     /* 1100000_ 10______ */
#define TOO_LARGE_1000 (1 << 6) /* 11110101+ 1000____ */
#define OVERLONG_4 (1 << 6)     /* 11110000 1000____ */
#define TWO_CONTS (1 << 7)      /* 10______ 10______: an error unless a longer sequence goes on */
#define CARRY (TOO_SHORT | TOO_LONG | TWO_CONTS)

#define FOUR(x) (char)(x), (char)(x), (char)(x), (char)(x)

/* The errors of the pair that are not errors of these sixteen bytes alone:
   whether the last block ended inside a sequence (a lead in its last three
   bytes with too few bytes after it). */
__attribute__((target("ssse3"))) static inline __m128i incomplete(__m128i block) {
    const __m128i max = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, (char)(0xF0 - 1),
                                      (char)(0xE0 - 1), (char)(0xC0 - 1));
    return _mm_subs_epu8(block, max);
}

__attribute__((target("ssse3"))) static inline __m128i check_block(__m128i input, __m128i previous) {
    const __m128i byte_1_high = _mm_setr_epi8(
        FOUR(TOO_LONG), FOUR(TOO_LONG), FOUR(TWO_CONTS), (char)(TOO_SHORT | OVERLONG_2), (char)TOO_SHORT,
        (char)(TOO_SHORT | OVERLONG_3 | SURROGATE), (char)(TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4));
    const __m128i byte_1_low = _mm_setr_epi8(
        (char)(CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4), (char)(CARRY | OVERLONG_2), (char)CARRY, (char)CARRY,
        (char)(CARRY | TOO_LARGE), (char)(CARRY | TOO_LARGE | TOO_LARGE_1000),
        (char)(CARRY | TOO_LARGE | TOO_LARGE_1000), (char)(CARRY | TOO_LARGE | TOO_LARGE_1000),
        FOUR(CARRY | TOO_LARGE | TOO_LARGE_1000), (char)(CARRY | TOO_LARGE | TOO_LARGE_1000),
        (char)(CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE), (char)(CARRY | TOO_LARGE | TOO_LARGE_1000),
        (char)(CARRY | TOO_LARGE | TOO_LARGE_1000));
    const __m128i byte_2_high = _mm_setr_epi8(
        FOUR(TOO_SHORT), FOUR(TOO_SHORT),
        (char)(TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4),
        (char)(TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE),
        (char)(TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE),
        (char)(TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE), FOUR(TOO_SHORT));
    const __m128i nibble = _mm_set1_epi8(0x0F);

    __m128i prev1 = _mm_alignr_epi8(input, previous, 15);
    __m128i special = _mm_and_si128(
        _mm_and_si128(_mm_shuffle_epi8(byte_1_high, _mm_and_si128(_mm_srli_epi16(prev1, 4), nibble)),
                      _mm_shuffle_epi8(byte_1_low, _mm_and_si128(prev1, nibble))),
        _mm_shuffle_epi8(byte_2_high, _mm_and_si128(_mm_srli_epi16(input, 4), nibble)));
    /* A continuation two bytes after a three- or four-byte lead, or three
       after a four-byte lead, must be there: it is the TWO_CONTS pair that
       is then not an error. */
    __m128i prev2 = _mm_alignr_epi8(input, previous, 14);
    __m128i prev3 = _mm_alignr_epi8(input, previous, 13);
    __m128i third = _mm_subs_epu8(prev2, _mm_set1_epi8((char)(0xE0 - 0x80)));
    __m128i fourth = _mm_subs_epu8(prev3, _mm_set1_epi8((char)(0xF0 - 0x80)));
    __m128i must_continue = _mm_and_si128(_mm_or_si128(third, fourth), _mm_set1_epi8((char)0x80));
    return _mm_xor_si128(must_continue, special);
}

/* The `len` bytes at `p` (0 to 16) in a vector, zeros after them. */
__attribute__((target("ssse3"))) static inline __m128i load_partial(const unsigned char *p, size_t len) {
    uint64_t low, high;
    load_words(p, len, &low, &high);
    return _mm_set_epi64x((long long)high, (long long)low);
}

__attribute__((target("ssse3"))) static int check_ssse3(const unsigned char *p, size_t len) {
    const __m128i zero = _mm_setzero_si128();
    if (len <= 16) {
        __m128i input = load_partial(p, len);
        if (_mm_movemask_epi8(input) == 0) return IMCODEC_UTF8_ASCII;
        /* The zeros after the bytes are ASCII: a sequence cut by the end
           is TOO_SHORT or a missing continuation. */
        __m128i error = check_block(input, zero);
        if (len == 16) error = _mm_or_si128(error, incomplete(input));
        return _mm_movemask_epi8(_mm_cmpeq_epi8(error, zero)) == 0xFFFF ? IMCODEC_UTF8_VALID : IMCODEC_UTF8_INVALID;
    }
    /* ASCII first, a block at a time and the last 16 bytes overlapping the
       blocks before: most long string fields are ids, URLs and JSON. */
    size_t i = 0;
    while (i + 16 <= len && _mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(p + i))) == 0) i += 16;
    if (i == len || (i + 16 > len && _mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(p + len - 16))) == 0)) {
        return IMCODEC_UTF8_ASCII;
    }
    /* The whole check from the first block with a high bit. The ASCII bytes
       before it leave no sequence open and count as zeros do. */
    __m128i previous = zero;
    __m128i error = zero;
    int high_bits = 0;
    for (; i + 16 <= len; i += 16) {
        __m128i input = _mm_loadu_si128((const __m128i *)(p + i));
        int high = _mm_movemask_epi8(input);
        high_bits |= high;
        if (high == 0) {
            /* ASCII: only a sequence the last block left open is wrong. */
            error = _mm_or_si128(error, incomplete(previous));
        } else {
            error = _mm_or_si128(error, check_block(input, previous));
        }
        previous = input;
    }
    if (i < len) {
        __m128i input = load_partial(p + i, len - i);
        high_bits |= _mm_movemask_epi8(input);
        error = _mm_or_si128(error, check_block(input, previous));
    } else {
        error = _mm_or_si128(error, incomplete(previous));
    }
    if (high_bits == 0) return IMCODEC_UTF8_ASCII;
    return _mm_movemask_epi8(_mm_cmpeq_epi8(error, zero)) == 0xFFFF ? IMCODEC_UTF8_VALID : IMCODEC_UTF8_INVALID;
}

int imcodec_utf8_check(const unsigned char *bytes, size_t len) {
    if (len <= 16 && short_ascii(bytes, len)) return IMCODEC_UTF8_ASCII;
    if (has_ssse3()) return check_ssse3(bytes, len);
    return imcodec_utf8_check_scalar(bytes, len);
}

#else

int imcodec_utf8_check(const unsigned char *bytes, size_t len) {
    if (len <= 16 && short_ascii(bytes, len)) return IMCODEC_UTF8_ASCII;
    return imcodec_utf8_check_scalar(bytes, len);
}

#endif
