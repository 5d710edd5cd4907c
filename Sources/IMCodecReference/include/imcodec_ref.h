/*
 * imcodec_ref.h — the C reference implementation of the imcodec format.
 *
 * The format is specified in docs/spec/frame-format.md (frames) and docs/spec/payloads.md
 * (payload decoding rules, error codes and paths). This library decodes
 * payloads with protobuf-c 1.4.1 after its own bounded pre-scan of the wire
 * bytes, and frames them with zlib.
 *
 * Conventions shared by every function:
 *  - A function returns an imcodec_ref_status. On IMCODEC_REF_ERROR the input
 *    was rejected and *err holds the stable code and path of the format; on
 *    IMCODEC_REF_UNSUPPORTED the input is valid but protobuf-c cannot represent
 *    its value faithfully (err->reason says why, err->code is empty): the
 *    library never answers a value it knows to be wrong.
 *  - Buffers the library returns through `unsigned char **` out-parameters are
 *    allocated with malloc and released with imcodec_ref_free(). On any status
 *    other than IMCODEC_REF_OK the out-parameters are set to NULL / 0.
 *  - `err` may be NULL when the caller does not want details.
 *  - Functions are reentrant; an imcodec_ref_codec or imcodec_ref_reader must
 *    not be used by two threads at once.
 */
#ifndef IMCODEC_REF_H
#define IMCODEC_REF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Status and errors                                                         */
/* ------------------------------------------------------------------------ */

/** What a call did. */
typedef enum imcodec_ref_status {
    /** Success. */
    IMCODEC_REF_OK = 0,
    /** The input was rejected; the error holds a format code and path. */
    IMCODEC_REF_ERROR = 1,
    /**
     * The input is valid, but protobuf-c 1.4.1 cannot represent its value
     * (a -0.0 double, a string with an embedded NUL, an unknown group, a known
     * field with the wrong wire type, a bool set only past bit 64, a singular message seen twice, a
     * non-minimal tag on an unknown field, nesting beyond
     * IMCODEC_REF_MAX_NESTING). The error has an empty code, the path where
     * the construct was found, and a reason starting "protobuf-c cannot".
     */
    IMCODEC_REF_UNSUPPORTED = 2,
    /** Streaming reader only: feed more bytes. */
    IMCODEC_REF_NEED_MORE = 3,
    /** The call's arguments are invalid (a bug in the caller); reason set. */
    IMCODEC_REF_MISUSE = 4,
    /** An allocation failed. */
    IMCODEC_REF_NO_MEMORY = 5
} imcodec_ref_status;

/** Capacity of imcodec_ref_error.path, including the terminating NUL. */
#define IMCODEC_REF_PATH_CAPACITY 16384

/**
 * Protobuf message nesting (not merger layers) beyond which the library
 * refuses to call protobuf-c, whose unpack, pack and free recurse once per
 * level without a limit. Each merger layer is three protobuf levels, so the
 * default maxDepth of 100 stays far below this.
 */
#define IMCODEC_REF_MAX_NESTING 1000

/**
 * Details of a rejected input.
 *
 * `code` is one of the stable strings of the format ("frame.truncated",
 * "payload.utf8", "limit.depth", ...). `path` uses the proto3 JSON field
 * names, "." between fields and "[i]" for repeated entries; empty for the
 * root or for frame errors. `limit` and `observed` are set for limit.* codes
 * and are -1 otherwise.
 */
typedef struct imcodec_ref_error {
    /** The stable error code, empty for non-ERROR statuses. */
    char code[48];
    /** Where in the value; empty for the root and for frame-level errors. */
    char path[IMCODEC_REF_PATH_CAPACITY];
    /** A human explanation; its wording is not stable. */
    char reason[160];
    /** Non-zero when `path` was cut to fit its capacity (never at default limits). */
    int path_truncated;
    /** The limit crossed, for limit.* codes; -1 otherwise. */
    long long limit;
    /** The value that crossed it, for limit.* codes; -1 otherwise. */
    long long observed;
} imcodec_ref_error;

/** Clears an error to the "no error" state. */
void imcodec_ref_error_clear(imcodec_ref_error *err);

/** The error's code as a C string (for bindings that cannot see the array). */
const char *imcodec_ref_error_code(const imcodec_ref_error *err);

/** The error's path as a C string (for bindings that cannot see the array). */
const char *imcodec_ref_error_path(const imcodec_ref_error *err);

/** Returns a static name for a status, for logs ("ok", "error", ...). */
const char *imcodec_ref_status_name(imcodec_ref_status status);

/** Releases a buffer returned by this library. NULL is allowed. */
void imcodec_ref_free(void *buffer);

