#!/usr/bin/env bash
# Fuzz smoke test: every cargo-fuzz target for 30 s from the committed seeds,
# so that a change that breaks one of their checks is caught. Fails if any
# target crashes or hangs; see scripts/fuzz.sh for the knobs.
set -euo pipefail
cd "$(dirname "$0")/.."
exec scripts/fuzz.sh "${FUZZ_SECONDS:-30}"
