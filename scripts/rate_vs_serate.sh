#!/usr/bin/env bash
# Time `bulkdoku rate --threads 1` against serate (`--threads=1`) on the same puzzle
# files, whole process wall time, side by side (A B A B ... with farm-bench --vs), and
# print the ratio per file: the speed figure of `bulkdoku rate` (issue: >= 100x).
#
#   scripts/rate_vs_serate.sh FILE...
#   scripts/rate_vs_serate.sh --bands DIR    write DIR/er_*.txt, the puzzles of
#       tests/data/serate_ratings.csv by ER band (<= 4.0, 4.1-6.5, 6.6-9.0, > 9.0),
#       then time each of them
#
# farm-bench prints A/B: bulkdoku's time over serate's; the speed-up is its inverse.
#
# FILE: one 81-character puzzle per line (what serate reads). Suggested sets, made by
# scripts/serate_ratings.sh select WORK (the puzzles of tests/data/serate_ratings.csv):
#   WORK/serg.txt       a public "hard" mix (ER mostly 7-9; ~0.35 s a puzzle in serate)
#   WORK/forum.txt      the forum-hardest sample (ER 10-11.x; about a minute each)
#   WORK/gen1000.txt    random minimal puzzles (mostly ER <= 4)
# or one file per ER band (grep tests/data/serate_ratings.csv by its `er` column).
#
# Environment: SERATE (serate's class directory, built by ../shared/peers/sukaku/
# build.sh; default /tmp/serate), BULKDOKU (default target/release/bulkdoku), RUNS
# (default 3; serate on the forum sample takes an hour a run: use RUNS=1), TIMEOUT
# (farm-bench's bound in seconds on each file's whole call, default 3600).
# Run it on a quiet machine; quote the medians and the paired ratio.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
serate=${SERATE:-/tmp/serate}
bulkdoku=${BULKDOKU:-$root/target/release/bulkdoku}
runs=${RUNS:-3}
timeout=${TIMEOUT:-3600}
[ $# -gt 0 ] || { sed -n '2,25p' "$0"; exit 2; }
[ -x "$bulkdoku" ] || { echo "no $bulkdoku: cargo build --release" >&2; exit 2; }
[ -d "$serate/diuf" ] || { echo "no serate in $serate: bash ../shared/peers/sukaku/build.sh $serate" >&2; exit 2; }
command -v farm-bench >/dev/null || { echo "farm-bench is not installed" >&2; exit 2; }

if [ "$1" = --bands ]; then
    dir=${2:?--bands DIR}
    mkdir -p "$dir"
    grep -v '^#' "$root/tests/data/serate_ratings.csv" | tail -n +2 | awk -F, -v dir="$dir" '
        { er = $2 + 0
          band = er <= 4.0 ? "er_le_4.0" : er <= 6.5 ? "er_4.1-6.5" : er <= 9.0 ? "er_6.6-9.0" : "er_gt_9.0"
          print $1 > (dir "/" band ".txt") }'
    set -- "$dir"/er_*.txt
fi

for file in "$@"; do
    n=$(grep -c . "$file")
    echo "== $file: $n puzzles; A = bulkdoku rate -j 1, B = serate --threads=1"
    farm-bench -n "$runs" --warmup 0 --timeout "$timeout" \
        --vs "java -cp $serate diuf.sudoku.test.serate --threads=1 --format=%g,%r,%p,%d,%e,%R --input=$file" \
        -- "$bulkdoku" rate -q -j 1 "$file"
done
