/*
 * imcodec_crc32.h — CRC-32 (zlib's crc32, the IEEE polynomial) for frame
 * checksums, by carry-less multiplication where the processor has it.
 */
#ifndef IMCODEC_CRC32_H
#define IMCODEC_CRC32_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Continues a CRC-32 over `len` bytes at `bytes`; start with 0.
 *
 * Gives exactly zlib's crc32_z(crc, bytes, len). On x86-64 processors with
 * PCLMULQDQ (and SSSE3), inputs of 16 bytes or more are folded with
 * carry-less multiplication, 64 bytes at a time where they are that long,
 * then 16, then the last few (several times faster than zlib's tables);
 * shorter inputs and other processors use zlib's table.
 */
uint32_t imcodec_crc32(uint32_t crc, const unsigned char *bytes, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* IMCODEC_CRC32_H */
