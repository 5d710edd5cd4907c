/*
 * Compares the C UTF-8 check's vector path with its one-sequence-at-a-time
 * path (Sources/CIMCodecUTF8) on every first byte followed by three bytes
 * from the boundaries of Unicode's table 3-7, behind 0 to PADS-1 ASCII bytes
 * and before ASCII tails, cut at every length around the sequence. Each
 * input is copied into an allocation of exactly its length, so under
 * AddressSanitizer any read past the input is caught. UTF8Tests compares both
 * paths with Swift's own validator on a smaller set in every `swift test`.
 *
 *   cc -O2 -DPADS=20 -ISources/CIMCodecUTF8/include scripts/bench/utf8_exhaustive.c \
 *       Sources/CIMCodecUTF8/utf8.c -o /tmp/utf8-exhaustive && /tmp/utf8-exhaustive
 *   (add -fsanitize=address and a smaller PADS under AddressSanitizer)
 *
 * PADS=20 is 3.3 billion inputs, about five minutes on one core.
 */
#include "imcodec_utf8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef PADS
#define PADS 20
#endif

int main(void) {
    static const unsigned char boundaries[] = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF,
                                               0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE,
                                               0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF7, 0xF8, 0xFF};
    const size_t count = sizeof boundaries;
    unsigned char input[64];
    long long cases = 0, mismatches = 0;
    for (int pad = 0; pad < PADS; pad++) {
        for (int after = 0; after < 20; after += 7) {
            for (int first = 0; first < 256; first++) {
                for (size_t b = 0; b < count; b++) {
                    for (size_t c = 0; c < count; c++) {
                        for (size_t d = 0; d < count; d++) {
                            size_t n = 0;
                            for (int k = 0; k < pad; k++) input[n++] = 'x';
                            input[n++] = (unsigned char)first;
                            input[n++] = boundaries[b];
                            input[n++] = boundaries[c];
                            input[n++] = boundaries[d];
                            for (int k = 0; k < after; k++) input[n++] = 'y';
                            for (size_t length = n - after - 3; length <= n; length++) {
                                unsigned char *exact = malloc(length ? length : 1);
                                if (exact == NULL) return 2;
                                memcpy(exact, input, length);
                                int vector = imcodec_utf8_check(exact, length);
                                int scalar = imcodec_utf8_check_scalar(exact, length);
                                free(exact);
                                cases++;
                                if (vector != scalar && mismatches++ < 10) {
                                    printf("length %zu:", length);
                                    for (size_t k = 0; k < length; k++) printf(" %02x", input[k]);
                                    printf(": vector %d, scalar %d\n", vector, scalar);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    printf("%lld inputs, %lld mismatches\n", cases, mismatches);
    return mismatches != 0;
}
