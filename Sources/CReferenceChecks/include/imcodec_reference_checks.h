/*
 * imcodec_reference_checks.h — the properties FuzzReference checks on the C
 * reference (Sources/IMCodecReference), callable from the fuzz target and
 * from tests.
 *
 * The first input byte picks an operation, the rest is its input:
 *
 *   0  payload: byte 1 picks the kind, then payload bytes.
 *      Accepted payloads decode again to the same canonical bytes.
 *   1  frame: frame bytes. An accepted frame's payload is canonical (it
 *      decodes to itself), and framed again, stored and deflated without a
 *      dictionary and with each shipped one, it decodes to itself.
 *   2  framing: bytes 1-4 pick the kind, the compression, the threshold and
 *      the level and dictionary (none, 1 or 2), then payload bytes. The
 *      payload, framed as it is, must decode exactly as the bare payload does: the same status,
 *      error code and path, or the same canonical bytes. This reaches the
 *      inflater and the payload decoder behind frames whose checksum is
 *      right, which mutated frames rarely have.
 *   3  stream: bytes 1-2 are two chunk sizes, then frames back to back. The
 *      streaming reader fed in those chunks yields the same frames and the
 *      same final error as when fed everything at once, and never holds
 *      more than one frame.
 *
 * Every error must carry a code of the format (frame.*, payload.*, limit.*)
 * and every "cannot represent" answer a reason saying so; the reference
 * never answers MISUSE or NO_MEMORY to these calls.
 */
#ifndef IMCODEC_REFERENCE_CHECKS_H
#define IMCODEC_REFERENCE_CHECKS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Runs one input through the checks. Returns NULL when every property holds,
 * else a description of the first that does not (in a static buffer, valid
 * until the next call; not for two threads at once).
 */
const char *imcodec_reference_check(const unsigned char *data, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* IMCODEC_REFERENCE_CHECKS_H */
