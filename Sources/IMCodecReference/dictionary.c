/*
 * Preset deflate dictionaries known to the library.
 */
#include "internal.h"

/* Generated from Schemas/dictionaries/1.bin by scripts/embed_dictionary_c.sh. */
#include "dictionary_1.h"

int imcodec_ref_dictionary(uint32_t dictionary_id, const unsigned char **bytes, size_t *len) {
    if (dictionary_id != 1) return 0;
    if (bytes != NULL) *bytes = imcodec_ref_dictionary_1;
    if (len != NULL) *len = IMCODEC_REF_DICTIONARY_1_LEN;
    return 1;
}
