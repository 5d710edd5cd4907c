#!/usr/bin/env bash
# A benchmark, not a test (CI does not run it): builds the relay example
# (Examples/RelayServer) in release, and for each mode starts imcodec-relay on
# 127.0.0.1 and drives it with imcodec-relay-load, printing frames/s, p50/p99
# latency, whether any frame was lost, the server's peak RSS and the CPU
# time it used per delivered frame. Modes run in turn, ROUNDS times, so that
# they are compared within one run on a machine whose load changes; the
# summary gives each mode's median and its ratio to the first mode's.
# Bounded in count (CLIENTS x FRAMES per run) and in time (TIMEOUT seconds a
# run); traffic stays on the loopback interface. docs/PERFORMANCE.md records
# its figures.
#
#   scripts/bench/relay_load.sh                      # 4 clients x 250,000 frames, forward then reframe
#   MODES="forward forward-unbatched reframe" ROUNDS=3 scripts/bench/relay_load.sh
#   TRANSPORT=websocket MODES=forward scripts/bench/relay_load.sh
#   CLIENTS=4 FRAMES=50000 scripts/bench/relay_load.sh
#   BASELINE=/path/to/other/release ROUNDS=3 MODES=forward scripts/bench/relay_load.sh
#   BASELINE=/path/to/older/release BASELINE_FLAGS= ROUNDS=3 MODES=forward scripts/bench/relay_load.sh
#
# Modes: forward (the relay's default: each frame's bytes, the frames of a
# read burst in one buffer shared by every member), forward-unbatched (the
# bytes, each frame written to each member on its own), reframe (each
# payload framed again and written to each member on its own: the relay
# before forwarding).
#
# BASELINE names the folder of another build's imcodec-relay (another
# checkout's `swift build -c release --show-bin-path`): each mode then runs
# with it too, as MODE@baseline, right after this build's run of the mode,
# so two builds are compared side by side in one run. This build's relay
# runs with its defaults (one event loop per core); EVENT_LOOPS=N passes
# --event-loops N to it. BASELINE_FLAGS replaces, for the baseline's relay,
# the flags this build's gets (below): a relay from before login tickets
# and per-connection rates knows none of them (BASELINE_FLAGS= for one).
set -euo pipefail
cd "$(dirname "$0")/../.."

clients=${CLIENTS:-4}
frames=${FRAMES:-250000}
window=${WINDOW:-256}
text_bytes=${TEXT_BYTES:-64}
timeout=${TIMEOUT:-300}
profile=${PROFILE:-current}
modes=${MODES:-forward reframe}
rounds=${ROUNDS:-1}
transport=${TRANSPORT:-tcp}
baseline=${BASELINE:-}
event_loops=${EVENT_LOOPS:-}
scratch=.build-nio

swift build -c release --package-path Examples/RelayServer --scratch-path "$scratch" >&2
bin=$(swift build -c release --package-path Examples/RelayServer --scratch-path "$scratch" --show-bin-path)
ticks=$(getconf CLK_TCK)

work=$(mktemp -d)
server=""
trap 'if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi; rm -rf "$work"' EXIT

