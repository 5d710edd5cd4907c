/*
 * Errors, statuses, limits and buffer release.
 */
#include "internal.h"
#include "constraints.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void imcodec_ref_error_clear(imcodec_ref_error *err) {
    if (err == NULL) return;
    err->code[0] = '\0';
    err->path[0] = '\0';
    err->reason[0] = '\0';
    err->path_truncated = 0;
    err->limit = -1;
    err->observed = -1;
}

const char *imcodec_ref_error_code(const imcodec_ref_error *err) { return err->code; }

const char *imcodec_ref_error_path(const imcodec_ref_error *err) { return err->path; }

const char *imcodec_ref_status_name(imcodec_ref_status status) {
    switch (status) {
    case IMCODEC_REF_OK:
        return "ok";
    case IMCODEC_REF_ERROR:
        return "error";
    case IMCODEC_REF_UNSUPPORTED:
        return "unsupported";
    case IMCODEC_REF_NEED_MORE:
        return "need-more";
    case IMCODEC_REF_MISUSE:
        return "misuse";
    case IMCODEC_REF_NO_MEMORY:
        return "no-memory";
    }
    return "unknown";
}

void imcodec_ref_free(void *buffer) {
    free(buffer);
}

imcodec_ref_limits imcodec_ref_limits_default(void) {
    imcodec_ref_limits limits;
    limits.max_frame_bytes = IMCODEC_REF_DEFAULT_MAX_FRAME_BYTES;
    limits.max_inflated_bytes = IMCODEC_REF_DEFAULT_MAX_INFLATED_BYTES;
    limits.max_inflate_ratio = IMCODEC_REF_DEFAULT_MAX_INFLATE_RATIO;
    limits.max_depth = IMCODEC_REF_DEFAULT_MAX_DEPTH;
    limits.max_elems = IMCODEC_REF_DEFAULT_MAX_ELEMS;
    limits.max_repeated = IMCODEC_REF_DEFAULT_MAX_REPEATED;
    limits.max_batch_messages = IMCODEC_REF_DEFAULT_MAX_BATCH_MESSAGES;
    return limits;
}

static void set_reason(imcodec_ref_error *err, const char *format, va_list args) {
    vsnprintf(err->reason, sizeof err->reason, format, args);
}

imcodec_ref_status imcodec_ref__fail(imcodec_ref_error *err, const char *code, const char *format, ...) {
    if (err != NULL) {
        imcodec_ref_error_clear(err);
        snprintf(err->code, sizeof err->code, "%s", code);
        va_list args;
        va_start(args, format);
        set_reason(err, format, args);
        va_end(args);
    }
    return IMCODEC_REF_ERROR;
}

imcodec_ref_status imcodec_ref__fail_limit(imcodec_ref_error *err, const char *code, uint64_t limit, uint64_t observed,
                                           const char *format, ...) {
    if (err != NULL) {
        imcodec_ref_error_clear(err);
        snprintf(err->code, sizeof err->code, "%s", code);
        va_list args;
        va_start(args, format);
        set_reason(err, format, args);
        va_end(args);
        err->limit = limit > (uint64_t)INT64_MAX ? INT64_MAX : (long long)limit;
        err->observed = observed > (uint64_t)INT64_MAX ? INT64_MAX : (long long)observed;
    }
    return IMCODEC_REF_ERROR;
}

imcodec_ref_status imcodec_ref__status(imcodec_ref_error *err, imcodec_ref_status status, const char *format, ...) {
    if (err != NULL) {
        imcodec_ref_error_clear(err);
        va_list args;
        va_start(args, format);
        set_reason(err, format, args);
        va_end(args);
    }
    return status;
}
