#!/usr/bin/env bash
# Runs the cargo-fuzz targets in fuzz/ for a set time each, one after the
# other, single-job and niced, and reports per target the executions, the
# corpus size, the slowest input and whether it crashed.
#
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
#   SECONDS  time per target (default 600); TARGET defaults to all of them.
# Environment:
#   FUZZ_TOOLCHAIN  nightly | bootstrap (stable with RUSTC_BOOTSTRAP=1);
#                   default nightly when rustup has it installed.
#   FUZZ_TIMEOUT    seconds one input may take before it counts as a hang
#                   (default 60; inputs run instrumented, a few times slower).
#   FUZZ_SANITIZER  cargo fuzz --sanitizer (default none: the code under
#                   test is safe Rust, and the solver runs ~4x faster).
#
# The corpus grows in fuzz/corpus/TARGET (seeded from fuzz/seeds/TARGET),
# crashes land in fuzz/artifacts/TARGET/, logs in fuzz/logs/; all ignored
# by git. Exits non-zero if any target crashed or hung.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(parse_puzzle solve_board decode_request read_fpuzzles)
timeout=${FUZZ_TIMEOUT:-60}
sanitizer=${FUZZ_SANITIZER:-none}
[[ $seconds =~ ^[0-9]+$ ]] || { echo "usage: $0 [SECONDS] [TARGET...]" >&2; exit 2; }

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "installing cargo-fuzz"
    nice -n 10 cargo install cargo-fuzz --locked
fi

# cargo fuzz needs nightly features: use nightly if rustup has it, else let
# the default (stable) toolchain accept them.
if [ -z "${FUZZ_TOOLCHAIN:-}" ]; then
    if command -v rustup >/dev/null 2>&1 && rustup toolchain list | grep -q '^nightly'; then
        FUZZ_TOOLCHAIN=nightly
    else
        FUZZ_TOOLCHAIN=bootstrap
    fi
fi
case $FUZZ_TOOLCHAIN in
    nightly) toolchain=(+nightly) ;;
    bootstrap) toolchain=() && export RUSTC_BOOTSTRAP=1 ;;
    *) echo "FUZZ_TOOLCHAIN must be nightly or bootstrap" >&2; exit 2 ;;
esac
fuzz=(cargo "${toolchain[@]}" fuzz)
echo "fuzzing with $(rustc "${toolchain[@]}" --version), sanitizer $sanitizer"

# cargo fuzz has no --locked: check that fuzz/Cargo.lock is current first.
if ! problem=$(cargo metadata --locked --manifest-path fuzz/Cargo.toml --format-version 1 2>&1 >/dev/null); then
    echo "$problem" >&2
    echo "fuzz/Cargo.lock is out of date; refresh it with:" >&2
    echo "  cp Cargo.lock fuzz/Cargo.lock && cargo metadata --manifest-path fuzz/Cargo.toml --format-version 1 >/dev/null" >&2
    exit 1
fi

# Build every target once, niced: `cargo fuzz run` then finds them built.
nice -n 10 "${fuzz[@]}" build -s "$sanitizer"

final_stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -1; }

mkdir -p fuzz/logs
failed=()
summary=()
for target in "${targets[@]}"; do
    corpus=fuzz/corpus/$target
    artifacts=fuzz/artifacts/$target
    log=fuzz/logs/$target.log
    mkdir -p "$corpus" "$artifacts"
    echo "=== $target: ${seconds}s (log: $log)"
    # One job; new inputs go to the working corpus, the seeds stay as they are.
    status=0
    nice -n 10 "${fuzz[@]}" run -s "$sanitizer" "$target" "$corpus" "fuzz/seeds/$target" -- \
        -max_total_time="$seconds" -timeout="$timeout" -print_final_stats=1 \
        -artifact_prefix="$artifacts/" >"$log" 2>&1 || status=$?
    # The last status line: "#RUNS DONE cov: N ft: N corp: FILES/SIZE ...".
    corp=$(grep -o 'corp: [0-9]*/[0-9]*[a-zA-Z]*' "$log" | tail -1 | cut -d' ' -f2 || true)
    runs=$(final_stat number_of_executed_units)
    rate=$(final_stat average_exec_per_sec)
    slowest=$(final_stat slowest_unit_time_sec)
    line="$target: ${runs:-?} executions, ${rate:-?} exec/s, corpus ${corp:-?},"
    line+=" slowest input ${slowest:-?}s"
    if [ "$status" -eq 0 ]; then
        line+=", no crash"
    else
        reproducer=$(sed -n 's/.*Test unit written to \(.*\)/\1/p' "$log" | tail -1)
        line+=", CRASHED (exit $status): ${reproducer:-see $log}"
        failed+=("$target")
        # The panic message (or libFuzzer's report) and what follows it. No
        # pipe into head: under pipefail its early exit would end the script
        # with SIGPIPE (141) before the other targets and the summary.
        awk '/panicked at|ERROR: libFuzzer/ { found = 1 } found && shown++ < 40' "$log"
        [ -z "$reproducer" ] ||
            echo "reproduce: ${fuzz[*]} run -s $sanitizer $target $reproducer"
    fi
    echo "$line"
    summary+=("$line")
done

echo
echo "=== fuzz summary (${seconds}s per target)"
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
    echo "crashed: ${failed[*]}" >&2
    exit 1
fi