/* ------------------------------------------------------------------------ */
/* Limits                                                                    */
/* ------------------------------------------------------------------------ */

/**
 * Decoding limits (docs/spec/frame-format.md, "Limits and their defaults").
 * Every value is taken literally: 0 means zero (maxDepth 0 forbids any merger
 * message), not "default".
 */
typedef struct imcodec_ref_limits {
    /** Largest frame body; limit.frame-size. Default 4,194,304. */
    uint64_t max_frame_bytes;
    /** Largest declared payload of a deflate frame; limit.inflated-size. Default 16,777,216. */
    uint64_t max_inflated_bytes;
    /** Largest payload length / body length; limit.inflate-ratio. Default 250. */
    uint64_t max_inflate_ratio;
    /** Deepest merger layer; a message at layer max_depth + 1 is limit.depth. Default 100. */
    uint64_t max_depth;
    /** Most Message.elems entries per message; limit.elems. Default 1,000. */
    uint64_t max_elems;
    /** Most entries of any other repeated field; limit.repeated. Default 10,000. */
    uint64_t max_repeated;
    /** Most MessageBatch.messages entries; limit.batch-messages. Default 1,000. */
    uint64_t max_batch_messages;
} imcodec_ref_limits;

/** Returns the documented default limits. */
imcodec_ref_limits imcodec_ref_limits_default(void);

/* ------------------------------------------------------------------------ */
/* Payloads                                                                  */
/* ------------------------------------------------------------------------ */

/** What a payload holds; the numbers are the frame kinds. */
typedef enum imcodec_ref_kind {
    IMCODEC_REF_KIND_MESSAGE = 1,
    IMCODEC_REF_KIND_BATCH = 2,
    IMCODEC_REF_KIND_EVENT = 3
} imcodec_ref_kind;

/**
 * Validates and decodes a payload, and answers its canonical re-encoding.
 *
 * The bytes are first pre-scanned without recursion against the schema and
 * the limits (every payload.* and limit.* rule of docs/spec/payloads.md, with
 * paths), then unpacked with protobuf-c and packed again.
 *
 * @param kind    IMCODEC_REF_KIND_MESSAGE, _BATCH or _EVENT (else MISUSE).
 * @param bytes   The payload; may be NULL when len is 0.
 * @param len     Its length.
 * @param limits  Decoding limits; NULL for the defaults.
 * @param out     Receives the canonical payload (malloc'ed; free with
 *                imcodec_ref_free). Never NULL on success, even when empty.
 * @param out_len Receives its length.
 * @param err     Receives details on failure; may be NULL.
 * @return IMCODEC_REF_OK, _ERROR (payload.* / limit.* codes),
 *         _UNSUPPORTED, _MISUSE or _NO_MEMORY.
 */
imcodec_ref_status imcodec_ref_decode_payload(imcodec_ref_kind kind, const unsigned char *bytes, size_t len,
                                              const imcodec_ref_limits *limits, unsigned char **out, size_t *out_len,
                                              imcodec_ref_error *err);

/* ------------------------------------------------------------------------ */
/* Validation                                                                */
/* ------------------------------------------------------------------------ */

/**
 * The validation limits of one profile (docs/spec/limits.md). Its members are
 * generated from the declarations in Schemas/ (Generated/constraints.h);
 * users take a profile by name.
 */
typedef struct imcodec_ref_validation_limits imcodec_ref_validation_limits;

/**
 * The profile a name in imcodec_ref_validation_profile_names (Generated/constraints.h)
 * names: "sdk-guide" (or "seed", its earlier name) or "current"; NULL for any other name.
 */
const imcodec_ref_validation_limits *imcodec_ref_validation_profile(const char *name);

/**
 * The user ID that mentions every member in a message's at_user_list:
 * kImSDK_MesssageAtALL of the SDK headers, with the SDK's spelling (M20).
 */
#define IMCODEC_REF_AT_ALL_USER_ID "__kImSDK_MesssageAtALL__"

/** One finding of the validator (docs/spec/validation.md, "Findings"). */
typedef struct imcodec_ref_finding {
    /** The stable code, such as "limit.group.name-bytes" (a static string). */
    const char *code;
    /** Where, in the payload path syntax (malloc'ed; freed by imcodec_ref_findings_free). */
    char *path;
    /** 1 for a warning, 0 for an error. */
    int warning;
    /** The limit crossed; 0 when the finding has none. */
    int64_t limit;
    /** The observed value; 0 when the finding has none. */
    int64_t actual;
} imcodec_ref_finding;

/** Every finding of one validation, in the order docs/spec/validation.md gives. */
typedef struct imcodec_ref_findings {
    imcodec_ref_finding *items;
    size_t count;
    size_t capacity;
} imcodec_ref_findings;

