/*
 * The C peers of the imcodec benchmarks: protobuf-c used directly, the C
 * reference's frame pipeline, and zlib used the naive way. Every function
 * does the whole job a caller would do, allocation and release included, so
 * its time compares with the Swift call it stands beside.
 */
#ifndef CBENCHMARKPEERS_H
#define CBENCHMARKPEERS_H

#include <stddef.h>
#include <stdint.h>

/* Payload kinds, as in frames: 1 message, 2 batch, 3 event. */

/** Unpacks a payload with protobuf-c; NULL when it does not unpack. Free with bench_pbc_free. */
void *bench_pbc_unpack(int kind, const uint8_t *bytes, size_t len);

/** Frees a value from bench_pbc_unpack. */
void bench_pbc_free(void *message);

/** Packs a value into `out`, which has bench_pbc_packed_size bytes; returns the bytes written. */
size_t bench_pbc_pack(const void *message, uint8_t *out);

/** The packed size of a value. */
size_t bench_pbc_packed_size(const void *message);

/** Encodes as a caller does: size, allocate, pack, release. Returns the size. */
size_t bench_pbc_encode(const void *message);

/** Decodes as a caller does: unpack, release. Returns 0 when the payload does not unpack. */
int bench_pbc_decode(int kind, const uint8_t *bytes, size_t len);

/** Opaque pair of reusable zlib streams of the C reference. */
typedef struct bench_cref bench_cref;

/** Creates the reference's codec (its reusable zlib streams). */
bench_cref *bench_cref_new(void);

/** Frees a codec. */
void bench_cref_free(bench_cref *codec);

/**
 * Encodes a value as a frame with the C reference: protobuf-c packs it, then
 * imcodec_ref_encode_frame frames it. compression 0 stores, 1 deflates from
 * `threshold` bytes; dictionary 0 for none. When `out` is not NULL it
 * receives the frame (free with bench_free); otherwise the frame is released.
 * Returns the frame length, 0 on failure.
 */
size_t bench_cref_encode_frame(bench_cref *codec, int kind, const void *message, int compression,
                               uint64_t threshold, int level, uint32_t dictionary, uint8_t **out);

/**
 * Decodes one frame into a protobuf-c value with the C reference's pipeline:
 * its header checks, its inflater, the CRC-32, its bounded pre-scan of the
 * payload, then protobuf-c's unpack; the value is released. Returns 0 on any
 * failure.
 */
int bench_cref_decode_frame(bench_cref *codec, const uint8_t *bytes, size_t len);

/**
 * The C reference's public imcodec_ref_decode_frame, which answers the
 * canonical re-encoding of the payload (checks, pre-scan, unpack, pack).
 */
int bench_cref_decode_frame_public(bench_cref *codec, const uint8_t *bytes, size_t len);

/**
 * Reads a whole stream of frames with the C reference's streaming reader,
 * fed `chunk` bytes at a time. Returns the number of frames, or -1 on an error.
 */
long bench_cref_read_stream(const uint8_t *bytes, size_t len, size_t chunk);

/** The C reference's streaming reader with the default limits; NULL when out of memory. */
void *bench_cref_reader_new(void);

/** Frees a reader from bench_cref_reader_new. */
void bench_cref_reader_free(void *reader);

/**
 * Feeds the next `len` bytes of a stream to `reader`, `chunk` bytes at a time,
 * reading every frame they complete. Returns the number of frames, or -1 on an
 * error.
 */
long bench_cref_reader_read(void *reader, const uint8_t *bytes, size_t len, size_t chunk);

/**
 * zlib the naive way: a new stream per call (compress2 at level 6, zlib
 * wrapper), always compressing, behind a 4-byte little-endian payload
 * length. Returns the frame length; `out` as for bench_cref_encode_frame.
 */
size_t bench_naive_compress(const uint8_t *payload, size_t len, uint8_t **out);

/**
 * Inflates a frame of bench_naive_compress into a new buffer (a new stream
 * per call). Returns the payload (free with bench_free) and its length, NULL
 * on failure.
 */
uint8_t *bench_naive_uncompress(const uint8_t *frame, size_t len, size_t *payload_len);

/** libzstd alone, set up as the frame format uses it; see bench_zstd_new. */
typedef struct bench_zstd bench_zstd;

/**
 * A zstd compressor and decompressor with the frame format's parameters
 * (magicless frames without content size, checksum or dictionary id) at
 * `level`, the dictionary digested once into a CDict and a DDict. NULL on
 * failure.
 */
bench_zstd *bench_zstd_new(int level, const uint8_t *dictionary, size_t dictionary_len);

/** Frees a bench_zstd. */
void bench_zstd_free(bench_zstd *z);

/**
 * Compresses a payload into `out` with ZSTD_compress2, as the library and
 * the C reference do. Returns the body length, 0 when it does not fit.
 */
size_t bench_zstd_compress(bench_zstd *z, const uint8_t *payload, size_t len, uint8_t *out, size_t capacity);

/** Decompresses a body of `payload_len` bytes into `out`. Returns the payload length, 0 on failure. */
size_t bench_zstd_decompress(bench_zstd *z, const uint8_t *body, size_t len, uint8_t *out, size_t payload_len);

/** Frees a buffer this library returned. */
void bench_free(void *buffer);

#endif
