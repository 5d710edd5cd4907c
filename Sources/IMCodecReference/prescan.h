/*
 * The bounded pre-scan of payload wire bytes (docs/spec/payloads.md).
 */
#ifndef IMCODEC_REF_PRESCAN_H
#define IMCODEC_REF_PRESCAN_H

#include "internal.h"

/*
 * Checks `bytes` against every decoding rule and limit of docs/spec/payloads.md for
 * the message type `root`, without recursion.
 *
 * Returns OK when protobuf-c may unpack the bytes and its result will be
 * right; ERROR with the code and path of the first problem; UNSUPPORTED
 * (reason and path of the first such construct) when the payload is valid but
 * protobuf-c would decode or re-encode it differently from the rules, or it
 * nests deeper than IMCODEC_REF_MAX_NESTING; NO_MEMORY; MISUSE when the
 * schema is wider than the scanner supports.
 */
imcodec_ref_status imcodec_ref__prescan(const ProtobufCMessageDescriptor *root, const unsigned char *bytes, size_t len,
                                        const imcodec_ref_limits *limits, imcodec_ref_error *err);

#endif /* IMCODEC_REF_PRESCAN_H */
