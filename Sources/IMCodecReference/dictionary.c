/*
 * Preset dictionaries known to the library (deflate and zstd).
 */
#include "internal.h"

/* Generated from Schemas/dictionaries/<id>.bin by scripts/codegen/embed_dictionary_c.py. */
#include "dictionary_1.h"
#include "dictionary_2.h"
#include "dictionary_3.h"
#include "dictionary_4.h"

int imcodec_ref_dictionary(uint32_t dictionary_id, const unsigned char **bytes, size_t *len) {
    const unsigned char *found;
    size_t found_len;
    switch (dictionary_id) {
    case 1:
        found = imcodec_ref_dictionary_1;
        found_len = IMCODEC_REF_DICTIONARY_1_LEN;
        break;
    case 2:
        found = imcodec_ref_dictionary_2;
        found_len = IMCODEC_REF_DICTIONARY_2_LEN;
        break;
    case 3:
        found = imcodec_ref_dictionary_3;
        found_len = IMCODEC_REF_DICTIONARY_3_LEN;
        break;
    case 4:
        found = imcodec_ref_dictionary_4;
        found_len = IMCODEC_REF_DICTIONARY_4_LEN;
        break;
    default:
        return 0;
    }
    if (bytes != NULL) *bytes = found;
    if (len != NULL) *len = found_len;
    return 1;
}
