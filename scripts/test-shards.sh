#!/usr/bin/env bash
# End-to-end test of the shard recipes (docs/shards.md): a dataset solved in pieces by
# GNU parallel, and by the Slurm array script (its tasks run here one by one, as Slurm
# would run them), must give the rows of a single run, apart from the `file` and
# `time_ns` columns; the same for verify. Needs GNU parallel and python3.
#
#   BULKDOKU=target/release/bulkdoku scripts/test-shards.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export BULKDOKU=${BULKDOKU:-$PWD/target/release/bulkdoku}
[ -x "$BULKDOKU" ] || { echo "test-shards: no bulkdoku binary at $BULKDOKU (cargo build --release)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/bulkdoku-shards-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

# Rows of two CSV outputs without the columns that name the input file and the time:
# equal, and as many as expected.
same_rows() {
  python3 - "$@" <<'PY'
import csv, sys
single, pieces, expected = sys.argv[1], sys.argv[2], int(sys.argv[3])
def rows(path):
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        keep = [i for i, name in enumerate(header) if name not in ("file", "time_ns")]
        return [header[i] for i in keep], [[row[i] for i in keep] for row in reader]
a, b = rows(single), rows(pieces)
if a[0] != b[0]:
    sys.exit(f"headers differ: {a[0]} vs {b[0]}")
if len(a[1]) != expected or len(b[1]) != expected:
    sys.exit(f"{len(a[1])} rows in one run, {len(b[1])} in the pieces; expected {expected}")
for i, (x, y) in enumerate(zip(*[a[1], b[1]])):
    if x != y:
        sys.exit(f"row {i + 1} differs:\n  one run: {x}\n  pieces:  {y}")
PY
}

check() {
  local name=$1
  shift
  if "$@"; then
    echo "ok: $name"
    passed=$((passed + 1))
  else
    echo "FAILED: $name"
    failed=$((failed + 1))
  fi
}

# The dataset: 300 generated puzzles (after the generator's comment line), with bad
# records, comments, blank lines and repeats in their middle, so that pieces differ
# and line numbers must come out right. 13 lines a piece: ~24 pieces.
{
  "$BULKDOKU" generate -n 150 --seed 11
  printf '12345\n# a comment in the middle\n\n'
  printf '%s\n' '7...7............................................................................'
  "$BULKDOKU" generate -n 150 --seed 12 | grep -v '^#'
  printf 'x%.0s' {1..81}
  printf '\n'
  # A repeat of the first puzzle, in a later piece: only a single verify run sees it.
  sed -n 2p <("$BULKDOKU" generate -n 1 --seed 11)
} > "$work/all.txt"
records=$(grep -cv -e '^#' -e '^$' "$work/all.txt")
lines=13

"$BULKDOKU" solve -q "$work/all.txt" -o "$work/single.csv"

# GNU parallel, end to end.
check "solve pieces with GNU parallel = one run" eval '
  scripts/shards.sh run "$work/all.txt" "$work/parallel.csv" -l $lines -j 2 &&
  same_rows "$work/single.csv" "$work/parallel.csv" $records'

# Options reach every piece and the header alike.
"$BULKDOKU" solve -q --first "$work/all.txt" -o "$work/single-first.csv"
check "solve --first in pieces = one run" eval '
  scripts/shards.sh run "$work/all.txt" "$work/parallel-first.csv" -l $lines -j 2 -- --first &&
  same_rows "$work/single-first.csv" "$work/parallel-first.csv" $records &&
  grep -q ",solved," "$work/parallel-first.csv"'

# A kept directory: a lost piece is redone alone, and the join gives the same rows.
check "a rerun redoes only the pieces without output" eval '
  scripts/shards.sh run "$work/all.txt" "$work/kept.csv" -l $lines -j 2 -d "$work/kept" &&
  rm "$work/kept/piece.000003.csv" &&
  touch -d "2000-01-01" "$work/kept/piece.000004.csv" &&
  scripts/shards.sh run "$work/all.txt" "$work/kept.csv" -l $lines -j 2 -d "$work/kept" &&
  [ -f "$work/kept/piece.000003.csv" ] &&
  [ "$(stat -c %Y "$work/kept/piece.000004.csv")" -lt 1000000000 ] &&
  same_rows "$work/single.csv" "$work/kept.csv" $records'

# The Slurm array script, its tasks run one by one.
check "solve pieces as a Slurm array job = one run" eval '
  scripts/shards.sh split "$work/all.txt" "$work/slurm" $lines &&
  n=$(ls "$work/slurm"/piece.?????? | wc -l) &&
  tasks_ok=1 &&
  for ((i = 0; i < n; i++)); do
    SLURM_ARRAY_TASK_ID=$i SLURM_CPUS_PER_TASK=1 scripts/solve-slurm.sbatch "$work/slurm" $lines || tasks_ok=0
  done &&
  [ $tasks_ok -eq 1 ] && [ $n -ge 20 ] &&
  scripts/shards.sh join "$work/slurm" "$work/slurm.csv" &&
  same_rows "$work/single.csv" "$work/slurm.csv" $records'

check "join refuses pieces without output" eval '
  rm "$work/slurm/piece.000002.csv" &&
  ! scripts/shards.sh join "$work/slurm" "$work/slurm-missing.csv" 2>/dev/null &&
  [ ! -e "$work/slurm-missing.csv" ]'

# verify: each piece's findings; a repeat across pieces is only seen by a single run,
# so the repeated last line is left out here.
head -n -1 "$work/all.txt" > "$work/norepeat.txt"
rc=0
"$BULKDOKU" verify -q "$work/norepeat.txt" -o "$work/single-verify.csv" || rc=$?
check "verify pieces with GNU parallel = one run" eval '
  [ $rc -eq 1 ] &&
  scripts/shards.sh run "$work/norepeat.txt" "$work/parallel-verify.csv" -l $lines -j 2 -c verify &&
  same_rows "$work/single-verify.csv" "$work/parallel-verify.csv" 3'

echo "shards: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
