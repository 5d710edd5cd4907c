/*
 * The validator: one engine that executes the constraint declarations of
 * Schemas/, as Generated/validate_rules.c holds them, on a payload protobuf-c
 * decoded (docs/spec/validation.md, "Reading the declarations"). It walks the
 * message through protobuf-c's descriptors and names no limit, field or
 * finding code of its own but for the three named predicates of that page
 * ("Named predicates"); the findings, codes, paths and severities are those
 * of js/src/validate.js and the Swift library, and their order the Swift
 * library's (docs/spec/validation.md, "Order"). The walk is iterative: a frame
 * per nesting level on the heap, never the C stack.
 */
#include "constraints.h"
#include "internal.h"
#include "prescan.h"
#include "validate_rules.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Paths, nodes and the run                                                  */

/* One step of a path: a field's JSON name after its holder's path, or an entry's index. */
typedef struct seg {
    const struct seg *up;
    const char *name; /* NULL for an index */
    size_t index;
} seg;

/* A message being validated: its value (NULL when absent), its type, its path and the message holding it. */
typedef struct node {
    const ProtobufCMessage *value;
    const imcodec_ref_rule_message *type;
    const seg *path;
    const struct node *parent;
} node;

typedef struct run {
    const imcodec_ref_validation_limits *profile;
    imcodec_ref_findings *out;
    int out_of_memory;
    size_t root_index; /* added to the index of the root's entries: a batch's message validated alone */
} run;

/* A step's index, `root_index` added for an entry of a field of the root (a batch's message validated alone). */
static size_t seg_index(const seg *s, size_t root_index) {
    return s->index + (s->up != NULL && s->up->name != NULL && s->up->up == NULL ? root_index : 0);
}

static size_t seg_length(const seg *s, size_t root_index) {
    char digits[sizeof "[18446744073709551615]"];
    if (s->name != NULL) return strlen(s->name) + (s->up != NULL ? 1 : 0);
    return (size_t)snprintf(digits, sizeof digits, "[%zu]", seg_index(s, root_index));
}

/* The path as text, in a new allocation. */
static char *render(const seg *path, size_t root_index) {
    size_t total = 0;
    for (const seg *s = path; s != NULL; s = s->up)
        total += seg_length(s, root_index);
    char *text = malloc(total + 1);
    if (text == NULL) return NULL;
    text[total] = '\0';
    size_t end = total;
    for (const seg *s = path; s != NULL; s = s->up) {
        size_t n = seg_length(s, root_index);
        end -= n;
        if (s->name != NULL) {
            size_t at = end;
            if (s->up != NULL) text[at++] = '.';
            memcpy(text + at, s->name, strlen(s->name));
        } else {
            char digits[sizeof "[18446744073709551615]"];
            snprintf(digits, sizeof digits, "[%zu]", seg_index(s, root_index));
            memcpy(text + end, digits, n);
        }
    }
    return text;
}

static int is_warning(const char *code) {
    for (size_t i = 0; i < IMCODEC_REF_RULE_CODE_COUNT; i++)
        if (strcmp(imcodec_ref_rule_codes[i].code, code) == 0) return imcodec_ref_rule_codes[i].warning;
    return 0;
}

/* Records a finding; `limit` and `actual` are 0 when the finding has none. */
static void report(run *r, const char *code, const seg *path, int64_t limit, int64_t actual) {
    if (r->out_of_memory) return;
    imcodec_ref_findings *out = r->out;
    if (out->count == out->capacity) {
        size_t capacity = out->capacity == 0 ? 4 : out->capacity * 2;
        imcodec_ref_finding *items = realloc(out->items, capacity * sizeof *items);
        if (items == NULL) {
            r->out_of_memory = 1;
            return;
        }
        out->items = items;
        out->capacity = capacity;
    }
    char *text = render(path, r->root_index);
    if (text == NULL) {
        r->out_of_memory = 1;
        return;
    }
    imcodec_ref_finding *finding = &out->items[out->count++];
    finding->code = code;
    finding->path = text;
    finding->warning = is_warning(code);
    finding->limit = limit;
    finding->actual = actual;
}

/* ------------------------------------------------------------------------ */
/* Values through protobuf-c's descriptors                                   */

static const imcodec_ref_rule_message *type_of(const ProtobufCMessageDescriptor *descriptor) {
    for (size_t i = 0; i < IMCODEC_REF_RULE_MESSAGE_COUNT; i++)
        if (imcodec_ref_rule_messages[i].descriptor == descriptor) return &imcodec_ref_rule_messages[i];
    return NULL;
}

static const imcodec_ref_rule_message *type_named(const char *name, size_t length) {
    for (size_t i = 0; i < IMCODEC_REF_RULE_MESSAGE_COUNT; i++) {
        const char *own = imcodec_ref_rule_messages[i].name;
        if (strlen(own) == length && memcmp(own, name, length) == 0) return &imcodec_ref_rule_messages[i];
    }
    return NULL;
}

/* A field of `type` by proto name (the first `length` bytes of `name`), or NULL. */
static const imcodec_ref_rule_field_name *name_of(const imcodec_ref_rule_message *type, const char *name,
                                                 size_t length) {
    if (type == NULL) return NULL;
    for (size_t i = 0; i < type->n_fields; i++)
        if (strlen(type->fields[i].name) == length && memcmp(type->fields[i].name, name, length) == 0)
            return &type->fields[i];
    return NULL;
}

static const ProtobufCFieldDescriptor *descriptor_of(const imcodec_ref_rule_message *type,
                                                     const imcodec_ref_rule_field_name *name) {
    if (type == NULL || name == NULL) return NULL;
    return protobuf_c_message_descriptor_get_field_by_name(type->descriptor, name->name);
}

static const void *member(const ProtobufCMessage *m, const ProtobufCFieldDescriptor *fd) {
    return (const char *)m + fd->offset;
}

static int is_repeated(const ProtobufCFieldDescriptor *fd) {
    return fd->label == PROTOBUF_C_LABEL_REPEATED;
}

/* Whether a oneof member is the one its oneof holds (always, for other fields). */
static int selected(const ProtobufCMessage *m, const ProtobufCFieldDescriptor *fd) {
    if (m == NULL) return 0;
    if ((fd->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) == 0) return 1;
    return *(const uint32_t *)(const void *)((const char *)m + fd->quantifier_offset) == fd->id;
}

static size_t count_of(const ProtobufCMessage *m, const ProtobufCFieldDescriptor *fd) {
    if (m == NULL || !is_repeated(fd)) return 0;
    return *(const size_t *)(const void *)((const char *)m + fd->quantifier_offset);
}

/* A message-typed field's value, or entry `index` of a repeated one; NULL when absent. */
static const ProtobufCMessage *message_at(const ProtobufCMessage *m, const ProtobufCFieldDescriptor *fd,
                                          size_t index) {
    if (fd->type != PROTOBUF_C_TYPE_MESSAGE || !selected(m, fd)) return NULL;
    if (is_repeated(fd)) {
        if (index >= count_of(m, fd)) return NULL;
        return (*(ProtobufCMessage *const *const *)member(m, fd))[index];
    }
    return *(ProtobufCMessage *const *)member(m, fd);
}

