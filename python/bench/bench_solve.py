"""bulkdoku.solve on a pyarrow string array against `bulkdoku solve -o /dev/null` on the
same puzzles in a file, with the same threads, side by side.

    python python/bench/bench_solve.py [--puzzles 1000000] [--threads 2] [--rounds 7]

The puzzles are those of a source file (default: the shared 17-clue set), repeated to
the count asked for, written once to a temporary file for the CLI and read once into a
pyarrow array for Python (neither is timed). Each round times one CLI run (wall time of
the whole process: start, read, solve, write CSV to /dev/null) and one bulkdoku.solve
call (the call: Arrow in, solve, the result table out), in alternating order. The
report gives each side's median, the ratio of the medians and the median of the
per-round ratios; the target is Python <= 1.25x the CLI.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa

import bulkdoku

REPO = Path(__file__).resolve().parents[2]
DEFAULT_SOURCE = REPO.parent / "shared" / "data" / "puzzles2_17_clue"


def puzzles_of(source: Path, count: int) -> list[str]:
    """The first tokens of the source's puzzle lines, cycled to `count` of them."""
    base = []
    for line in source.read_text().splitlines():
        token = line.strip().split()[0] if line.strip() else ""
        if token and not token.startswith("#"):
            base.append(token)
    return [base[i % len(base)] for i in range(count)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--puzzles", type=int, default=1_000_000)
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--cli", type=Path, default=REPO / "target" / "release" / "bulkdoku")
    args = parser.parse_args()
    if not args.cli.exists():
        sys.exit(f"no CLI at {args.cli}: cargo build --release")

    puzzles = puzzles_of(args.source, args.puzzles)
    array = pa.array(puzzles, type=pa.string())
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "puzzles.txt"
        path.write_text("\n".join(puzzles) + "\n")
        del puzzles
        cli_cmd = [str(args.cli), "solve", "-q", "-j", str(args.threads), str(path), "-o", "/dev/null"]

        def run_cli() -> float:
            start = time.perf_counter()
            subprocess.run(cli_cmd, check=True)
            return time.perf_counter() - start

        def run_python() -> float:
            start = time.perf_counter()
            table = bulkdoku.solve(array, threads=args.threads)
            elapsed = time.perf_counter() - start
            assert table.num_rows == len(array)
            return elapsed

        # One unmeasured run of each: page cache, allocator and CPU frequency settle.
        run_cli()
        run_python()
        cli_times, py_times = [], []
        for r in range(args.rounds):
            # Alternate which runs first, so that neither always follows the other.
            order = [("cli", run_cli), ("python", run_python)]
            if r % 2:
                order.reverse()
            got = {name: run() for name, run in order}
            cli_times.append(got["cli"])
            py_times.append(got["python"])
            print(
                f"round {r + 1}: cli {got['cli']:.3f} s, python {got['python']:.3f} s, "
                f"ratio {got['python'] / got['cli']:.3f}",
                flush=True,
            )

    n = len(array)
    cli_median = statistics.median(cli_times)
    py_median = statistics.median(py_times)
    ratios = [p / c for p, c in zip(py_times, cli_times)]
    print(f"\n{n} puzzles from {args.source.name}, {args.threads} threads, {args.rounds} rounds")
    print(f"CLI  bulkdoku solve -o /dev/null: median {cli_median:.3f} s ({n / cli_median:,.0f} puzzles/s)")
    print(f"Python bulkdoku.solve(pa.array):  median {py_median:.3f} s ({n / py_median:,.0f} puzzles/s)")
    print(f"ratio of medians (python / cli): {py_median / cli_median:.3f}")
    print(f"median of per-round ratios:      {statistics.median(ratios):.3f} (min {min(ratios):.3f}, max {max(ratios):.3f})")
    target = 1.25
    verdict = "within" if py_median / cli_median <= target else "ABOVE"
    print(f"target <= {target}x: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
