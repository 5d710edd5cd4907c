# shellcheck shell=bash
# Sourced: the build environment of OSS-Fuzz's base-builder image with the
# libFuzzer engine, for a build outside that image. It sets what the image's
# Dockerfiles set and its `compile` step derives before it runs build.sh:
#
#   SANITIZER           address (the default) or coverage
#   CC, CXX             clang, clang++
#   CFLAGS, CXXFLAGS    the base flags, then the sanitizer's, then the
#                       coverage feedback's (fuzzer-no-link; for the coverage
#                       build, profile instrumentation instead)
#   LIB_FUZZING_ENGINE  -fsanitize=fuzzer
#   FUZZING_ENGINE, FUZZING_LANGUAGE, ARCHITECTURE
#
# scripts/fuzz/fuzz_build.sh sources it when LIB_FUZZING_ENGINE is not set, so a
# build by scripts/fuzz/fuzz.sh or the CI smoke gets the flags OSS-Fuzz's address
# build gets; scripts/fuzz/oss_fuzz_local.sh sources it to run
# .clusterfuzzlite/build.sh as the image would. Only the sanitizers the
# project declares (.clusterfuzzlite/project.yaml) and the coverage build are
# known here.
export SANITIZER=${SANITIZER:-address}
case $SANITIZER in
address)
    _sanitizer_flags="-fsanitize=address -fsanitize-address-use-after-scope"
    _coverage_flags="-fsanitize=fuzzer-no-link"
    ;;
coverage)
    _sanitizer_flags=""
    _coverage_flags="-fprofile-instr-generate -fcoverage-mapping -pthread -Wl,--no-as-needed -Wl,-ldl -Wl,-lm -Wno-unused-command-line-argument"
    ;;
*)
    echo "oss-fuzz-env.sh: SANITIZER=$SANITIZER is not one this project builds (address, coverage)" >&2
    return 2
    ;;
esac
export FUZZING_ENGINE=libfuzzer FUZZING_LANGUAGE=swift ARCHITECTURE=x86_64
export CC=clang CXX=clang++
export LIB_FUZZING_ENGINE=-fsanitize=fuzzer
export CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION${_sanitizer_flags:+ $_sanitizer_flags} $_coverage_flags"
export CXXFLAGS="$CFLAGS -stdlib=libc++"
unset _sanitizer_flags _coverage_flags
