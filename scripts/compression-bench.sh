#!/usr/bin/env bash
# What message compression does to stream throughput: `sudoku solve FILE
# --server` with --compress none, gzip and zstd against one local server,
# side by side in one hyperfine session (client and server share this
# machine, so the CPU spent compressing counts twice).
#
# Usage: [RPC=batch|stream] scripts/compression-bench.sh [PUZZLE_FILE...]
#        (RPC: SolveBatchStream, the CLI's default, or one puzzle per message)
#        (default, from the puzzle sets in $SUDOKU_PUZZLES or puzzles/: the
#        easy set x 20, where the transport dominates, and 17_clue.txt)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
command -v hyperfine >/dev/null || { echo "needs hyperfine (apt-get install hyperfine)" >&2; exit 2; }
cargo build --release --locked --quiet --bins
work=$(mktemp -d)
cleanup() { stop_server; rm -rf "$work"; }
trap cleanup EXIT

if [ $# -eq 0 ]; then
    puzzles=$(puzzle_dir)
    easy=$(easy_set "$puzzles")
    for _ in $(seq 20); do cat "$easy"; done >"$work/easy_x20.txt"
    set -- "$work/easy_x20.txt" "$puzzles/17_clue.txt"
fi

start_server "$work/server.log"

echo "machine: $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC')"
for file in "$@"; do
    count=$(puzzle_count "$file")
    bytes=$(wc -c <"$file")
    echo
    echo "== $(basename "$file"): $count puzzles, $bytes bytes"
    hyperfine -N -w 1 -r "${RUNS:-5}" --export-json "$work/result.json" \
        -n none "target/release/sudoku solve -q --server $server --rpc ${RPC:-batch} --compress none $file" \
        -n gzip "target/release/sudoku solve -q --server $server --rpc ${RPC:-batch} --compress gzip $file" \
        -n zstd "target/release/sudoku solve -q --server $server --rpc ${RPC:-batch} --compress zstd $file" \
        >/dev/null
    python3 - "$work/result.json" "$count" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
count = int(sys.argv[2])
base = results[0]["mean"]
for r in results:
    print(f"  {r['command']:5} mean {r['mean']*1000:8.1f} ms "
          f"± {r['stddev']*1000:5.1f}  {count / r['mean'] / 1000:7.0f}k puzzles/s  "
          f"{base / r['mean']:.2f}x of uncompressed")
PY
done
