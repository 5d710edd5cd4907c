#ifndef IMCODEC_CZSTD_SHIM_H
#define IMCODEC_CZSTD_SHIM_H

/* The frame format uses zstd's magicless frames (ZSTD_f_zstd1_magicless) and
   decodes into a caller-owned buffer (ZSTD_d_stableOutBuffer); both are in the
   "experimental" part of zstd.h, stable since libzstd 1.4.0 and exported by
   the shared library. */
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>
#include <zdict.h>
#include <zstd_errors.h>

/* The experimental parameters are macros naming enum values, which Swift
   cannot import. */
static inline ZSTD_cParameter imcodec_zstd_c_format(void) { return ZSTD_c_format; }
static inline ZSTD_dParameter imcodec_zstd_d_format(void) { return ZSTD_d_format; }
static inline ZSTD_dParameter imcodec_zstd_d_stable_out_buffer(void) { return ZSTD_d_stableOutBuffer; }

/* Error codes are an enum behind a macro-heavy header; these give Swift the
   few it tells apart. */
static inline int imcodec_zstd_is_dst_too_small(size_t code) {
    return ZSTD_isError(code) && ZSTD_getErrorCode(code) == ZSTD_error_dstSize_tooSmall;
}

static inline int imcodec_zstd_is_window_too_large(size_t code) {
    return ZSTD_isError(code) && ZSTD_getErrorCode(code) == ZSTD_error_frameParameter_windowTooLarge;
}

#endif
