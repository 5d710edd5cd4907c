/*
 * Helpers shared by the C reference's tests.
 */
#include "test_util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tests_passed = 0;
int tests_failed = 0;

int check(int ok, const char *format, ...) {
    if (ok) {
        tests_passed++;
        return 1;
    }
    tests_failed++;
    va_list args;
    va_start(args, format);
    fprintf(stderr, "FAIL: ");
    vfprintf(stderr, format, args);
    fprintf(stderr, "\n");
    va_end(args);
    return 0;
}

/* ------------------------------------------------------------------------ */

static size_t largest_allocation;
static size_t allocation_count;

void *__real_malloc(size_t size);
void *__real_realloc(void *pointer, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_realloc(void *pointer, size_t size);

void *__wrap_malloc(size_t size) {
    allocation_count++;
    if (size > largest_allocation) largest_allocation = size;
    return __real_malloc(size);
}

void *__wrap_realloc(void *pointer, size_t size) {
    allocation_count++;
    if (size > largest_allocation) largest_allocation = size;
    return __real_realloc(pointer, size);
}

void alloc_reset(void) {
    largest_allocation = 0;
    allocation_count = 0;
}
size_t alloc_count(void) {
    return allocation_count;
}
size_t alloc_largest(void) {
    return largest_allocation;
}

/* ------------------------------------------------------------------------ */

void b_free(bytes *b) {
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

static void b_reserve(bytes *b, size_t extra) {
    if (b->len + extra <= b->cap) return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra)
        cap *= 2;
    unsigned char *data = realloc(b->data, cap);
    if (data == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    b->data = data;
    b->cap = cap;
}

void b_byte(bytes *b, unsigned value) {
    b_reserve(b, 1);
    b->data[b->len++] = (unsigned char)value;
}

void b_raw(bytes *b, const void *data, size_t len) {
    if (len == 0) return;
    b_reserve(b, len);
    memcpy(b->data + b->len, data, len);
    b->len += len;
}

void b_varint(bytes *b, uint64_t value) {
    while (value >= 0x80) {
        b_byte(b, (unsigned)(value & 0x7f) | 0x80);
        value >>= 7;
    }
    b_byte(b, (unsigned)value);
}

void b_tag(bytes *b, uint32_t field, unsigned wire_type) {
    b_varint(b, (uint64_t)field << 3 | wire_type);
}

void b_string(bytes *b, uint32_t field, const char *text) {
    b_tag(b, field, 2);
    b_varint(b, strlen(text));
    b_raw(b, text, strlen(text));
}

void b_message(bytes *b, uint32_t field, const bytes *sub) {
    b_tag(b, field, 2);
    b_varint(b, sub->len);
    b_raw(b, sub->data, sub->len);
}

bytes b_hex(const char *hex) {
    bytes b = {0};
    int high = -1;
    for (const char *p = hex; *p; p++) {
        int v;
        if (*p >= '0' && *p <= '9')
            v = *p - '0';
        else if (*p >= 'a' && *p <= 'f')
            v = *p - 'a' + 10;
        else if (*p >= 'A' && *p <= 'F')
            v = *p - 'A' + 10;
        else
            continue;
        if (high < 0) {
            high = v;
        } else {
            b_byte(&b, (unsigned)(high << 4 | v));
            high = -1;
        }
    }
    if (b.data == NULL) b_reserve(&b, 1);
    return b;
}

int b_equal(const bytes *b, const unsigned char *data, size_t len) {
    return b->len == len && (len == 0 || memcmp(b->data, data, len) == 0);
}

/* ------------------------------------------------------------------------ */

void expect_payload_error(const char *name, imcodec_ref_kind kind, const bytes *input, const imcodec_ref_limits *limits,
                          const char *code, const char *path) {
    static imcodec_ref_error err;
    unsigned char *out = NULL;
    size_t out_len = 0;
    imcodec_ref_status st = imcodec_ref_decode_payload(kind, input->data, input->len, limits, &out, &out_len, &err);
    check(st == IMCODEC_REF_ERROR && strcmp(err.code, code) == 0 && strcmp(err.path, path) == 0,
          "%s: expected %s at \"%s\", got %s %s at \"%.200s\" (%s)", name, code, path, imcodec_ref_status_name(st),
          err.code, err.path, err.reason);
    check(out == NULL && out_len == 0, "%s: no output on error", name);
    imcodec_ref_free(out);
}

void expect_payload_ok(const char *name, imcodec_ref_kind kind, const bytes *input, const bytes *canonical) {
    static imcodec_ref_error err;
    unsigned char *out = NULL;
    size_t out_len = 0;
    imcodec_ref_status st = imcodec_ref_decode_payload(kind, input->data, input->len, NULL, &out, &out_len, &err);
    if (check(st == IMCODEC_REF_OK, "%s: expected ok, got %s %s at \"%.200s\" (%s)", name, imcodec_ref_status_name(st),
              err.code, err.path, err.reason)) {
        const bytes *expected = canonical != NULL ? canonical : input;
        if (!check(b_equal(expected, out, out_len), "%s: canonical bytes differ (%zu vs %zu bytes)", name, out_len,
                   expected->len)) {
            for (size_t i = 0; i < out_len; i++)
                fprintf(stderr, "%02x ", out[i]);
            fprintf(stderr, "\n");
        }
    }
    imcodec_ref_free(out);
}

void expect_payload_unsupported(const char *name, imcodec_ref_kind kind, const bytes *input, const char *path) {
    static imcodec_ref_error err;
    unsigned char *out = NULL;
    size_t out_len = 0;
    imcodec_ref_status st = imcodec_ref_decode_payload(kind, input->data, input->len, NULL, &out, &out_len, &err);
    check(st == IMCODEC_REF_UNSUPPORTED && strcmp(err.path, path) == 0 &&
              strncmp(err.reason, "protobuf-c cannot", 17) == 0,
          "%s: expected unsupported at \"%s\", got %s %s at \"%s\" (%s)", name, path, imcodec_ref_status_name(st),
          err.code, err.path, err.reason);
    imcodec_ref_free(out);
}

/* ------------------------------------------------------------------------ */

bytes sample_message(int variant) {
    bytes m = {0};
    char text[64];
    snprintf(text, sizeof text, "msg-%04d", variant);
    b_string(&m, 1, text);
    b_string(&m, 2, "alice");
    b_string(&m, 3, "bob");
    b_tag(&m, 6, 0);
    b_varint(&m, 1700000000u + (unsigned)variant);
    b_tag(&m, 7, 0);
    b_varint(&m, 42 + (unsigned)variant);
    b_string(&m, 17, "{\"custom\":\"data\"}");
    for (int i = 0; i < 1 + variant % 4; i++) {
        bytes text_elem = {0}, elem = {0};
        b_string(&text_elem, 1, "hello there, this is a fairly ordinary chat message with some words in it");
        b_message(&elem, 1, &text_elem);
        b_message(&m, 18, &elem);
        b_free(&text_elem);
        b_free(&elem);
    }
    return m;
}
