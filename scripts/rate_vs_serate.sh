#!/usr/bin/env bash
# Time `bulkdoku rate --threads 1` against serate (`--threads=1`) on the same puzzle
# files, whole process wall time, side by side (A B A B ..., each pair's ratio taken so
# that a drift of the machine's speed cancels), and print per file the median wall
# seconds of each and the median of the paired ratios serate / bulkdoku: the speed
# figure of `bulkdoku rate` (issue: >= 100x).
#
#   scripts/rate_vs_serate.sh FILE...
#   scripts/rate_vs_serate.sh --bands DIR    write DIR/er_*.txt, the puzzles of
#       tests/data/serate_ratings.csv by ER band (<= 4.0, 4.1-6.5, 6.6-9.0, > 9.0),
#       then time each of them
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
# (default 3; serate on the forum sample takes an hour a run: use RUNS=1).
# Run it on a quiet machine; quote the medians and the paired ratio.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
serate=${SERATE:-/tmp/serate}
bulkdoku=${BULKDOKU:-$root/target/release/bulkdoku}
runs=${RUNS:-3}
[ $# -gt 0 ] || { sed -n '2,24p' "$0"; exit 2; }
[ -x "$bulkdoku" ] || { echo "no $bulkdoku: cargo build --release" >&2; exit 2; }
[ -d "$serate/diuf" ] || { echo "no serate in $serate: bash ../shared/peers/sukaku/build.sh $serate" >&2; exit 2; }

if [ "$1" = --bands ]; then
    dir=${2:?--bands DIR}
    mkdir -p "$dir"
    grep -v '^#' "$root/tests/data/serate_ratings.csv" | tail -n +2 | awk -F, -v dir="$dir" '
        { er = $2 + 0
          band = er <= 4.0 ? "er_le_4.0" : er <= 6.5 ? "er_4.1-6.5" : er <= 9.0 ? "er_6.6-9.0" : "er_gt_9.0"
          print $1 > (dir "/" band ".txt") }'
    set -- "$dir"/er_*.txt
fi

# Wall seconds of one run of the command given.
wall() {
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }'
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

for file in "$@"; do
    n=$(grep -c . "$file")
    echo "== $file: $n puzzles; A = bulkdoku rate -j 1, B = serate --threads=1 ($runs pairs)"
    a_all="" b_all="" r_all=""
    for _ in $(seq "$runs"); do
        a=$(wall "$bulkdoku" rate -q -j 1 "$file")
        b=$(wall java -cp "$serate" diuf.sudoku.test.serate --threads=1 \
            --format=%g,%r,%p,%d,%e,%R --input="$file")
        a_all="$a_all $a" b_all="$b_all $b" r_all="$r_all $(awk -v a="$a" -v b="$b" 'BEGIN { print b / a }')"
    done
    printf 'bulkdoku median %.3f s, serate median %.3f s, serate/bulkdoku median of pairs %.1fx\n' \
        "$(echo $a_all | tr ' ' '\n' | median)" "$(echo $b_all | tr ' ' '\n' | median)" \
        "$(echo $r_all | tr ' ' '\n' | median)"
done
