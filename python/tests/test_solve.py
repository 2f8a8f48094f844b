"""bulkdoku.solve: rows, statuses, the CLI's error texts, inputs of every kind, errors."""

from __future__ import annotations

import csv
import io
import subprocess
import threading
import time

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import bulkdoku
from conftest import EMPTY, P17, P17_SOLUTION, UNSOLVABLE, generated, is_solution

COLUMNS = ["puzzle", "status", "solutions", "clues", "guesses", "time_ns", "solution", "error"]


def rows(table: pa.Table) -> list[dict]:
    return table.to_pylist()


def test_schema_and_one_unique_puzzle():
    table = bulkdoku.solve([P17])
    assert table.column_names == COLUMNS
    assert table.schema.field("status").type == pa.string()
    assert table.schema.field("solutions").type == pa.int64()
    (row,) = rows(table)
    assert row["puzzle"] == P17
    assert row["status"] == "unique"
    assert row["solutions"] == 1
    assert row["clues"] == 17
    assert row["solution"] == P17_SOLUTION
    assert row["error"] is None
    assert row["guesses"] >= 0 and row["time_ns"] > 0


def test_statuses_of_each_kind():
    table = bulkdoku.solve([P17, EMPTY, UNSOLVABLE, "123"])
    got = [(r["status"], r["solutions"]) for r in rows(table)]
    assert got == [("unique", 1), ("multiple", 2), ("unsolvable", 0), ("invalid", 0)]
    multiple, unsolvable = rows(table)[1:3]
    assert is_solution(EMPTY, multiple["solution"])
    assert unsolvable["solution"] is None and unsolvable["error"] is None
    assert unsolvable["clues"] == 9


def test_invalid_rows_carry_the_cli_error_texts():
    bad_char = P17[:11] + "x" + P17[12:]
    conflict = "7...7" + "." * 76
    accented = P17[:80] + "é"
    table = bulkdoku.solve([P17[:80], bad_char, conflict, accented, "", None, P17 + "5"])
    errors = [r["error"] for r in rows(table)]
    assert errors == [
        "80 cells, expected 81",
        "bad character 'x' at cell 12",
        "givens conflict: r1c1 and r1c5 are both 7",
        "bad character 'é' at cell 81",
        "0 cells, expected 81",
        "0 cells, expected 81",
        "82 cells, expected 81",
    ]
    for r in rows(table):
        assert (r["status"], r["solutions"], r["clues"], r["guesses"], r["time_ns"]) == ("invalid", 0, 0, 0, 0)
        assert r["solution"] is None
    # The puzzle column holds the text as given, and null for the missing one.
    assert [r["puzzle"] for r in rows(table)] == [P17[:80], bad_char, conflict, accented, "", None, P17 + "5"]


def test_puzzles_are_trimmed_and_normalised():
    zeros = P17.replace(".", "0")
    table = bulkdoku.solve([f"  {zeros}\n", P17.replace(".", "_"), "\t" + P17[:40] + " "])
    got = rows(table)
    assert got[0]["puzzle"] == P17 and got[0]["status"] == "unique"
    assert got[1]["puzzle"] == P17
    assert got[2]["puzzle"] == P17[:40] and got[2]["error"] == "40 cells, expected 81"


def test_rows_stay_in_input_order_over_many_batches():
    puzzles = generated()
    # Invalid and valid puzzles interleaved, over several batches of the pipeline.
    mixed = []
    for i, p in enumerate(puzzles):
        mixed.append(p)
        if i % 97 == 0:
            mixed.append(f"bad{i}")
    table = bulkdoku.solve(mixed, threads=2)
    assert table.num_rows == len(mixed)
    for given, row in zip(mixed, rows(table)):
        if given.startswith("bad"):
            assert row["puzzle"] == given and row["status"] == "invalid"
        else:
            assert row["puzzle"] == given
            assert row["status"] == "unique"
            assert is_solution(given, row["solution"])


def test_threads_do_not_change_the_rows():
    puzzles = generated(300) + [EMPTY, UNSOLVABLE, "x", None]
    no_time = lambda t: t.drop_columns(["time_ns"])  # noqa: E731
    one = no_time(bulkdoku.solve(puzzles, threads=1))
    assert one.equals(no_time(bulkdoku.solve(puzzles, threads=2)))
    assert one.equals(no_time(bulkdoku.solve(puzzles)))


