#!/usr/bin/env bash
# Runs the Python batch client (examples/python/solve_file.py), an
# independent grpcio client whose stubs come from proto/ at run time,
# against the release server on the test puzzles (several thousand, every
# outcome, invalid ones included), and checks that its output is exactly
# what `sudoku solve --local` writes for them, with the default batch size
# and with batches smaller than the file's pieces.
#
# Its exit code must be the command line's too, and so must its reading of
# a file that starts with a byte-order mark, of stdin (-) and of a file
# that is missing.
#
# Then the variant client (examples/python/solve_variants.py) on a file
# of f-puzzles lines, against --local the same way.
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

printf '\xEF\xBB\xBF' >"$work/puzzles.txt"
cat tests/data/unique.txt tests/data/multiple.txt tests/data/unsolvable.txt \
    tests/data/conflicting.txt tests/data/unique.txt >>"$work/puzzles.txt"
printf '# a comment, skipped\n\n12\n' >>"$work/puzzles.txt"
local_code=0
"$bin/sudoku" solve "$work/puzzles.txt" --local --quiet >"$work/local.txt" || local_code=$?
[ "$local_code" -eq 2 ] || { echo "sudoku solve --local exited $local_code, not 2" >&2; exit 1; }
count=$(wc -l <"$work/local.txt")

SERVER_BIN=$bin/sudoku-server start_server "$work/server.log"
for batch in 1024 37; do
    code=0
    python3 examples/python/solve_file.py "$work/puzzles.txt" --server "$server" \
        --batch "$batch" >"$work/python.txt" 2>"$work/python.err" || code=$?
    if [ "$code" -ne "$local_code" ]; then
        echo "the Python client exited $code, sudoku solve --local $local_code (batch $batch):" >&2
        cat "$work/python.err" "$work/server.log" >&2
        exit 1
    fi
    if ! cmp -s "$work/python.txt" "$work/local.txt"; then
        echo "the Python client's answers differ from --local (batch $batch):" >&2
        diff "$work/local.txt" "$work/python.txt" | head -20 >&2
        exit 1
    fi
    echo "ok: the Python client's $count answers (batch $batch) match sudoku solve --local"
done

# stdin: the file's first puzzle, answered as --local answered it.
solved=$(grep -m1 -v '^#' tests/data/unique.txt)
out=$(printf '%s\n' "$solved" | python3 examples/python/solve_file.py - --server "$server") ||
    { echo "the Python client failed on stdin" >&2; exit 1; }
[ "$out" = "$(head -1 "$work/local.txt")" ] ||
    { echo "the Python client read stdin as: $out" >&2; exit 1; }
# A missing file: exit code 3 and a message naming it, as the command line.
code=0
python3 examples/python/solve_file.py "$work/missing.txt" --server "$server" \
    2>"$work/python.err" || code=$?
if [ "$code" -ne 3 ] || ! grep -qF "cannot read $work/missing.txt" "$work/python.err"; then
    echo "the Python client on a missing file exited $code:" >&2
    cat "$work/python.err" >&2
    exit 1
fi
echo "ok: the Python client reads stdin, exits as the command line does ($local_code), and names a missing file"

# Variant puzzles: examples/python/solve_variants.py through SolveVariantStream
# answers a file of f-puzzles lines as sudoku solve --local does.
python3 - >"$work/variants.jsonl" <<'PY'
givens = "1....6...1..2.1.6.56.2......4.6....2"
rows = ["[" + ",".join('{"value":%s,"given":true}' % c if c != "." else "{}"
                       for c in givens[6 * r:6 * r + 6]) + "]" for r in range(6)]
killer = ('{"size":6,"grid":[%s],"killercage":[{"cells":["R2C1","R2C2"],"value":"9"}],'
          '"thermometer":[{"lines":[["R5C2","R5C3","R5C4"]]}],"difference":[{"cells":["R6C5","R6C6"]}],'
          '"xv":[{"cells":["R3C1","R3C2"],"value":"V"}]}') % ",".join(rows)
four = ('{"size":4,"grid":[[{"value":1,"given":true},{},{},{}],[{},{},{},{}],[{},{},{},{}],'
        '[{},{},{},{}]],"antiknight":true}')
print("# a killer, the same with an impossible cage, an invalid one, several solutions")
for line in (killer, killer.replace('"value":"9"', '"value":"3"'), '{"size":7}', four):
    print(line)
PY
variant_code=0
"$bin/sudoku" solve "$work/variants.jsonl" --local --quiet >"$work/variants-local.txt" || variant_code=$?
code=0
python3 examples/python/solve_variants.py "$work/variants.jsonl" --server "$server" \
    >"$work/variants-python.txt" 2>"$work/python.err" || code=$?
if [ "$code" -ne "$variant_code" ] || ! cmp -s "$work/variants-python.txt" "$work/variants-local.txt"; then
    echo "the Python variant client (exit $code) differs from --local (exit $variant_code):" >&2
    diff "$work/variants-local.txt" "$work/variants-python.txt" >&2 || true
    cat "$work/python.err" >&2
    exit 1
fi
[ "$(wc -l <"$work/variants-python.txt")" -eq 4 ] || { echo "four variant answers expected" >&2; exit 1; }
echo "ok: the Python variant client's answers match sudoku solve --local (exit $variant_code)"
