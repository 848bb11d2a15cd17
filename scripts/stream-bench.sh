#!/usr/bin/env bash
# Measures the streaming paths against their targets, as whole processes on
# this machine (client and server side by side, sharing its cores), and
# prints each figure next to its target:
#
#   1. easy puzzles (the easy set x200): `sudoku solve --server`
#      (SolveBatchStream) against `sudoku solve --local --threads 2` on the
#      same file, side by side in one hyperfine session;
#   2. hard puzzles (hardest_1905_11plus): the same, with --local on as
#      many threads as the server has workers;
#   3. compression: --compress zstd and gzip against none on the easy
#      file, with the bytes on the wire per puzzle each way (the server's
#      sudoku_connection_{received,sent}_bytes_total);
#   4. `sudoku bench`: SolveStream and SolveBatchStream, each with its
#      echo baseline, and unary Solve at concurrency 32;
#   5. the server's peak memory (VmHWM) streaming 10 million puzzles
#      through one SolveBatchStream, with its resident memory sampled
#      during the run to show that it stays flat;
#   6. grading: `sudoku grade --server` (SolveBatchStream with `grade`
#      set) against `sudoku grade --local --threads 2`, on a million easy
#      puzzles (the easy set x400) and on top1465.
#
# ONLY=grade runs the grading lines alone; ONLY=solve the easy and hard
# lines (1 and 2) alone.
# Usage: scripts/stream-bench.sh [PUZZLE_DIR]
#        (default: $SUDOKU_PUZZLES, else puzzles/ from scripts/fetch-puzzles.sh)
# Needs hyperfine (apt-get install hyperfine). RUNS sets hyperfine's runs
# per command (default 5); MEMORY_PUZZLES the size of the memory run.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
command -v hyperfine >/dev/null || { echo "needs hyperfine (apt-get install hyperfine)" >&2; exit 2; }
puzzles=$(puzzle_dir "${1:-}")
easy=$(easy_set "$puzzles")
hard="$puzzles/hardest_1905_11plus.txt"
top="$puzzles/top1465.txt"
for file in "$hard" "$top"; do
    [ -f "$file" ] || { echo "missing $file" >&2; exit 2; }
done

cargo build --release --locked --quiet --bins
sudoku=target/release/sudoku
runs=${RUNS:-5}
work=$(mktemp -d)
cleanup() {
    stop_server
    rm -rf "$work"
}
trap cleanup EXIT

