#!/usr/bin/env bash
# What message compression does to stream throughput: `sudoku solve FILE
# --server` with --compress none, gzip and zstd against one local server,
# side by side in one hyperfine session (client and server share this
# machine, so the CPU spent compressing counts twice).
#
# Usage: scripts/compression-bench.sh [PUZZLE_FILE...]
#        (default: ../shared/puzzles/kaggle_like.txt x 20, easy puzzles where
#        the transport dominates, and ../shared/puzzles/17_clue.txt)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v hyperfine >/dev/null || { echo "needs hyperfine (apt-get install hyperfine)" >&2; exit 2; }
cargo build --release --locked --quiet --bins
work=$(mktemp -d)
server_pid=
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

if [ $# -eq 0 ]; then
    for _ in $(seq 20); do cat ../shared/puzzles/kaggle_like.txt; done >"$work/kaggle_x20.txt"
    set -- "$work/kaggle_x20.txt" ../shared/puzzles/17_clue.txt
fi

target/release/sudoku-server --listen 127.0.0.1:0 2>"$work/server.log" &
server_pid=$!
server=
for _ in $(seq 100); do
    server=$(sed -n 's/.*address=\([0-9.:]*\).*/\1/p' "$work/server.log" | head -n 1)
    [ -n "$server" ] && break
    sleep 0.05
done
[ -n "$server" ] || { echo "the server did not start" >&2; exit 1; }

echo "machine: $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC')"
for file in "$@"; do
    count=$(grep -cv '^\s*\(#\|$\)' "$file")
    bytes=$(wc -c <"$file")
    echo
    echo "== $(basename "$file"): $count puzzles, $bytes bytes"
    hyperfine -N -w 1 -r "${RUNS:-5}" --export-json "$work/result.json" \
        -n none "target/release/sudoku solve -q --server $server --compress none $file" \
        -n gzip "target/release/sudoku solve -q --server $server --compress gzip $file" \
        -n zstd "target/release/sudoku solve -q --server $server --compress zstd $file" \
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
