#!/usr/bin/env bash
# Make tests/data/serate_ratings.csv: serate's ratings (ER, EP, ED, hardest technique) of
# a sample of puzzles spanning ER 1.2 to 11+, the oracle `bulkdoku rate` is held against.
#
#   scripts/serate_ratings.sh select WORK     write the puzzle lists into WORK
#   scripts/serate_ratings.sh rate WORK       rate each list with serate (hours: run it
#                                             under nice, one thread; see below)
#   scripts/serate_ratings.sh assemble WORK   write tests/data/serate_ratings.csv
#   scripts/serate_ratings.sh check WORK FILE...
#       held-out check: rate each FILE (81-character puzzles, one a line) with serate
#       (kept as WORK/NAME.serate; an existing one is reused) and with `bulkdoku rate`,
#       then print the agreement per ER band as the oracle test does (ER exact and
#       within 0.1, EP and ED exact; puzzles bulkdoku cannot rate count as mismatches)
#       and every mismatch
#
# Needs serate built with `bash ../shared/peers/sukaku/build.sh SERATE` (SERATE defaults
# to WORK/serate), Java 17, ../shared/data, and a release `bulkdoku` (BULKDOKU, default
# target/release/bulkdoku) for the generated puzzles. The samples are fixed (every Nth
# line), so a rerun selects the same puzzles. FORUM=N rates the first N puzzles of the
# forum-hardest sample (about a minute each on one core; default 60); `assemble` takes
# whatever each list's serate output holds, so a partial forum run can be assembled, and
# a list with no serate output in WORK keeps its rows from the current file (so one list
# can be added or redone alone). The gen900 list (random puzzles `bulkdoku rate` rates
# at 8.8 or more, or cannot rate) is rated one puzzle per serate run, each given at most
# TIMEOUT seconds (default 300); those not finished are left out.
# The lists c17er and gen27 widen the middle of the scale: puzzles that bulkdoku rate
# (the build given) puts at ER 5.0 or more, where techniques differ most; serate's own
# rating is what the file records.
set -euo pipefail
cmd=${1:?usage: serate_ratings.sh select|rate|assemble|check WORK [FILE...]}
work=${2:?usage: serate_ratings.sh select|rate|assemble|check WORK [FILE...]}
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$root/../shared}
serate=${SERATE:-$work/serate}
bulkdoku=${BULKDOKU:-$root/target/release/bulkdoku}
forum=${FORUM:-60}
mkdir -p "$work"

# The lists, in the order `assemble` writes them: name, then how each was selected.
lists="gen1000 c17 gen26 serg forum c17er gen27 gen900"
# The source key each list's rows carry, in the same order.
keys="gen1000 17clue gen26 serg forum 17clue gen27 gen900"

# The puzzles of a .src list that `bulkdoku rate` puts at ER MIN or more.
hard() {
    local src=$1 min=$2
    cut -f1 "$src" | "$bulkdoku" rate -j 1 --no-header 2>/dev/null |
        awk -F, -v min="$min" '{ print ($5 != "" && $5 + 0 >= min) }' | paste - "$src" |
        awk -F '\t' '$1 == 1 { print $2 "\t" $3 }'
}

# Puzzles of FILE (CR stripped, comment lines and anything not 81 cells dropped) on the
# lines whose number among those puzzles is 1 modulo STEP, as "puzzle<TAB>source:line".
sample() {
    local file=$1 step=$2 name=$3
    tr -d '\r' <"$file" | awk -v step="$step" -v name="$name" '
        /^[0-9.]+$/ && length($0) == 81 { n++; if (n % step == 1 || step == 1) print $0 "\t" name ":" NR }'
}

