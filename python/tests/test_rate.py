"""bulkdoku.rate: the CLI's rate columns, typed; ratings only for unique puzzles; the GIL."""

from __future__ import annotations

import csv
import io
import subprocess
import threading
import time

import pyarrow as pa
import pytest

import bulkdoku
from conftest import EMPTY, P17, UNSOLVABLE, generated

COLUMNS = ["puzzle", "status", "er", "ep", "ed", "er_technique", "steps", "time_ns", "error"]
RATINGS = ["er", "ep", "ed", "er_technique", "steps"]


def check_rating(row: dict) -> None:
    """A unique puzzle is rated (figures with one decimal, EP and ED at most ER) or says
    why not; any other row has no rating."""
    if row["status"] == "unique" and row["error"] is None:
        for column in ["er", "ep", "ed"]:
            value = row[column]
            assert isinstance(value, float) and 1.0 <= value <= 20.0, row
            assert round(value, 1) == value, row
        assert row["ep"] <= row["er"] and row["ed"] <= row["er"], row
        assert row["er_technique"] and row["steps"] >= 1, row
    else:
        assert all(row[c] is None for c in RATINGS), row
        if row["status"] == "unique":
            assert row["error"].startswith("not rated"), row


def test_schema_statuses_and_nulls():
    table = bulkdoku.rate([P17, EMPTY, UNSOLVABLE, "123", None])
    assert table.column_names == COLUMNS
    schema = table.schema
    assert [schema.field(c).type for c in ["er", "ep", "ed"]] == [pa.float64()] * 3
    assert schema.field("steps").type == pa.int64()
    assert schema.field("time_ns").type == pa.int64()
    assert schema.field("er_technique").type == pa.string()
    rows = table.to_pylist()
    assert [r["status"] for r in rows] == ["unique", "multiple", "unsolvable", "invalid", "invalid"]
    for row in rows:
        check_rating(row)
    assert rows[0]["puzzle"] == P17
    assert rows[3]["puzzle"] == "123" and rows[3]["error"] == "3 cells, expected 81"
    assert rows[4]["puzzle"] is None
    assert rows[1]["error"] is None and rows[2]["error"] is None
    assert rows[3]["time_ns"] == 0 and rows[0]["time_ns"] > 0


def test_order_and_threads_do_not_change_the_rows():
    puzzles = generated(300)
    one = bulkdoku.rate(puzzles, threads=1).drop_columns(["time_ns"])
    two = bulkdoku.rate(puzzles, threads=2).drop_columns(["time_ns"])
    assert one.equals(two)
    assert one.column("puzzle").to_pylist() == puzzles
    for row in one.add_column(7, "time_ns", pa.array([1] * len(puzzles))).to_pylist():
        check_rating(row)


def test_empty_input_gives_the_columns():
    table = bulkdoku.rate([])
    assert table.num_rows == 0 and table.column_names == COLUMNS


@pytest.mark.parametrize(
    "kwargs, error",
    [({"threads": 0}, ValueError), ({"threads": "2"}, TypeError), ({"limit": 2}, TypeError)],
)
def test_bad_arguments(kwargs, error):
    with pytest.raises(error):
        bulkdoku.rate([P17], **kwargs)


def test_the_gil_is_released_while_rating():
    puzzles = pa.array(generated() * 2)
    span = {}

    def work():
        span["start"] = time.perf_counter()
        bulkdoku.rate(puzzles, threads=1)
        span["end"] = time.perf_counter()

    worker = threading.Thread(target=work)
    ticks = []
    worker.start()
    while worker.is_alive():
        ticks.append(time.perf_counter())
        time.sleep(0.001)
    worker.join()
    during = [t for t in ticks if span["start"] < t < span["end"]]
    assert span["end"] - span["start"] > 0.02
    assert len(during) >= 5, (len(during), span)


def test_rows_match_the_cli(cli, tmp_path):
    puzzles = generated(100) + [EMPTY, UNSOLVABLE, "12345", P17.replace(".", "0")]
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(puzzles) + "\n")
    out = subprocess.run([str(cli), "rate", "-q", str(path)], check=True, capture_output=True, text=True).stdout
    cli_rows = list(csv.DictReader(io.StringIO(out)))
    ours = bulkdoku.rate(puzzles).to_pylist()
    assert len(cli_rows) == len(ours) == len(puzzles)
    for theirs, mine in zip(cli_rows, ours):
        for column in ["puzzle", "status", "er", "ep", "ed", "er_technique", "steps", "error"]:
            value = mine[column]
            text = "" if value is None else f"{value:.1f}" if isinstance(value, float) else str(value)
            assert text == theirs[column], (column, theirs, mine)
