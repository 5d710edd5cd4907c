/*
 * The streaming reader: frames from chunks split anywhere.
 *
 * Frames that lie whole inside a chunk are decoded in place. Only the bytes
 * of the one frame that straddles a chunk boundary are copied, and only once
 * its header has passed the limit checks (docs/spec/frame-format.md check 3), so a
 * hostile length never makes the reader allocate more than max_frame_bytes
 * plus a header.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

struct imcodec_ref_reader {
    imcodec_ref_limits limits;
    imcodec_ref_codec *codec;
    /* The borrowed chunk and how far it has been read. */
    const unsigned char *input;
    size_t input_len;
    size_t input_pos;
    /* Bytes of the incomplete frame, and its header once known. */
    unsigned char *partial;
    size_t partial_len;
    size_t partial_capacity;
    int partial_has_header;
    imcodec_ref__header partial_header;
    /* The final error, once failed. */
    imcodec_ref_error *failure;
    imcodec_ref_status failure_status;
    /* The payload last returned by next. */
    unsigned char *payload;
    /* Where details go when the caller passes no error. */
    imcodec_ref_error *scratch;
};

imcodec_ref_reader *imcodec_ref_reader_new(const imcodec_ref_limits *limits) {
    imcodec_ref_reader *reader = calloc(1, sizeof *reader);
    if (reader == NULL) return NULL;
    reader->limits = limits != NULL ? *limits : imcodec_ref_limits_default();
    reader->codec = imcodec_ref_codec_new();
    reader->scratch = malloc(sizeof *reader->scratch);
    if (reader->codec == NULL || reader->scratch == NULL) {
        imcodec_ref_codec_free(reader->codec);
        free(reader->scratch);
        free(reader);
        return NULL;
    }
    return reader;
}

void imcodec_ref_reader_free(imcodec_ref_reader *reader) {
    if (reader == NULL) return;
    imcodec_ref_codec_free(reader->codec);
    free(reader->partial);
    free(reader->failure);
    free(reader->payload);
    free(reader->scratch);
    free(reader);
}

size_t imcodec_ref_reader_buffered(const imcodec_ref_reader *reader) {
    return reader != NULL ? reader->partial_len : 0;
}

static void drop_partial(imcodec_ref_reader *reader) {
    /* A buffer the size of one large frame is not kept between frames. */
    if (reader->partial_capacity > IMCODEC_REF__MAX_HEADER) {
        free(reader->partial);
        reader->partial = NULL;
        reader->partial_capacity = 0;
    }
    reader->partial_len = 0;
    reader->partial_has_header = 0;
}

/* Makes an ERROR (or NO_MEMORY) final: it is kept and every later call answers it. */
static imcodec_ref_status fail(imcodec_ref_reader *reader, imcodec_ref_status status, imcodec_ref_error *err) {
    reader->failure_status = status;
    reader->failure = malloc(sizeof *reader->failure);
    if (reader->failure != NULL) {
        if (err != NULL) {
            *reader->failure = *err;
        } else {
            imcodec_ref_error_clear(reader->failure);
        }
    }
    reader->input = NULL;
    reader->input_len = 0;
    reader->input_pos = 0;
    drop_partial(reader);
    return status;
}

static int reserve(imcodec_ref_reader *reader, size_t capacity) {
    if (reader->partial_capacity >= capacity) return 1;
    unsigned char *buffer = realloc(reader->partial, capacity);
    if (buffer == NULL) return 0;
    reader->partial = buffer;
    reader->partial_capacity = capacity;
    return 1;
}

/* Decodes one complete frame (checks 5-7) and hands it out. */
static imcodec_ref_status yield(imcodec_ref_reader *reader, const unsigned char *bytes,
                                const imcodec_ref__header *header, imcodec_ref_frame *frame, imcodec_ref_error *err) {
    unsigned char *payload = NULL;
    size_t payload_len = 0;
    imcodec_ref_status st =
        imcodec_ref__decode_body(reader->codec, bytes, header, &reader->limits, &payload, &payload_len, err);
    if (st == IMCODEC_REF_UNSUPPORTED) return st; /* a valid frame: the stream goes on */
    if (st != IMCODEC_REF_OK) return fail(reader, st, err);
    reader->payload = payload;
    frame->kind = (imcodec_ref_kind)header->kind;
    frame->compression = (imcodec_ref_compression)header->compression;
    frame->dictionary_id = header->dictionary_id;
    frame->payload = payload;
    frame->payload_len = payload_len;
    frame->frame_len = header->frame_len;
    return IMCODEC_REF_OK;
}

imcodec_ref_status imcodec_ref_reader_feed(imcodec_ref_reader *reader, const unsigned char *bytes, size_t len) {
    if (reader == NULL || (bytes == NULL && len > 0)) return IMCODEC_REF_MISUSE;
    if (reader->failure_status != IMCODEC_REF_OK) return reader->failure_status;
    if (reader->input_pos < reader->input_len) return IMCODEC_REF_MISUSE;
    reader->input = bytes;
    reader->input_len = len;
    reader->input_pos = 0;
    return IMCODEC_REF_OK;
}

