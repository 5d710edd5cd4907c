#ifndef IMCODEC_CLIBFUZZER_H
#define IMCODEC_CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/* libFuzzer's own mutation of Data[0..<Size] in place, into at most MaxSize
   bytes; returns the new size. The libFuzzer runtime that -sanitize=fuzzer
   links defines it; a custom mutator calls it before repairing the result. */
size_t LLVMFuzzerMutate(uint8_t *Data, size_t Size, size_t MaxSize);

#endif
