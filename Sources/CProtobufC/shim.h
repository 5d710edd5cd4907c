#ifndef IMCODEC_CPROTOBUFC_SHIM_H
#define IMCODEC_CPROTOBUFC_SHIM_H

/* protobuf-c's runtime (Debian: libprotobuf-c-dev), used by the C reference. */
#include <protobuf-c/protobuf-c.h>

#endif
