#!/usr/bin/env bash
# Measures the streaming path against its targets, as whole processes on
# this machine (client and server side by side):
#
#   1. hard puzzles: `sudoku solve --server` against `sudoku solve --local`
#      with as many threads as the server has workers;
#   2. easy puzzles (kaggle_like x200): the CLI's rate against the bare
#      echo of `sudoku bench`, measured in the same run;
#   3. unary Solve at concurrency 32: rate and latency percentiles;
#   4. the server's peak memory (VmHWM) streaming 200k and 1M puzzles
#      through one stream, each on a fresh server.
#
# Usage: scripts/stream-bench.sh [PUZZLE_DIR]   (default ../shared/puzzles)
set -euo pipefail
cd "$(dirname "$0")/.."
puzzles=${1:-../shared/puzzles}
for file in hardest_1905_11plus.txt kaggle_like.txt; do
    [ -f "$puzzles/$file" ] || { echo "missing $puzzles/$file" >&2; exit 2; }
done

cargo build --release --locked --quiet --bins
sudoku=target/release/sudoku
work=$(mktemp -d)
server_pid=
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# start_server: starts sudoku-server on an ephemeral port; sets server_pid
# and server (host:port).
start_server() {
    target/release/sudoku-server --listen 127.0.0.1:0 2>"$work/server.log" &
    server_pid=$!
    for _ in $(seq 100); do
        server=$(sed -n 's/.*address=\([0-9.:]*\).*/\1/p' "$work/server.log" | head -n 1)
        [ -n "$server" ] && return 0
        sleep 0.05
    done
    echo "the server did not start" >&2
    exit 1
}
stop_server() { kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=; }
seconds() { # seconds COMMAND...: wall time of one run, stdout discarded
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l
}
rate() { echo "scale=0; $1 / $2" | bc -l; }
peak_kib() { awk '/VmHWM/ {print $2}' "/proc/$1/status"; }

workers=$(nproc)
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {print $2/1024/1024 " GiB"}' /proc/meminfo); $(date -u '+%Y-%m-%d %H:%M UTC')"
echo

start_server
hard="$puzzles/hardest_1905_11plus.txt"
hard_count=$(grep -vc '^#' "$hard")
local_hard=$(seconds "$sudoku" solve --local --threads "$workers" --quiet "$hard")
remote_hard=$(seconds "$sudoku" solve --server "$server" --quiet "$hard")
printf 'hard   %d puzzles: --local --threads %d %.0f/s, --server %.0f/s, ratio %.2f (target >= 0.9)\n' \
    "$hard_count" "$workers" "$(rate "$hard_count" "$local_hard")" \
    "$(rate "$hard_count" "$remote_hard")" "$(echo "$local_hard / $remote_hard" | bc -l)"

for _ in $(seq 200); do cat "$puzzles/kaggle_like.txt"; done >"$work/easy.txt"
easy_count=$(grep -vc '^#' "$work/easy.txt")
remote_easy=$(seconds "$sudoku" solve --server "$server" --quiet "$work/easy.txt")
echo_rate=$("$sudoku" bench --server "$server" --requests 0 --stream-puzzles "$easy_count" \
    "$puzzles/kaggle_like.txt" | awk '/bare echo/ {sub("/s", "", $(NF)); print $(NF)}')
printf 'easy   %d puzzles: --server %.0f/s, bare echo %.0f/s, ratio %.2f (target >= 0.5)\n' \
    "$easy_count" "$(rate "$easy_count" "$remote_easy")" "$echo_rate" \
    "$(echo "$easy_count / $remote_easy / $echo_rate" | bc -l)"

echo
"$sudoku" bench --server "$server" --concurrency 32 --requests 20000 --stream-puzzles 0 \
    --no-echo "$puzzles/kaggle_like.txt" | tail -n 2
stop_server

echo
for copies in 80 400; do
    for _ in $(seq "$copies"); do cat "$puzzles/kaggle_like.txt"; done >"$work/memory.txt"
    count=$(grep -vc '^#' "$work/memory.txt")
    start_server
    before=$(peak_kib "$server_pid")
    "$sudoku" solve --server "$server" --streams 1 --quiet "$work/memory.txt" >/dev/null
    printf 'memory %d puzzles through one stream: server VmHWM %d KiB at start, %d KiB after (target < 32768)\n' \
        "$count" "$before" "$(peak_kib "$server_pid")"
    stop_server
done
