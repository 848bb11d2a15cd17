#!/usr/bin/env bash
# The hostile-client flood of tests/suite/flood.rs at full size, against a
# release build of the server: what each connection, call and stream costs
# the server, and its peak memory under a flood past every cap at the
# default settings, next to the bound it prints at startup.
#
# Usage: scripts/flood.sh
set -euo pipefail
cd "$(dirname "$0")/.."
echo "machine: $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC')"
cargo test --release --locked --quiet --test suite flood:: -- --ignored --nocapture --test-threads 1 2>&1 |
    grep -E 'KiB|MiB|flood:|test result|panicked'