/**
 * Decodes a payload (as imcodec_ref_decode_payload does) and checks it
 * against the documented limits and rules of `profile`, collecting every
 * finding in one pass.
 *
 * @param kind    IMCODEC_REF_KIND_MESSAGE, _BATCH or _EVENT (else MISUSE).
 * @param bytes   The payload; may be NULL when len is 0.
 * @param len     Its length.
 * @param limits  Decoding limits; NULL for the defaults.
 * @param profile A profile from imcodec_ref_validation_profile.
 * @param out     Receives the findings; release them with imcodec_ref_findings_free.
 * @param err     Receives details when the payload does not decode; may be NULL.
 * @return IMCODEC_REF_OK (with zero or more findings), _ERROR (payload.* /
 *         limit.* codes of decoding), _UNSUPPORTED, _MISUSE or _NO_MEMORY.
 */
imcodec_ref_status imcodec_ref_validate_payload(imcodec_ref_kind kind, const unsigned char *bytes, size_t len,
                                                const imcodec_ref_limits *limits,
                                                const imcodec_ref_validation_limits *profile,
                                                imcodec_ref_findings *out, imcodec_ref_error *err);

/** Releases the findings' paths and array. NULL is allowed. */
void imcodec_ref_findings_free(imcodec_ref_findings *findings);

/* ------------------------------------------------------------------------ */
/* Frames                                                                    */
/* ------------------------------------------------------------------------ */

/** Frame compression values. */
typedef enum imcodec_ref_compression {
    IMCODEC_REF_COMPRESSION_NONE = 0,
    IMCODEC_REF_COMPRESSION_DEFLATE = 1,
    /** A magicless zstd frame (needs libzstd: imcodec_ref_zstd_available). */
    IMCODEC_REF_COMPRESSION_ZSTD = 2
} imcodec_ref_compression;

/**
 * Whether this build reads and writes zstd frames (built with libzstd and
 * IMCODEC_REF_ZSTD). Without it a zstd frame is ERROR frame.zstd-unavailable.
 */
int imcodec_ref_zstd_available(void);

/**
 * Whether a dictionary id names a known preset dictionary (1 to 4).
 * Returns its bytes and length through the out-parameters when known.
 */
int imcodec_ref_dictionary(uint32_t dictionary_id, const unsigned char **bytes, size_t *len);

/**
 * A pair of reusable zlib streams (one deflate, one inflate), reset between
 * frames instead of being set up again. Optional: every function taking a
 * codec accepts NULL and then uses short-lived streams.
 */
typedef struct imcodec_ref_codec imcodec_ref_codec;

/** Creates a codec; NULL when out of memory. */
imcodec_ref_codec *imcodec_ref_codec_new(void);

/** Frees a codec and its zlib streams. NULL is allowed. */
void imcodec_ref_codec_free(imcodec_ref_codec *codec);

/**
 * Builds one frame around a payload (the payload is framed as given; it is
 * not decoded: decode it with imcodec_ref_decode_payload and the same limits
 * first to refuse a payload past the depth and count limits).
 *
 * The frame is one that imcodec_ref_decode_frame with `limits` accepts. With
 * compression DEFLATE the payload is compressed only when it is at least
 * `threshold` bytes, the raw deflate body is smaller than the payload, and a
 * reader with `limits` accepts the compressed frame (body at most
 * max_frame_bytes, payload at most max_inflated_bytes and at most
 * max_inflate_ratio times the body); otherwise it is stored (compression 0,
 * no dictionary bit), and a stored body past max_frame_bytes is ERROR
 * limit.frame-size. A dictionary is used, and its id written, only when the
 * payload is compressed.
 *
 * @param codec         Reusable streams, or NULL.
 * @param kind          Frame kind 1-3 (else ERROR frame.kind).
 * @param payload       The payload bytes; may be NULL when len is 0.
 * @param len           Payload length, at most 2^32 - 1 (else MISUSE).
 * @param compression   0 never compress, 1 deflate by policy, 2 zstd by policy (else ERROR
 *                      frame.compression; 2 without libzstd is ERROR frame.zstd-unavailable).
 * @param threshold     Smallest payload length worth compressing.
 * @param level         zlib level 1-9, 0 meaning 6, >9 MISUSE; for zstd 1-19, 0 meaning 3, >19 MISUSE;
 *                      not looked at with compression 0, which compresses nothing.
 * @param dictionary_id 0 for none, else a known dictionary id (else ERROR
 *                      frame.dictionary, checked whatever the compression).
 * @param limits        The limits of the readers the frame is for; NULL for the defaults.
 * @param out           Receives the frame (malloc'ed).
 * @param out_len       Receives its length.
 * @param err           Receives details on failure; may be NULL.
 */
