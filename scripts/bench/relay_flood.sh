#!/usr/bin/env bash
# A benchmark, not a test (CI does not run it): what one costly sender does
# to everyone else. Builds the relay example (Examples/RelayServer) in
# release, starts imcodec-relay on 127.0.0.1 with its default bounds, and
# runs `imcodec-relay-load flood`: one client writes deflate frames that
# inflate to 16 MiB as fast as the relay reads them, while a control pair
# in another group exchanges a message every 50 ms; prints the pair's
# p50, p99 and largest latency. docs/PERFORMANCE.md records its figures.
#
#   scripts/bench/relay_flood.sh                         # this build, 30 s a run
#   BASELINE=/path/to/other/release ROUNDS=3 scripts/bench/relay_flood.sh
#   UNTHROTTLED=1 scripts/bench/relay_flood.sh           # also with the per-connection rates off
#   ON_LOOP=1 scripts/bench/relay_flood.sh               # also with every frame checked on its loop (--off-loop-bytes 0)
#   SECONDS_PER_RUN=10 scripts/bench/relay_flood.sh      # shorter runs
#
# The relay places connections on its event loops in turn, as they connect
# (flooder, control client 1, control client 2), so this build runs twice:
# "apart" with idle connections between the control clients that put both
# on a loop other than the flooder's, "shared" with none, which with two
# loops puts the second control client on the flooder's loop. BASELINE
# names the folder of another build's imcodec-relay (another checkout's
# `swift build -c release --show-bin-path`), run the same way; a relay on
# one loop has nowhere else to put them. EVENT_LOOPS (the number of cores by
# default) is passed to this build's relay as --event-loops.
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds=${SECONDS_PER_RUN:-30}
rounds=${ROUNDS:-1}
baseline=${BASELINE:-}
unthrottled=${UNTHROTTLED:-}
on_loop=${ON_LOOP:-}
event_loops=${EVENT_LOOPS:-$(nproc)}
scratch=.build-nio

swift build -c release --package-path Examples/RelayServer --scratch-path "$scratch" >&2
bin=$(swift build -c release --package-path Examples/RelayServer --scratch-path "$scratch" --show-bin-path)

work=$(mktemp -d)
server=""
trap 'if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi; rm -rf "$work"' EXIT

# run LABEL BIN SPACERS [RELAY FLAGS...]: one relay, one flood; appends
# "label p50 p99 max lost flood_frames" to $work/results.
run() {
    local label=$1 relay_bin=$2 spacers=$3
    shift 3
    # Emptied here, not by the relay's redirection, which could come after
    # the wait below reads the last run's port.
    : >"$work/relay.log"
    "$relay_bin/imcodec-relay" --host 127.0.0.1 --port 0 --log-level warning --insecure-demo "$@" \
        >"$work/relay.log" 2>&1 &
    server=$!
    local port=""
    for _ in $(seq 100); do
        port=$(awk '/^port /{print $2}' "$work/relay.log")
        [ -n "$port" ] && break
        sleep 0.1
    done
    if [ -z "$port" ]; then
        echo "the relay did not start:" >&2
        cat "$work/relay.log" >&2
        exit 1
    fi
    local status=0
    timeout "$((seconds + 60))" "$bin/imcodec-relay-load" flood --host 127.0.0.1 --port "$port" \
        --seconds "$seconds" --spacers "$spacers" >"$work/flood.log" 2>&1 || status=$?
    kill -TERM "$server"
    wait "$server" || true
    server=""
    echo "== $label"
    cat "$work/flood.log"
    grep -E '^(connections|closes)' "$work/relay.log" | sed 's/^/server: /'
    if [ "$status" -ne 0 ]; then
        echo "relay_flood.sh: the $label run failed" >&2
        exit "$status"
    fi
    awk -v label="$label" '
        /^flood frames written/ { flood = $4 }
        /^control messages sent/ { lost = $NF }
        /^control latency/ { p50 = $5; p99 = $7; max = $9 }
        END { printf "%s %s %s %s %s %s\n", label, p50, p99, max, lost, flood }
    ' "$work/flood.log" >>"$work/results"
}

# cases SUFFIX [RELAY FLAGS...]: this build apart and shared, then the baseline.
cases() {
    local suffix=$1
    shift
    run "apart$suffix" "$bin" "$((event_loops - 1))" --event-loops "$event_loops" "$@"
    run "shared$suffix" "$bin" 0 --event-loops "$event_loops" "$@"
    if [ -n "$baseline" ]; then run "baseline$suffix" "$baseline" 0 "$@"; fi
}

for _ in $(seq "$rounds"); do
    cases ""
    if [ -n "$on_loop" ]; then
        run "apart-on-loop" "$bin" "$((event_loops - 1))" --event-loops "$event_loops" --off-loop-bytes 0
        run "shared-on-loop" "$bin" 0 --event-loops "$event_loops" --off-loop-bytes 0
    fi
    if [ -n "$unthrottled" ]; then
        cases "-unthrottled" --max-frames-per-second 0 --max-bytes-per-second 0 --max-inflated-bytes-per-second 0
        if [ -n "$on_loop" ]; then
            run "shared-on-loop-unthrottled" "$bin" 0 --event-loops "$event_loops" --off-loop-bytes 0 \
                --max-frames-per-second 0 --max-bytes-per-second 0 --max-inflated-bytes-per-second 0
        fi
    fi
done

echo
echo "control pair every 50 ms for $seconds s, $event_loops event loops, $rounds round(s)${baseline:+, baseline $baseline}"
awk "$(<scripts/lib/median.awk)"'
    { p50[$1] = p50[$1] " " $2; p99[$1] = p99[$1] " " $3; max[$1] = max[$1] " " $4; lost[$1] += $5
      flood[$1] = flood[$1] " " $6; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
    END {
        printf "%-22s %8s %8s %8s %6s %14s\n", "case", "p50 ms", "p99 ms", "max ms", "lost", "flood frames"
        for (i = 1; i <= n; i++) {
            c = order[i]
            printf "%-22s %8.2f %8.2f %8.2f %6d %14d\n", c, median(p50[c]), median(p99[c]), median(max[c]), lost[c], median(flood[c])
        }
    }
' "$work/results"
