/*
 * The bounded pre-scan of a payload's wire bytes.
 *
 * protobuf-c 1.4.1 recurses without a depth limit and reports no reasons, so
 * every rule of docs/spec/payloads.md is enforced here, before protobuf-c sees the
 * bytes. The scan walks the bytes with an explicit stack of frames (one per
 * open message or unknown group) driven by the protobuf-c descriptors, so
 * hostile nesting costs heap, bounded by the limits, never C stack.
 *
 * Besides errors, the scan notes valid constructs whose value protobuf-c
 * would decode or re-encode differently from the rules (see
 * IMCODEC_REF_UNSUPPORTED). Errors take precedence: the scan goes on after
 * such a construct and reports it only if the whole payload is valid.
 */
#include "prescan.h"

#include "imcodec/v1/model.pb-c.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The widest message of the schema has 18 fields; checked at scan start. */
#define MAX_FIELDS 32

/*
 * What the scan remembers about one message value: how many entries each
 * repeated field has, and the value of each singular message field, which a
 * second occurrence merges into (so counts and indexes continue).
 */
typedef struct scan_node {
    const ProtobufCMessageDescriptor *desc;
    uint32_t counts[MAX_FIELDS];
    struct scan_node *child[MAX_FIELDS];
    struct scan_node *next_free;
} scan_node;

/* One open message (node != NULL) or unknown group (node == NULL). */
typedef struct scan_frame {
    scan_node *node;
    /* End of the enclosing length-delimited bytes. */
    size_t end;
    /* Field number that closes a group. */
    uint32_t group_number;
    /* Merger layer, groups counting one each. */
    uint64_t layer;
    /* The field that leads to this message from its parent (NULL for the root and groups). */
    const ProtobufCFieldDescriptor *via;
    uint32_t index;
    unsigned char indexed;
    /* Repeated entries own their node; singular fields' nodes belong to the parent's node. */
    unsigned char owns_node;
} scan_frame;

typedef struct scanner {
    const unsigned char *bytes;
    size_t pos;
    const imcodec_ref_limits *limits;
    imcodec_ref_error *err;
    scan_frame *stack;
    size_t depth;
    size_t capacity;
    scan_node *free_nodes;
    /* First construct protobuf-c cannot represent: reason and path (malloc'ed). */
    const char *unsupported_reason;
    char *unsupported_path;
} scanner;

/* ------------------------------------------------------------------------ */
/* Nodes                                                                     */

static scan_node *node_new(scanner *s, const ProtobufCMessageDescriptor *desc) {
    scan_node *node = s->free_nodes;
    if (node != NULL) {
        s->free_nodes = node->next_free;
    } else {
        node = malloc(sizeof *node);
        if (node == NULL) return NULL;
    }
    memset(node, 0, sizeof *node);
    node->desc = desc;
    return node;
}

/* Returns a node and its singular children to the free list, without recursion. */
static void node_release(scanner *s, scan_node *node) {
    scan_node *pending = node;
    if (node != NULL) node->next_free = NULL;
    while (pending != NULL) {
        scan_node *current = pending;
        pending = current->next_free;
        for (unsigned i = 0; i < current->desc->n_fields; i++) {
            if (current->child[i] != NULL) {
                current->child[i]->next_free = pending;
                pending = current->child[i];
                current->child[i] = NULL;
            }
        }
        current->next_free = s->free_nodes;
        s->free_nodes = current;
    }
}

/* ------------------------------------------------------------------------ */
/* Paths                                                                     */

typedef struct path_writer {
    char *out;
    size_t capacity;
    size_t length;
    int truncated;
} path_writer;

static void path_put(path_writer *w, char c) {
    if (w->length + 1 < w->capacity) {
        w->out[w->length++] = c;
        w->out[w->length] = '\0';
    } else {
        w->truncated = 1;
    }
}