/* A scalar as the rules see it: text (strings and bytes) or a number; `kind` 0 when there is none. */
enum { VALUE_NONE, VALUE_TEXT, VALUE_NUMBER };
typedef struct scalar {
    int kind;
    const char *text;
    size_t length;
    double number;
    int64_t integer;
    int is_bool;
} scalar;

/* The scalar of a singular field, or of entry `index` of a repeated one; a field's default when `m` is NULL. */
static scalar value_at(const ProtobufCMessage *m, const ProtobufCFieldDescriptor *fd, size_t index) {
    scalar v = {VALUE_NONE, "", 0, 0, 0, 0};
    const void *at;
    if (is_repeated(fd)) {
        if (m == NULL || index >= count_of(m, fd)) return v;
        const char *base = *(const char *const *)member(m, fd);
        size_t size;
        switch (fd->type) {
        case PROTOBUF_C_TYPE_STRING:
        case PROTOBUF_C_TYPE_MESSAGE: size = sizeof(void *); break;
        case PROTOBUF_C_TYPE_BYTES: size = sizeof(ProtobufCBinaryData); break;
        case PROTOBUF_C_TYPE_INT64:
        case PROTOBUF_C_TYPE_SINT64:
        case PROTOBUF_C_TYPE_SFIXED64:
        case PROTOBUF_C_TYPE_UINT64:
        case PROTOBUF_C_TYPE_FIXED64: size = sizeof(uint64_t); break;
        case PROTOBUF_C_TYPE_DOUBLE: size = sizeof(double); break;
        case PROTOBUF_C_TYPE_BOOL: size = sizeof(protobuf_c_boolean); break;
        default: size = 4; break;
        }
        at = base + index * size;
    } else {
        if (m != NULL && (fd->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) != 0 && !selected(m, fd)) return v;
        at = m != NULL ? member(m, fd) : NULL;
    }
    switch (fd->type) {
    case PROTOBUF_C_TYPE_MESSAGE: return v;
    case PROTOBUF_C_TYPE_STRING: {
        const char *s = at != NULL ? *(const char *const *)at : NULL;
        v.kind = VALUE_TEXT;
        v.text = s != NULL ? s : "";
        v.length = strlen(v.text);
        return v;
    }
    case PROTOBUF_C_TYPE_BYTES: {
        v.kind = VALUE_TEXT;
        if (at != NULL) {
            const ProtobufCBinaryData *b = at;
            v.text = b->data != NULL ? (const char *)b->data : "";
            v.length = b->data != NULL ? b->len : 0;
        }
        return v;
    }
    default: break;
    }
    v.kind = VALUE_NUMBER;
    if (at == NULL) return v;
    switch (fd->type) {
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64: v.integer = *(const int64_t *)at; v.number = (double)v.integer; break;
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64: {
        uint64_t u = *(const uint64_t *)at;
        v.number = (double)u;
        v.integer = u > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)u;
        break;
    }
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32: v.integer = *(const uint32_t *)at; v.number = (double)v.integer; break;
    case PROTOBUF_C_TYPE_DOUBLE: v.number = *(const double *)at; v.integer = (int64_t)0; break;
    case PROTOBUF_C_TYPE_FLOAT: v.number = *(const float *)at; break;
    case PROTOBUF_C_TYPE_BOOL:
        v.integer = *(const protobuf_c_boolean *)at != 0;
        v.number = (double)v.integer;
        v.is_bool = 1;
        break;
    default: v.integer = *(const int32_t *)at; v.number = (double)v.integer; break;
    }
    return v;
}

/* docs/spec/validation.md, "Reading the declarations": what "set" means for each kind of field. */
static int is_set(const ProtobufCMessage *m, const ProtobufCFieldDescriptor *fd) {
    if (m == NULL) return 0;
    if (is_repeated(fd)) return count_of(m, fd) > 0;
    if (!selected(m, fd)) return 0;
    if ((fd->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) != 0) return 1;
    if (fd->type == PROTOBUF_C_TYPE_MESSAGE) return message_at(m, fd, 0) != NULL;
    scalar v = value_at(m, fd, 0);
    if (v.kind == VALUE_TEXT) return v.length > 0;
    return v.number != 0;
}

/* The name an enum field's value has, or NULL. */
static const char *enum_name(const ProtobufCFieldDescriptor *fd, int64_t number) {
    if (fd->type != PROTOBUF_C_TYPE_ENUM || number < INT32_MIN || number > INT32_MAX) return NULL;
    const ProtobufCEnumValue *named = protobuf_c_enum_descriptor_get_value(fd->descriptor, (int)number);
    return named != NULL ? named->name : NULL;
}

/* ------------------------------------------------------------------------ */
/* Field references: `field`, `a.b`, `^Type.field`, `^Type`                  */

#define MAX_REF_PARTS 4

typedef struct resolved {
    const ProtobufCMessage *holder;           /* NULL: crosses an absent message, or no enclosing one */
    const imcodec_ref_rule_message *type;     /* the holder's type */
    const ProtobufCFieldDescriptor *field;    /* NULL for a oneof or a whole message */
    const char *oneof;                        /* a oneof's name */
    const seg *path;
    int whole;                                /* `^Type` with an enclosing message */
    int ok;                                   /* 0 for a reference the schema does not have */
} resolved;

static const node *enclosing(const node *n, const char *name, size_t length) {
    for (const node *up = n->parent; up != NULL; up = up->parent)
        if (up->type != NULL && strlen(up->type->name) == length && memcmp(up->type->name, name, length) == 0)
            return up;
    return NULL;
}

/* Resolves `ref` from `n`; the path's steps are kept in `segs`. */
static resolved resolve(const node *n, const char *ref, seg segs[MAX_REF_PARTS]) {
    resolved out = {n->value, n->type, NULL, NULL, n->path, 0, 0};
    const char *rest = ref;
    if (ref[0] == '^') {
        const char *dot = strchr(ref, '.');
        size_t length = dot != NULL ? (size_t)(dot - ref - 1) : strlen(ref + 1);
        const node *up = enclosing(n, ref + 1, length);
        if (up == NULL) {
            out.holder = NULL;
            out.path = NULL;
            out.type = type_named(ref + 1, length);
            if (dot != NULL) {
                const char *part = dot + 1;
                const char *end = strchr(part, '.');
                out.field = descriptor_of(out.type, name_of(out.type, part, end ? (size_t)(end - part) : strlen(part)));
                out.ok = out.field != NULL;
            } else {
                out.ok = out.type != NULL;
            }
            return out;
        }
        out.holder = up->value;
        out.type = up->type;
        out.path = up->path;
        if (dot == NULL) {
            out.whole = 1;
            out.ok = 1;
            return out;
        }
        rest = dot + 1;
    }
    for (size_t i = 0;; i++) {
        const char *end = strchr(rest, '.');
        size_t length = end != NULL ? (size_t)(end - rest) : strlen(rest);
        const imcodec_ref_rule_field_name *name = name_of(out.type, rest, length);
        if (end == NULL && name == NULL && out.type != NULL) {
            for (size_t k = 0; k < out.type->n_fields; k++) {
                const char *oneof = out.type->fields[k].oneof;
                if (oneof != NULL && strlen(oneof) == length && memcmp(oneof, rest, length) == 0) {
                    out.oneof = oneof;
                    out.ok = 1;
                    return out;
                }
            }
        }
        const ProtobufCFieldDescriptor *fd = descriptor_of(out.type, name);
        if (fd == NULL || i >= MAX_REF_PARTS) return out;
        segs[i].up = out.path;
        segs[i].name = name->json;
        segs[i].index = 0;
        out.path = &segs[i];
        if (end == NULL) {
            out.field = fd;
            out.ok = 1;
            return out;
        }
        if (fd->type != PROTOBUF_C_TYPE_MESSAGE || is_repeated(fd)) return out;
        out.holder = message_at(out.holder, fd, 0);
        out.type = type_of(fd->descriptor);
        rest = end + 1;
    }
}

