#!/usr/bin/env bash
# Checks gRPC-Web and the page on the release server from outside, with a
# plain HTTP/1.1 client (curl) and frames built by hand: a unary Solve
# (binary and text), a bad puzzle's trailers-only answer, a
# server-streaming Generate, a SolveVariant from f-puzzles JSON, the page with its validators, and CORS for an
# allowed origin and for any other.
#
# Usage: .ci/grpc-web-checks.sh [PATH_TO_SUDOKU_SERVER]
# Installs curl from Debian when it is missing.
set -euo pipefail

server_bin=${1:-target/release/sudoku-server}
work=$(mktemp -d)
origin=https://app.example.com

fail() {
    echo "gRPC-Web check FAILED: $*" >&2
    [ -s "$work/server.log" ] && { echo "--- server log ---" >&2; cat "$work/server.log" >&2; }
    exit 1
}
. "$(dirname "$0")/../scripts/lib.sh"
trap 'stop_server; rm -rf "$work"' EXIT

if ! command -v curl >/dev/null 2>&1; then
    echo "installing curl"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq curl >/dev/null
fi
[ -x "$server_bin" ] || fail "no server binary at $server_bin (cargo build --release first)"
SERVER_BIN=$server_bin start_server "$work/server.log" --cors-allow-origin "$origin" ||
    fail "the server did not start"
echo "server listening on $server"

