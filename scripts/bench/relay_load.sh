#!/usr/bin/env bash
# A benchmark, not a test (CI does not run it): builds the relay example
# (Examples/RelayServer) in release, starts imcodec-relay on 127.0.0.1, drives
# it with imcodec-relay-load, and prints frames/s, p50/p99 latency, whether
# any frame was lost, and the server's peak RSS. Bounded in count (CLIENTS x
# FRAMES) and in time (TIMEOUT seconds); traffic stays on the loopback
# interface. docs/PERFORMANCE.md records its figures.
#
#   scripts/bench/relay_load.sh                     # 4 clients x 250,000 frames
#   CLIENTS=4 FRAMES=50000 scripts/bench/relay_load.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

clients=${CLIENTS:-4}
frames=${FRAMES:-250000}
window=${WINDOW:-256}
text_bytes=${TEXT_BYTES:-64}
timeout=${TIMEOUT:-300}
profile=${PROFILE:-current}
scratch=.build-nio

swift build -c release --package-path Examples/RelayServer --scratch-path "$scratch" \
    --product imcodec-relay >&2
swift build -c release --package-path Examples/RelayServer --scratch-path "$scratch" \
    --product imcodec-relay-load >&2
bin=$(swift build -c release --package-path Examples/RelayServer --scratch-path "$scratch" --show-bin-path)

log=$(mktemp)
"$bin/imcodec-relay" --host 127.0.0.1 --port 0 --profile "$profile" >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -f "$log"' EXIT

port=""
for _ in $(seq 100); do
    port=$(awk '/^port /{print $2}' "$log")
    [ -n "$port" ] && break
    sleep 0.1
done
if [ -z "$port" ]; then
    echo "the relay did not start:" >&2
    cat "$log" >&2
    exit 1
fi

status=0
timeout "$((timeout + 30))" "$bin/imcodec-relay-load" --host 127.0.0.1 --port "$port" \
    --clients "$clients" --frames "$frames" --window "$window" --text-bytes "$text_bytes" \
    --timeout "$timeout" || status=$?

echo "server peak RSS $(awk '/^VmHWM/{print $2, $3}' "/proc/$server/status")"
kill -TERM "$server"
wait "$server" || true
grep '^connections' "$log" | sed 's/^/server: /'
exit "$status"