static int resolved_is_set(const resolved *r) {
    if (!r->ok || r->holder == NULL) return 0;
    if (r->oneof != NULL) {
        for (size_t k = 0; k < r->type->n_fields; k++) {
            if (r->type->fields[k].oneof != r->oneof) continue;
            const ProtobufCFieldDescriptor *fd = descriptor_of(r->type, &r->type->fields[k]);
            if (fd != NULL) return *(const uint32_t *)(const void *)((const char *)r->holder + fd->quantifier_offset) != 0;
        }
        return 0;
    }
    if (r->field == NULL) return 1;
    return is_set(r->holder, r->field);
}

static int ref_is_set(const node *n, const char *ref) {
    seg segs[MAX_REF_PARTS];
    resolved r = resolve(n, ref, segs);
    return resolved_is_set(&r);
}

/* A referenced scalar, its default when its holder is absent. */
static scalar ref_value(const node *n, const char *ref) {
    seg segs[MAX_REF_PARTS];
    resolved r = resolve(n, ref, segs);
    scalar none = {VALUE_NONE, "", 0, 0, 0, 0};
    if (!r.ok || r.field == NULL || is_repeated(r.field)) return none;
    return value_at(r.holder, r.field, 0);
}

static int holds(const node *n, const imcodec_ref_rule_condition *c) {
    int result = 0;
    if (c->present >= 0) {
        result = ref_is_set(n, c->field) == c->present;
    } else {
        seg segs[MAX_REF_PARTS];
        resolved r = resolve(n, c->field, segs);
        if (r.ok && r.field != NULL && !is_repeated(r.field)) {
            scalar v = value_at(r.holder, r.field, 0);
            if (v.kind == VALUE_NUMBER && !v.is_bool)
                for (size_t i = 0; i < c->n_numbers && !result; i++)
                    result = v.number == (double)c->numbers[i];
            const char *text = NULL;
            if (r.field->type == PROTOBUF_C_TYPE_ENUM) text = enum_name(r.field, v.integer);
            else if (r.field->type == PROTOBUF_C_TYPE_STRING) text = v.text;
            for (size_t i = 0; text != NULL && i < c->n_strings && !result; i++)
                result = strcmp(text, c->strings[i]) == 0;
        }
    }
    return result != (c->negate != 0);
}

