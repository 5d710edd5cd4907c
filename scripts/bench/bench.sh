#!/usr/bin/env bash
# Prints the benchmark table: imcodec side by side with swift-protobuf, the C
# reference (protobuf-c + zlib) and naive zlib use, as ratios of times taken in
# one run, with wire sizes and allocation counts (docs/PERFORMANCE.md).
#
# Runs the nested package Benchmarks/ (ordo-one/benchmark) in release mode in
# its own scratch path, Benchmarks/.build-bench. A first run builds for several
# minutes; the benchmarks themselves take about three minutes.
#
#   scripts/bench/bench.sh                    the whole table
#   scripts/bench/bench.sh --filter 'payload.*'  only some benchmarks (the other rows show —)
#
# Extra arguments go to `swift package benchmark`. Set BENCH_RESULTS to a file
# to keep the raw results (JMH JSON).
set -euo pipefail
cd "$(dirname "$0")/../../Benchmarks"
scratch=.build-bench
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT

swift build -c release --scratch-path "$scratch" --product imcodec-bench-report >&2
swift package --scratch-path "$scratch" --allow-writing-to-directory "$results" \
    benchmark run --format jmh --path "$results" --no-progress "$@" >&2
json=$(find "$results" -name '*.json' | head -n 1)
if [ -z "$json" ]; then
    echo "bench.sh: the benchmark run wrote no results" >&2
    exit 1
fi
if [ -n "${BENCH_RESULTS:-}" ]; then cp "$json" "$BENCH_RESULTS"; fi
"$(swift build -c release --scratch-path "$scratch" --show-bin-path)/imcodec-bench-report" "$json"
