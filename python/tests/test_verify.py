"""bulkdoku.verify: findings with the CLI's kinds and details, 0-based indexes."""

from __future__ import annotations

import csv
import io
import re
import subprocess

import pandas as pd
import pyarrow as pa
import pytest

import bulkdoku
from conftest import EMPTY, P17, P17_SOLUTION, UNSOLVABLE, generated

# P17 with its digits 4 and 8 swapped: the same puzzle under a relabelling.
ISOMORPH = P17.translate(str.maketrans("48", "84"))
# P17 with one more given, r1c2, taken from its solution: removable again.
EXTRA_GIVEN = P17[0] + P17_SOLUTION[1] + P17[2:]
CONFLICT = "7...7" + "." * 76


def findings(table: pa.Table) -> list[tuple[int, str, str]]:
    return [(r["index"], r["kind"], r["detail"]) for r in table.to_pylist()]


def test_a_clean_dataset_has_no_rows_and_the_columns():
    table = bulkdoku.verify(generated(100), isomorphs=True)
    assert table.num_rows == 0
    assert table.column_names == ["index", "puzzle", "kind", "detail"]
    assert table.schema.field("index").type == pa.int64()


def test_each_kind_with_its_detail_and_index():
    puzzles = [P17, P17, ISOMORPH, CONFLICT, "123", EMPTY, UNSOLVABLE, EXTRA_GIVEN, None]
    table = bulkdoku.verify(puzzles, isomorphs=True, minimal=True)
    got = findings(table)
    assert got[:5] == [
        (1, "duplicate", "same puzzle as index 0"),
        (2, "isomorph", "equivalent to index 0"),
        (3, "conflict", "givens conflict: r1c1 and r1c5 are both 7"),
        (4, "malformed", "3 cells, expected 81"),
        (5, "multiple", got[4][2]),
    ]
    assert got[4][2].startswith("2 or more solutions; two of them differ at r")
    assert got[5] == (6, "unsolvable", "no solution")
    index, kind, detail = got[6]
    assert (index, kind) == (7, "not_minimal")
    assert detail.startswith("each of these givens can be removed keeping a unique solution: ")
    assert "r1c2" in detail.split(": ")[1].split()
    assert got[7] == (8, "malformed", "0 cells, expected 81")
    assert len(got) == 8
    # The puzzle column: normalised when readable, as given when not, null when missing.
    puzzle = dict(zip(table.column("index").to_pylist(), table.column("puzzle").to_pylist()))
    assert puzzle[3] == CONFLICT and puzzle[4] == "123" and puzzle[8] is None


def test_isomorphs_and_minimal_are_reported_only_when_asked():
    puzzles = [P17, ISOMORPH, EXTRA_GIVEN]
    assert bulkdoku.verify(puzzles).num_rows == 0
    assert [k for _, k, _ in findings(bulkdoku.verify(puzzles, isomorphs=True))] == ["isomorph"]
    assert [k for _, k, _ in findings(bulkdoku.verify(puzzles, minimal=True))] == ["not_minimal"]


def test_every_repeat_names_the_first_occurrence():
    puzzles = [EMPTY[:3], P17, EMPTY, P17, P17]
    got = [(i, d) for i, k, d in findings(bulkdoku.verify(puzzles)) if k == "duplicate"]
    assert got == [(3, "same puzzle as index 1"), (4, "same puzzle as index 1")]


def test_claimed_solutions():
    puzzles = generated(4) + [EMPTY]
    solved = bulkdoku.solve(puzzles).column("solution").to_pylist()
    # Relabelling two digits keeps a valid grid that no longer keeps the givens.
    relabelled = solved[3].translate(str.maketrans("12", "21"))
    # Any valid grid solves the empty puzzle; a missing claim claims nothing.
    claims = [solved[0], "12", None, relabelled, solved[0]]
    got = findings(bulkdoku.verify(puzzles, solutions=claims))
    assert [(i, k) for i, k, _ in got] == [(1, "wrong_solution"), (3, "wrong_solution"), (4, "multiple")]
    assert got[0][2] == "not a complete valid grid: 2 cells, expected 81"
    assert re.fullmatch(r"disagrees with the given at r\dc\d: [12] in the solution, [12] in the puzzle", got[1][2])


def test_a_solution_that_breaks_a_given_or_differs():
    # Swapping 4 and 8 keeps a valid grid that breaks the given 4 at r1c1.
    breaks = P17_SOLUTION.translate(str.maketrans("48", "84"))
    got = findings(bulkdoku.verify(pa.array([P17]), solutions=pa.array([breaks])))
    assert got == [(0, "wrong_solution", "disagrees with the given at r1c1: 8 in the solution, 4 in the puzzle")]


def test_solutions_as_long_as_puzzles():
    with pytest.raises(ValueError, match="solutions has 1 values for 2 puzzles"):
        bulkdoku.verify([P17, P17], solutions=[P17_SOLUTION])


def test_inputs_and_argument_errors():
    series = pd.Series([P17, None, P17])
    assert findings(bulkdoku.verify(series, solutions=pd.Series([None, None, "x"])))[0][:2] == (1, "malformed")
    with pytest.raises(TypeError, match="isomorphs must be True or False"):
        bulkdoku.verify([P17], isomorphs="yes")
    with pytest.raises(TypeError, match="solutions"):
        bulkdoku.verify([P17], solutions=7)
    with pytest.raises(ValueError, match="threads"):
        bulkdoku.verify([P17], threads=0)


def test_threads_do_not_change_the_findings():
    puzzles = generated(200) + generated(50) + ["x", EMPTY, UNSOLVABLE]
    one = bulkdoku.verify(puzzles, isomorphs=True, threads=1)
    assert one.num_rows == 53
    assert one.equals(bulkdoku.verify(puzzles, isomorphs=True, threads=2))


def test_findings_match_the_cli(cli, tmp_path):
    puzzles = generated(30) + [P17, P17, ISOMORPH, CONFLICT, "123", EMPTY, UNSOLVABLE, EXTRA_GIVEN]
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(puzzles) + "\n")
    run = subprocess.run(
        [str(cli), "verify", "-q", "--isomorphs", "--minimal", str(path)], capture_output=True, text=True
    )
    assert run.returncode == 1, run.stderr  # something was found
    theirs = [
        # Line N of a file without comments is index N - 1.
        (int(r["line"]) - 1, r["puzzle"], r["kind"], re.sub(r"line (\d+)", lambda m: f"index {int(m[1]) - 1}", r["detail"]))
        for r in csv.DictReader(io.StringIO(run.stdout))
    ]
    ours = [(r["index"], r["puzzle"], r["kind"], r["detail"]) for r in bulkdoku.verify(puzzles, isomorphs=True, minimal=True).to_pylist()]
    assert [kind for _, _, kind, _ in ours] == [
        "duplicate", "isomorph", "conflict", "malformed", "multiple", "unsolvable", "not_minimal"
    ]
    assert ours == theirs