# frame HEX: a gRPC-Web data frame around the message whose bytes are HEX.
frame() {
    local length=$((${#1} / 2))
    local bytes
    bytes=$(printf '00%08x%s' "$length" "$1" | sed 's/../\\x&/g')
    printf '%b' "$bytes"
}
# hex TEXT: TEXT's bytes in hex.
hex() { printf '%s' "$1" | od -An -v -tx1 | tr -d ' \n'; }
# frames FILE: one line per frame of a gRPC-Web body: "data HEX" or
# "trailers TEXT".
frames() {
    python3 - "$1" <<'PY'
import sys
body = open(sys.argv[1], "rb").read()
while body:
    flags, length = body[0], int.from_bytes(body[1:5], "big")
    payload, body = body[5:5 + length], body[5 + length:]
    if flags & 0x80:
        print("trailers", payload.decode().replace("\r\n", " ").strip())
    else:
        print("data", payload.hex())
PY
}
# post METHOD CONTENT-TYPE BODY-FILE [CURL-ARGS...]: headers to
# $work/headers, body to $work/body.
post() {
    local method=$1 type=$2 body=$3
    shift 3
    curl -sS --http1.1 -X POST -H "content-type: $type" -H "accept: $type" -H 'x-grpc-web: 1' \
        --data-binary @"$body" -D "$work/headers" -o "$work/body" "$@" \
        "http://$server/sudoku.v1.SudokuService/$method" || fail "curl $method"
}

puzzle='53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79'
solution='534678912672195348198342567859761423426853791713924856961537284287419635345286179'
# SolveRequest { puzzle = 1 }: tag 0x0a, length 81 (0x51).
frame "0a51$(hex "$puzzle")" >"$work/solve"
post Solve application/grpc-web+proto "$work/solve"
grep -qi '^content-type: application/grpc-web+proto' "$work/headers" || fail "Solve's content type: $(cat "$work/headers")"
out=$(frames "$work/body")
grep -q "^data .*$(hex "$solution")" <<<"$out" || fail "Solve's answer holds the solution: $out"
grep -q '^trailers .*grpc-status:0' <<<"$out" || fail "Solve ends OK: $out"
echo "ok: unary Solve over gRPC-Web (binary)"

base64 -w0 "$work/solve" >"$work/solve.txt"
post Solve application/grpc-web-text "$work/solve.txt"
grep -qi '^content-type: application/grpc-web-text' "$work/headers" || fail "text Solve's content type"
base64 -d "$work/body" >"$work/body.bin" 2>/dev/null || true
grep -qa "$solution" "$work/body.bin" || fail "text Solve's answer holds the solution"
echo "ok: unary Solve over gRPC-Web (text)"

frame "0a51$(hex "x${puzzle:1}")" >"$work/bad"
post Solve application/grpc-web+proto "$work/bad"
grep -qi '^grpc-status: 3' "$work/headers" || fail "a bad puzzle is INVALID_ARGUMENT: $(cat "$work/headers")"
grep -qi '^grpc-message: .*at%20column%201' "$work/headers" || fail "the message says where"
echo "ok: a bad puzzle gets INVALID_ARGUMENT, saying where"

# GenerateRequest { count = 1: 3, seed = 7: 2026 }.
frame "0803$(printf '38ea0f')" >"$work/generate"
post Generate application/grpc-web+proto "$work/generate"
out=$(frames "$work/body")
[ "$(grep -c '^data ' <<<"$out")" -eq 3 ] || fail "Generate streams three puzzles: $out"
grep -q '^trailers .*grpc-status:0' <<<"$out" || fail "Generate ends OK: $out"
echo "ok: server-streaming Generate over gRPC-Web"

# SolveVariantRequest { id = 1: "v", puzzle = 2: VariantSource { fpuzzles = 2: JSON } },
# a 6x6 killer with a thermometer, a white dot and a V in f-puzzles JSON.
variant_hex=$(python3 - <<'PY'
givens = "1....6...1..2.1.6.56.2......4.6....2"
rows = []
for r in range(6):
    cells = ['{"value":%s,"given":true}' % c if c != "." else "{}" for c in givens[6 * r:6 * r + 6]]
    rows.append("[" + ",".join(cells) + "]")
text = ('{"size":6,"grid":[%s],"killercage":[{"cells":["R2C1","R2C2"],"value":"9"}],'
        '"thermometer":[{"lines":[["R5C2","R5C3","R5C4"]]}],"difference":[{"cells":["R6C5","R6C6"]}],'
        '"xv":[{"cells":["R3C1","R3C2"],"value":"V"}]}') % ",".join(rows)
def field(tag, payload):
    length, varint = len(payload), b""
    while True:
        varint += bytes([(length & 0x7F) | (0x80 if length > 0x7F else 0)])
        length >>= 7
        if not length:
            break
    return bytes([tag]) + varint + payload
print((field(0x0A, b"v") + field(0x12, field(0x12, text.encode()))).hex())
PY
)
frame "$variant_hex" >"$work/variant"
post SolveVariant application/grpc-web+proto "$work/variant"
out=$(frames "$work/body")
grep -q "^data .*$(hex 123456456123231564564231312645645312)" <<<"$out" || fail "SolveVariant's answer holds the solution: $out"
grep -q '^trailers .*grpc-status:0' <<<"$out" || fail "SolveVariant ends OK: $out"
echo "ok: unary SolveVariant over gRPC-Web, from f-puzzles JSON"

curl -sS -D "$work/headers" -o "$work/page" "http://$server/" || fail "GET /"
grep -q '^HTTP/1.1 200' "$work/headers" || fail "GET /: $(cat "$work/headers")"
grep -qi "^content-security-policy: default-src 'self'" "$work/headers" || fail "the page's policy"
etag=$(sed -n 's/^etag: *\(.*\)\r$/\1/ip' "$work/headers")
status=$(curl -sS -o /dev/null -w '%{http_code}' -H "if-none-match: $etag" "http://$server/")
[ "$status" = 304 ] || fail "a current copy gets 304, not $status"
echo "ok: the page, with its ETag"

curl -sS -X OPTIONS -D "$work/headers" -o /dev/null -H "origin: $origin" \
    -H 'access-control-request-method: POST' -H 'access-control-request-headers: content-type,x-grpc-web' \
    "http://$server/sudoku.v1.SudokuService/Solve"
grep -qi "^access-control-allow-origin: $origin" "$work/headers" || fail "the allowed origin's preflight"
curl -sS -X OPTIONS -D "$work/headers" -o /dev/null -H 'origin: https://elsewhere.example.com' \
    -H 'access-control-request-method: POST' "http://$server/sudoku.v1.SudokuService/Solve"
if grep -qi '^access-control-' "$work/headers"; then fail "another origin gets no CORS header"; fi
post Solve application/grpc-web+proto "$work/solve" -H "origin: $origin"
grep -qi '^access-control-expose-headers: .*grpc-status' "$work/headers" || fail "the exposed headers"
echo "ok: CORS for the allowed origin only"
echo "all gRPC-Web checks passed"