# side_by_side NAME_A COMMAND_A NAME_B COMMAND_B...: hyperfine means, in ms,
# one line "name mean_ms min_ms" per command.
side_by_side() {
    local args=()
    while [ $# -gt 0 ]; do
        args+=(-n "$1" "$2")
        shift 2
    done
    hyperfine -N -w 1 -r "$runs" --export-json "$work/hf.json" "${args[@]}" >/dev/null 2>&1
    python3 - "$work/hf.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(r["command"], f"{r['mean'] * 1000:.1f}", f"{r['min'] * 1000:.1f}")
PY
}
field() { awk -v name="$1" -v column="$2" '$1 == name {print $column}' "$work/times"; }
ratio() { printf '%.2f' "$(echo "$1 / $2" | bc -l)"; }
rate() { echo "scale=0; $1 * 1000 / $2" | bc -l; }
metric() { curl -s "http://$metrics/metrics" | awk -v name="$1" '$1 == name {print $2}'; }

# grading_figures: section 6, on the server already started.
grading_figures() {
    for _ in $(seq 400); do cat "$easy"; done >"$work/million.txt"
    local count
    for file in "$work/million.txt" "$top"; do
        count=$(puzzle_count "$file")
        side_by_side \
            local "$sudoku grade -q --local --threads $workers $file" \
            batch "$sudoku grade -q --server $server $file" >"$work/times"
        printf 'graded %s, %d puzzles: --local --threads %d %s ms (%s/s), --server %s ms (%s/s): %sx [best %sx]\n' \
            "$(basename "$file")" "$count" "$workers" "$(field local 2)" "$(rate "$count" "$(field local 2)")" \
            "$(field batch 2)" "$(rate "$count" "$(field batch 2)")" \
            "$(ratio "$(field local 2)" "$(field batch 2)")" "$(ratio "$(field local 3)" "$(field batch 3)")"
    done
}

workers=$(nproc)
echo "machine: $(nproc) cores ($(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)), \
$(awk '/MemTotal/ {printf "%.0f GiB", $2/1024/1024}' /proc/meminfo); $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "hyperfine: $runs runs per command; means (best runs in brackets)"
echo

if [ "${ONLY:-}" = grade ]; then
    start_server "$work/server.log"
    grading_figures
    exit 0
fi

for _ in $(seq 200); do cat "$easy"; done >"$work/easy.txt"
easy_count=$(puzzle_count "$work/easy.txt")
hard_count=$(puzzle_count "$hard")
start_server "$work/server.log" --metrics-listen 127.0.0.1:0
metrics=$(sed -n 's/.*metrics=\([0-9.:]*\).*/\1/p' "$work/server.log" | head -n 1)


side_by_side \
    local "$sudoku solve -q --local --threads 2 $work/easy.txt" \
    batch "$sudoku solve -q --server $server $work/easy.txt" \
    stream "$sudoku solve -q --server $server --rpc stream $work/easy.txt" >"$work/times"
printf 'easy   %d puzzles: --local --threads 2 %s ms, --server %s ms (%s/s): %sx [best %sx] (target >= 0.6, stretch 0.75); --rpc stream %sx\n' \
    "$easy_count" "$(field local 2)" "$(field batch 2)" "$(rate "$easy_count" "$(field batch 2)")" \
    "$(ratio "$(field local 2)" "$(field batch 2)")" "$(ratio "$(field local 3)" "$(field batch 3)")" \
    "$(ratio "$(field local 2)" "$(field stream 2)")"

side_by_side \
    local "$sudoku solve -q --local --threads $workers $hard" \
    batch "$sudoku solve -q --server $server $hard" >"$work/times"
printf 'hard   %d puzzles: --local --threads %d %s ms, --server %s ms: %sx [best %sx] (target >= 0.95)\n' \
    "$hard_count" "$workers" "$(field local 2)" "$(field batch 2)" \
    "$(ratio "$(field local 2)" "$(field batch 2)")" "$(ratio "$(field local 3)" "$(field batch 3)")"
if [ "${ONLY:-}" = solve ]; then
    exit 0
fi
grading_figures

side_by_side \
    none "$sudoku solve -q --server $server --compress none $work/easy.txt" \
    zstd "$sudoku solve -q --server $server --compress zstd $work/easy.txt" \
    gzip "$sudoku solve -q --server $server --compress gzip $work/easy.txt" >"$work/times"
for compression in none zstd gzip; do
    read_before=$(metric sudoku_connection_received_bytes_total)
    written_before=$(metric sudoku_connection_sent_bytes_total)
    "$sudoku" solve -q --server "$server" --compress "$compression" "$work/easy.txt" >/dev/null
    up=$(echo "scale=1; ($(metric sudoku_connection_received_bytes_total) - $read_before) / $easy_count" | bc -l)
    down=$(echo "scale=1; ($(metric sudoku_connection_sent_bytes_total) - $written_before) / $easy_count" | bc -l)
    printf 'compress %-4s %s ms: %sx of uncompressed (target >= 0.5); %s bytes/puzzle to the server, %s back\n' \
        "$compression" "$(field "$compression" 2)" "$(ratio "$(field none 2)" "$(field "$compression" 2)")" "$up" "$down"
done

echo
"$sudoku" bench --server "$server" --requests 20000 --concurrency 32 --streams 2 \
    --stream-puzzles "$easy_count" --batch 1024 "$easy" | tail -n +3
stop_server

echo
memory_puzzles=${MEMORY_PUZZLES:-10000000}
copies=$(( (memory_puzzles + $(puzzle_count "$easy") - 1) / $(puzzle_count "$easy") ))
start_server "$work/server.log"
before=$(awk '/VmHWM/ {print $2}' "/proc/$server_pid/status")
(
    while kill -0 "$server_pid" 2>/dev/null; do
        awk '/VmRSS/ {print $2}' "/proc/$server_pid/status" 2>/dev/null
        sleep 0.5
    done
) >"$work/rss" &
sampler=$!
started=$(date +%s.%N)
for _ in $(seq "$copies"); do cat "$easy"; done |
    "$sudoku" solve -q --server "$server" --streams 1 - | wc -l >"$work/answered"
elapsed=$(echo "$(date +%s.%N) - $started" | bc -l)
after=$(awk '/VmHWM/ {print $2}' "/proc/$server_pid/status")
kill "$sampler" 2>/dev/null || true
wait "$sampler" 2>/dev/null || true
samples=$(sort -n "$work/rss" | awk 'NR == 1 {low = $1} {high = $1; n++} END {printf "%d samples, %d-%d KiB", n, low, high}')
printf 'memory %d puzzles through one SolveBatchStream in %.1f s: server VmHWM %d KiB at start, %d KiB after (target < 32768); VmRSS during the run: %s\n' \
    "$(cat "$work/answered")" "$elapsed" "$before" "$after" "$samples"
stop_server