/* Takes bytes from the chunk towards the incomplete frame. */
static imcodec_ref_status complete_partial(imcodec_ref_reader *reader, imcodec_ref_frame *frame,
                                           imcodec_ref_error *err) {
    size_t available = reader->input_len - reader->input_pos;
    const unsigned char *input = reader->input + reader->input_pos;
    if (!reader->partial_has_header) {
        /* Look at the header with just enough of the chunk to complete any header, without taking it yet. */
        unsigned char probe[IMCODEC_REF__MAX_HEADER];
        size_t take = IMCODEC_REF__MAX_HEADER - reader->partial_len;
        if (take > available) take = available;
        memcpy(probe, reader->partial, reader->partial_len);
        if (take > 0) memcpy(probe + reader->partial_len, input, take);
        imcodec_ref__header header;
        imcodec_ref_status st =
            imcodec_ref__parse_header(probe, reader->partial_len + take, &reader->limits, &header, err);
        if (st == IMCODEC_REF_NEED_MORE) {
            /* Every byte so far belongs to the header. */
            memcpy(reader->partial + reader->partial_len, input, take);
            reader->partial_len += take;
            reader->input_pos += take;
            return IMCODEC_REF_NEED_MORE;
        }
        if (st != IMCODEC_REF_OK) return fail(reader, st, err);
        if (!reserve(reader, header.frame_len)) {
            return fail(reader, imcodec_ref__status(err, IMCODEC_REF_NO_MEMORY, "out of memory for a frame"), err);
        }
        reader->partial_header = header;
        reader->partial_has_header = 1;
    }
    size_t need = reader->partial_header.frame_len - reader->partial_len;
    size_t take = need < available ? need : available;
    if (take > 0) memcpy(reader->partial + reader->partial_len, input, take);
    reader->partial_len += take;
    reader->input_pos += take;
    if (reader->partial_len < reader->partial_header.frame_len) return IMCODEC_REF_NEED_MORE;

    imcodec_ref__header header = reader->partial_header;
    imcodec_ref_status st = yield(reader, reader->partial, &header, frame, err);
    if (reader->failure_status == IMCODEC_REF_OK) drop_partial(reader);
    return st;
}

/* Reads a frame from the chunk in place, or starts buffering an incomplete one. */
static imcodec_ref_status read_input(imcodec_ref_reader *reader, imcodec_ref_frame *frame, imcodec_ref_error *err) {
    size_t available = reader->input_len - reader->input_pos;
    if (available == 0) return IMCODEC_REF_NEED_MORE;
    const unsigned char *input = reader->input + reader->input_pos;
    imcodec_ref__header header;
    imcodec_ref_status st = imcodec_ref__parse_header(input, available, &reader->limits, &header, err);
    if (st == IMCODEC_REF_NEED_MORE) {
        if (!reserve(reader, IMCODEC_REF__MAX_HEADER)) {
            return fail(reader, imcodec_ref__status(err, IMCODEC_REF_NO_MEMORY, "out of memory"), err);
        }
        memcpy(reader->partial, input, available); /* shorter than any header */
        reader->partial_len = available;
        reader->input_pos = reader->input_len;
        return IMCODEC_REF_NEED_MORE;
    }
    if (st != IMCODEC_REF_OK) return fail(reader, st, err);
    if (available < header.frame_len) {
        if (!reserve(reader, header.frame_len)) {
            return fail(reader, imcodec_ref__status(err, IMCODEC_REF_NO_MEMORY, "out of memory for a frame"), err);
        }
        memcpy(reader->partial, input, available);
        reader->partial_len = available;
        reader->partial_header = header;
        reader->partial_has_header = 1;
        reader->input_pos = reader->input_len;
        return IMCODEC_REF_NEED_MORE;
    }
    reader->input_pos += header.frame_len;
    return yield(reader, input, &header, frame, err);
}

imcodec_ref_status imcodec_ref_reader_next(imcodec_ref_reader *reader, imcodec_ref_frame *frame,
                                           imcodec_ref_error *err) {
    if (reader == NULL || frame == NULL)
        return imcodec_ref__status(err, IMCODEC_REF_MISUSE, "reader and frame are required");
    memset(frame, 0, sizeof *frame);
    if (err == NULL) err = reader->scratch;
    if (reader->failure_status != IMCODEC_REF_OK) {
        if (reader->failure != NULL) {
            *err = *reader->failure;
        } else {
            imcodec_ref__status(err, reader->failure_status, "the reader failed earlier");
        }
        return reader->failure_status;
    }
    free(reader->payload);
    reader->payload = NULL;
    if (reader->input == NULL) return IMCODEC_REF_NEED_MORE;
    imcodec_ref_status st =
        reader->partial_len > 0 ? complete_partial(reader, frame, err) : read_input(reader, frame, err);
    if (st == IMCODEC_REF_NEED_MORE) {
        /* The chunk is used up; it is no longer borrowed. */
        reader->input = NULL;
        reader->input_len = 0;
        reader->input_pos = 0;
    }
    return st;
}
