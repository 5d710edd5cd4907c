#!/usr/bin/env bash
# CI smoke of every libFuzzer target: build them all, run each for a short
# time from the seed corpus, and fail on any finding, crash, leak, timeout,
# RSS over 512 MB, or input whose check is reproducibly slower than its bound
# (100 ms; for frames, 100 ms per 64 KiB of declared payload when that is
# more).
#
#   scripts/fuzz/fuzz_smoke.sh            # FUZZ_SMOKE_SECONDS per target (default 40),
#                                         # FUZZ_SMOKE_JOBS targets at a time (default 2)
#
# The build is the ClusterFuzzLite / OSS-Fuzz one, run as the image would
# run it (scripts/fuzz/oss_fuzz_local.sh --build: .clusterfuzzlite/build.sh into
# $OUT, the same flags and scratch path as scripts/fuzz/fuzz.sh), so the smoke
# also proves that layout: every target runs as $OUT/TARGET, in
# .build-fuzz/smoke/TARGET/ with a fresh corpus unpacked from
# $OUT/TARGET_seed_corpus.zip (the golden vectors by
# scripts/fuzz/make_fuzz_corpus.py, plus FuzzTesting/FailCases/TARGET) and with
# $OUT/TARGET.dict. A failing
# input is left there as crash-*, leak-*, timeout-*, oom-* or slow-* and
# printed in hex; minimise it (scripts/fuzz/fuzz.sh's binary with
# -minimize_crash=1) and add it to FuzzTesting/FailCases/TARGET.
#
# Slowness: libFuzzer's -timeout counts whole seconds, so it is set to 10 s
# to catch hangs, and each target times every input itself
# (FuzzTesting/FuzzSupport/SlowInputs.swift), writing inputs over their
# bound to slow-*. The machine is shared and noisy, so those are replayed 5
# times each afterwards, and only an input whose fastest replay is still over
# its bound fails the smoke.
set -euo pipefail
shopt -s nullglob
cd "$(dirname "$0")/../.."

seconds=${FUZZ_SMOKE_SECONDS:-40}
export SWIFT_BACKTRACE=enable=no
# The quarantine as scripts/fuzz/fuzz.sh sets it (which says why).
export ASAN_OPTIONS="detect_leaks=1:quarantine_size_mb=64${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
start=$SECONDS

scripts/fuzz/oss_fuzz_local.sh --build
out=$(scripts/fuzz/fuzz_build.sh --scratch-path)/oss-fuzz/out
mapfile -t targets < <(scripts/fuzz/fuzz_build.sh --list)
[ ${#targets[@]} -gt 0 ] || { echo "fuzz smoke: no fuzz targets listed" >&2; exit 1; }
echo "fuzz smoke: built ${targets[*]} in $((SECONDS - start)) s"

show_hex() {
    for file in "$@"; do
        echo "  $file ($(wc -c <"$file") bytes): $(head -c 512 "$file" | od -An -tx1 -v | tr -d ' \n')"
    done
}

# One target's smoke: its output goes to stdout, its summary line to
# $work/summary; the status is 1 when it found anything.
smoke() {
    local target=$1 work=.build-fuzz/smoke/$1 status=0
    rm -rf "$work"
    mkdir -p "$work/corpus" "$work/slow"
    python3 -m zipfile -e "$out/${target}_seed_corpus.zip" "$work/corpus"

    echo "== fuzz smoke: $target for $seconds s"
    IMCODEC_FUZZ_SLOW_DIR=$work/slow \
        "$out/$target" "$work/corpus" -max_total_time="$seconds" -timeout=10 \
        -rss_limit_mb=512 -max_len=65536 -dict="$out/$target.dict" -artifact_prefix="$work/" -print_final_stats=1 \
        >"$work/fuzz.log" 2>&1 || status=$?
    grep -E "^#[0-9]+[[:space:]]+(INITED|DONE)|^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)|^slowest input" \
        "$work/fuzz.log" || true
    if [ "$status" -ne 0 ]; then
        echo "fuzz smoke: $target FAILED (exit $status); the end of its log:"
        tail -40 "$work/fuzz.log"
        show_hex "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* "$work"/slow-unit-*
        return 1
    fi

    local verdict="no input over its bound" replayed over
    if compgen -G "$work/slow/slow-*" >/dev/null; then
        replayed=$(FUZZ_REPLAY_RUNS=5 scripts/fuzz/fuzz.sh --replay "$target" "$work"/slow/slow-*)
        echo "$replayed"
        over=$(sed -n 's/.*over [0-9]* ms[^:]*: \([0-9]*\)$/\1/p' <<<"$replayed")
        if [ "${over:-1}" -ne 0 ]; then
            echo "fuzz smoke: $target FAILED: inputs slower than their bound on every replay:"
            show_hex "$work"/slow/slow-*
            return 1
        fi
        verdict="$(find "$work/slow" -name 'slow-*' | wc -l) input(s) over their bound while fuzzing, none on replay"
    fi
    local done_line slowest
    done_line=$(grep -E "^#[0-9]+[[:space:]]+DONE" "$work/fuzz.log" | tail -1 | tr -s ' \t' ' ' || true)
    slowest=$(grep -E "^slowest input" "$work/fuzz.log" | tail -1 | sed 's/slowest input: \([0-9.]* ms\).*/\1/' || true)
    echo "$target: ${done_line#\#} | slowest input ${slowest:-?} | $verdict" >"$work/summary"
}

# Each libFuzzer process keeps one core busy: FUZZ_SMOKE_JOBS targets (default
# 2, the CI machine's cores) run side by side, each printed when it ends.
jobs_at_once=${FUZZ_SMOKE_JOBS:-2}
failed=()
summary=()
for ((first = 0; first < ${#targets[@]}; first += jobs_at_once)); do
    batch=("${targets[@]:first:jobs_at_once}")
    pids=()
    for target in "${batch[@]}"; do
        mkdir -p .build-fuzz/smoke
        smoke "$target" >".build-fuzz/smoke/$target.out" 2>&1 &
        pids+=($!)
    done
    for i in "${!batch[@]}"; do
        target=${batch[$i]}
        status=0
        wait "${pids[$i]}" || status=$?
        cat ".build-fuzz/smoke/$target.out"
        if [ "$status" -ne 0 ]; then
            failed+=("$target")
        else
            summary+=("$(cat ".build-fuzz/smoke/$target/summary")")
        fi
    done
done

echo "== fuzz smoke summary ($((SECONDS - start)) s in all)"
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz smoke: FAILED: ${failed[*]}"
    exit 1
fi
echo "fuzz smoke: ${#targets[@]} targets, no findings"
