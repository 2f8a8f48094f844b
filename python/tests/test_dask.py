"""The Dask recipe of docs/dask.md on data/solve_check.csv: every row's status,
solution and error against the CLI's verdicts in that file."""

from __future__ import annotations

import csv

import pytest

# Skipped only where dask is not installed at all; python/ci.sh installs it and fails
# the run if anything is skipped.
dd = pytest.importorskip("dask.dataframe")

import pandas as pd  # noqa: E402

import bulkdoku  # noqa: E402
from conftest import DATA  # noqa: E402

# --- the recipe (docs/dask.md) ------------------------------------------------------


def solved_meta(ddf) -> pd.DataFrame:
    """The result's columns and dtypes: bulkdoku's, from an empty solve, after the
    key column as the input has it."""
    meta = bulkdoku.solve([]).to_pandas()
    meta.insert(0, "id", pd.Series(dtype=ddf.dtypes["id"]))
    return meta


def solve_partition(part: pd.DataFrame) -> pd.DataFrame:
    """map_partitions: one partition solved on the task's one core."""
    solved = bulkdoku.solve(part["puzzle"], threads=1).to_pandas()
    solved.index = part.index
    solved.insert(0, "id", part["id"])
    return solved


# -------------------------------------------------------------------------------------


def expected() -> dict[str, dict[str, str]]:
    with open(DATA / "solve_check.csv", newline="") as f:
        return {row["id"]: row for row in csv.DictReader(f)}


def test_map_partitions_solves_every_row_as_the_cli_does():
    want = expected()
    # blocksize: several partitions, so that several tasks run the recipe.
    ddf = dd.read_csv(str(DATA / "solve_check.csv"), dtype=str, blocksize=4000)
    assert ddf.npartitions > 1
    meta = solved_meta(ddf)
    result = ddf.map_partitions(solve_partition, meta=meta)
    frame = result.compute()
    assert list(frame.columns) == list(meta.columns)
    assert len(frame) == len(want) == 208
    statuses = {}
    for row in frame.to_dict("records"):
        cli = want[row["id"]]
        assert row["status"] == cli["status"], row["id"]
        got_solution = row["solution"] if isinstance(row["solution"], str) else ""
        got_error = row["error"] if isinstance(row["error"], str) else ""
        assert got_solution == cli["solution"], row["id"]
        assert got_error == cli["error"], row["id"]
        statuses[row["status"]] = statuses.get(row["status"], 0) + 1
    assert statuses == {"unique": 202, "multiple": 1, "unsolvable": 1, "invalid": 4}


def test_meta_matches_what_the_partitions_return():
    ddf = dd.read_csv(str(DATA / "solve_check.csv"), dtype=str, blocksize=4000)
    one = solve_partition(ddf.get_partition(0).compute())
    assert one.dtypes.to_dict() == solved_meta(ddf).dtypes.to_dict()
