"""Throughput of the Spark recipe (docs/spark.md) in local mode against the CLI on the
same puzzles, same cores.

    python python/bench/bench_spark.py [--puzzles 1000000] [--cores 2] [--rounds 3]

The puzzles (default: the shared 17-clue set, repeated to the count) are written once to
a temporary file, one per line. Each round times, in alternating order:
  - `bulkdoku solve -j CORES FILE -o /dev/null` (the whole process);
  - Spark local[CORES]: `spark.read.text(FILE)`, mapInArrow with bulkdoku.solve
    (threads=1 per task), written to the `noop` sink, which computes every row and
    column and writes nothing (the session is started once, before the rounds);
  - the same Spark job writing Parquet (snappy) into a temporary directory.
The report gives each one's median wall time and puzzles per second.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pyspark.sql import SparkSession

import bulkdoku

REPO = Path(__file__).resolve().parents[2]
DEFAULT_SOURCE = REPO.parent / "shared" / "data" / "puzzles2_17_clue"

SOLVED_SCHEMA = (
    "puzzle string, status string, solutions long, clues long, guesses long, "
    "time_ns long, solution string, error string"
)


def solve_batches(batches):
    """The recipe: each Arrow batch solved on the task's one core."""
    for batch in batches:
        yield from bulkdoku.solve(batch.column(0), threads=1).to_batches()


def puzzles_of(source: Path, count: int) -> list[str]:
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
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--partition-mb", type=int, default=8, help="spark.sql.files.maxPartitionBytes")
    parser.add_argument("--cli", type=Path, default=REPO / "target" / "release" / "bulkdoku")
    args = parser.parse_args()

    os.environ["PYSPARK_PYTHON"] = sys.executable
    tmp = Path(tempfile.mkdtemp(prefix="bulkdoku-bench-spark."))
    try:
        path = tmp / "puzzles.txt"
        path.write_text("\n".join(puzzles_of(args.source, args.puzzles)) + "\n")
        os.chdir(tmp)  # workers put their working directory first on sys.path
        spark = (
            SparkSession.builder.master(f"local[{args.cores}]")
            .appName("bulkdoku-bench")
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.driver.memory", "4g")
            .config("spark.sql.files.maxPartitionBytes", f"{args.partition_mb}m")
            .getOrCreate()
        )
        spark.sparkContext.setLogLevel("ERROR")
        df = spark.read.text(str(path)).withColumnRenamed("value", "puzzle")
        partitions = df.rdd.getNumPartitions()
        solved = df.mapInArrow(solve_batches, SOLVED_SCHEMA)

        def run_cli() -> float:
            start = time.perf_counter()
            subprocess.run(
                [str(args.cli), "solve", "-q", "-j", str(args.cores), str(path), "-o", "/dev/null"], check=True
            )
            return time.perf_counter() - start

        def run_noop() -> float:
            start = time.perf_counter()
            solved.write.format("noop").mode("overwrite").save()
            return time.perf_counter() - start

        parquet_bytes = []

        def run_parquet() -> float:
            out = tmp / "solved.parquet"
            start = time.perf_counter()
            solved.write.mode("overwrite").parquet(str(out))
            elapsed = time.perf_counter() - start
            parquet_bytes.append(sum(f.stat().st_size for f in out.rglob("*.parquet")))
            shutil.rmtree(out)
            return elapsed

        # Warm-up: the JVM's JIT, Spark's Python workers, the page cache.
        run_noop()
        run_cli()
        runs = {"cli": run_cli, "spark noop": run_noop, "spark parquet": run_parquet}
        times = {name: [] for name in runs}
        names = list(runs)
        for r in range(args.rounds):
            order = names[r % len(names) :] + names[: r % len(names)]
            for name in order:
                times[name].append(runs[name]())
            print(f"round {r + 1}: " + ", ".join(f"{n} {times[n][-1]:.2f} s" for n in names), flush=True)
        spark.stop()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    n = args.puzzles
    print(f"\n{n} puzzles from {args.source.name}, {args.cores} cores, {partitions} partitions, {args.rounds} rounds")
    cli = statistics.median(times["cli"])
    for name in names:
        m = statistics.median(times[name])
        print(f"{name:14s} median {m:7.2f} s  {n / m:>12,.0f} puzzles/s  {cli / m:5.2f}x the CLI's rate")
    size = statistics.median(parquet_bytes)
    print(f"Parquet output (Spark's default snappy): {size / 2**20:.1f} MiB, {size / n:.1f} bytes a row")
    return 0


if __name__ == "__main__":
    sys.exit(main())
