#!/usr/bin/env bash
# What CI runs for the web page: build it from scratch, check that the
# committed dist/ and src/gen/ are what the sources make, typecheck, run
# the model's unit tests, and run the browser tests against a server binary.
#   web/scripts/ci.sh [SERVER_BIN]   (a path from where it is run; default
#                                     target/release/sudoku-server of this
#                                     checkout)
set -euo pipefail

# The server binary, relative to where this is run from (default: the
# release build of this checkout).
server_bin="${1:-$(dirname "$0")/../../target/release/sudoku-server}"
[ -x "$server_bin" ] || { echo "no server binary at $server_bin (cargo build --release first)" >&2; exit 1; }
server_bin="$(cd "$(dirname "$server_bin")" && pwd)/$(basename "$server_bin")"
cd "$(dirname "$0")/.."

export SUDOKU_SERVER_BIN="$server_bin"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

if [ ! -x /usr/bin/chromium ]; then
  echo "== installing chromium"
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y chromium
fi

echo "== npm ci"
npm ci --no-audit --no-fund

echo "== npm run gen && npm run build"
npm run gen
npm run build

echo "== committed web/dist and web/src/gen match the sources"
changes="$(git status --porcelain -- dist src/gen)"
if [ -n "$changes" ]; then
  echo "web/dist or web/src/gen differ from what is committed; run npm run gen && npm run build and commit:"
  echo "$changes"
  git --no-pager diff --stat -- dist src/gen
  git --no-pager diff -- dist src/gen | head -200
  exit 1
fi

echo "== npm run typecheck"
npm run typecheck

echo "== npm run test:unit (the model, no browser)"
npm run test:unit

echo "== npm test (server: $SUDOKU_SERVER_BIN ${SUDOKU_SERVER_ARGS:-})"
npm test