/* Appends a component: the field's proto3 JSON name (lowerCamelCase) and an index. */
static void path_component(path_writer *w, const ProtobufCFieldDescriptor *field, int indexed, uint32_t index) {
    if (w->length > 0) path_put(w, '.');
    int upper_next = 0;
    for (const char *p = field->name; *p != '\0'; p++) {
        if (*p == '_') {
            upper_next = 1;
            continue;
        }
        char c = *p;
        if (upper_next && c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
        upper_next = 0;
        path_put(w, c);
    }
    if (indexed) {
        char digits[16];
        snprintf(digits, sizeof digits, "[%u]", (unsigned)index);
        for (const char *p = digits; *p != '\0'; p++)
            path_put(w, *p);
    }
}

/* Writes the path of the innermost open message, then `field` (with its index) when given. */
static void build_path(const scanner *s, const ProtobufCFieldDescriptor *field, int indexed, uint32_t index, char *out,
                       size_t capacity, int *truncated) {
    path_writer w = {out, capacity, 0, 0};
    out[0] = '\0';
    for (size_t i = 0; i < s->depth; i++) {
        const scan_frame *f = &s->stack[i];
        if (f->via != NULL) path_component(&w, f->via, f->indexed, f->index);
    }
    if (field != NULL) path_component(&w, field, indexed, index);
    if (truncated != NULL) *truncated = w.truncated;
}

static void set_path(scanner *s, const ProtobufCFieldDescriptor *field, int indexed, uint32_t index) {
    if (s->err != NULL)
        build_path(s, field, indexed, index, s->err->path, sizeof s->err->path, &s->err->path_truncated);
}

/* Remembers the first construct protobuf-c cannot represent. */
static imcodec_ref_status note_unsupported(scanner *s, const char *reason, const ProtobufCFieldDescriptor *field,
                                           int indexed, uint32_t index) {
    if (s->unsupported_reason != NULL) return IMCODEC_REF_OK;
    s->unsupported_path = malloc(IMCODEC_REF_PATH_CAPACITY);
    if (s->unsupported_path == NULL) return IMCODEC_REF_NO_MEMORY;
    build_path(s, field, indexed, index, s->unsupported_path, IMCODEC_REF_PATH_CAPACITY, NULL);
    s->unsupported_reason = reason;
    return IMCODEC_REF_OK;
}

/* ------------------------------------------------------------------------ */
/* Wire primitives                                                           */

enum { READ_OK = 0, READ_TRUNCATED = 1, READ_TOO_LONG = 2 };

/* A varint of at most 10 bytes; bits beyond 64 are dropped. */
static int read_varint(scanner *s, size_t end, uint64_t *value) {
    uint64_t result = 0;
    for (unsigned i = 0; i < 10; i++) {
        if (s->pos + i >= end) return READ_TRUNCATED;
        unsigned char b = s->bytes[s->pos + i];
        result |= (uint64_t)(b & 0x7f) << (7 * i);
        if ((b & 0x80) == 0) {
            s->pos += i + 1;
            *value = result;
            return READ_OK;
        }
    }
    return READ_TOO_LONG;
}

/* A tag: a varint of at most 5 bytes. */
static int read_tag(scanner *s, size_t end, uint64_t *value, int *minimal) {
    uint64_t result = 0;
    for (unsigned i = 0; i < 5; i++) {
        if (s->pos + i >= end) return READ_TRUNCATED;
        unsigned char b = s->bytes[s->pos + i];
        result |= (uint64_t)(b & 0x7f) << (7 * i);
        if ((b & 0x80) == 0) {
            *minimal = (i == 0 || b != 0);
            s->pos += i + 1;
            *value = result;
            return READ_OK;
        }
    }
    return READ_TOO_LONG;
}

/* Strict UTF-8: no overlong forms, no surrogates, nothing above U+10FFFF. */
static int valid_utf8(const unsigned char *p, size_t n) {
    size_t i = 0;
    while (i < n) {
        unsigned char c = p[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t need;
        unsigned char lo = 0x80, hi = 0xbf;
        if (c >= 0xc2 && c <= 0xdf) {
            need = 1;
        } else if (c == 0xe0) {
            need = 2;
            lo = 0xa0;
        } else if ((c >= 0xe1 && c <= 0xec) || c == 0xee || c == 0xef) {
            need = 2;
        } else if (c == 0xed) {
            need = 2;
            hi = 0x9f;
        } else if (c == 0xf0) {
            need = 3;
            lo = 0x90;
        } else if (c >= 0xf1 && c <= 0xf3) {
            need = 3;
        } else if (c == 0xf4) {
            need = 3;
            hi = 0x8f;
        } else {
            return 0;
        }
        if (n - i - 1 < need) return 0;
        if (p[i + 1] < lo || p[i + 1] > hi) return 0;
        for (size_t k = 2; k <= need; k++) {
            if (p[i + k] < 0x80 || p[i + k] > 0xbf) return 0;
        }
        i += need + 1;
    }
    return 1;
}

/* The wire type a field's values use (the unpacked form for repeated scalars). */
static unsigned wire_type_of(const ProtobufCFieldDescriptor *field) {
    switch (field->type) {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_BOOL:
    case PROTOBUF_C_TYPE_ENUM:
        return 0;
    case PROTOBUF_C_TYPE_FIXED64:
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_DOUBLE:
        return 1;
    case PROTOBUF_C_TYPE_FIXED32:
    case PROTOBUF_C_TYPE_SFIXED32:
    case PROTOBUF_C_TYPE_FLOAT:
        return 5;
    case PROTOBUF_C_TYPE_STRING:
    case PROTOBUF_C_TYPE_BYTES:
    case PROTOBUF_C_TYPE_MESSAGE:
        return 2;
    }
    return 8; /* matches no wire type */
}

/* ------------------------------------------------------------------------ */
/* Frames                                                                    */

static imcodec_ref_status push(scanner *s, scan_frame frame) {
    if (s->depth == s->capacity) {
        size_t capacity = s->capacity == 0 ? 16 : s->capacity * 2;
        scan_frame *stack = realloc(s->stack, capacity * sizeof *stack);
        if (stack == NULL) return IMCODEC_REF_NO_MEMORY;
        s->stack = stack;
        s->capacity = capacity;
    }
    s->stack[s->depth++] = frame;
    return IMCODEC_REF_OK;
}

static void pop(scanner *s) {
    scan_frame *f = &s->stack[--s->depth];
    if (f->owns_node) node_release(s, f->node);
}

/* Depth checks shared by nested messages and groups; the path is set by the caller's arguments. */
static imcodec_ref_status check_nesting(scanner *s, uint64_t layer, const ProtobufCFieldDescriptor *field, int indexed,
                                        uint32_t index) {
    if (layer > s->limits->max_depth) {
        imcodec_ref__fail_limit(s->err, "limit.depth", s->limits->max_depth, layer,
                                "nesting reaches layer %llu; at most %llu merger layers are allowed",
                                (unsigned long long)layer, (unsigned long long)s->limits->max_depth);
        set_path(s, field, indexed, index);
        return IMCODEC_REF_ERROR;
    }
    if (s->depth + 1 > IMCODEC_REF_MAX_NESTING) {
        /* Scanning on would cost memory for an answer protobuf-c cannot give. */
        imcodec_ref__status(s->err, IMCODEC_REF_UNSUPPORTED,
                            "protobuf-c cannot decode nesting deeper than %d levels safely (it recurses per level)",
                            IMCODEC_REF_MAX_NESTING);
        set_path(s, field, indexed, index);
        return IMCODEC_REF_UNSUPPORTED;
    }
    return IMCODEC_REF_OK;
}

/* ------------------------------------------------------------------------ */
/* Fields                                                                    */

static imcodec_ref_status fail_at(scanner *s, const char *code, const ProtobufCFieldDescriptor *field, int indexed,
                                  uint32_t index, const char *reason) {
    imcodec_ref__fail(s->err, code, "%s", reason);
    set_path(s, field, indexed, index);
    return IMCODEC_REF_ERROR;
}

/*
 * Reads a length prefix and checks the body fits in the enclosing bytes.
 * Errors carry the path given by field/indexed/index.
 */
static imcodec_ref_status read_length(scanner *s, size_t end, size_t *length, const ProtobufCFieldDescriptor *field,
                                      int indexed, uint32_t index) {
    uint64_t value = 0;
    int r = read_varint(s, end, &value);
    if (r == READ_TRUNCATED)
        return fail_at(s, "payload.truncated", field, indexed, index, "the payload ends inside a length prefix");
    if (r == READ_TOO_LONG)
        return fail_at(s, "payload.varint", field, indexed, index, "a length prefix is longer than 10 bytes");
    if (value >= 0x7fffffffu) {
        imcodec_ref__fail(s->err, "payload.length", "a length of %llu is 2^31 - 1 or more", (unsigned long long)value);
        set_path(s, field, indexed, index);
        return IMCODEC_REF_ERROR;
    }
    if (value > end - s->pos) {
        imcodec_ref__fail(s->err, "payload.truncated",
                          "a length of %llu runs past the end of the enclosing bytes (%zu left)",
                          (unsigned long long)value, end - s->pos);
        set_path(s, field, indexed, index);
        return IMCODEC_REF_ERROR;
    }
    *length = (size_t)value;
    return IMCODEC_REF_OK;
}

/*
 * Skips the value of an unknown field. Problems have the path of the message
 * holding the field. A start-group opens a group frame.
 */
static imcodec_ref_status skip_unknown(scanner *s, unsigned wire_type, uint32_t number) {
    scan_frame *f = &s->stack[s->depth - 1];
    size_t end = f->end;
    switch (wire_type) {
    case 0: {
        uint64_t value;
        int r = read_varint(s, end, &value);
        if (r == READ_TRUNCATED) return fail_at(s, "payload.truncated", NULL, 0, 0, "the payload ends inside a varint");
        if (r == READ_TOO_LONG) return fail_at(s, "payload.varint", NULL, 0, 0, "a varint is longer than 10 bytes");
        return IMCODEC_REF_OK;
    }
    case 1:
    case 5: {
        size_t width = wire_type == 1 ? 8 : 4;
        if (end - s->pos < width)
            return fail_at(s, "payload.truncated", NULL, 0, 0, "the payload ends inside a fixed-width value");
        s->pos += width;
        return IMCODEC_REF_OK;
    }
    case 2: {
        size_t length;
        imcodec_ref_status st = read_length(s, end, &length, NULL, 0, 0);
        if (st != IMCODEC_REF_OK) return st;
        s->pos += length;
        return IMCODEC_REF_OK;
    }
    case 3: {
        uint64_t layer = f->layer + 1;
        imcodec_ref_status st = check_nesting(s, layer, NULL, 0, 0);
        if (st != IMCODEC_REF_OK) return st;
        st = note_unsupported(s, "protobuf-c cannot represent unknown groups (wire types 3 and 4)", NULL, 0, 0);
        if (st != IMCODEC_REF_OK) return st;
        scan_frame group = {NULL, end, number, layer, NULL, 0, 0, 0};
        return push(s, group);
    }
    default:
        return fail_at(s, "payload.tag", NULL, 0, 0, "invalid wire type");
    }
}

/* Which repeated-field limit applies to a field, and its code. */
static uint64_t repeated_limit(const scanner *s, const ProtobufCMessageDescriptor *desc,
                               const ProtobufCFieldDescriptor *field, const char **code) {
    if (desc == &imcodec__v1__message__descriptor && field->id == 18) {
        *code = "limit.elems";
        return s->limits->max_elems;
    }
    if (desc == &imcodec__v1__message_batch__descriptor && field->id == 1) {
        *code = "limit.batch-messages";
        return s->limits->max_batch_messages;
    }
    *code = "limit.repeated";
    return s->limits->max_repeated;
}

static int is_merger_messages(const ProtobufCMessageDescriptor *desc, const ProtobufCFieldDescriptor *field) {
    return desc == &imcodec__v1__merger_elem__descriptor && field->id == 4;
}

/* Reads the value of a known field whose wire type matches. */
static imcodec_ref_status scan_known(scanner *s, const ProtobufCFieldDescriptor *field) {
    scan_frame *f = &s->stack[s->depth - 1];
    scan_node *node = f->node;
    const ProtobufCMessageDescriptor *desc = node->desc;
    size_t end = f->end;
    unsigned slot = (unsigned)(field - desc->fields);
    int repeated = field->label == PROTOBUF_C_LABEL_REPEATED;
    uint32_t index = repeated ? node->counts[slot] : 0;
    size_t body_start = 0;
    size_t body_len = 0;

    /* 1. The repeated-field limit, at the first entry past it, before the entry is read. */
    if (repeated) {
        const char *code;
        uint64_t limit = repeated_limit(s, desc, field, &code);
        if ((uint64_t)index >= limit) {
            imcodec_ref__fail_limit(s->err, code, limit, (uint64_t)index + 1, "more than %llu entries",
                                    (unsigned long long)limit);
            set_path(s, field, 1, index);
            return IMCODEC_REF_ERROR;
        }
        node->counts[slot] = index + 1;
    }

    /* 2. The value's own bytes. */
    switch (wire_type_of(field)) {
    case 0: {
        uint64_t value;
        size_t varint_start = s->pos;
        int r = read_varint(s, end, &value);
        if (r == READ_TRUNCATED)
            return fail_at(s, "payload.truncated", field, repeated, index, "the payload ends inside a varint");
        if (r == READ_TOO_LONG)
            return fail_at(s, "payload.varint", field, repeated, index, "a varint is longer than 10 bytes");
        if (field->type == PROTOBUF_C_TYPE_BOOL && value == 0) {
            /* Bits past 64 are ignored (false), but protobuf-c reads a bool as
               true when any byte of its varint has a payload bit set. */
            for (size_t i = varint_start; i < s->pos; i++) {
                if (s->bytes[i] & 0x7f) {
                    imcodec_ref_status st = note_unsupported(
                        s, "protobuf-c cannot represent a bool whose only set bits are past bit 64 (it reads true)",
                        field, repeated, index);
                    if (st != IMCODEC_REF_OK) return st;
                    break;
                }
            }
        }
        break;
    }
    case 1:
    case 5: {
        size_t width = wire_type_of(field) == 1 ? 8 : 4;
        if (end - s->pos < width)
            return fail_at(s, "payload.truncated", field, repeated, index,
                           "the payload ends inside a fixed-width value");
        s->pos += width;
        break;
    }
    default: {
        imcodec_ref_status st = read_length(s, end, &body_len, field, repeated, index);
        if (st != IMCODEC_REF_OK) return st;
        body_start = s->pos;
        break;
    }
    }

    /* 3. The value's contents. */
    if (field->type == PROTOBUF_C_TYPE_STRING) {
        const unsigned char *text = s->bytes + body_start;
        if (!valid_utf8(text, body_len))
            return fail_at(s, "payload.utf8", field, repeated, index,
                           "a string field holds bytes that are not valid UTF-8");
        if (body_len > 0 && memchr(text, 0, body_len) != NULL) {
            imcodec_ref_status st = note_unsupported(
                s, "protobuf-c cannot represent a string with an embedded NUL (it cuts C strings there)", field,
                repeated, index);
            if (st != IMCODEC_REF_OK) return st;
        }
        s->pos += body_len;
    } else if (field->type == PROTOBUF_C_TYPE_BYTES) {
        s->pos += body_len;
    }

    /* Setting a oneof member drops the others' values (a later one starts afresh). */
    if (field->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {
        for (unsigned i = 0; i < desc->n_fields; i++) {
            const ProtobufCFieldDescriptor *other = &desc->fields[i];
            if (i != slot && (other->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) &&
                other->quantifier_offset == field->quantifier_offset && node->child[i] != NULL) {
                node_release(s, node->child[i]);
                node->child[i] = NULL;
            }
        }
    }

    if (field->type != PROTOBUF_C_TYPE_MESSAGE) return IMCODEC_REF_OK;

    /* 4. A nested message: depth, merge bookkeeping, then its frame. */
    uint64_t layer = f->layer + (is_merger_messages(desc, field) ? 1 : 0);
    imcodec_ref_status st = check_nesting(s, layer, field, repeated, index);
    if (st != IMCODEC_REF_OK) return st;

    const ProtobufCMessageDescriptor *child_desc = field->descriptor;
    scan_node *child;
    unsigned char owns = 0;
    if (repeated) {
        child = node_new(s, child_desc);
        if (child == NULL) return IMCODEC_REF_NO_MEMORY;
        owns = 1;
    } else if (node->child[slot] != NULL) {
        /* Merging continues the earlier value's counts, so indexes are those of the merged value. */
        child = node->child[slot];
        st = note_unsupported(s,
                              (field->flags & PROTOBUF_C_FIELD_FLAG_ONEOF)
                                  ? "protobuf-c cannot merge a oneof message member seen twice (it keeps only the last)"
                                  : "protobuf-c cannot merge a singular message seen twice faithfully (it drops "
                                    "unknown fields and default scalars)",
                              field, 0, 0);
        if (st != IMCODEC_REF_OK) return st;
    } else {
        child = node_new(s, child_desc);
        if (child == NULL) return IMCODEC_REF_NO_MEMORY;
        node->child[slot] = child;
    }
    if (child_desc->n_fields > MAX_FIELDS) {
        if (owns) node_release(s, child);
        return imcodec_ref__status(s->err, IMCODEC_REF_MISUSE, "message %s has more than %d fields", child_desc->name,
                                   MAX_FIELDS);
    }
    scan_frame frame = {child, body_start + body_len, 0, layer, field, index, (unsigned char)repeated, owns};
    st = push(s, frame);
    if (st != IMCODEC_REF_OK && owns) node_release(s, child);
    return st;
}

/* ------------------------------------------------------------------------ */
/* The scan                                                                  */

static imcodec_ref_status scan(scanner *s, const ProtobufCMessageDescriptor *root, size_t len) {
    if (root->n_fields > MAX_FIELDS) {
        return imcodec_ref__status(s->err, IMCODEC_REF_MISUSE, "message %s has more than %d fields", root->name,
                                   MAX_FIELDS);
    }
    scan_node *root_node = node_new(s, root);
    if (root_node == NULL) return IMCODEC_REF_NO_MEMORY;
    scan_frame top = {root_node, len, 0, 0, NULL, 0, 0, 1};
    imcodec_ref_status st = push(s, top);
    if (st != IMCODEC_REF_OK) {
        node_release(s, root_node);
        return st;
    }

    while (s->depth > 0) {
        scan_frame *f = &s->stack[s->depth - 1];
        if (f->node != NULL && s->pos == f->end) {
            pop(s);
            continue;
        }
        uint64_t tag = 0;
        int minimal = 1;
        int r = read_tag(s, f->end, &tag, &minimal);
        if (r == READ_TRUNCATED) {
            return fail_at(s, "payload.truncated", NULL, 0, 0,
                           f->node == NULL ? "the payload ends inside a group" : "the payload ends inside a tag");
        }
        if (r == READ_TOO_LONG) return fail_at(s, "payload.tag", NULL, 0, 0, "a tag is longer than 5 bytes");
        uint64_t number64 = tag >> 3;
        unsigned wire_type = (unsigned)(tag & 7);
        if (number64 == 0) return fail_at(s, "payload.tag", NULL, 0, 0, "field number 0");
        if (number64 >= (1u << 29)) return fail_at(s, "payload.tag", NULL, 0, 0, "a field number of 2^29 or more");
        if (wire_type == 6 || wire_type == 7) return fail_at(s, "payload.tag", NULL, 0, 0, "wire type 6 or 7");
        uint32_t number = (uint32_t)number64;

        if (wire_type == 4) {
            if (f->node == NULL && f->group_number == number) {
                pop(s);
                continue;
            }
            return fail_at(s, "payload.group", NULL, 0, 0,
                           f->node == NULL ? "an end-group tag does not match the open group"
                                           : "an end-group tag with no open group");
        }

        const ProtobufCFieldDescriptor *field = NULL;
        if (f->node != NULL) field = protobuf_c_message_descriptor_get_field(f->node->desc, number);
        if (field != NULL && wire_type_of(field) == wire_type) {
            st = scan_known(s, field);
        } else {
            if (f->node != NULL && field != NULL) {
                st = note_unsupported(s,
                                      "protobuf-c cannot keep a known field with the wrong wire type as an unknown "
                                      "field (it rejects the payload)",
                                      NULL, 0, 0);
                if (st != IMCODEC_REF_OK) return st;
            }
            if (f->node != NULL && !minimal) {
                st = note_unsupported(
                    s, "protobuf-c cannot keep the non-minimal tag of an unknown field (it re-encodes it)", NULL, 0, 0);
                if (st != IMCODEC_REF_OK) return st;
            }
            st = skip_unknown(s, wire_type, number);
        }
        if (st != IMCODEC_REF_OK) return st;
    }
    return IMCODEC_REF_OK;
}

imcodec_ref_status imcodec_ref__prescan(const ProtobufCMessageDescriptor *root, const unsigned char *bytes, size_t len,
                                        const imcodec_ref_limits *limits, imcodec_ref_error *err) {
    static const unsigned char empty[1] = {0};
    scanner s;
    memset(&s, 0, sizeof s);
    s.bytes = bytes != NULL ? bytes : empty;
    s.limits = limits;
    s.err = err;

    imcodec_ref_status st = scan(&s, root, len);
    if (st == IMCODEC_REF_NO_MEMORY) imcodec_ref__status(err, st, "out of memory while scanning the payload");
    if (st == IMCODEC_REF_OK && s.unsupported_reason != NULL) {
        st = imcodec_ref__status(err, IMCODEC_REF_UNSUPPORTED, "%s", s.unsupported_reason);
        if (err != NULL) snprintf(err->path, sizeof err->path, "%s", s.unsupported_path);
    }

    while (s.depth > 0)
        pop(&s);
    free(s.stack);
    free(s.unsupported_path);
    while (s.free_nodes != NULL) {
        scan_node *next = s.free_nodes->next_free;
        free(s.free_nodes);
        s.free_nodes = next;
    }
    return st;
}
