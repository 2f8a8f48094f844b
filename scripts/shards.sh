#!/usr/bin/env bash
# Solve (or verify) a large one-puzzle-per-line file in pieces, on one machine with GNU
# parallel or on a cluster as a Slurm array job, and join the pieces' outputs into what
# a single run writes (apart from the `file` and `time_ns` columns). See docs/shards.md.
#
#   shards.sh split INPUT DIR LINES        cut INPUT (- for stdin) into DIR/piece.NNNNNN
#   shards.sh run-one DIR INDEX LINES [-c solve|verify] [-- BULKDOKU_ARGS...]
#                                          solve piece INDEX into DIR/piece.NNNNNN.csv
#   shards.sh join DIR OUTPUT [-c solve|verify] [-- BULKDOKU_ARGS...]
#                                          header, then every piece's rows, in order
#   shards.sh run INPUT OUTPUT [-l LINES] [-j JOBS] [-d DIR] [-c solve|verify] [-- BULKDOKU_ARGS...]
#                                          all three, the pieces run by GNU parallel; with
#                                          -d the pieces stay in DIR, and a second run
#                                          does only the pieces without output (after a
#                                          failure, or a killed run)
#
# Each piece names the lines of the whole file: piece INDEX starts after INDEX * LINES
# lines, passed to bulkdoku as --line-offset. Pieces are written without a header
# (--no-header) and joined after one header made by the same command on empty input.
#
# Environment: BULKDOKU, the bulkdoku binary (default: bulkdoku on PATH);
# THREADS_PER_PIECE, bulkdoku's -j for each piece (default 1: pieces run side by side,
# one core each).
set -euo pipefail

BULKDOKU=${BULKDOKU:-bulkdoku}
THREADS_PER_PIECE=${THREADS_PER_PIECE:-1}

die() {
  echo "shards.sh: $*" >&2
  exit 2
}

# The piece files of DIR: fixed-width numeric suffixes, so that the shell's sorted
# glob is the input order.
piece_name() { printf '%s/piece.%06d' "$1" "$2"; }

# Options shared by the subcommands: -c COMMAND, then -- and bulkdoku's own arguments.
command_name=solve
extra=()
parse_common() {
  while [ $# -gt 0 ]; do
    case $1 in
      -c) command_name=${2:?-c needs solve or verify}; shift 2 ;;
      --) shift; extra=("$@"); return 0 ;;
      *) die "unknown option $1" ;;
    esac
  done
  case $command_name in
    solve | verify) ;;
    *) die "-c must be solve or verify, not $command_name" ;;
  esac
}