case $cmd in
check)
    shift 2
    [ $# -gt 0 ] || { echo "check: no FILE given" >&2; exit 2; }
    for file in "$@"; do
        name=$(basename "$file")
        if [ ! -s "$work/$name.serate" ]; then
            java -cp "$serate" diuf.sudoku.test.serate --threads=1 \
                --format="%g,%r,%p,%d,%e,%R" --input="$file" >"$work/$name.serate"
        fi
        [ -s "$work/$name.serate" ] || { echo "check: serate rated nothing in $file" >&2; exit 1; }
        "$bulkdoku" rate -q "$file" -o "$work/$name.bulkdoku.csv"
        # serate's rows first (puzzle, er, ep, ed, ...), then ours (CSV with a header;
        # the puzzle, er, ep and ed are columns 3 and 5 to 7, none quoted before them)
        awk -F, '
            function band(er) { return er <= 4.0 ? "<= 4.0" : er <= 6.5 ? "4.1-6.5" : er <= 9.0 ? "6.6-9.0" : "> 9.0" }
            NR == FNR { if (NF >= 4 && $2 ~ /^[0-9.]+$/) { er[$1] = $2; ep[$1] = $3; ed[$1] = $4 }; next }
            FNR == 1 { next }
            !($3 in er) { missing++; next }
            { p = $3; b = band(er[p] + 0); n[b]++
              e = ($5 == er[p])
              w = ($5 != "" && (($5 - er[p]) ^ 2) <= 0.0101)
              ex[b] += e; w1[b] += w; xp[b] += ($6 == ep[p]); xd[b] += ($7 == ed[p])
              if (!e || $6 != ep[p] || $7 != ed[p])
                  print "mismatch: " p " ours " ($5 == "" ? $4 : $5 "/" $6 "/" $7) " serate " er[p] "/" ep[p] "/" ed[p] }
            END {
                printf "%-8s %8s %9s %9s %9s %9s\n", "serate", "puzzles", "ER exact", "ER +-0.1", "EP exact", "ED exact"
                split("<= 4.0|4.1-6.5|6.6-9.0|> 9.0", order, "|")
                for (i = 1; i <= 4; i++) { b = order[i]; if (!n[b]) continue
                    printf "%-8s %8d %8.1f%% %8.1f%% %8.1f%% %8.1f%%\n", b, n[b], 100 * ex[b] / n[b],
                        100 * w1[b] / n[b], 100 * xp[b] / n[b], 100 * xd[b] / n[b] }
                if (missing) print missing " puzzles without a serate rating (not rated by serate, or not unique) left out"
            }' "$work/$name.serate" "$work/$name.bulkdoku.csv"
    done
    ;;
select)
    sample "$root/data/generated_1000.txt" 1 gen1000 >"$work/gen1000.src"
    sample "$shared/data/puzzles2_17_clue" 123 17clue >"$work/c17.src"
    sample "$shared/data/puzzles7_serg_benchmark" 17 serg >"$work/serg.src"
    "$bulkdoku" generate -n 700 --seed 26 -o "$work/gen26.txt"
    sample "$work/gen26.txt" 1 gen26 >"$work/gen26.src"
    sample "$shared/data/puzzles5_forum_hardest_1905_11+" 812 forum | head -n "$forum" >"$work/forum.src"
    # every 41st 17-clue puzzle from the 20th, and 2,000 generated with seed 27: those
    # rated 5.0 or more
    tr -d '\r' <"$shared/data/puzzles2_17_clue" | awk '
        /^[0-9.]+$/ && length($0) == 81 { n++; if (n % 41 == 20) print $0 "\t17clue:" NR }' >"$work/c17er.all"
    hard "$work/c17er.all" 5.0 >"$work/c17er.src"
    "$bulkdoku" generate -n 2000 --seed 27 -o "$work/gen27.txt"
    sample "$work/gen27.txt" 1 gen27 >"$work/gen27.all"
    hard "$work/gen27.all" 5.0 >"$work/gen27.src"
    # ER 8.8 and above is about 1 random puzzle in 250: keep those of 25,000
    "$bulkdoku" generate -n 25000 --seed 900 -o "$work/gen900.txt"
    "$bulkdoku" rate -q "$work/gen900.txt" -o "$work/gen900.rate.csv"
    awk -F, 'NR > 1 && $4 == "unique" && ($5 == "" || $5 + 0 >= 8.8) { print $3 "\t" "gen900:" $2 }' \
        "$work/gen900.rate.csv" >"$work/gen900.src"
    for l in $lists; do cut -f1 "$work/$l.src" >"$work/$l.txt"; wc -l <"$work/$l.txt" | sed "s/^/$l: /"; done
    ;;
rate)
    for l in $lists; do
        if [ "$l" = gen900 ]; then
            : >"$work/$l.csv"
            while IFS= read -r p; do
                echo "$p" >"$work/one.txt"
                timeout "${TIMEOUT:-300}" nice -n 10 java -cp "$serate" diuf.sudoku.test.serate \
                    --threads=1 --format="%g,%r,%p,%d,%e,%R" --input="$work/one.txt" \
                    >>"$work/$l.csv" || true
            done <"$work/$l.txt"
            continue
        fi
        nice -n 10 java -cp "$serate" diuf.sudoku.test.serate --threads=1 \
            --format="%g,%r,%p,%d,%e,%R" --input="$work/$l.txt" >"$work/$l.csv"
    done
    ;;
