#!/usr/bin/env bash
# Builds the libFuzzer targets: the one place that says how, for
# scripts/fuzz/fuzz.sh, the CI smoke, the coverage report and the OSS-Fuzz /
# ClusterFuzzLite build (.clusterfuzzlite/build.sh).
#
#   scripts/fuzz/fuzz_build.sh --list                 the targets: Package.swift's executable products
#                                                whose targets live in FuzzTesting/
#   scripts/fuzz/fuzz_build.sh --scratch-path        the SwiftPM scratch path (the targets are in its release/)
#   scripts/fuzz/fuzz_build.sh [TARGET...]            build them (every target when none is named)
#   scripts/fuzz/fuzz_build.sh --out DIR [TARGET...]  build them and lay each out in DIR as OSS-Fuzz's
#                                                $OUT wants it: DIR/TARGET, DIR/TARGET_seed_corpus.zip
#                                                (scripts/fuzz/make_fuzz_corpus.py's seeds and
#                                                FuzzTesting/FailCases/TARGET), DIR/TARGET.dict
#                                                (FuzzTesting/TARGET.dict) and DIR/TARGET.options, and
#                                                in DIR/lib the shared libraries they load past glibc
#                                                and the GCC runtime
#
# The flags follow OSS-Fuzz's build environment: SANITIZER and CFLAGS as its
# base-builder image sets them. Outside that image (LIB_FUZZING_ENGINE unset)
# scripts/fuzz/oss_fuzz_env.sh sets the same values, for SANITIZER=address unless
# told otherwise, so a developer's build, the CI smoke's and OSS-Fuzz's
# address build are the same build. With SANITIZER=address:
#
#   swift build -c release --product TARGET --scratch-path .build-fuzz --static-swift-stdlib \
#       -Xlinker -rpath -Xlinker '$ORIGIN/lib' \
#       --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address -Xcc FLAG...
#
# (FLAG: each word of CFLAGS, so the C code gets OSS-Fuzz's flags too; the
# package has no C++.) With SANITIZER=coverage there is no sanitizer but
# libFuzzer, and Swift gets -profile-generate -profile-coverage-mapping (C:
# -fprofile-instr-generate -fcoverage-mapping, from CFLAGS), built into
# .build-fuzz-coverage. --static-swift-stdlib and the RUNPATH $ORIGIN/lib:
# OSS-Fuzz runs targets where no Swift runtime and no protobuf-c are
# installed. The scratch path can be moved with FUZZ_SCRATCH.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ -z "${LIB_FUZZING_ENGINE:-}" ]; then
    # shellcheck source=scripts/fuzz/oss_fuzz_env.sh
    . scripts/fuzz/oss_fuzz_env.sh
fi
export IMCODEC_FUZZ=1
# SwiftPM keeps the sanitizers in a Set: with per-process hash seeds their
# order in the compiler flags changes from one `swift build` to the next,
# and every change rebuilds everything. A fixed seed keeps the order.
export SWIFT_DETERMINISTIC_HASHING=1
if [ "$SANITIZER" = address ]; then
    scratch=${FUZZ_SCRATCH:-.build-fuzz}
else
    scratch=${FUZZ_SCRATCH:-.build-fuzz-$SANITIZER}
fi

# '$ORIGIN/lib': the shared libraries that --out copies beside the targets.
# shellcheck disable=SC2016
swift_flags=(-c release --scratch-path "$scratch" --static-swift-stdlib -Xlinker -rpath -Xlinker '$ORIGIN/lib'
    --sanitize=fuzzer)
case $SANITIZER in
coverage)
    swift_flags+=(-Xswiftc -sanitize=fuzzer -Xswiftc -profile-generate -Xswiftc -profile-coverage-mapping)
    ;;
*)
    swift_flags+=(--sanitize="$SANITIZER" -Xswiftc "-sanitize=fuzzer,$SANITIZER")
    ;;
esac
read -ra cflags <<<"$CFLAGS"
for flag in "${cflags[@]}"; do
    swift_flags+=(-Xcc "$flag")
done

list_targets() {
    swift package --scratch-path "$scratch" describe --type json | python3 scripts/fuzz/list_fuzz_targets.py
}

out=
case "${1:-}" in
--list)
    list_targets
    exit 0
    ;;
--scratch-path)
    echo "$scratch"
    exit 0
    ;;
--out)
    out=${2:?usage: scripts/fuzz/fuzz_build.sh --out DIR [TARGET...]}
    shift 2
    ;;
-*)
    echo "usage: scripts/fuzz/fuzz_build.sh [--list | --scratch-path | --out DIR] [TARGET...]" >&2
    exit 2
    ;;
esac
if [ $# -eq 0 ]; then
    mapfile -t targets < <(list_targets)
    [ ${#targets[@]} -gt 0 ] || { echo "fuzz-build.sh: no fuzz targets listed" >&2; exit 1; }
    set -- "${targets[@]}"
fi

# Linking the static Swift runtime, gold warns once for each sanitizer
# runtime symbol it cannot export (some 2,200 lines a target with ASan);
# they say nothing about the package, so they are left out of the log.
for target in "$@"; do
    echo "== building $target (SANITIZER=$SANITIZER)" >&2
    swift build --product "$target" "${swift_flags[@]}" 2>&1 |
        { grep -v "warning: Cannot export local symbol" || true; } >&2
done
[ -n "$out" ] || exit 0

mkdir -p "$out/lib"
for target in "$@"; do
    cp "$scratch/release/$target" "$out/$target"
    # The fuzzers run where only the base system is installed, so the shared
    # libraries they load past glibc and the GCC runtime (protobuf-c, zlib)
    # go to $OUT/lib, which their RUNPATH names.
    ldd "$scratch/release/$target" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' |
        { grep -Ev '/(libc|libm|libdl|libpthread|librt|libresolv|libgcc_s|libstdc\+\+)\.so' || true; } |
        xargs -r cp -L -t "$out/lib"
    python3 scripts/fuzz/make_fuzz_corpus.py --zip "$target" "$out/${target}_seed_corpus.zip"
    [ -f "FuzzTesting/$target.dict" ] && cp "FuzzTesting/$target.dict" "$out/$target.dict"
    # The bounds scripts/fuzz/fuzz.sh and the smoke run with: inputs up to 64 KB,
    # 512 MB of RSS, and ASan's quarantine at 64 MB (scripts/fuzz/fuzz.sh says why).
    cat >"$out/$target.options" <<OPTIONS
[libfuzzer]
max_len = 65536
rss_limit_mb = 512

[asan]
quarantine_size_mb = 64
OPTIONS
done
echo "fuzz-build.sh: $* in $out" >&2