cmd_split() {
  [ $# -eq 3 ] || die "usage: shards.sh split INPUT DIR LINES"
  local input=$1 dir=$2 lines=$3
  [[ $lines =~ ^[1-9][0-9]*$ ]] || die "LINES must be a positive number, not $lines"
  mkdir -p "$dir"
  # -a 6 -d: piece.000000, piece.000001, ... (a million pieces at most).
  split -l "$lines" -d -a 6 -- "$input" "$dir/piece."
}

cmd_run_one() {
  [ $# -ge 3 ] || die "usage: shards.sh run-one DIR INDEX LINES [-c solve|verify] [-- ARGS]"
  local dir=$1 index=$2 lines=$3
  shift 3
  parse_common "$@"
  [[ $index =~ ^[0-9]+$ ]] || die "INDEX must be a number, not $index"
  index=$((10#$index))
  local piece
  piece=$(piece_name "$dir" "$index")
  [ -f "$piece" ] || die "no piece $piece"
  local rc=0
  "$BULKDOKU" "$command_name" -q --no-header -j "$THREADS_PER_PIECE" \
    --line-offset $((index * lines)) "${extra[@]}" -o "$piece.csv.tmp" "$piece" || rc=$?
  # verify exits 1 when it found something: a result, not a failure.
  if [ "$rc" -gt 1 ] || { [ "$rc" -eq 1 ] && [ "$command_name" = solve ]; }; then
    echo "shards.sh: $command_name failed on $piece (exit $rc)" >&2
    exit "$rc"
  fi
  # Renamed only when complete: a piece that has its .csv is done, so a re-run can
  # skip it (and a killed run leaves no half-written .csv to be joined).
  mv "$piece.csv.tmp" "$piece.csv"
}

cmd_join() {
  [ $# -ge 2 ] || die "usage: shards.sh join DIR OUTPUT [-c solve|verify] [-- ARGS]"
  local dir=$1 output=$2
  shift 2
  parse_common "$@"
  local pieces=("$dir"/piece.??????)
  [ -e "${pieces[0]}" ] || die "no pieces in $dir"
  local missing=()
  for piece in "${pieces[@]}"; do
    [ -f "$piece.csv" ] || missing+=("$piece")
  done
  [ ${#missing[@]} -eq 0 ] || die "${#missing[@]} pieces have no output yet, first ${missing[0]}"
  {
    # The header, as the same command and arguments write it for an empty input.
    printf '' | "$BULKDOKU" "$command_name" -q "${extra[@]}"
    for piece in "${pieces[@]}"; do
      cat "$piece.csv"
    done
  } > "$output.tmp"
  mv "$output.tmp" "$output"
}

cmd_run() {
  [ $# -ge 2 ] || die "usage: shards.sh run INPUT OUTPUT [-l LINES] [-j JOBS] [-d DIR] [-c solve|verify] [-- ARGS]"
  local input=$1 output=$2 lines=1000000 jobs dir=""
  jobs=$(nproc)
  shift 2
  local common=()
  while [ $# -gt 0 ]; do
    case $1 in
      -l) lines=${2:?-l needs a number}; shift 2 ;;
      -j) jobs=${2:?-j needs a number}; shift 2 ;;
      -d) dir=${2:?-d needs a directory}; shift 2 ;;
      *) common=("$@"); break ;;
    esac
  done
  parse_common "${common[@]}"
  # moreutils has a `parallel` of its own, with other options.
  parallel --version 2>/dev/null | grep -q 'GNU parallel' ||
    die "GNU parallel is not installed (apt-get install parallel)"
  if [ -z "$dir" ]; then
    dir=$(mktemp -d "${TMPDIR:-/tmp}/bulkdoku-pieces.XXXXXX")
    # A global for the trap, which runs after this function's locals are gone.
    scratch_dir=$dir
    trap 'rm -rf "$scratch_dir"' EXIT
  fi
  mkdir -p "$dir"
  # Pieces cut once; a second run in the same DIR finds them, cut at the same size.
  if [ -f "$dir/lines" ]; then
    [ "$(cat "$dir/lines")" = "$lines" ] ||
      die "$dir holds pieces of $(cat "$dir/lines") lines, not $lines"
  else
    cmd_split "$input" "$dir" "$lines"
    echo "$lines" > "$dir/lines"
  fi
  local self todo=()
  self=$(realpath "$0")
  for piece in "$dir"/piece.??????; do
    [ -f "$piece.csv" ] || todo+=("${piece##*.}")
  done
  if [ ${#todo[@]} -gt 0 ]; then
    # One job per piece still to do, JOBS at a time; stop at the first failure. -q
    # passes every argument to run-one as it is, spaces and all.
    printf '%s\n' "${todo[@]}" |
      BULKDOKU=$BULKDOKU THREADS_PER_PIECE=$THREADS_PER_PIECE \
        parallel --will-cite --halt now,fail=1 -j "$jobs" -q \
        "$self" run-one "$dir" {} "$lines" "${common[@]}"
  fi
  cmd_join "$dir" "$output" "${common[@]}"
}

[ $# -ge 1 ] || die "usage: shards.sh split|run-one|join|run ..."
sub=$1
shift
case $sub in
  split) cmd_split "$@" ;;
  run-one) cmd_run_one "$@" ;;
  join) cmd_join "$@" ;;
  run) cmd_run "$@" ;;
  *) die "unknown subcommand $sub (split, run-one, join, run)" ;;
esac
