#ifndef IMCODEC_CLIBDEFLATE_SHIM_H
#define IMCODEC_CLIBDEFLATE_SHIM_H

/* libdeflate: whole-buffer raw deflate, zlib-compatible output
   (docs/PERFORMANCE-INVESTIGATIONS.md, "libdeflate"). */
#include <libdeflate.h>

#endif
