#!/usr/bin/env bash
# Measures the streaming path against its targets, as whole processes on
# this machine (client and server side by side):
#
#   1. hard puzzles: `sudoku solve --server` against `sudoku solve --local`
#      with as many threads as the server has workers;
#   2. easy puzzles (the easy set x200): the CLI's rate against the bare
#      echo of `sudoku bench`, measured in the same run;
#   3. unary Solve at concurrency 32: rate and latency percentiles;
#   4. the server's peak memory (VmHWM) streaming 200k and 1M puzzles
#      through one stream, each on a fresh server.
#
# Usage: scripts/stream-bench.sh [PUZZLE_DIR]
#        (default: $SUDOKU_PUZZLES, else puzzles/ from scripts/fetch-puzzles.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
puzzles=$(puzzle_dir "${1:-}")
easy=$(easy_set "$puzzles")
[ -f "$puzzles/hardest_1905_11plus.txt" ] || { echo "missing $puzzles/hardest_1905_11plus.txt" >&2; exit 2; }

cargo build --release --locked --quiet --bins
sudoku=target/release/sudoku
work=$(mktemp -d)
cleanup() {
    stop_server
    rm -rf "$work"
}
trap cleanup EXIT
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

start_server "$work/server.log"
hard="$puzzles/hardest_1905_11plus.txt"
hard_count=$(puzzle_count "$hard")
local_hard=$(seconds "$sudoku" solve --local --threads "$workers" --quiet "$hard")
remote_hard=$(seconds "$sudoku" solve --server "$server" --quiet "$hard")
printf 'hard   %d puzzles: --local --threads %d %.0f/s, --server %.0f/s, ratio %.2f (target >= 0.9)\n' \
    "$hard_count" "$workers" "$(rate "$hard_count" "$local_hard")" \
    "$(rate "$hard_count" "$remote_hard")" "$(echo "$local_hard / $remote_hard" | bc -l)"

for _ in $(seq 200); do cat "$easy"; done >"$work/easy.txt"
easy_count=$(puzzle_count "$work/easy.txt")
remote_easy=$(seconds "$sudoku" solve --server "$server" --quiet "$work/easy.txt")
echo_rate=$("$sudoku" bench --server "$server" --requests 0 --stream-puzzles "$easy_count" \
    "$easy" | awk '/bare echo/ {for (i = 1; i <= NF; i++) if ($i ~ /\/s$/) {sub("/s", "", $i); print $i}}')
printf 'easy   %d puzzles: --server %.0f/s, bare echo %.0f/s, ratio %.2f (target >= 0.5)\n' \
    "$easy_count" "$(rate "$easy_count" "$remote_easy")" "$echo_rate" \
    "$(echo "$easy_count / $remote_easy / $echo_rate" | bc -l)"

echo
"$sudoku" bench --server "$server" --concurrency 32 --requests 20000 --stream-puzzles 0 \
    --no-echo "$easy" | tail -n 2
stop_server

echo
for copies in 80 400; do
    for _ in $(seq "$copies"); do cat "$easy"; done >"$work/memory.txt"
    count=$(puzzle_count "$work/memory.txt")
    start_server "$work/server.log"
    before=$(peak_kib "$server_pid")
    "$sudoku" solve --server "$server" --streams 1 --quiet "$work/memory.txt" >/dev/null
    printf 'memory %d puzzles through one stream: server VmHWM %d KiB at start, %d KiB after (target < 32768)\n' \
        "$count" "$before" "$(peak_kib "$server_pid")"
    stop_server
done