def test_first_and_limit():
    table = bulkdoku.solve([P17, EMPTY, UNSOLVABLE], first=True)
    assert [r["status"] for r in rows(table)] == ["solved", "solved", "unsolvable"]
    assert [r["solutions"] for r in rows(table)] == [1, 1, 0]
    assert rows(table)[0]["solution"] == P17_SOLUTION
    # limit=1 is first=True.
    assert bulkdoku.solve([EMPTY], limit=1).column("status").to_pylist() == ["solved"]
    counted = bulkdoku.solve([EMPTY, P17], limit=5)
    assert counted.column("solutions").to_pylist() == [5, 1]
    assert counted.column("status").to_pylist() == ["multiple", "unique"]


def test_pyarrow_inputs_of_each_string_type():
    values = [P17, None, "12"]
    expected = ["unique", "invalid", "invalid"]
    for typ in [pa.string(), pa.large_string(), pa.string_view()]:
        array = pa.array(values, type=typ)
        assert bulkdoku.solve(array).column("status").to_pylist() == expected, typ
        chunked = pa.chunked_array([array.slice(0, 1), pa.array([], type=typ), array.slice(1)])
        assert chunked.num_chunks == 3
        table = bulkdoku.solve(chunked)
        assert table.column("status").to_pylist() == expected, typ
        assert table.column("puzzle").to_pylist() == [P17, None, "12"]


def test_a_sliced_array_keeps_its_offset():
    array = pa.array(["x", P17, "12", EMPTY])
    table = bulkdoku.solve(array.slice(1, 2))
    assert table.column("puzzle").to_pylist() == [P17, "12"]


def test_pandas_series_with_missing_values():
    for series in [
        pd.Series([P17, None, float("nan"), "12"], dtype=object),
        pd.Series([P17, None, float("nan"), "12"], dtype="string"),
        pd.Series([P17, None, float("nan"), "12"]),
    ]:
        table = bulkdoku.solve(series)
        assert table.column("status").to_pylist() == ["unique", "invalid", "invalid", "invalid"], series.dtype
        assert table.column("puzzle").to_pylist() == [P17, None, None, "12"], series.dtype
        assert table.column("error").to_pylist()[1:] == [
            "0 cells, expected 81",
            "0 cells, expected 81",
            "2 cells, expected 81",
        ]


def test_pandas_object_series_of_other_types_is_a_type_error():
    with pytest.raises(TypeError, match="puzzles"):
        bulkdoku.solve(pd.Series([P17, 5], dtype=object))


def test_polars_series():
    table = bulkdoku.solve(pl.Series([P17, None, EMPTY]))
    assert table.column("status").to_pylist() == ["unique", "invalid", "multiple"]
    assert table.column("solution").to_pylist()[0] == P17_SOLUTION


def test_other_iterables():
    assert bulkdoku.solve(p for p in [P17, EMPTY]).column("status").to_pylist() == ["unique", "multiple"]
    assert bulkdoku.solve((P17,)).column("status").to_pylist() == ["unique"]
    assert bulkdoku.solve(np.array([P17, "1"])).column("status").to_pylist() == ["unique", "invalid"]
    assert bulkdoku.solve([P17, pd.NA]).column("status").to_pylist() == ["unique", "invalid"]
    # A str that cannot be UTF-8 (a lone surrogate) is still a row.
    (row,) = rows(bulkdoku.solve([P17[:80] + "\ud800"]))
    assert row["status"] == "invalid" and row["error"].startswith("bad character")


def test_empty_input_gives_an_empty_table_with_the_columns():
    for empty in [[], pa.array([], type=pa.string()), pa.chunked_array([], type=pa.large_string())]:
        table = bulkdoku.solve(empty)
        assert table.num_rows == 0
        assert table.column_names == COLUMNS


