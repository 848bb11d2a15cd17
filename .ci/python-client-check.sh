#!/usr/bin/env bash
# Runs the Python batch client (examples/python/solve_file.py), an
# independent grpcio client whose stubs come from proto/ at run time,
# against the release server on the test puzzles (several thousand, every
# outcome, invalid ones included), and checks that its output is exactly
# what `sudoku solve --local` writes for them, with the default batch size
# and with batches smaller than the file's pieces.
#
# Usage: .ci/python-client-check.sh [PATH_TO_RELEASE_BIN_DIR]
# Installs grpcio and grpcio-tools from PyPI when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release}
work=$(mktemp -d)
. scripts/lib.sh
cleanup() {
    stop_server
    rm -rf "$work"
}
trap cleanup EXIT

if ! python3 -c 'import grpc, grpc_tools' 2>/dev/null; then
    echo "installing grpcio and grpcio-tools"
    python3 -m pip install --quiet grpcio grpcio-tools
fi

cat tests/data/unique.txt tests/data/multiple.txt tests/data/unsolvable.txt \
    tests/data/conflicting.txt tests/data/unique.txt >"$work/puzzles.txt"
printf '# a comment, skipped\n\n12\n' >>"$work/puzzles.txt"
"$bin/sudoku" solve "$work/puzzles.txt" --local --quiet >"$work/local.txt" || [ $? -eq 2 ]
count=$(wc -l <"$work/local.txt")

SERVER_BIN=$bin/sudoku-server start_server "$work/server.log"
for batch in 1024 37; do
    python3 examples/python/solve_file.py "$work/puzzles.txt" --server "$server" \
        --batch "$batch" >"$work/python.txt" \
        || { echo "the Python client failed (batch $batch)" >&2; cat "$work/server.log" >&2; exit 1; }
    if ! cmp -s "$work/python.txt" "$work/local.txt"; then
        echo "the Python client's answers differ from --local (batch $batch):" >&2
        diff "$work/local.txt" "$work/python.txt" | head -20 >&2
        exit 1
    fi
    echo "ok: the Python client's $count answers (batch $batch) match sudoku solve --local"
done
