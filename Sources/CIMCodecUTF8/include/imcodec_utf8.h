/*
 * imcodec_utf8.h — UTF-8 validation of string fields, sixteen bytes at a
 * time where the processor allows it.
 */
#ifndef IMCODEC_UTF8_H
#define IMCODEC_UTF8_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The bytes are ASCII (and so valid UTF-8). */
#define IMCODEC_UTF8_ASCII 2
/** The bytes are valid UTF-8 and not all ASCII. */
#define IMCODEC_UTF8_VALID 1
/** The bytes are not valid UTF-8. */
#define IMCODEC_UTF8_INVALID 0

/**
 * Whether the `len` bytes at `bytes` are well-formed UTF-8 (Unicode's
 * table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF, no
 * sequence cut short by the end), and whether they are ASCII. Returns
 * IMCODEC_UTF8_ASCII, IMCODEC_UTF8_VALID or IMCODEC_UTF8_INVALID.
 *
 * On x86-64 processors with SSSE3 the bytes are checked sixteen at a time by
 * table lookups on their nibbles (Keiser and Lemire, "Validating UTF-8 in
 * less than one instruction per byte", 2021); elsewhere one sequence at a
 * time. Both give the same answer for every input (UTF8Tests). Only the
 * `len` bytes are read.
 */
int imcodec_utf8_check(const unsigned char *bytes, size_t len);

/** The one-sequence-at-a-time check alone, for comparison in tests. */
int imcodec_utf8_check_scalar(const unsigned char *bytes, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* IMCODEC_UTF8_H */
