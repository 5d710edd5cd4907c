#!/bin/bash -eu
# The ClusterFuzzLite / OSS-Fuzz build of imcodec's libFuzzer targets.
#
# Run by the base-builder-swift image's `compile` with the package as the
# working directory (the Dockerfile's WORKDIR) and SANITIZER, CFLAGS, OUT,
# SRC and WORK set by the image. precompile_swift puts the Swift-aware
# llvm-symbolizer in $OUT (its SWIFTFLAGS are not used: scripts/fuzz/fuzz_build.sh
# derives the same kind of flags from SANITIZER and CFLAGS, the ones
# scripts/fuzz/fuzz.sh and the CI smoke build with). scripts/fuzz/fuzz_build.sh then
# builds every target (Package.swift's products in FuzzTesting/) and writes
# $OUT/TARGET, $OUT/TARGET_seed_corpus.zip, $OUT/TARGET.dict and
# $OUT/TARGET.options. scripts/fuzz/oss_fuzz_local.sh runs this script the same
# way without the image (docs/FUZZING.md, "On OSS-Fuzz and ClusterFuzzLite").

# shellcheck disable=SC1091 # the image's, on PATH
. precompile_swift

# SwiftPM builds in the package (.build-fuzz, or .build-fuzz-coverage), as
# scripts/fuzz/fuzz.sh does, so the dependencies' sources are under $SRC, where
# a coverage report looks for them.
scripts/fuzz/fuzz_build.sh --out "$OUT"
