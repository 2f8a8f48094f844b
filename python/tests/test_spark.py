"""The Spark recipe of docs/spark.md, in local mode, on data/solve_check.csv: every
row's status, solution and error against the CLI's verdicts in that file."""

from __future__ import annotations

import csv
import os
import sys

import pytest

# Skipped only where pyspark is not installed at all; python/ci.sh installs it and
# fails the run if anything is skipped.
pyspark = pytest.importorskip("pyspark")

import pyarrow as pa  # noqa: E402
from pyspark import cloudpickle  # noqa: E402
from pyspark.sql import SparkSession  # noqa: E402

import bulkdoku  # noqa: E402
from conftest import DATA  # noqa: E402

# --- the recipe (docs/spark.md) -----------------------------------------------------

SOLVED_SCHEMA = (
    "id string, puzzle string, status string, solutions long, clues long, guesses long, "
    "time_ns long, solution string, error string"
)


def solve_batches(batches):
    """mapInArrow: each Arrow batch of a partition solved on the task's one core."""
    for batch in batches:
        solved = bulkdoku.solve(batch.column("puzzle"), threads=1)
        # Carry the key through, so that results can be joined back.
        solved = solved.add_column(0, "id", pa.chunked_array([batch.column("id")]))
        yield from solved.to_batches()


# -------------------------------------------------------------------------------------

# Spark pickles the recipe's function for its Python workers. A function of an
# importable module goes by reference, and the workers cannot import this test module:
# send this module's functions by value, as those of a notebook or script are sent.
cloudpickle.register_pickle_by_value(sys.modules[__name__])


@pytest.fixture(scope="module")
def spark(tmp_path_factory):
    # The Python workers must be this interpreter, where bulkdoku is installed.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    # Workers put their working directory first on sys.path: from python/, the source
    # tree's bulkdoku/ (without its compiled module) would shadow the installed one.
    before = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("spark"))
    session = (
        SparkSession.builder.master("local[2]")
        .appName("bulkdoku-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        # Small Arrow batches: several batches per partition go through the recipe.
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", "50")
        .getOrCreate()
    )
    yield session
    session.stop()
    os.chdir(before)


def expected() -> dict[str, dict[str, str]]:
    with open(DATA / "solve_check.csv", newline="") as f:
        return {row["id"]: row for row in csv.DictReader(f)}


def test_map_in_arrow_solves_every_row_as_the_cli_does(spark):
    want = expected()
    assert len(want) == 208
    df = spark.read.csv(str(DATA / "solve_check.csv"), header=True).select("id", "puzzle")
    # Several partitions, so that several tasks run the recipe.
    result = df.repartition(4).mapInArrow(solve_batches, SOLVED_SCHEMA)
    rows = {row["id"]: row for row in result.collect()}
    assert rows.keys() == want.keys()
    statuses = {}
    for key, row in rows.items():
        cli = want[key]
        assert row["status"] == cli["status"], key
        assert (row["solution"] or "") == cli["solution"], key
        assert (row["error"] or "") == cli["error"], key
        statuses[row["status"]] = statuses.get(row["status"], 0) + 1
    assert statuses == {"unique": 202, "multiple": 1, "unsolvable": 1, "invalid": 4}
    # Spark reads the empty CSV field as null: the row of a missing puzzle.
    assert rows["missing"]["puzzle"] is None


def test_the_result_writes_to_parquet(spark, tmp_path):
    df = spark.read.csv(str(DATA / "solve_check.csv"), header=True).select("id", "puzzle")
    out = str(tmp_path / "solved.parquet")
    df.mapInArrow(solve_batches, SOLVED_SCHEMA).write.mode("overwrite").parquet(out)
    back = spark.read.parquet(out)
    assert back.count() == 208
    assert back.filter("status = 'unique'").count() == 202