imcodec_ref_status imcodec_ref_encode_frame(imcodec_ref_codec *codec, imcodec_ref_kind kind,
                                            const unsigned char *payload, size_t len,
                                            imcodec_ref_compression compression, uint64_t threshold, int level,
                                            uint32_t dictionary_id, const imcodec_ref_limits *limits,
                                            unsigned char **out, size_t *out_len, imcodec_ref_error *err);

/** A decoded frame's header and its canonical payload. */
typedef struct imcodec_ref_frame {
    /** 1 message, 2 batch, 3 event. */
    imcodec_ref_kind kind;
    /** 0 none, 1 deflate. */
    imcodec_ref_compression compression;
    /** 0 when the frame names no dictionary. */
    uint32_t dictionary_id;
    /** The canonical re-encoding of the frame's payload. */
    const unsigned char *payload;
    /** Its length. */
    size_t payload_len;
    /** How many input bytes the frame took (header + body). */
    size_t frame_len;
} imcodec_ref_frame;

/**
 * Decodes exactly one frame: every check of docs/spec/frame-format.md in its order
 * (1 header, 2 varints, 3 limits before any allocation, 4 body completeness,
 * 5 exact inflate, 6 checksum), then frame.trailing-bytes when bytes follow
 * the frame, then 7 payload decoding. The header counts as complete only
 * with its 4 checksum bytes, so the limits of check 3 apply to a whole
 * header; the dictionary bit on an uncompressed frame is frame.dictionary
 * before the id is read.
 *
 * @param codec          Reusable streams, or NULL.
 * @param bytes          The frame; may be NULL when len is 0.
 * @param len            Its length.
 * @param limits         Decoding limits; NULL for the defaults.
 * @param kind           Receives the frame kind (may be NULL).
 * @param compression    Receives the compression (may be NULL).
 * @param dictionary_id  Receives the dictionary id, 0 for none (may be NULL).
 * @param payload        Receives the canonical payload (malloc'ed).
 * @param payload_len    Receives its length.
 * @param err            Receives details on failure; may be NULL.
 * @return IMCODEC_REF_OK, _ERROR (frame.*, limit.*, payload.* codes),
 *         _UNSUPPORTED, _MISUSE or _NO_MEMORY.
 */
imcodec_ref_status imcodec_ref_decode_frame(imcodec_ref_codec *codec, const unsigned char *bytes, size_t len,
                                            const imcodec_ref_limits *limits, imcodec_ref_kind *kind,
                                            imcodec_ref_compression *compression, uint32_t *dictionary_id,
                                            unsigned char **payload, size_t *payload_len, imcodec_ref_error *err);

/* ------------------------------------------------------------------------ */
/* Streaming reader                                                          */
/* ------------------------------------------------------------------------ */

/**
 * Reads frames written back to back from chunks split anywhere.
 *
 * Usage: feed a chunk, then call next until it returns NEED_MORE (the chunk
 * is used up) or ERROR; feed the next chunk. The reader borrows each chunk
 * until next returns NEED_MORE and copies only the bytes of one incomplete
 * frame, after its header passed the limit checks, so it never holds more
 * than one frame (at most max_frame_bytes + 21 bytes). An ERROR is final:
 * every later call returns it again.
 */
typedef struct imcodec_ref_reader imcodec_ref_reader;

/** Creates a reader with the given limits (NULL for the defaults); NULL when out of memory. */
imcodec_ref_reader *imcodec_ref_reader_new(const imcodec_ref_limits *limits);

/** Frees a reader and the payload it last returned. NULL is allowed. */
void imcodec_ref_reader_free(imcodec_ref_reader *reader);

/**
 * Gives the reader the next chunk. The bytes must stay valid until next
 * returns NEED_MORE. Returns MISUSE when the previous chunk was not used up,
 * the final error when the reader has failed, else OK.
 */
imcodec_ref_status imcodec_ref_reader_feed(imcodec_ref_reader *reader, const unsigned char *bytes, size_t len);

/**
 * Returns the next complete frame (OK; `frame->payload` belongs to the reader
 * and stays valid until the next call of next or free), NEED_MORE when the
 * chunk is used up, ERROR (final), or UNSUPPORTED for a valid frame whose
 * payload protobuf-c cannot represent (the frame is consumed; reading may go
 * on).
 */
imcodec_ref_status imcodec_ref_reader_next(imcodec_ref_reader *reader, imcodec_ref_frame *frame,
                                           imcodec_ref_error *err);

/** How many bytes of an incomplete frame the reader holds (0 at a frame boundary). */
size_t imcodec_ref_reader_buffered(const imcodec_ref_reader *reader);

#ifdef __cplusplus
}
#endif

#endif /* IMCODEC_REF_H */
