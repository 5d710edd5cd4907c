#!/usr/bin/env bash
# Peak resident memory of `imcodec encode` and `imcodec validate` on large
# JSON documents, proto3 JSON and Tencent REST, measured with /usr/bin/time -v
# (docs/PERFORMANCE-INVESTIGATIONS.md, "JSON input").
#
# Each document is written by json_memory_documents.py into a temporary folder;
# each command runs on it once. A row's target is the peak RSS the reading of
# JSON is held to: at most 3 times the document plus 32 MiB for a document
# within the limits, and at most 2 times the document plus 32 MiB for one
# refused at a limit (its error code starts with `limit.`). The process
# alone is about 22 MiB.
#
#   scripts/bench/json_memory.sh          build imcodec in release, measure every row
#   IMCODEC=path/to/imcodec scripts/bench/json_memory.sh   measure that binary
#
# Exits 1 when a row misses its target.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ -z "${IMCODEC:-}" ]; then
    swift build -c release --product imcodec >&2
    IMCODEC="$(swift build -c release --show-bin-path)/imcodec"
fi
if [ ! -x /usr/bin/time ]; then
    echo "json_memory.sh: /usr/bin/time is missing (Debian: apt-get install time)" >&2
    exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 scripts/bench/json_memory_documents.py "$work"

status=0
printf '| %-30s | %-8s | %9s | %-20s | %14s | %6s | %-21s | %7s |\n' \
    document command "size (MB)" result "peak RSS (MiB)" "× size" "target (MiB)" time
printf '|%s|%s|%s|%s|%s|%s|%s|%s|\n' -------------------------------- ---------- ----------- \
    ---------------------- ---------------- -------- ----------------------- ---------
measure() {
    local file=$1 command=$2
    shift 2
    local path="$work/$file"
    local bytes
    bytes=$(stat -c %s "$path")
    local out="$work/out.txt" err="$work/err.txt" rss="$work/rss.txt"
    set +e
    /usr/bin/time -v -o "$rss" "$IMCODEC" "$command" "$@" "$path" > "$out" 2> "$err"
    local exit=$?
    set -e
    local kb
    kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$rss")
    # The first error code the command printed, or its findings' summary.
    # The first error: what stopped the command (standard error), or the
    # first error finding validate printed; else its summary of findings.
    local result
    result=$(grep -o -m1 'error: [a-z0-9.-]*' "$err" | sed 's/error: //' || true)
    if [ -z "$result" ] && [ "$command" = validate ]; then
        result=$(grep -o -m1 ': error [a-z0-9.-]*' "$out" | sed 's/: error //' || true)
        [ -n "$result" ] || result=$(tail -n 1 "$out" | sed -E 's/^1 file: //; s/ errors?,/ e,/; s/ warnings?/ w/')
    fi
    [ -n "$result" ] || result="exit $exit"
    local seconds
    seconds=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$rss")
    local limit=3
    case "$result" in limit.*) limit=2 ;; esac
    local mb size ratio target met
    mb=$(awk -v k="$kb" 'BEGIN {printf "%.1f", k / 1024}')  # MiB
    size=$(awk -v b="$bytes" 'BEGIN {printf "%.1f", b / 1000000}')
    ratio=$(awk -v k="$kb" -v b="$bytes" 'BEGIN {printf "%.2f", k * 1024 / b}')
    target=$(awk -v b="$bytes" -v l="$limit" 'BEGIN {printf "%.0f", (l * b + 32 * 1048576) / 1048576}')
    if [ "$(awk -v k="$kb" -v t="$target" 'BEGIN {print (k / 1024 <= t) ? 1 : 0}')" = 1 ]; then
        met="≤ $target met"
    else
        met="≤ $target MISSED"
        status=1
    fi
    printf '| %-30s | %-8s | %9s | %-20s | %14s | %6s | %-21s | %7s |\n' \
        "${file%.json}" "$command" "$size" "$result" "$mb" "$ratio" "$met" "$seconds"
}
for file in message-1m-elems.json message-10m-at-entries.json message-60mb-text.json \
    message-past-document-size.json; do
    measure "$file" encode --output /dev/null
    measure "$file" validate
done
for file in batch-1k-by-1k-text.json batch-1k-by-1k-empty.json; do
    measure "$file" encode --kind batch --output /dev/null
    measure "$file" validate --kind batch
done
for file in rest-msgbody-1m.json rest-msglist-1k-by-1k.json rest-100-relays.json rest-msglist-100-relays.json; do
    measure "$file" encode --from restapi --output /dev/null
    measure "$file" validate --from restapi
done
exit $status