assemble)
    out=$root/tests/data/serate_ratings.csv
    body=$out.body
    set -- $keys
    for l in $lists; do
        key=$1
        shift
        if [ ! -s "$work/$l.csv" ]; then
            # no serate output for this list here: keep its rows from the current file
            if [ -f "$out" ]; then
                grep -v '^#' "$out" | awk -F, -v key="$key" -v OFS='\t' '
                    { src = $NF; k = src; sub(/:.*/, "", k); if (k != key) next
                      tech = $5; for (i = 6; i < NF; i++) tech = tech "," $i
                      print $1, src, $1 "," $2 "," $3 "," $4 ",kept," tech }'
            fi
            continue
        fi
        # serate prints the puzzles in input order: each row is joined to its source by
        # its puzzle (and checked to be one of the list's).
        awk -F '\t' -v OFS='\t' '
            NR == FNR { src[$1] = $2; next }
            { split($0, f, ",")
              if (!(f[1] in src)) { print "serate row not in the list: " $0 > "/dev/stderr"; exit 1 }
              print f[1], src[f[1]], $0 }' "$work/$l.src" "$work/$l.csv"
    done | awk -F '\t' '
        {
            split($3, f, ",")
            if (f[1] != $1) { print "serate row out of order: " $0 > "/dev/stderr"; exit 1 }
            if (seen[$1]++) next
            tech = substr($3, length(f[1] f[2] f[3] f[4] f[5]) + 6)
            if (tech ~ /[",]/) { gsub(/"/, "\"\"", tech); tech = "\"" tech "\"" }
            print $1 "," f[2] "," f[3] "," f[4] "," tech "," $2
        }' >"$body"
    {
        cat <<'EOF'
# serate's ratings of puzzles spanning ER 1.2 to 11+: the oracle of `bulkdoku rate`.
# Rater: serate, the command-line rater of Sukaku Explainer (SudokuMonster/SukakuExplainer
# commit 362854e, LGPL; source in ../shared/peers/sukaku, built by its build.sh with
# javac 17), default options (its default technique set), run as
#   java -cp build diuf.sudoku.test.serate --threads=1 --format="%g,%r,%p,%d,%e,%R" --input=FILE
# Columns: puzzle; er, ep, ed as serate prints them (%r, %p, %d); er_technique (%R, the
# hardest step's technique); source (key:line, the puzzle's 1-based line in its file).
# serate's elapsed time (%e) is left out: a figure of the machine, not of the puzzle.
# Puzzles (selected by scripts/serate_ratings.sh; a puzzle already listed is not
# repeated), by the source key before the line number:
#   gen1000  data/generated_1000.txt: all 1,000 (bulkdoku generate -n 1000 --seed 1)
#   17clue   ../shared/data/puzzles2_17_clue: every 123rd puzzle (400)
#   gen26    bulkdoku generate -n 700 --seed 26: all 700 (lines of its output)
#   serg     ../shared/data/puzzles7_serg_benchmark: every 17th puzzle (589), those
#            serate finished in the time it had (minutes of one core each)
#   forum    ../shared/data/puzzles5_forum_hardest_1905_11+: every 812th puzzle (60),
#            those serate finished in the time it had (minutes of one core each)
#   17clue   (again) every 41st puzzle from the 20th that bulkdoku rate put at ER >= 5.0
#   gen27    bulkdoku generate -n 2000 --seed 27: those bulkdoku rate put at ER >= 5.0
#   gen900   bulkdoku generate -n 25000 --seed 900: the 109 puzzles `bulkdoku rate`
#            could not rate at commit d78ff4c (before dynamic chains; lines of its
#            output), those serate finished in the time it had (at most 300 s of one
#            core each); `select` now takes those rated 8.8 or more or not rated,
#            which is 103 of the 109 (6 now rate 7.9-8.5 by Nishio or static chains)
EOF
        echo "# Rated: $(awk -F, '{ sub(/:.*/, "", $NF); n[$NF]++; if (!($NF in at)) { at[$NF] = k++; key[k - 1] = $NF } }
            END { for (i = 0; i < k; i++) printf "%s%s %d", (i ? ", " : ""), key[i], n[key[i]] }' "$body")."
        echo "puzzle,er,ep,ed,er_technique,source"
        cat "$body"
    } >"$out.tmp"
    rm "$body"
    mv "$out.tmp" "$out"
    echo "wrote $out: $(grep -vc '^#' "$out") lines"
    ;;
*)
    echo "unknown command $cmd" >&2
    exit 2
    ;;
esac
