#ifndef IMCODEC_CZLIB_SHIM_H
#define IMCODEC_CZLIB_SHIM_H

#include <zlib.h>

/* deflateInit2 and inflateInit2 are macros that pass ZLIB_VERSION and the
   stream size; Swift cannot call macros, so these wrappers do it. */
static inline int imcodec_deflateInit2(z_streamp strm, int level, int method, int windowBits,
                                       int memLevel, int strategy) {
    return deflateInit2(strm, level, method, windowBits, memLevel, strategy);
}

static inline int imcodec_inflateInit2(z_streamp strm, int windowBits) {
    return inflateInit2(strm, windowBits);
}

#endif