# run MODE [BIN LABEL]: one relay (this build's, or the one in BIN), one load; appends
# "label frames/s p50 p99 rss_kB cpu_ns_per_frame" to $work/results.
run() {
    local mode=$1 relay_bin=${2:-$bin} label=${3:-$1} flags=()
    case $mode in
        forward) ;;
        forward-unbatched) flags=(--no-coalesce) ;;
        reframe) flags=(--reframe) ;;
        *) echo "unknown mode $mode" >&2; exit 64 ;;
    esac
    # The web listener (and the chat page's files it holds) only when the
    # load is over WebSocket.
    [ "$transport" = websocket ] && flags+=(--web-port 0)
    [ "$relay_bin" = "$bin" ] && [ -n "$event_loops" ] && flags+=(--event-loops "$event_loops")
    # Its clients join without login tickets, and send as fast as they can:
    # the per-connection rates are off, to measure forwarding alone.
    local relay_flags=(--insecure-demo --max-frames-per-second 0 --max-bytes-per-second 0
        --max-inflated-bytes-per-second 0)
    if [ "$relay_bin" != "$bin" ] && [ -n "${BASELINE_FLAGS+set}" ]; then
        read -ra relay_flags <<<"$BASELINE_FLAGS"
    fi
    # Emptied here, not by the relay's redirection, which could come after
    # the wait below reads the last run's port.
    : >"$work/relay.log"
    "$relay_bin/imcodec-relay" --host 127.0.0.1 --port 0 --profile "$profile" --log-level warning \
        ${relay_flags[@]+"${relay_flags[@]}"} "${flags[@]}" >"$work/relay.log" 2>&1 &
    server=$!
    local port="" web_port=""
    for _ in $(seq 100); do
        port=$(awk '/^port /{print $2}' "$work/relay.log")
        web_port=$(awk '/^web port /{print $3}' "$work/relay.log")
        [ -n "$port" ] && { [ "$transport" != websocket ] || [ -n "$web_port" ]; } && break
        sleep 0.1
    done
    if [ -z "$port" ]; then
        echo "the relay did not start:" >&2
        cat "$work/relay.log" >&2
        exit 1
    fi
    [ "$transport" = websocket ] && port=$web_port
    local status=0
    timeout "$((timeout + 30))" "$bin/imcodec-relay-load" run --host 127.0.0.1 --port "$port" \
        --transport "$transport" --clients "$clients" --frames "$frames" --window "$window" \
        --text-bytes "$text_bytes" --timeout "$timeout" >"$work/load.log" 2>&1 || status=$?
    local rss cpu
    rss=$(awk '/^VmHWM/{print $2}' "/proc/$server/status")
    cpu=$(awk '{print $14 + $15}' "/proc/$server/stat")
    kill -TERM "$server"
    wait "$server" || true
    server=""
    echo "== $label ($transport)"
    cat "$work/load.log"
    echo "server peak RSS $rss kB, CPU $(awk -v t="$cpu" -v k="$ticks" 'BEGIN {printf "%.2f", t / k}') s"
    grep -E '^(connections|closes)' "$work/relay.log" | sed 's/^/server: /'
    if [ "$status" -ne 0 ]; then
        echo "relay_load.sh: the $label run failed" >&2
        exit "$status"
    fi
    awk -v mode="$label" -v rss="$rss" -v cpu="$cpu" -v k="$ticks" '
        /delivered frames\/s/ { rate = $(NF - 2) }
        /^sent/ { delivered = $5 }
        /^latency/ { p50 = $3; p99 = $6 }
        END { printf "%s %s %s %s %s %.0f\n", mode, rate, p50, p99, rss, cpu / k * 1e9 / delivered }
    ' "$work/load.log" >>"$work/results"
}

for _ in $(seq "$rounds"); do
    for mode in $modes; do
        run "$mode"
        if [ -n "$baseline" ]; then run "$mode" "$baseline" "$mode@baseline"; fi
    done
done

echo
echo "clients $clients, frames per client $frames, window $window, text bytes $text_bytes, transport $transport, $rounds round(s)${baseline:+, baseline $baseline}"
awk "$(<scripts/lib/median.awk)"'
    { rates[$1] = rates[$1] " " $2; p50[$1] = p50[$1] " " $3; p99[$1] = p99[$1] " " $4; rss[$1] = rss[$1] " " $5
      cpu[$1] = cpu[$1] " " $6; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
    END {
        printf "%-26s %14s %8s %8s %10s %14s %8s\n", "mode", "delivered/s", "p50 ms", "p99 ms", "RSS kB", "server ns/frame", "ratio"
        for (i = 1; i <= n; i++) {
            m = order[i]; r = median(rates[m]); if (i == 1) first = r
            printf "%-26s %14d %8.2f %8.2f %10d %14d %7.2fx\n", m, r, median(p50[m]), median(p99[m]), median(rss[m]), median(cpu[m]), r / first
        }
    }
' "$work/results"
