#!/usr/bin/env bash
# A soak, not a test (CI does not run it): builds the relay example in
# release, starts imcodec-relay on 127.0.0.1 with short timeouts and a small
# per-member queue bound, and runs `imcodec-relay-load soak` against it:
# healthy clients chatting steadily in several groups beside faulty ones
# that misbehave at random (disconnect mid-frame, stall mid-frame, spoof a
# sender, send a message the profile refuses, never read, send garbage, say
# nothing). It fails when a healthy client lost a message, saw a sender's
# messages out of order or received anything else, when a faulty client was
# not answered, or when the relay's RSS grew by more than RSS_SLACK_KB from
# the end of the warm-up (a fifth of the run) to the end. Bounded in time:
# DURATION seconds of traffic plus the faulty clients' patience. Prints the
# relay's RSS every tenth of the run; docs/PERFORMANCE.md records its figures.
#
#   scripts/bench/relay_soak.sh                         # 120 s, 24 healthy clients, 8 faulty slots
#   DURATION=60 HEALTHY=40 FAULTY=16 scripts/bench/relay_soak.sh
#   TRANSPORT=websocket scripts/bench/relay_soak.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

duration=${DURATION:-120}
healthy=${HEALTHY:-24}
groups=${GROUPS_COUNT:-4}
faulty=${FAULTY:-8}
rate=${RATE:-20}
text_bytes=${TEXT_BYTES:-200}
transport=${TRANSPORT:-tcp}
seed=${SEED:-1}
rss_slack_kb=${RSS_SLACK_KB:-8192}
scratch=.build-nio

swift build -c release --package-path Examples/RelayServer --scratch-path "$scratch" >&2
bin=$(swift build -c release --package-path Examples/RelayServer --scratch-path "$scratch" --show-bin-path)

work=$(mktemp -d)
server=""
sampler=""
trap 'kill $sampler 2>/dev/null || true; if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi; rm -rf "$work"' EXIT

# The faulty clients' timeouts: idle 3 s, partial frame 2 s; a member is slow
# past 256 KiB queued.
# Its clients join without login tickets (--insecure-demo).
"$bin/imcodec-relay" --host 127.0.0.1 --port 0 --web-port 0 --idle-timeout 3 --partial-frame-timeout 2 \
    --insecure-demo --max-queued-bytes 262144 --log-level notice >"$work/relay.out" 2>"$work/relay.log" &
server=$!
port=""
web_port=""
for _ in $(seq 100); do
    port=$(awk '/^port /{print $2}' "$work/relay.out")
    web_port=$(awk '/^web port /{print $3}' "$work/relay.out")
    [ -n "$port" ] && [ -n "$web_port" ] && break
    sleep 0.1
done
if [ -z "$port" ]; then
    echo "the relay did not start:" >&2
    cat "$work/relay.out" "$work/relay.log" >&2
    exit 1
fi
[ "$transport" = websocket ] && port=$web_port

# One RSS sample (kB) a second, with the seconds since the start.
(
    start=$(date +%s)
    while kill -0 "$server" 2>/dev/null; do
        echo "$(($(date +%s) - start)) $(awk '/^VmRSS/{print $2}' "/proc/$server/status" 2>/dev/null)"
        sleep 1
    done
) >"$work/rss" &
sampler=$!

status=0
timeout "$((duration + 120))" "$bin/imcodec-relay-load" soak --host 127.0.0.1 --port "$port" \
    --transport "$transport" --duration "$duration" --healthy "$healthy" --groups "$groups" --faulty "$faulty" \
    --rate "$rate" --text-bytes "$text_bytes" --seed "$seed" --patience 10 || status=$?

peak=$(awk '/^VmHWM/{print $2}' "/proc/$server/status")
kill -TERM "$server"
wait "$server" || true
server=""
kill "$sampler" 2>/dev/null || true
wait "$sampler" 2>/dev/null || true

sed 's/^/server: /' "$work/relay.out" | grep -E 'connections|closes'
echo "server log: $(grep -c ' closed' "$work/relay.log") closes logged, $(grep -c ' rejected' "$work/relay.log") rejections"
awk -v duration="$duration" -v slack="$rss_slack_kb" -v peak="$peak" '
    $2 != "" { t[NR] = $1; rss[NR] = $2; n = NR }
    END {
        warm = 0
        for (i = 1; i <= n; i++) if (t[i] >= duration / 5 && !warm) warm = i
        if (!warm) warm = 1
        line = "server RSS (kB) by second:"
        for (d = 0; d <= 10; d++) {
            target = duration * d / 10
            for (i = 1; i <= n; i++) if (t[i] >= target) { line = line sprintf(" %ds=%d", t[i], rss[i]); break }
        }
        print line
        last = rss[n]; max = 0
        for (i = warm; i <= n; i++) if (rss[i] > max) max = rss[i]
        printf "server RSS after warm-up (%d s): %d kB, at the end: %d kB, highest after warm-up: %d kB, peak %d kB\n", t[warm], rss[warm], last, max, peak
        if (max - rss[warm] > slack) { printf "the RSS grew by %d kB after warm-up, more than %d kB\n", max - rss[warm], slack; exit 1 }
    }
' "$work/rss" || status=1
exit "$status"
