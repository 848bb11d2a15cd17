#!/usr/bin/env bash
# Checks the logical solver against the reference data in ../shared/grading
# and every step of every benchmark puzzle against its solution, and times
# grading on one thread beside the crates.io `sudoku` crate's strategy
# solver. The reference files are GPL/LGPL: they are read where they are,
# never copied here, which is why this is a script and not part of
# `cargo test`.
#
# Usage: scripts/grading-conformance.sh [SHARED_DIR]   (default: ../shared)
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${1:-../shared}
grading=$shared/grading
puzzles=$shared/puzzles
if [ ! -d "$grading" ]; then
  echo "no reference data at $grading: nothing to check against" >&2
  exit 2
fi
cargo build --quiet --release --locked --example grading_conformance
check=target/release/examples/grading_conformance

echo "== Sudoku Exchange ratings"
"$check" exchange "$grading"
echo "== HoDoKu regression library"
"$check" reglib "$grading" | grep -v '^    0[0-9]' | grep -v 'skipped' || true
echo "== Sukaku Explainer paths"
"$check" se-paths "$grading" | sed -n '/^SE paths/,$p'
echo "== The hardest sample: Sukaku Explainer's ER/EP/ED and seconds against ours (one thread)"
"$check" hardest "$grading/hardest-se40.txt"
echo "== The top: puzzles that need level 4 (+ Dynamic Forcing Chains), where the grader used to stall"
"$check" hardest "$grading/hardest-top.txt"
echo "== More of those, rated by Sukaku Explainer here (crates/sudoku-core/testdata/se-top-ratings.txt)"
"$check" hardest crates/sudoku-core/testdata/se-top-ratings.txt
echo "== Soundness: every step of every puzzle against its solution"
"$check" soundness "$puzzles"/kaggle_like.txt "$puzzles"/top1465.txt \
  "$puzzles"/17_clue.txt ${SOUNDNESS_ALL:+"$puzzles"/hardest_1905_11plus.txt}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
exchange=$work/exchange-rated-puzzles.txt
awk '{print $2}' "$grading/exchange-rated.txt" >"$exchange"
echo "== The walk's remembering ladder against a fresh one, at every harder step"
"$check" memory "$exchange" "$puzzles"/top1465.txt
echo "== Speed, one thread (ours, then the crates.io crate's grader), on kaggle_like, top1465 and the exchange set"
anchor=$("$shared"/tools/anchor-rate.sh --path)
for file in "$puzzles/kaggle_like.txt" "$puzzles/top1465.txt" "$exchange"; do
  "$check" speed "$file" "$([ "$file" = "$puzzles/kaggle_like.txt" ] && echo 20 || echo 1)"
  /usr/bin/time -o "$work/seconds" -f %e "$anchor" grade "$file" >"$work/anchor.out"
  echo "anchor grade $(basename "$file"): $(cat "$work/seconds") s, $(grep -c stuck "$work/anchor.out" || true) stuck"
done
