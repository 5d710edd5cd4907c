#!/usr/bin/env bash
# Builds the libFuzzer targets (coverage + AddressSanitizer), runs one, and
# reports its slowest input.
#
#   scripts/fuzz/fuzz.sh TARGET SECONDS [libFuzzer flags]   build TARGET, run it SECONDS, replay its corpus
#   scripts/fuzz/fuzz.sh --list                            the targets (scripts/fuzz/fuzz_build.sh --list)
#   scripts/fuzz/fuzz.sh --build [TARGET...]               build targets (all when none is named)
#   scripts/fuzz/fuzz.sh --replay TARGET PATH...           run each input (files, or folders of them)
#                                                     FUZZ_REPLAY_RUNS times (default 3) and report
#                                                     the slowest, each input counted by its fastest run
#
# Targets: FuzzPayload (our payload decoder against swift-protobuf and the C
# reference), FuzzJSON, FuzzFrame (frame decoder, then the validator; against
# the C reference), FuzzStream (the streaming reader in chunks), FuzzREST (the
# Tencent REST MsgBody importer), FuzzReference (the C reference alone, in C).
# FuzzFrame and FuzzStream repair frame lengths and checksums after mutating
# (FuzzTesting/FuzzSupport/FrameMutator.swift); IMCODEC_FUZZ_MUTATOR=plain
# turns that off.
#
# The build (scripts/fuzz/fuzz_build.sh: the flags OSS-Fuzz's address build uses)
# goes to .build-fuzz so normal builds are untouched. The corpus
# (.build-fuzz/corpus/TARGET) starts from the golden vectors
# (scripts/fuzz/make_fuzz_corpus.py) and the saved fail cases; inputs that find
# something are written to FuzzTesting/FailCases/TARGET/, which `swift test`
# replays. Inputs whose check takes over 100 ms (IMCODEC_FUZZ_SLOW_MS) are
# written to .build-fuzz/slow/TARGET/ and replayed at the end, so a slow
# input is told apart from a moment of load.
set -euo pipefail
cd "$(dirname "$0")/../.."

# A crash must not leave a backtracer holding the pipe.
export SWIFT_BACKTRACE=enable=no
# ASan keeps freed memory in a quarantine to catch late uses; its default
# 256 MB counts the bytes asked for, and with the redzones of many small
# allocations it alone costs some 500 MB of RSS, the whole -rss_limit_mb. 64 MB,
# as ClusterFuzz and FuzzBench run fuzzers, still holds the recent frees.
export ASAN_OPTIONS="detect_leaks=1:quarantine_size_mb=64${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
# The build (flags, scratch path, the target list) is scripts/fuzz/fuzz_build.sh's.
scratch=$(scripts/fuzz/fuzz_build.sh --scratch-path)
usage="usage: scripts/fuzz/fuzz.sh TARGET SECONDS [libFuzzer flags] | --list | --build [TARGET...] | --replay TARGET PATH..."

# replay TARGET PATH...: prints one "slowest on replay" line; the inputs'
# per-run lines go to $scratch/replay-TARGET.log.
replay() {
    local target=$1
    shift
    local log=$scratch/replay-$target.log
    find "$@" -type f ! -name '.*' -print0 |
        xargs -0 -r -n 2000 "$scratch/release/$target" -runs="${FUZZ_REPLAY_RUNS:-3}" -rss_limit_mb=512 \
            -max_len=1048576 >"$log" 2>&1 || { tail -20 "$log" >&2; echo "replay of $target failed" >&2; return 1; }
    python3 scripts/fuzz/summarize_replay.py "$log" "$@"
}

case "${1:-}" in
--list)
    exec scripts/fuzz/fuzz_build.sh --list
    ;;
--build)
    shift
    exec scripts/fuzz/fuzz_build.sh "$@"
    ;;
--replay)
    [ $# -ge 3 ] || { echo "$usage" >&2; exit 2; }
    shift
    replay "$@"
    exit 0
    ;;
"" | -*)
    echo "$usage" >&2
    exit 2
    ;;
esac

target=$1
seconds=${2:?$usage}
shift 2
scripts/fuzz/fuzz_build.sh "$target"
binary=$scratch/release/$target

corpus=$scratch/corpus/$target
python3 scripts/fuzz/make_fuzz_corpus.py "$target" "$corpus"
findings=FuzzTesting/FailCases/$target
mkdir -p "$findings"
slow=$scratch/slow/$target
rm -rf "$slow"
mkdir -p "$slow"
dict=()
[ -f "FuzzTesting/$target.dict" ] && dict=(-dict="FuzzTesting/$target.dict")

status=0
IMCODEC_FUZZ_SLOW_DIR=$slow "$binary" "$corpus" "$findings" \
    -max_total_time="$seconds" -timeout=1 -rss_limit_mb=512 -max_len=65536 \
    "${dict[@]}" -artifact_prefix="$findings/" -print_final_stats=1 "$@" || status=$?

echo "== slowest input of $target, replaying the corpus (each input run ${FUZZ_REPLAY_RUNS:-3} times)" >&2
replay "$target" "$corpus" >&2
if compgen -G "$slow/slow-*" >/dev/null; then
    echo "== inputs over ${IMCODEC_FUZZ_SLOW_MS:-100} ms while fuzzing, replayed" >&2
    FUZZ_REPLAY_RUNS=5 replay "$target" "$slow"/slow-* >&2
fi
exit "$status"