static int all_hold(const node *n, const imcodec_ref_rule_condition *conditions, size_t count) {
    for (size_t i = 0; i < count; i++)
        if (!holds(n, &conditions[i])) return 0;
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Limits                                                                    */

static const char *profile_at(const run *r, size_t offset) {
    return (const char *)r->profile + offset;
}

/* Whether the profile has the limit (docs/spec/validation.md: an absent value turns the rule off). */
static int has_bound(const run *r, const imcodec_ref_rule_limit *l) {
    switch (l->measure) {
    case IMCODEC_REF_RULE_MEASURE_FLAG: return *(const int *)(const void *)profile_at(r, l->value) != 0;
    case IMCODEC_REF_RULE_MEASURE_PREFIX:
    case IMCODEC_REF_RULE_MEASURE_FORBIDDEN_PREFIX:
        return *(const char *const *)(const void *)profile_at(r, l->value) != NULL;
    case IMCODEC_REF_RULE_MEASURE_PER_KEY: return 1;
    default: return l->has != IMCODEC_REF_RULE_NO_OFFSET && *(const int *)(const void *)profile_at(r, l->has) != 0;
    }
}

static int64_t bound_number(const run *r, const imcodec_ref_rule_limit *l) {
    return *(const int64_t *)(const void *)profile_at(r, l->value);
}

static const char *bound_text(const run *r, const imcodec_ref_rule_limit *l) {
    return *(const char *const *)(const void *)profile_at(r, l->value);
}

static size_t bound_count(const run *r, const imcodec_ref_rule_limit *l) {
    return *(const size_t *)(const void *)profile_at(r, l->count);
}

static int starts_with(const scalar *v, const char *prefix) {
    size_t n = strlen(prefix);
    return v->length >= n && memcmp(v->text, prefix, n) == 0;
}

/* UTF-16 code units of UTF-8 text: a four-byte sequence is a surrogate pair. */
static int64_t utf16_units(const scalar *v) {
    int64_t units = 0;
    for (size_t i = 0; i < v->length; i++) {
        unsigned char c = (unsigned char)v->text[i];
        if ((c & 0xC0) == 0x80) continue;
        units += c > 0xEF ? 2 : 1;
    }
    return units;
}

/* A size or number measured against a limit; 0 when it is not measured (text without the prefix). */
static int amount(const run *r, const imcodec_ref_rule_limit *l, scalar v, int64_t *measured) {
    switch (l->measure) {
    case IMCODEC_REF_RULE_MEASURE_UTF8_BYTES:
        if (l->after_prefix >= 0) {
            const imcodec_ref_rule_limit *prefix = &imcodec_ref_rule_limits[l->after_prefix];
            if (!has_bound(r, prefix) || !starts_with(&v, bound_text(r, prefix))) return 0;
            v.length -= strlen(bound_text(r, prefix));
        }
        *measured = (int64_t)v.length;
        return 1;
    case IMCODEC_REF_RULE_MEASURE_UTF16_UNITS: *measured = utf16_units(&v); return 1;
    case IMCODEC_REF_RULE_MEASURE_VALUE: *measured = v.integer; return 1;
    default: return 0;
    }
}

static void measure(run *r, const imcodec_ref_rule_limit *l, scalar v, const seg *path) {
    int64_t measured;
    switch (l->measure) {
    case IMCODEC_REF_RULE_MEASURE_UTF8_BYTES:
    case IMCODEC_REF_RULE_MEASURE_UTF16_UNITS:
        if (amount(r, l, v, &measured) && measured > bound_number(r, l))
            report(r, l->code, path, bound_number(r, l), measured);
        break;
    case IMCODEC_REF_RULE_MEASURE_VALUE:
        if (v.number > (double)bound_number(r, l)) report(r, l->code, path, bound_number(r, l), v.integer);
        break;
    case IMCODEC_REF_RULE_MEASURE_FLAG:
        if (l->charset != NULL) {
            size_t ranges = strlen(l->charset) / 2;
            for (size_t i = 0; i < v.length; i++) {
                unsigned char byte = (unsigned char)v.text[i];
                int inside = 0;
                for (size_t k = 0; k < ranges && !inside; k++)
                    inside = byte >= (unsigned char)l->charset[2 * k] && byte <= (unsigned char)l->charset[2 * k + 1];
                if (!inside) {
                    report(r, l->code, path, 0, byte);
                    break;
                }
            }
        } else if (v.kind == VALUE_NONE || (v.kind == VALUE_TEXT ? v.length == 0 : v.number == 0)) {
            report(r, l->code, path, 0, 0);
        }
        break;
    case IMCODEC_REF_RULE_MEASURE_STRING_SET: {
        if (v.kind != VALUE_TEXT || v.length == 0) break;
        const char *const *set = *(const char *const *const *)(const void *)profile_at(r, l->value);
        int found = 0;
        for (size_t i = 0; i < bound_count(r, l) && !found; i++)
            found = strlen(set[i]) == v.length && memcmp(set[i], v.text, v.length) == 0;
        if (!found) report(r, l->code, path, 0, 0);
        break;
    }
    case IMCODEC_REF_RULE_MEASURE_NUMBER_SET:
    case IMCODEC_REF_RULE_MEASURE_NUMBER_RANGE: {
        const int64_t *set = *(const int64_t *const *)(const void *)profile_at(r, l->value);
        size_t n = bound_count(r, l);
        int inside = 0;
        if (l->measure == IMCODEC_REF_RULE_MEASURE_NUMBER_RANGE)
            inside = n == 2 && v.number >= (double)set[0] && v.number <= (double)set[1];
        else
            for (size_t i = 0; i < n && !inside; i++)
                inside = v.number == (double)set[i];
        if (!inside) report(r, l->code, path, 0, v.integer);
        break;
    }
    case IMCODEC_REF_RULE_MEASURE_PREFIX:
        if (!starts_with(&v, bound_text(r, l))) report(r, l->code, path, 0, 0);
        break;
    case IMCODEC_REF_RULE_MEASURE_FORBIDDEN_PREFIX:
        if (starts_with(&v, bound_text(r, l))) report(r, l->code, path, 0, 0);
        break;
    default: break;
    }
}

static size_t varint_size(uint64_t n) {
    size_t size = 1;
    while (n >= 0x80) {
        n >>= 7;
        size++;
    }
    return size;
}

/*
 * MEASURE_ENCODED_BYTES: each entry's tag, length prefix and canonical size, with the `exclude`d
 * lists of its message fields left out (emptied while measured, then restored).
 */
static void encoded_bytes(run *r, const node *n, const ProtobufCFieldDescriptor *fd, const seg *path,
                          const imcodec_ref_rule_limit *l) {
    /* The counts of the lists emptied in one entry, with their values: at most one per field and exclusion. */
    const ProtobufCMessageDescriptor *desc = fd->descriptor;
    size_t capacity = fd->type == PROTOBUF_C_TYPE_MESSAGE ? desc->n_fields * l->n_exclude : 0;
    size_t **cleared = capacity > 0 ? malloc(capacity * sizeof *cleared) : NULL;
    size_t *saved = capacity > 0 ? malloc(capacity * sizeof *saved) : NULL;
    if (capacity > 0 && (cleared == NULL || saved == NULL)) {
        free(cleared);
        free(saved);
        r->out_of_memory = 1;
        return;
    }
    size_t tag = varint_size((uint64_t)fd->id << 3);
    int64_t total = 0;
    for (size_t i = 0; i < count_of(n->value, fd); i++) {
        ProtobufCMessage *entry = (ProtobufCMessage *)message_at(n->value, fd, i);
        if (entry == NULL) continue;
        size_t n_cleared = 0;
        for (unsigned k = 0; k < desc->n_fields; k++) {
            const ProtobufCFieldDescriptor *sub = &desc->fields[k];
            if (is_repeated(sub) || sub->type != PROTOBUF_C_TYPE_MESSAGE) continue;
            const ProtobufCMessage *child = message_at(entry, sub, 0);
            if (child == NULL) continue;
            for (size_t e = 0; e < l->n_exclude && n_cleared < capacity; e++) {
                const char *dot = strchr(l->exclude[e], '.');
                const char *type = child->descriptor->short_name;
                if (dot == NULL || strlen(type) != (size_t)(dot - l->exclude[e]) ||
                    memcmp(type, l->exclude[e], strlen(type)) != 0)
                    continue;
                const ProtobufCFieldDescriptor *list =
                    protobuf_c_message_descriptor_get_field_by_name(child->descriptor, dot + 1);
                if (list == NULL || !is_repeated(list)) continue;
                cleared[n_cleared] = (size_t *)(void *)((char *)child + list->quantifier_offset);
                saved[n_cleared] = *cleared[n_cleared];
                *cleared[n_cleared++] = 0;
            }
        }
        size_t size = protobuf_c_message_get_packed_size(entry);
        while (n_cleared > 0) {
            n_cleared--;
            *cleared[n_cleared] = saved[n_cleared];
        }
        total += (int64_t)(tag + varint_size(size) + size);
    }
    free(cleared);
    free(saved);
    if (total > bound_number(r, l)) report(r, l->code, path, bound_number(r, l), total);
}

static void predicate(run *r, const char *name, const node *n, const ProtobufCFieldDescriptor *fd, const seg *path,
                      const char *code, int64_t bound, const char *prefix);

/* Applies one use of a limit to `fd` of `n` (to `n` itself when `fd` is NULL). */
static void apply(run *r, const node *n, const ProtobufCFieldDescriptor *fd, const imcodec_ref_rule_field_name *name,
                  const imcodec_ref_rule_use *use) {
    const imcodec_ref_rule_limit *l = &imcodec_ref_rule_limits[use->limit];
    if (l->elsewhere || !has_bound(r, l) || !all_hold(n, use->when, use->n_when)) return;
    seg own = {n->path, fd != NULL ? name->json : NULL, 0};
    const seg *path = fd != NULL ? &own : n->path;
    const seg *at = use->report == IMCODEC_REF_RULE_REPORT_HOLDER ? n->path : path;
    if (l->predicate != NULL) {
        int64_t bound = l->measure == IMCODEC_REF_RULE_MEASURE_PREFIX ? 0 : bound_number(r, l);
        const char *prefix = l->measure == IMCODEC_REF_RULE_MEASURE_PREFIX ? bound_text(r, l) : NULL;
        predicate(r, l->predicate, n, fd, path, l->code, bound, prefix);
        return;
    }
    if (fd == NULL) return; /* a message's own limits are named predicates */
    switch (l->measure) {
    case IMCODEC_REF_RULE_MEASURE_LAYERS: return; /* when the walk reaches the list (too_deep) */
    case IMCODEC_REF_RULE_MEASURE_ENTRIES: {
        int64_t bound = bound_number(r, l), counted = 0;
        size_t excess = 0;
        const imcodec_ref_rule_message *entry_type =
            fd->type == PROTOBUF_C_TYPE_MESSAGE ? type_of(fd->descriptor) : NULL;
        for (size_t i = 0; i < count_of(n->value, fd); i++) {
            if (use->n_count_when > 0) {
                seg index = {path, NULL, i};
                node entry = {message_at(n->value, fd, i), entry_type, &index, n};
                if (entry.value == NULL || !all_hold(&entry, use->count_when, use->n_count_when)) continue;
            }
            if (counted++ == bound) excess = i;
        }
        if (counted > bound) {
            seg first = {path, NULL, excess};
            report(r, l->code, use->report == IMCODEC_REF_RULE_REPORT_FIRST_EXCESS ? &first : path, bound, counted);
        }
        return;
    }
    case IMCODEC_REF_RULE_MEASURE_ENCODED_BYTES: encoded_bytes(r, n, fd, path, l); return;
    case IMCODEC_REF_RULE_MEASURE_PER_KEY: {
        if (use->key == NULL) return;
        scalar key = ref_value(n, use->key);
        char digits[sizeof "-9223372036854775808"];
        if (key.kind == VALUE_NUMBER) {
            key.length = (size_t)snprintf(digits, sizeof digits, "%lld", (long long)key.integer);
            key.text = digits;
        } else if (key.kind != VALUE_TEXT) {
            return;
        }
        const char *const *keys = *(const char *const *const *)(const void *)profile_at(r, l->keys);
        const int64_t *values = *(const int64_t *const *)(const void *)profile_at(r, l->value);
        for (size_t i = 0; i < bound_count(r, l); i++) {
            if (strlen(keys[i]) != key.length || memcmp(keys[i], key.text, key.length) != 0) continue;
            scalar v = value_at(n->value, fd, 0);
            int64_t measured = is_repeated(fd) ? (int64_t)count_of(n->value, fd) : v.integer;
            if (measured > values[i]) report(r, l->code, path, values[i], measured);
            return;
        }
        return;
    }
    default: break;
    }
    if (use->entry_field != NULL) {
        const imcodec_ref_rule_message *entry_type =
            fd->type == PROTOBUF_C_TYPE_MESSAGE ? type_of(fd->descriptor) : NULL;
        const imcodec_ref_rule_field_name *sub_name = name_of(entry_type, use->entry_field, strlen(use->entry_field));
        const ProtobufCFieldDescriptor *sub = descriptor_of(entry_type, sub_name);
        if (sub == NULL) return;
        for (size_t i = 0; i < count_of(n->value, fd); i++) {
            const ProtobufCMessage *entry = message_at(n->value, fd, i);
            if (entry == NULL || ((sub->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) != 0 && !is_set(entry, sub))) continue;
            seg index = {path, NULL, i};
            seg field = {&index, sub_name->json, 0};
            measure(r, l, value_at(entry, sub, 0), &field);
        }
    } else if (is_repeated(fd)) {
        for (size_t i = 0; i < count_of(n->value, fd); i++) {
            seg index = {path, NULL, i};
            measure(r, l, value_at(n->value, fd, i), &index);
        }
    } else if (l->n_sum_with > 0) {
        int64_t total = 0, part;
        if (!amount(r, l, value_at(n->value, fd, 0), &total)) return;
        for (size_t i = 0; i < l->n_sum_with; i++) {
            const ProtobufCFieldDescriptor *other =
                descriptor_of(n->type, name_of(n->type, l->sum_with[i], strlen(l->sum_with[i])));
            if (other == NULL || !amount(r, l, value_at(n->value, other, 0), &part)) return;
            total += part;
        }
        if (total > bound_number(r, l)) report(r, l->code, at, bound_number(r, l), total);
    } else {
        measure(r, l, value_at(n->value, fd, 0), at);
    }
}

/* ------------------------------------------------------------------------ */
/* Field rules and checks                                                    */

static void field_rules(run *r, const node *n, const ProtobufCFieldDescriptor *fd,
                        const imcodec_ref_rule_field_name *name, const imcodec_ref_rule_field *rules) {
    seg path = {n->path, name->json, 0};
    scalar v = is_repeated(fd) ? (scalar){VALUE_NONE, "", 0, 0, 0, 0} : value_at(n->value, fd, 0);
    int present = !((fd->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) != 0 && !selected(n->value, fd));
    if (rules->non_empty != NULL && !is_set(n->value, fd)) report(r, rules->non_empty, &path, 0, 0);
    if (rules->range != NULL && !(isfinite(v.number) && v.kind == VALUE_NUMBER && v.number >= rules->range_min &&
                                  v.number <= rules->range_max)) {
        double low = rules->range_min < 0 ? -rules->range_min : rules->range_min;
        double high = rules->range_max < 0 ? -rules->range_max : rules->range_max;
        double widest = low > high ? low : high;
        report(r, rules->range, &path, (int64_t)widest, 0);
    }
    if (rules->defined_enum != NULL && (!present || enum_name(fd, v.integer) == NULL))
        report(r, rules->defined_enum, &path, 0, present ? v.integer : 0);
    if (rules->discriminator != NULL && present && v.kind == VALUE_NUMBER && v.number == 0 &&
        all_hold(n, rules->discriminator_when, rules->n_discriminator_when))
        report(r, rules->discriminator, &path, 0, 0);
    if (rules->named_values != NULL && (v.integer < INT32_MIN || v.integer > INT32_MAX ||
                                        protobuf_c_enum_descriptor_get_value(rules->named_values, (int)v.integer) == NULL))
        report(r, rules->named_values_code, &path, 0, v.integer);
}

/* The entries of a referenced list with their type and path. */
typedef struct list {
    resolved ref;
    const imcodec_ref_rule_message *entry_type;
    size_t count;
} list;

static list list_of(const node *n, const char *ref, seg segs[MAX_REF_PARTS]) {
    list out = {resolve(n, ref, segs), NULL, 0};
    if (out.ref.ok && out.ref.field != NULL && is_repeated(out.ref.field)) {
        out.count = count_of(out.ref.holder, out.ref.field);
        if (out.ref.field->type == PROTOBUF_C_TYPE_MESSAGE) out.entry_type = type_of(out.ref.field->descriptor);
    }
    return out;
}

static int same_value(const scalar *a, const scalar *b) {
    if (a->kind != b->kind) return 0;
    if (a->kind == VALUE_TEXT) return a->length == b->length && memcmp(a->text, b->text, a->length) == 0;
    return a->number == b->number;
}

static int compare_values(const scalar *a, const scalar *b) {
    if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
    if (a->kind == VALUE_TEXT) {
        size_t n = a->length < b->length ? a->length : b->length;
        int c = memcmp(a->text, b->text, n);
        if (c != 0) return c;
        return a->length < b->length ? -1 : a->length > b->length;
    }
    return a->number < b->number ? -1 : a->number > b->number;
}

typedef struct keyed {
    scalar v;
    size_t index;
} keyed;

static int compare_keyed(const void *a, const void *b) {
    const keyed *x = a, *y = b;
    int c = compare_values(&x->v, &y->v);
    if (c != 0) return c;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* FORM_UNIQUE: every entry whose value an earlier entry has (sorted, so that long lists stay fast). */
static void unique(run *r, const node *n, const imcodec_ref_rule_check *c) {
    seg segs[MAX_REF_PARTS];
    list entries = list_of(n, c->fields[0], segs);
    const imcodec_ref_rule_field_name *sub_name =
        name_of(entries.entry_type, c->fields[1], strlen(c->fields[1]));
    const ProtobufCFieldDescriptor *sub = descriptor_of(entries.entry_type, sub_name);
    if (sub == NULL || entries.count < 2) return;
    keyed *items = malloc(entries.count * sizeof *items);
    unsigned char *repeated = calloc(entries.count, 1);
    if (items == NULL || repeated == NULL) {
        free(items);
        free(repeated);
        r->out_of_memory = 1;
        return;
    }
    size_t kept = 0;
    for (size_t i = 0; i < entries.count; i++) {
        scalar v = value_at(message_at(entries.ref.holder, entries.ref.field, i), sub, 0);
        int listed = c->numbers == NULL;
        for (size_t k = 0; k < c->n_numbers && !listed; k++)
            listed = v.number == (double)c->numbers[k];
        if (!listed) continue;
        items[kept].v = v;
        items[kept++].index = i;
    }
    qsort(items, kept, sizeof *items, compare_keyed);
    for (size_t i = 1; i < kept; i++)
        if (same_value(&items[i].v, &items[i - 1].v)) repeated[items[i].index] = 1;
    for (size_t i = 0; i < entries.count; i++) {
        if (!repeated[i]) continue;
        seg index = {entries.ref.path, NULL, i};
        seg field = {&index, sub_name->json, 0};
        report(r, c->code, &field, 0, 0);
    }
    free(items);
    free(repeated);
}

static void check(run *r, const node *n, const imcodec_ref_rule_check *c) {
    seg at_segs[MAX_REF_PARTS], segs[MAX_REF_PARTS];
    const seg *at = NULL;
    int has_at = c->at != NULL;
    if (has_at) at = strcmp(c->at, ".") == 0 ? n->path : resolve(n, c->at, at_segs).path;
    switch (c->form) {
    case IMCODEC_REF_RULE_FORM_ABSENT:
        for (size_t i = 0; i < c->n_fields; i++) {
            resolved ref = resolve(n, c->fields[i], segs);
            if (!resolved_is_set(&ref)) continue;
            int64_t actual = 0;
            if (ref.field != NULL && c->actual == IMCODEC_REF_RULE_ACTUAL_COUNT) {
                actual = (int64_t)count_of(ref.holder, ref.field);
            } else if (ref.field != NULL && c->actual == IMCODEC_REF_RULE_ACTUAL_VALUE) {
                scalar v = value_at(ref.holder, ref.field, 0);
                if (v.kind == VALUE_NUMBER) actual = v.integer;
            }
            report(r, c->code, has_at ? at : ref.path, 0, actual);
        }
        break;
    case IMCODEC_REF_RULE_FORM_PRESENT:
        for (size_t i = 0; i < c->n_fields; i++) {
            resolved ref = resolve(n, c->fields[i], segs);
            if (!resolved_is_set(&ref)) report(r, c->code, has_at ? at : ref.path, 0, 0);
        }
        break;
    case IMCODEC_REF_RULE_FORM_AT_LEAST_ONE:
    case IMCODEC_REF_RULE_FORM_AT_MOST_ONE: {
        size_t count = 0;
        for (size_t i = 0; i < c->n_fields; i++)
            count += (size_t)ref_is_set(n, c->fields[i]);
        if ((c->form == IMCODEC_REF_RULE_FORM_AT_LEAST_ONE && count == 0) ||
            (c->form == IMCODEC_REF_RULE_FORM_AT_MOST_ONE && count > 1))
            report(r, c->code, has_at ? at : n->path, 0, 0);
        break;
    }
    case IMCODEC_REF_RULE_FORM_EQUALS_COUNT:
    case IMCODEC_REF_RULE_FORM_NOT_ABOVE: {
        if (c->n_fields < 2) break;
        resolved first = resolve(n, c->fields[0], segs);
        scalar v = ref_value(n, c->fields[0]);
        if (c->form == IMCODEC_REF_RULE_FORM_EQUALS_COUNT) {
            seg list_segs[MAX_REF_PARTS];
            int64_t count = (int64_t)list_of(n, c->fields[1], list_segs).count;
            if (v.number != (double)count) report(r, c->code, has_at ? at : first.path, count, v.integer);
        } else {
            scalar ceiling = ref_value(n, c->fields[1]);
            if (ceiling.number != 0 && v.number > ceiling.number)
                report(r, c->code, has_at ? at : first.path, ceiling.integer, v.integer);
        }
        break;
    }
    case IMCODEC_REF_RULE_FORM_UNIQUE:
        if (c->n_fields >= 2) unique(r, n, c);
        break;
    case IMCODEC_REF_RULE_FORM_ENTRIES_PRESENT:
    case IMCODEC_REF_RULE_FORM_ENTRIES_ABSENT: {
        if (c->n_fields < 2) break;
        list entries = list_of(n, c->fields[0], segs);
        if (c->form == IMCODEC_REF_RULE_FORM_ENTRIES_PRESENT && entries.count == 0)
            report(r, c->code, entries.ref.path, 0, 0);
        for (size_t i = 0; i < entries.count && entries.entry_type != NULL; i++) {
            seg index = {entries.ref.path, NULL, i};
            node entry = {message_at(entries.ref.holder, entries.ref.field, i), entries.entry_type, &index, n};
            if (entry.value == NULL) continue;
            if (c->form == IMCODEC_REF_RULE_FORM_ENTRIES_PRESENT) {
                if (!ref_is_set(&entry, c->fields[1])) report(r, c->code, &index, 0, 0);
            } else if (all_hold(&entry, c->entry_when, c->n_entry_when)) {
                seg entry_segs[MAX_REF_PARTS];
                report(r, c->code, resolve(&entry, c->fields[1], entry_segs).path, 0, 0);
            }
        }
        break;
    }
    case IMCODEC_REF_RULE_FORM_PREDICATE:
        if (c->predicate != NULL) predicate(r, c->predicate, n, NULL, has_at ? at : n->path, c->code, 0, NULL);
        break;
    }
}

/* Everything declared on `n`'s type: its own limits, its checks, then its fields' rules in name order. */
static void visit(run *r, const node *n) {
    const imcodec_ref_rule_message *type = n->type;
    if (type == NULL) return;
    for (size_t i = 0; i < type->n_uses; i++)
        apply(r, n, NULL, NULL, &type->uses[i]);
    for (size_t i = 0; i < type->n_checks; i++)
        if (all_hold(n, type->checks[i].when, type->checks[i].n_when)) check(r, n, &type->checks[i]);
    for (size_t i = 0; i < type->n_field_rules; i++) {
        const imcodec_ref_rule_field *rules = &type->field_rules[i];
        const imcodec_ref_rule_field_name *name = name_of(type, rules->field, strlen(rules->field));
        const ProtobufCFieldDescriptor *fd = descriptor_of(type, name);
        if (fd == NULL) continue;
        field_rules(r, n, fd, name, rules);
        for (size_t k = 0; k < rules->n_uses; k++)
            apply(r, n, fd, name, &rules->uses[k]);
    }
}

/* MEASURE_LAYERS: a list at a layer past the limit is reported once (when `quiet` is 0) and its messages are not
 * visited. */
static int too_deep(run *r, const node *n, const imcodec_ref_rule_field_name *name, int quiet) {
    for (size_t i = 0; i < n->type->n_field_rules; i++) {
        const imcodec_ref_rule_field *rules = &n->type->field_rules[i];
        if (strcmp(rules->field, name->name) != 0) continue;
        for (size_t k = 0; k < rules->n_uses; k++) {
            const imcodec_ref_rule_limit *l = &imcodec_ref_rule_limits[rules->uses[k].limit];
            if (l->measure != IMCODEC_REF_RULE_MEASURE_LAYERS || !has_bound(r, l)) continue;
            int64_t layer = 0;
            for (const node *up = n; up != NULL; up = up->parent)
                layer += up->type == n->type;
            if (layer > bound_number(r, l)) {
                seg path = {n->path, name->json, 0};
                if (!quiet) report(r, l->code, &path, bound_number(r, l), layer);
                return 1;
            }
        }
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* The walk                                                                  */

/* A message on the walk's stack, with where its descent has got to. A frame first visits its message and walks
 * its fields depth first, leaving out the deferred fields (the field closing a cycle of the schema, a merger's
 * messages, as the rule table marks it); a frame of that field's entry type below which one was left out then
 * walks its fields again, seeking, and visits the deferred entries in document order, each as a message of its
 * own (docs/spec/validation.md, "Order"). */
typedef struct frame {
    node n;
    seg field_seg;
    seg index_seg;
    size_t field;
    size_t entry;
    int entered;
    int seeking;      /* walking again, for the deferred entries below it */
    int has_deferred; /* a deferred field with entries was left out below it */
    struct frame *below;
} frame;

typedef struct walk {
    frame *top;
    frame *spare;
} walk;

static frame *push(run *r, walk *w, const ProtobufCMessage *value, const node *parent, const char *json, int indexed,
                   size_t index, int seeking) {
    frame *f = w->spare;
    if (f != NULL) {
        w->spare = f->below;
    } else if ((f = malloc(sizeof *f)) == NULL) {
        r->out_of_memory = 1;
        return NULL;
    }
    f->field_seg = (seg){parent != NULL ? parent->path : NULL, json, 0};
    f->index_seg = (seg){&f->field_seg, NULL, index};
    f->n = (node){value, type_of(value->descriptor), json == NULL ? NULL : indexed ? &f->index_seg : &f->field_seg,
                  parent};
    f->field = 0;
    f->entry = 0;
    f->entered = 0;
    f->seeking = seeking;
    f->has_deferred = 0;
    f->below = w->top;
    w->top = f;
    return f;
}

/* For a deferred field, the frame at or below `f` whose message is of the type of the field's entries: the one
 * they are visited after; NULL for any other field. */
static frame *deferring_frame(frame *f, const imcodec_ref_rule_field_name *name, const ProtobufCFieldDescriptor *fd) {
    if (!name->deferred) return NULL;
    for (frame *up = f; up != NULL; up = up->below)
        if (up->n.value->descriptor == fd->descriptor) return up;
    return NULL;
}

/* The message's own rules, then each message it holds, depth first, in field order; the entries of a deferred
 * field after the message of their type that holds them. */
static void validate_tree(run *r, const ProtobufCMessage *root) {
    walk w = {NULL, NULL};
    if (push(r, &w, root, NULL, NULL, 0, 0, 0) != NULL) visit(r, &w.top->n);
    while (w.top != NULL && !r->out_of_memory) {
        frame *f = w.top;
        const imcodec_ref_rule_message *type = f->n.type;
        const ProtobufCMessage *child = NULL;
        const imcodec_ref_rule_field_name *name = NULL;
        size_t index = 0;
        int child_seeks = f->seeking;
        while (type != NULL && f->field < type->n_fields && child == NULL) {
            name = &type->fields[f->field];
            const ProtobufCFieldDescriptor *fd = descriptor_of(type, name);
            if (fd != NULL && fd->type == PROTOBUF_C_TYPE_MESSAGE) {
                int entering = !f->entered;
                f->entered = 1;
                frame *holder = deferring_frame(f, name, fd);
                if (is_repeated(fd)) {
                    size_t count = count_of(f->n.value, fd);
                    if (entering && count > 0 && too_deep(r, &f->n, name, f->seeking)) f->entry = count;
                    if (holder != NULL && !f->seeking) {
                        /* Left out now, visited after the holder. */
                        if (f->entry < count) holder->has_deferred = 1;
                        f->entry = count;
                    }
                    if (f->entry < count) {
                        index = f->entry++;
                        child = message_at(f->n.value, fd, index);
                        child_seeks = f->seeking && holder == NULL;
                        if (child != NULL) break;
                        continue;
                    }
                } else if (entering) {
                    child = message_at(f->n.value, fd, 0);
                    if (child != NULL) break;
                }
            }
            f->field++;
            f->entry = 0;
            f->entered = 0;
        }
        if (child != NULL) {
            const ProtobufCFieldDescriptor *fd = descriptor_of(type, name);
            frame *g = push(r, &w, child, &f->n, name->json, is_repeated(fd), index, child_seeks);
            if (g != NULL && !child_seeks) visit(r, &g->n);
        } else if (f->has_deferred && !f->seeking) {
            /* Its own findings are in: now the entries left out below it. */
            f->seeking = 1;
            f->field = 0;
            f->entry = 0;
            f->entered = 0;
        } else {
            w.top = f->below;
            f->below = w.spare;
            w.spare = f;
        }
    }
    while (w.top != NULL) {
        frame *f = w.top;
        w.top = f->below;
        free(f);
    }
    while (w.spare != NULL) {
        frame *f = w.spare;
        w.spare = f->below;
        free(f);
    }
}

/* A batch message by message, each as a batch of one at its own index, so that each message's batch rules come
 * just before its own findings: the findings of a batch are those of its messages in order, as a reader that does
 * not hold the whole batch gets them (docs/spec/validation.md, "Order"). */
static void validate_batch(run *r, const ProtobufCMessage *batch) {
    const ProtobufCFieldDescriptor *fd = protobuf_c_message_descriptor_get_field_by_name(batch->descriptor, "messages");
    size_t count = fd != NULL ? count_of(batch, fd) : 0;
    if (fd == NULL || count == 0) {
        validate_tree(r, batch);
        return;
    }
    ProtobufCMessage *one = malloc(batch->descriptor->sizeof_message);
    if (one == NULL) {
        r->out_of_memory = 1;
        return;
    }
    ProtobufCMessage *const *entries = *(ProtobufCMessage *const *const *)member(batch, fd);
    for (size_t i = 0; i < count && !r->out_of_memory; i++) {
        memcpy(one, batch, batch->descriptor->sizeof_message);
        *(size_t *)(void *)((char *)one + fd->quantifier_offset) = 1;
        *(ProtobufCMessage *const **)(void *)((char *)one + fd->offset) = &entries[i];
        r->root_index = i;
        validate_tree(r, one);
    }
    r->root_index = 0;
    free(one);
}

/* ------------------------------------------------------------------------ */
/* The named predicates (docs/spec/validation.md, "Named predicates")        */

/* The shorter side of an image level, or 0 when it has no width or height. */
static int64_t short_side(const ProtobufCMessage *level) {
    const ProtobufCMessageDescriptor *desc = level->descriptor;
    const ProtobufCFieldDescriptor *width = protobuf_c_message_descriptor_get_field_by_name(desc, "width");
    const ProtobufCFieldDescriptor *height = protobuf_c_message_descriptor_get_field_by_name(desc, "height");
    if (width == NULL || height == NULL) return 0;
    int64_t w = value_at(level, width, 0).integer, h = value_at(level, height, 0).integer;
    return w > 0 && h > 0 ? (w < h ? w : h) : 0;
}

/* image.scaled-short-side: a large or thumbnail level is the original scaled to `bound` (never up). */
static void scaled_short_side(run *r, const node *n, const seg *path, const char *code, int64_t bound) {
    int64_t side = short_side(n->value);
    if (side == 0) return;
    const node *image = enclosing(n, "ImageElem", strlen("ImageElem"));
    int64_t original = 0;
    if (image != NULL && image->value != NULL) {
        const ProtobufCFieldDescriptor *levels =
            protobuf_c_message_descriptor_get_field_by_name(image->value->descriptor, "levels");
        const ProtobufCFieldDescriptor *type = protobuf_c_message_descriptor_get_field_by_name(n->value->descriptor, "type");
        const ProtobufCEnumValue *original_type =
            type != NULL && type->type == PROTOBUF_C_TYPE_ENUM
                ? protobuf_c_enum_descriptor_get_value_by_name(type->descriptor, "IMAGE_LEVEL_TYPE_ORIGINAL")
                : NULL;
        for (size_t i = 0; levels != NULL && original_type != NULL && i < count_of(image->value, levels); i++) {
            const ProtobufCMessage *level = message_at(image->value, levels, i);
            if (level != NULL && value_at(level, type, 0).integer == original_type->value) {
                original = short_side(level);
                break;
            }
        }
    }
    if (original > 0) {
        int64_t expected = bound < original ? bound : original;
        if (side != expected) report(r, code, path, expected, side);
    } else if (side > bound) {
        report(r, code, path, bound, side);
    }
}

/* add-source: empty, or the prefix followed by one or more ASCII letters. */
static void add_source(run *r, const node *n, const ProtobufCFieldDescriptor *fd, const seg *path, const char *code,
                       const char *prefix) {
    if (fd == NULL) return;
    scalar v = value_at(n->value, fd, 0);
    if (v.length == 0) return;
    if (!starts_with(&v, prefix)) {
        report(r, code, path, 0, 0);
        return;
    }
    size_t start = strlen(prefix);
    int letters = v.length > start;
    for (size_t i = start; i < v.length && letters; i++) {
        char c = v.text[i];
        letters = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
    }
    if (!letters) report(r, code, path, 0, 0);
}

/* at-type: the @ type follows from the @ user list. */
static void at_type(run *r, const node *n, const seg *path, const char *code) {
    const ProtobufCMessageDescriptor *desc = n->value->descriptor;
    const ProtobufCFieldDescriptor *type = protobuf_c_message_descriptor_get_field_by_name(desc, "at_type");
    const ProtobufCFieldDescriptor *users = protobuf_c_message_descriptor_get_field_by_name(desc, "at_user_list");
    if (type == NULL || users == NULL) return;
    const char *named = enum_name(type, value_at(n->value, type, 0).integer);
    int all = 0, user = 0;
    for (size_t i = 0; i < count_of(n->value, users); i++) {
        if (strcmp(value_at(n->value, users, i).text, IMCODEC_REF_AT_ALL_USER_ID) == 0)
            all = 1;
        else
            user = 1;
    }
    int follows = 1;
    if (named == NULL) return;
    if (strcmp(named, "GROUP_AT_TYPE_AT_ME") == 0) follows = user && !all;
    else if (strcmp(named, "GROUP_AT_TYPE_AT_ALL") == 0) follows = all;
    else if (strcmp(named, "GROUP_AT_TYPE_AT_ALL_AT_ME") == 0) follows = all && user;
    if (!follows) report(r, code, path, 0, 0);
}

static void predicate(run *r, const char *name, const node *n, const ProtobufCFieldDescriptor *fd, const seg *path,
                      const char *code, int64_t bound, const char *prefix) {
    if (n->value == NULL) return;
    if (strcmp(name, "image.scaled-short-side") == 0) scaled_short_side(r, n, path, code, bound);
    else if (strcmp(name, "add-source") == 0 && prefix != NULL) add_source(r, n, fd, path, code, prefix);
    else if (strcmp(name, "at-type") == 0) at_type(r, n, path, code);
}

/* ------------------------------------------------------------------------ */
/* Public API                                                                */

const imcodec_ref_validation_limits *imcodec_ref_validation_profile(const char *name) {
    if (name == NULL) return NULL;
    for (size_t i = 0; i < IMCODEC_REF_VALIDATION_PROFILE_NAME_COUNT; i++)
        if (strcmp(name, imcodec_ref_validation_profile_names[i].name) == 0)
            return imcodec_ref_validation_profile_names[i].limits;
    return NULL;
}

void imcodec_ref_findings_free(imcodec_ref_findings *findings) {
    if (findings == NULL) return;
    for (size_t i = 0; i < findings->count; i++)
        free(findings->items[i].path);
    free(findings->items);
    findings->items = NULL;
    findings->count = 0;
    findings->capacity = 0;
}

imcodec_ref_status imcodec_ref_validate_payload(imcodec_ref_kind kind, const unsigned char *bytes, size_t len,
                                                const imcodec_ref_limits *limits,
                                                const imcodec_ref_validation_limits *profile,
                                                imcodec_ref_findings *out, imcodec_ref_error *err) {
    static const unsigned char empty[1] = {0};
    if (out == NULL || profile == NULL)
        return imcodec_ref__status(err, IMCODEC_REF_MISUSE, "out and profile are required");
    memset(out, 0, sizeof *out);
    const ProtobufCMessageDescriptor *desc = imcodec_ref__kind_descriptor(kind);
    if (desc == NULL)
        return imcodec_ref__status(err, IMCODEC_REF_MISUSE, "payload kind %d is not 1, 2 or 3", (int)kind);
    if (bytes == NULL && len > 0) return imcodec_ref__status(err, IMCODEC_REF_MISUSE, "bytes is NULL");
    if (bytes == NULL) bytes = empty;
    imcodec_ref_limits defaults = imcodec_ref_limits_default();
    if (limits == NULL) limits = &defaults;

    imcodec_ref_status st = imcodec_ref__prescan(desc, bytes, len, limits, err);
    if (st != IMCODEC_REF_OK) return st;
    ProtobufCMessage *value = protobuf_c_message_unpack(desc, NULL, len, bytes);
    if (value == NULL)
        return imcodec_ref__status(err, IMCODEC_REF_UNSUPPORTED,
                                   "protobuf-c cannot unpack this payload although it passed the pre-scan");

    run r = {profile, out, 0, 0};
    if (kind == IMCODEC_REF_KIND_BATCH) {
        validate_batch(&r, value);
    } else {
        validate_tree(&r, value);
    }
    protobuf_c_message_free_unpacked(value, NULL);
    if (r.out_of_memory) {
        imcodec_ref_findings_free(out);
        return imcodec_ref__status(err, IMCODEC_REF_NO_MEMORY, "out of memory while validating");
    }
    return IMCODEC_REF_OK;
}
