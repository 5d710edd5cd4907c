/*
 * Payload decoding: pre-scan, protobuf-c unpack, canonical re-encoding.
 */
#include "internal.h"
#include "prescan.h"

#include "imcodec/v1/event.pb-c.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const ProtobufCMessageDescriptor *imcodec_ref__kind_descriptor(imcodec_ref_kind kind) {
    switch (kind) {
    case IMCODEC_REF_KIND_MESSAGE:
        return &imcodec__v1__message__descriptor;
    case IMCODEC_REF_KIND_BATCH:
        return &imcodec__v1__message_batch__descriptor;
    case IMCODEC_REF_KIND_EVENT:
        return &imcodec__v1__event__descriptor;
    }
    return NULL;
}

/* One step of the path from the root to a value, kept on the C stack while walking. */
typedef struct walk_step {
    const struct walk_step *parent;
    const ProtobufCFieldDescriptor *field;
    size_t index;
    int indexed;
} walk_step;

static void append(char *out, size_t capacity, size_t *length, const char *text) {
    size_t n = strlen(text);
    if (*length + n + 1 > capacity) n = capacity - *length - 1;
    memcpy(out + *length, text, n);
    *length += n;
    out[*length] = '\0';
}

/* Writes "a.b[2].c" for a chain of steps, with proto3 JSON names. */
static void write_path(const walk_step *step, char *out, size_t capacity) {
    const walk_step *chain[IMCODEC_REF_MAX_NESTING + 2];
    size_t count = 0;
    for (const walk_step *s = step; s != NULL && count < sizeof chain / sizeof chain[0]; s = s->parent)
        chain[count++] = s;
    size_t length = 0;
    out[0] = '\0';
    while (count > 0) {
        const walk_step *s = chain[--count];
        if (length > 0) append(out, capacity, &length, ".");
        char name[128];
        size_t k = 0;
        int upper_next = 0;
        for (const char *p = s->field->name; *p != '\0' && k + 1 < sizeof name; p++) {
            if (*p == '_') {
                upper_next = 1;
                continue;
            }
            char c = *p;
            if (upper_next && c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
            upper_next = 0;
            name[k++] = c;
        }
        name[k] = '\0';
        append(out, capacity, &length, name);
        if (s->indexed) {
            char digits[32];
            snprintf(digits, sizeof digits, "[%zu]", s->index);
            append(out, capacity, &length, digits);
        }
    }
}

/*
 * Finds a singular (non-oneof) proto3 double or float holding -0.0, which
 * protobuf-c omits when packing because it compares with 0. Recursion depth
 * is bounded by the pre-scan's IMCODEC_REF_MAX_NESTING. Writes the value's
 * path when `path` is not NULL.
 */
static int find_negative_zero(const ProtobufCMessage *message, const walk_step *at, char *path, size_t capacity) {
    const ProtobufCMessageDescriptor *desc = message->descriptor;
    for (unsigned i = 0; i < desc->n_fields; i++) {
        const ProtobufCFieldDescriptor *field = &desc->fields[i];
        const char *member = (const char *)message + field->offset;
        walk_step step = {at, field, 0, 0};
        if (field->label == PROTOBUF_C_LABEL_NONE && !(field->flags & PROTOBUF_C_FIELD_FLAG_ONEOF)) {
            int negative_zero = 0;
            if (field->type == PROTOBUF_C_TYPE_DOUBLE) {
                double value;
                memcpy(&value, member, sizeof value);
                negative_zero = value == 0 && signbit(value);
            } else if (field->type == PROTOBUF_C_TYPE_FLOAT) {
                float value;
                memcpy(&value, member, sizeof value);
                negative_zero = value == 0 && signbit(value);
            }
            if (negative_zero) {
                if (path != NULL) write_path(&step, path, capacity);
                return 1;
            }
        }
        if (field->type != PROTOBUF_C_TYPE_MESSAGE) continue;
        if (field->label == PROTOBUF_C_LABEL_REPEATED) {
            size_t n;
            memcpy(&n, (const char *)message + field->quantifier_offset, sizeof n);
            ProtobufCMessage *const *items;
            memcpy(&items, member, sizeof items);
            for (size_t k = 0; k < n; k++) {
                step.index = k;
                step.indexed = 1;
                if (find_negative_zero(items[k], &step, path, capacity)) return 1;
            }
        } else {
            if (field->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {
                uint32_t which;
                memcpy(&which, (const char *)message + field->quantifier_offset, sizeof which);
                if (which != field->id) continue;
            }
            const ProtobufCMessage *child;
            memcpy(&child, member, sizeof child);
            if (child != NULL && find_negative_zero(child, &step, path, capacity)) return 1;
        }
    }
    return 0;
}

imcodec_ref_status imcodec_ref_decode_payload(imcodec_ref_kind kind, const unsigned char *bytes, size_t len,
                                              const imcodec_ref_limits *limits, unsigned char **out, size_t *out_len,
                                              imcodec_ref_error *err) {
    static const unsigned char empty[1] = {0};
    if (out == NULL || out_len == NULL)
        return imcodec_ref__status(err, IMCODEC_REF_MISUSE, "out and out_len are required");
    *out = NULL;
    *out_len = 0;
    const ProtobufCMessageDescriptor *desc = imcodec_ref__kind_descriptor(kind);
    if (desc == NULL)
        return imcodec_ref__status(err, IMCODEC_REF_MISUSE, "payload kind %d is not 1, 2 or 3", (int)kind);
    if (bytes == NULL && len > 0) return imcodec_ref__status(err, IMCODEC_REF_MISUSE, "bytes is NULL");
    if (bytes == NULL) bytes = empty;
    imcodec_ref_limits defaults = imcodec_ref_limits_default();
    if (limits == NULL) limits = &defaults;

    imcodec_ref_status st = imcodec_ref__prescan(desc, bytes, len, limits, err);
    if (st != IMCODEC_REF_OK) return st;

    ProtobufCMessage *message = protobuf_c_message_unpack(desc, NULL, len, bytes);
    if (message == NULL) {
        /* Out of memory, or a protobuf-c rule the pre-scan does not know: never guess. */
        return imcodec_ref__status(err, IMCODEC_REF_UNSUPPORTED,
                                   "protobuf-c cannot unpack this payload although it passed the pre-scan");
    }

    if (find_negative_zero(message, NULL, NULL, 0)) {
        /* Found: walk again to write where, into a buffer only this rare case needs. */
        char *path = malloc(IMCODEC_REF_PATH_CAPACITY);
        if (path != NULL) find_negative_zero(message, NULL, path, IMCODEC_REF_PATH_CAPACITY);
        st = imcodec_ref__status(err, IMCODEC_REF_UNSUPPORTED,
                                 "protobuf-c cannot represent a -0.0 double (it omits it as a default)");
        if (err != NULL && path != NULL) snprintf(err->path, sizeof err->path, "%s", path);
        free(path);
        protobuf_c_message_free_unpacked(message, NULL);
        return st;
    }

    size_t size = protobuf_c_message_get_packed_size(message);
    unsigned char *buffer = malloc(size > 0 ? size : 1);
    if (buffer == NULL) {
        protobuf_c_message_free_unpacked(message, NULL);
        return imcodec_ref__status(err, IMCODEC_REF_NO_MEMORY, "out of memory for %zu bytes", size);
    }
    size_t written = protobuf_c_message_pack(message, buffer);
    protobuf_c_message_free_unpacked(message, NULL);
    if (written != size) {
        free(buffer);
        return imcodec_ref__status(err, IMCODEC_REF_UNSUPPORTED, "protobuf-c packed %zu bytes, not the %zu it sized",
                                   written, size);
    }
    *out = buffer;
    *out_len = size;
    return IMCODEC_REF_OK;
}