@pytest.mark.parametrize(
    "puzzles, kwargs, error, message",
    [
        (P17, {}, TypeError, "not a single str"),
        (b"123", {}, TypeError, "not a single bytes"),
        (5, {}, TypeError, "puzzles must be an iterable"),
        ([P17, 5], {}, TypeError, r"puzzles\[1\] is int"),
        (pa.array([1, 2]), {}, TypeError, "must hold strings"),
        (pa.table({"a": [P17]}), {}, TypeError, "must hold strings"),
        ([P17], {"limit": 0}, ValueError, "limit must be at least 1"),
        ([P17], {"limit": -3}, ValueError, "limit must be at least 1"),
        ([P17], {"limit": 2**70}, ValueError, "limit must be at least 1"),
        ([P17], {"limit": "2"}, TypeError, "limit must be an int"),
        ([P17], {"limit": True}, TypeError, "limit must be an int"),
        ([P17], {"limit": 2.0}, TypeError, "limit must be an int"),
        ([P17], {"first": 1}, TypeError, "first must be True or False"),
        ([P17], {"first": True, "limit": 3}, ValueError, "first=True"),
        ([P17], {"threads": 0}, ValueError, "threads must be between 1 and 1024"),
        ([P17], {"threads": 1025}, ValueError, "threads must be between 1 and 1024"),
        ([P17], {"threads": "2"}, TypeError, "threads must be an int"),
        ([P17], {"rules": "killer"}, ValueError, "unknown rule"),
        ([P17], {"rules": 1}, TypeError, "rules must be"),
        ([P17], {"rules": ["x", "x"]}, ValueError, "rules has 2 values for 1 puzzles"),
        ([P17], {"regions": ["1" * 81] * 3}, ValueError, "regions has 3 values for 1 puzzles"),
    ],
)
def test_bad_arguments_raise_clear_errors(puzzles, kwargs, error, message):
    with pytest.raises(error, match=message):
        bulkdoku.solve(puzzles, **kwargs)


def test_arguments_are_keyword_only():
    with pytest.raises(TypeError):
        bulkdoku.solve([P17], 3)  # type: ignore[misc]


def test_accepted_argument_spellings():
    assert bulkdoku.solve([P17], rules="classic", threads=np.int64(1)).num_rows == 1
    assert bulkdoku.solve([P17], rules=None, threads=None, limit=np.int32(2)).num_rows == 1


def test_the_gil_is_released_while_solving():
    puzzles = pa.array(generated() * 20)
    span = {}

    def work():
        span["start"] = time.perf_counter()
        bulkdoku.solve(puzzles, threads=1)
        span["end"] = time.perf_counter()

    worker = threading.Thread(target=work)
    ticks = []
    worker.start()
    while worker.is_alive():
        ticks.append(time.perf_counter())
        time.sleep(0.001)
    worker.join()
    # With the GIL held for the whole call, this thread could not run during it.
    during = [t for t in ticks if span["start"] < t < span["end"]]
    assert span["end"] - span["start"] > 0.02
    assert len(during) >= 5, (len(during), span)


def test_rows_match_the_cli(cli, tmp_path):
    puzzles = generated(200) + [EMPTY, UNSOLVABLE, "12345", P17.replace(".", "0"), "7...7" + "." * 76]
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(puzzles) + "\n")
    out = subprocess.run([str(cli), "solve", "-q", str(path)], check=True, capture_output=True, text=True).stdout
    cli_rows = list(csv.DictReader(io.StringIO(out)))
    ours = rows(bulkdoku.solve(puzzles))
    assert len(cli_rows) == len(ours) == len(puzzles)
    for theirs, mine in zip(cli_rows, ours):
        for column in ["puzzle", "status", "solutions", "clues", "guesses", "solution", "error"]:
            value = "" if mine[column] is None else str(mine[column])
            assert value == theirs[column], (column, theirs, mine)


def test_large_results_come_in_batches_of_at_most_2_20_rows():
    # Invalid rows cost no search: 1.1M of them are quick to make.
    n = (1 << 20) + 1000
    table = bulkdoku.solve(pa.array([""] * (n - 1) + [P17]), threads=2)
    assert table.num_rows == n
    assert [len(c) for c in table.column("status").chunks] == [1 << 20, 1000]
    assert table.column("status")[n - 1].as_py() == "unique"
    assert table.column("error")[0].as_py() == "0 cells, expected 81"
