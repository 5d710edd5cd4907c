#!/usr/bin/env bash
# Line coverage of the library by the saved corpora of every fuzz target.
#
#   scripts/fuzz/fuzz_coverage.sh            build (SANITIZER=coverage), replay, print the table
#   scripts/fuzz/fuzz_coverage.sh --report   print the table from the last replay's profiles
#
# Builds the targets as OSS-Fuzz's coverage build does (scripts/fuzz/oss_fuzz_local.sh
# with SANITIZER=coverage: libFuzzer without sanitizers, Swift with
# -profile-generate -profile-coverage-mapping, C with -fprofile-instr-generate
# -fcoverage-mapping) into .build-fuzz-coverage, runs each target once over
# every input of its seed corpus ($OUT/TARGET_seed_corpus.zip: the golden
# vectors by scripts/fuzz/make_fuzz_corpus.py and FuzzTesting/FailCases/TARGET)
# with libFuzzer's -runs=0, merges the raw profiles with llvm-profdata and
# reads them with llvm-cov (both from the Swift toolchain, beside `swift`:
# an older LLVM's tools elsewhere on PATH cannot read its profiles).
#
# The table counts lines of Sources/IMCodec (Swift) and
# Sources/IMCodecReference (C, the protobuf-c reference) that the binaries
# contain: per target, then all targets together, then all targets by
# folder. Lines are llvm-cov's executable lines. Generated code
# (Sources/IMCodec/Generated, Sources/IMCodecReference/Generated) is counted in "all" and shown on its
# own in the by-folder table; the "hand-written" columns leave it out. The
# lines themselves, covered or not, are in
# .build-fuzz-coverage/profiles/html/index.html.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd -P)

export SANITIZER=coverage
scratch=$(scripts/fuzz/fuzz_build.sh --scratch-path)
out=$scratch/oss-fuzz/out
profiles=$scratch/profiles
toolchain=$(dirname "$(readlink -f "$(command -v swift)")")

if [ "${1:-}" != --report ]; then
    start=$SECONDS
    scripts/fuzz/oss_fuzz_local.sh --build
    built=$SECONDS
    rm -rf "$profiles"
    mapfile -t targets < <(scripts/fuzz/fuzz_build.sh --list)
    for target in "${targets[@]}"; do
        corpus=$profiles/$target/corpus
        mkdir -p "$corpus"
        python3 -m zipfile -e "$out/${target}_seed_corpus.zip" "$corpus"
        echo "== $target: $(find "$corpus" -type f | wc -l) inputs" >&2
        LLVM_PROFILE_FILE="$repo/$profiles/$target/%p-%m.profraw" SWIFT_BACKTRACE=enable=no \
            "$out/$target" -runs=0 -max_len=1048576 -rss_limit_mb=2560 "$corpus" \
            >"$profiles/$target/replay.log" 2>&1 ||
            { tail -20 "$profiles/$target/replay.log" >&2; echo "fuzz-coverage: $target's replay failed" >&2; exit 1; }
        "$toolchain/llvm-profdata" merge -sparse "$profiles/$target"/*.profraw -o "$profiles/$target.profdata"
    done
    echo "fuzz-coverage: built in $((built - start)) s, replayed and merged in $((SECONDS - built)) s" >&2
fi

mapfile -t targets < <(scripts/fuzz/fuzz_build.sh --list)
objects=()
merged=()
for target in "${targets[@]}"; do
    [ -f "$profiles/$target.profdata" ] || { echo "fuzz-coverage: no profile of $target; run without --report" >&2; exit 1; }
    "$toolchain/llvm-cov" export -summary-only -instr-profile="$profiles/$target.profdata" "$out/$target" >"$profiles/$target.json"
    objects+=(-object "$out/$target")
    merged+=("$profiles/$target.profdata")
done
"$toolchain/llvm-profdata" merge -sparse "${merged[@]}" -o "$profiles/all.profdata"
"$toolchain/llvm-cov" export -summary-only -instr-profile="$profiles/all.profdata" "${objects[@]}" >"$profiles/all.json"
# Line by line, for reading: all targets together, the library's files only.
rm -rf "$profiles/html"
# (llvm-cov takes its first binary without -object, then the source paths.)
"$toolchain/llvm-cov" show -format=html -output-dir="$profiles/html" -instr-profile="$profiles/all.profdata" \
    "${objects[@]:1}" "$repo/Sources/IMCodec" "$repo/Sources/IMCodecReference"
echo "fuzz-coverage: line by line in $profiles/html/index.html" >&2

python3 scripts/fuzz/print_coverage_table.py "$repo" "$profiles" \
    "$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- Sources FuzzTesting || echo +)" "${targets[@]}"
