#!/usr/bin/env bash
# Fetches the public Sudoku benchmark sets that the benchmarks and scripts
# read, into puzzles/ at the repository root (or PUZZLE_DIR), and says what
# it fetched.
#
# NEEDS NETWORK ACCESS: it downloads the data.zip archive (tens of MB) kept
# at the root of the tdoku repository (https://github.com/t-dillon/tdoku),
# whose README builds its own benchmarks from it (`unzip data.zip`, then
# `run_benchmark data/*`). This script has not been run against the real
# archive: the machine it was written on reaches package registries only.
# Its extraction and trimming were tried on a stand-in archive laid out the
# same way.
#
# The archive holds data/puzzlesN_NAME files, one puzzle per line, with
# comment lines starting with `#`. tdoku's own reader takes the first 81
# characters of every other line of at least 81 characters; so does this
# script, so that any columns after the puzzle are dropped. Comment lines
# are kept (they name the sources; `sudoku` skips them).
#
#   puzzles/kaggle.txt               <- data/puzzles0_kaggle
#   puzzles/17_clue.txt              <- data/puzzles2_17_clue
#   puzzles/top1465.txt              <- data/puzzles3_magictour_top1465
#   puzzles/hardest_1905_11plus.txt  <- data/puzzles5_forum_hardest_1905_11+
#
# Where the sets come from (tdoku's benchmarks/README.md lists the sources):
# kaggle, 100,000 puzzles sampled from a Kaggle set made for machine
# learning experiments; 17_clue, Gordon Royle's list of 17-clue puzzles;
# top1465, magictour's "top 1465"; hardest_1905_11plus, puzzles rated 11 or
# more from the Enjoy Sudoku Players Forum's hardest list of May 2019. This
# repository does not redistribute them; their terms are their sources'.
#
# Usage: scripts/fetch-puzzles.sh [PUZZLE_DIR]
#        (default: $SUDOKU_PUZZLES if set, else puzzles/ at the repository
#        root; point the benchmarks at another directory with
#        SUDOKU_PUZZLES=DIR, and the scripts with their PUZZLE_DIR argument)
#
# Environment:
#   TDOKU_DATA_URL  the archive to download
#                   (default: the one on tdoku's master branch)
#   TDOKU_DATA_ZIP  a data.zip already on disk: used instead of downloading
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:-${SUDOKU_PUZZLES:-$root/puzzles}}
url=${TDOKU_DATA_URL:-https://raw.githubusercontent.com/t-dillon/tdoku/master/data.zip}

# target file, then the archive member it is made from
sets=(
    "kaggle.txt              data/puzzles0_kaggle"
    "17_clue.txt             data/puzzles2_17_clue"
    "top1465.txt             data/puzzles3_magictour_top1465"
    "hardest_1905_11plus.txt data/puzzles5_forum_hardest_1905_11+"
)

for tool in unzip awk; do
    command -v "$tool" >/dev/null || { echo "fetch-puzzles: needs $tool" >&2; exit 2; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -n "${TDOKU_DATA_ZIP:-}" ]; then
    archive=$TDOKU_DATA_ZIP
    [ -f "$archive" ] || { echo "fetch-puzzles: no file $archive" >&2; exit 2; }
    echo "using $archive"
else
    command -v curl >/dev/null || { echo "fetch-puzzles: needs curl" >&2; exit 2; }
    archive=$work/data.zip
    echo "downloading $url (needs network access)"
    if ! curl --fail --location --silent --show-error --retry 3 \
        --output "$archive" "$url"; then
        echo "fetch-puzzles: cannot download $url" >&2
        echo "  (no network? download it elsewhere and set TDOKU_DATA_ZIP=FILE)" >&2
        exit 3
    fi
fi

if ! unzip -tq "$archive" >/dev/null; then
    echo "fetch-puzzles: $archive is not a readable zip archive" >&2
    exit 3
fi

mkdir -p "$dest"
fetched=0
missing=0
for entry in "${sets[@]}"; do
    read -r target member <<<"$entry"
    if ! unzip -p "$archive" "$member" >"$work/member" 2>/dev/null; then
        echo "  missing from the archive: $member" >&2
        missing=$((missing + 1))
        continue
    fi
    # Drop carriage returns; keep comments; keep the first 81 characters of
    # every line of at least 81; skip the rest (blank or short lines).
    awk '{ sub(/\r$/, "") }
         /^#/ { print; next }
         length($0) >= 81 { print substr($0, 1, 81) }' \
        "$work/member" >"$work/$target"
    puzzles=$(grep -cv '^#' "$work/$target" || true)
    if [ "$puzzles" -eq 0 ]; then
        echo "  no puzzles in $member" >&2
        missing=$((missing + 1))
        continue
    fi
    mv "$work/$target" "$dest/$target"
    printf '  %-26s %7d puzzles  from %s\n' "$target" "$puzzles" "$member"
    fetched=$((fetched + 1))
done

echo "$fetched sets in $dest"
if [ "$missing" -gt 0 ]; then
    echo "fetch-puzzles: $missing sets were not in the archive" >&2
    exit 1
fi
