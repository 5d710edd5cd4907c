#!/usr/bin/env bash
# Runs the ClusterFuzzLite / OSS-Fuzz build (.clusterfuzzlite/build.sh) the
# way the base-builder-swift image would, without Docker, then runs every
# target it left in $OUT the way the infrastructure runs one: from its seed
# corpus zip, with its dictionary and its .options.
#
#   scripts/fuzz/oss_fuzz_local.sh [SECONDS]   build, then run each target SECONDS (default 15)
#   scripts/fuzz/oss_fuzz_local.sh --build     build and check the layout only
#
# SANITIZER is address (the default) or coverage. The environment is the
# image's (scripts/fuzz/oss_fuzz_env.sh: CC, CXX, CFLAGS, CXXFLAGS,
# LIB_FUZZING_ENGINE, ...), with OUT=.build-fuzz/oss-fuzz/out,
# WORK=.build-fuzz/oss-fuzz/work (.build-fuzz-coverage/... for coverage) and
# SRC the folder holding this checkout; a stand-in `precompile_swift` on PATH
# does what build.sh uses the image's for (the symbolizer in $OUT). The
# SwiftPM build shares scripts/fuzz/fuzz_build.sh's scratch path with
# scripts/fuzz/fuzz.sh and the smoke, so after either this build is up to date.
#
# The layout check fails unless every target listed by scripts/fuzz/fuzz_build.sh
# is an executable $OUT/TARGET with a non-empty $OUT/TARGET_seed_corpus.zip,
# $OUT/TARGET.dict and $OUT/TARGET.options, loading no shared library but
# glibc's, the GCC runtime's and those in $OUT/lib. A run fails on any finding
# (libFuzzer's exit status), as a fuzzing job would report one; its log and
# any crash-* input stay in $WORK/run/TARGET/.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd -P)

build_only=0
seconds=15
case "${1:-}" in
--build) build_only=1 ;;
"") ;;
*[!0-9]*)
    echo "usage: scripts/fuzz/oss_fuzz_local.sh [SECONDS | --build]" >&2
    exit 2
    ;;
*) seconds=$1 ;;
esac

# shellcheck source=scripts/fuzz/oss_fuzz_env.sh
. scripts/fuzz/oss_fuzz_env.sh
scratch=$(scripts/fuzz/fuzz_build.sh --scratch-path)
root=$scratch/oss-fuzz
[[ $root == /* ]] || root=$repo/$root
mkdir -p "$root/out" "$root/work/bin"
export OUT=$root/out WORK=$root/work SRC=${repo%/*}
rm -rf "${OUT:?}"/*

# What build.sh takes from the image's precompile_swift: the symbolizer, the
# Swift toolchain's (one that demangles Swift).
toolchain=$(dirname "$(readlink -f "$(command -v swift)")")
cat >"$WORK/bin/precompile_swift" <<STANDIN
cp "$toolchain/llvm-symbolizer" "\$OUT/llvm-symbolizer"
STANDIN
export PATH=$WORK/bin:$PATH

start=$SECONDS
echo "== oss-fuzz-local: SANITIZER=$SANITIZER OUT=$OUT"
echo "CFLAGS=$CFLAGS"
bash -eux .clusterfuzzlite/build.sh
echo "oss-fuzz-local: build.sh took $((SECONDS - start)) s"

mapfile -t targets < <(scripts/fuzz/fuzz_build.sh --list)
missing=0
for target in "${targets[@]}"; do
    for file in "$target" "${target}_seed_corpus.zip" "$target.dict" "$target.options"; do
        [ -s "$OUT/$file" ] || { echo "oss-fuzz-local: $OUT/$file is missing" >&2; missing=1; }
    done
    [ -x "$OUT/$target" ] || { echo "oss-fuzz-local: $OUT/$target is not executable" >&2; missing=1; }
done
[ "$missing" -eq 0 ] || exit 1
[ -x "$OUT/llvm-symbolizer" ] || { echo "oss-fuzz-local: no llvm-symbolizer in \$OUT" >&2; exit 1; }
# Only $OUT reaches the machines that fuzz: every shared library a target
# loads must come from $OUT/lib, or be glibc's or the GCC runtime's (no
# Swift runtime, no protobuf-c from the system).
for target in "${targets[@]}"; do
    outside=$(ldd "$OUT/$target" | awk '$2 == "=>" { print $1, $3 }' |
        grep -Ev "^(libc|libm|libdl|libpthread|librt|libresolv|libgcc_s|libstdc\+\+)\.so[.0-9]* |^[^ ]+ $OUT/lib/" || true)
    [ -z "$outside" ] || { echo "oss-fuzz-local: $target loads libraries from outside \$OUT:" >&2; echo "$outside" >&2; missing=1; }
done
[ "$missing" -eq 0 ] || exit 1
python3 scripts/fuzz/print_oss_fuzz_layout.py "$OUT" "${targets[@]}"
echo "oss-fuzz-local: the layout of ${#targets[@]} targets is complete"
[ "$build_only" -eq 0 ] || exit 0

# options SECTION FILE: the section's "key = value" lines as key=value.
options() {
    awk -v want="[$1]" '/^\[/ { in_section = ($0 == want); next }
        in_section && /=/ { gsub(/[ \t]/, ""); print }' "$2"
}

failed=()
for target in "${targets[@]}"; do
    run=$WORK/run/$target
    rm -rf "$run"
    mkdir -p "$run/corpus"
    python3 -m zipfile -e "$OUT/${target}_seed_corpus.zip" "$run/corpus"
    flags=(-rss_limit_mb=2560 -timeout=25)
    while read -r option; do flags+=("-$option"); done < <(options libfuzzer "$OUT/$target.options")
    [[ " ${flags[*]} " == *" -dict="* ]] || flags+=(-dict="$OUT/$target.dict")
    asan="detect_leaks=1:symbolize=1:external_symbolizer_path=$OUT/llvm-symbolizer"
    while read -r option; do asan+=":$option"; done < <(options asan "$OUT/$target.options")

    echo "== $target for $seconds s: ${flags[*]}"
    status=0
    (cd "$run" && SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=$asan "$OUT/$target" "${flags[@]}" \
        -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$run/" corpus >fuzz.log 2>&1) ||
        status=$?
    grep -E "^#[0-9]+[[:space:]]+(INITED|DONE)|^stat::peak_rss_mb" "$run/fuzz.log" || true
    if [ "$status" -ne 0 ]; then
        echo "oss-fuzz-local: $target FAILED (exit $status); the end of its log:"
        tail -30 "$run/fuzz.log"
        failed+=("$target")
    fi
done
echo "oss-fuzz-local: ${#targets[@]} targets, $((SECONDS - start)) s in all"
if [ ${#failed[@]} -gt 0 ]; then
    echo "oss-fuzz-local: FAILED: ${failed[*]}"
    exit 1
fi
echo "oss-fuzz-local: ${#targets[@]} targets built and run from \$OUT, no findings"
