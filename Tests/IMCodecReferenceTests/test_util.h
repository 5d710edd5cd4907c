/*
 * Helpers shared by the C reference's tests.
 */
#ifndef IMCODEC_REF_TEST_UTIL_H
#define IMCODEC_REF_TEST_UTIL_H

#include "imcodec_ref.h"

#include <stddef.h>
#include <stdint.h>

/* The longest frame header, checksum included. */
#define IMCODEC_REF__MAX_HEADER_FOR_TESTS 21

extern int tests_passed;
extern int tests_failed;

/* Records one check; prints the failure with its name. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
int check(int ok, const char *format, ...);

/* A growable byte string for building wire bytes. */
typedef struct bytes {
    unsigned char *data;
    size_t len;
    size_t cap;
} bytes;

void b_free(bytes *b);
void b_byte(bytes *b, unsigned value);
void b_raw(bytes *b, const void *data, size_t len);
void b_varint(bytes *b, uint64_t value);
void b_tag(bytes *b, uint32_t field, unsigned wire_type);
void b_string(bytes *b, uint32_t field, const char *text);
void b_message(bytes *b, uint32_t field, const bytes *sub);
/* Bytes from hex text such as "0a 01 61" (spaces ignored). */
bytes b_hex(const char *hex);
int b_equal(const bytes *b, const unsigned char *data, size_t len);

/* The largest single malloc/realloc request since the last reset (the library's objects are linked with --wrap). */
void alloc_reset(void);
size_t alloc_largest(void);
/* How many malloc/realloc requests the library made since the last reset. */
size_t alloc_count(void);

/* Payload expectations. */
void expect_payload_error(const char *name, imcodec_ref_kind kind, const bytes *input, const imcodec_ref_limits *limits,
                          const char *code, const char *path);
void expect_payload_ok(const char *name, imcodec_ref_kind kind, const bytes *input, const bytes *canonical);
void expect_payload_unsupported(const char *name, imcodec_ref_kind kind, const bytes *input, const char *path);

/* A realistic message payload (canonical), for frame and stream tests. */
bytes sample_message(int variant);

void test_payload(void);
void test_frame(void);
void test_reader(void);
void test_validate(void);
void test_testee(const char *testee_path);

#endif
