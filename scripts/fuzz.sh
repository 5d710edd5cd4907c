#!/usr/bin/env bash
# Builds one libFuzzer target (coverage + AddressSanitizer) and runs it.
#
#   scripts/fuzz.sh TARGET SECONDS [extra libFuzzer flags]
#   scripts/fuzz.sh FuzzPayload 60
#
# Targets: FuzzPayload (our payload decoder against swift-protobuf and the C
# reference), FuzzJSON, FuzzFrame (frame decoder, then the validator; against
# the C reference), FuzzStream (the streaming reader in chunks).
# The build goes to .build-fuzz so normal builds are untouched. The corpus
# starts from the golden vectors (scripts/make_fuzz_corpus.py); inputs that
# find something are written to FuzzTesting/FailCases/TARGET/, which
# `swift test` replays.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: scripts/fuzz.sh TARGET SECONDS [libFuzzer flags]}
seconds=${2:?usage: scripts/fuzz.sh TARGET SECONDS [libFuzzer flags]}
shift 2

export IMCODEC_FUZZ=1
swift build -c release --product "$target" --scratch-path .build-fuzz \
    --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address >&2
binary=.build-fuzz/release/$target

corpus=.build-fuzz/corpus/$target
python3 scripts/make_fuzz_corpus.py "$target" "$corpus"
findings=FuzzTesting/FailCases/$target
mkdir -p "$findings"
dict=FuzzTesting/$target.dict

# SWIFT_BACKTRACE=enable=no: a crash must not leave a backtracer holding the pipe.
SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=1 "$binary" "$corpus" \
    -max_total_time="$seconds" -timeout=1 -rss_limit_mb=512 -max_len=65536 \
    -dict="$dict" -artifact_prefix="$findings/" -print_final_stats=1 "$@"
