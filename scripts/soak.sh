#!/usr/bin/env bash
# A bounded soak: mixed load against one release server for a set time,
# reporting the server's memory over time, calls by status code (from its
# metrics endpoint), and the latency a light client sees meanwhile.
#
# The load, all at once, on this machine beside the server:
#   - greedy streams: `sudoku solve` of a large file with some invalid lines,
#     over and over (2 streams each);
#   - a unary flood: `sudoku bench` at concurrency 64, over and over, against
#     a server with a small queue, so some calls are shed;
#   - vanishing clients: a batch started and killed after half a second;
#   - a light client, every 5 s: 200 unary calls one at a time (latency
#     percentiles) and a 10-puzzle stream (wall time).
# At the end the server gets SIGTERM and must exit 0.
#
# Usage: scripts/soak.sh [SECONDS] [PUZZLE_DIR]
#        (default 180 s, and $SUDOKU_PUZZLES or puzzles/ from
#        scripts/fetch-puzzles.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
duration=${1:-180}
puzzles=$(puzzle_dir "${2:-}")
easy=$(easy_set "$puzzles")
[ -f "$puzzles/hardest_1905_11plus.txt" ] || { echo "missing $puzzles/hardest_1905_11plus.txt" >&2; exit 2; }
cargo build --release --locked --quiet --bins
sudoku=target/release/sudoku
work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    stop_server
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# Inputs: easy and hard puzzles with an invalid line every 100.
awk 'NR % 100 == 0 { print "12x" } { print }' "$easy" "$puzzles/hardest_1905_11plus.txt" >"$work/mixed.txt"
head -n 2000 "$puzzles/hardest_1905_11plus.txt" >"$work/unary.txt"
grep -v '^#' "$easy" | head -n 10 >"$work/ten.txt"

start_server "$work/server.log" --metrics-listen 127.0.0.1:0 --queue-depth 32 --drain-timeout 10s
metrics=$(sed -n 's/.*metrics=\([0-9.:]*\).*/\1/p' "$work/server.log" | head -n 1)
scrape() { python3 -c "import urllib.request,sys; sys.stdout.write(urllib.request.urlopen('http://$metrics/metrics').read().decode())"; }
kib() { awk -v key="$1:" '$1 == key {print $2}' "/proc/$server_pid/status"; }

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo); $(date -u '+%Y-%m-%d %H:%M UTC'); ${duration}s of mixed load"
echo "server: $server, metrics: $metrics, RSS at start $(kib VmRSS) KiB"
end=$((SECONDS + duration))

loop() { # loop COMMAND...: runs COMMAND again and again until the end
    while [ $SECONDS -lt $end ]; do "$@" >/dev/null 2>&1 || true; done
}
loop "$sudoku" solve -q --server "$server" --streams 2 "$work/mixed.txt" &
pids+=($!)
loop "$sudoku" bench "$work/unary.txt" --server "$server" --concurrency 64 --requests 20000 --stream-puzzles 0 --no-echo &
pids+=($!)
(
    while [ $SECONDS -lt $end ]; do
        "$sudoku" solve -q --server "$server" "$work/mixed.txt" >/dev/null 2>&1 &
        victim=$!
        sleep 0.5
        kill -9 "$victim" 2>/dev/null || true
        wait "$victim" 2>/dev/null || true
        sleep 2
    done
) &
pids+=($!)

printf '\n%6s %10s %9s %9s %9s %12s\n' "t(s)" "RSS(KiB)" "p50" "p99" "max" "10-stream"
start=$SECONDS
while [ $SECONDS -lt $end ]; do
    sleep 5
    probe=$("$sudoku" bench "$work/unary.txt" --server "$server" --concurrency 1 --requests 200 \
        --stream-puzzles 0 --no-echo 2>&1 | awk '/^unary Solve/ {print $7, $9, $10}')
    t0=$(date +%s.%N)
    "$sudoku" solve -q --server "$server" "$work/ten.txt" >/dev/null 2>&1 || true
    t1=$(date +%s.%N)
    read -r p50 p99 max <<<"${probe:-- - -}"
    printf '%6d %10s %9s %9s %9s %10.1fms\n' $((SECONDS - start)) "$(kib VmRSS)" "$p50" "$p99" "$max" \
        "$(echo "($t1 - $t0) * 1000" | bc -l)"
done
for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
wait "${pids[@]}" 2>/dev/null || true
pids=()

echo
echo "server peak RSS (VmHWM): $(kib VmHWM) KiB; now $(kib VmRSS) KiB"
echo "calls by RPC and status code:"
scrape | awk '/^sudoku_calls_total/ {printf "  %-60s %s\n", $1, $2}'
echo "puzzles by outcome:"
scrape | awk '/^sudoku_puzzles_total/ && $2 > 0 {printf "  %-60s %s\n", $1, $2}'
scrape | awk '/^sudoku_(shed_total|streams_refused_total|streams_open|pool_queued_jobs|pool_running_jobs) / || /^sudoku_shed_total/ {printf "  %-60s %s\n", $1, $2}'
kill -TERM "$server_pid"
status=0
wait "$server_pid" || status=$?
server_pid=
echo "server exit status after SIGTERM: $status"
grep -c ' ERROR ' "$work/server.log" | xargs echo "server log ERROR lines:"
[ "$status" -eq 0 ]
