"""Variant rules from Python: bulkdoku.solve and verify with ``rules``/``regions``,
against the CLI on puzzles `bulkdoku generate --rules` made, and every solution checked
against the rules by the independent checker below."""

from __future__ import annotations

import csv
import io
import subprocess

import pyarrow as pa
import pytest

import bulkdoku
from conftest import P17, P17_SOLUTION

RULES = ["x", "windoku", "anti-knight", "anti-king", "non-consecutive", "jigsaw", "disjoint", "x,anti-knight"]
BOXES = "111222333111222333111222333444555666444555666444555666777888999777888999777888999"


def cell(r: int, c: int) -> int:
    return r * 9 + c


def follows(rules: str, regions: str | None, puzzle: str, solution: str) -> bool:
    """Whether `solution` is a full grid keeping `puzzle`'s givens under `rules`: every
    rule checked from its definition, apart from the library's code."""
    if len(solution) != 81 or any(ch not in "123456789" for ch in solution):
        return False
    if any(p not in ".0" and p != s for p, s in zip(puzzle, solution)):
        return False
    names = set(rules.split(","))
    layout = regions if "jigsaw" in names else BOXES
    houses = [[cell(r, c) for c in range(9)] for r in range(9)]
    houses += [[cell(r, c) for r in range(9)] for c in range(9)]
    houses += [[i for i in range(81) if layout[i] == sym] for sym in sorted(set(layout))]
    if "x" in names:
        houses += [[cell(i, i) for i in range(9)], [cell(i, 8 - i) for i in range(9)]]
    if "windoku" in names:
        houses += [[cell(r0 + r, c0 + c) for r in range(3) for c in range(3)] for r0 in (1, 5) for c0 in (1, 5)]
    if "disjoint" in names:
        houses += [[cell(br * 3 + r, bc * 3 + c) for br in range(3) for bc in range(3)] for r in range(3) for c in range(3)]
    if any(len({solution[i] for i in h}) != 9 for h in houses):
        return False
    steps = []
    if "anti-knight" in names:
        steps += [(1, 2), (2, 1), (1, -2), (2, -1)]
    if "anti-king" in names:
        steps += [(1, 1), (1, -1)]
    for r in range(9):
        for c in range(9):
            for dr, dc in steps:
                if 0 <= r + dr < 9 and 0 <= c + dc < 9 and solution[cell(r, c)] == solution[cell(r + dr, c + dc)]:
                    return False
            if "non-consecutive" in names:
                for dr, dc in [(0, 1), (1, 0)]:
                    if r + dr < 9 and c + dc < 9:
                        if abs(int(solution[cell(r, c)]) - int(solution[cell(r + dr, c + dc)])) == 1:
                            return False
    return True


@pytest.fixture(scope="module")
def made(cli) -> dict[str, list[dict]]:
    """Eight puzzles per rule set, as `bulkdoku generate --rules R --format csv` makes them."""
    out = {}
    for rules in RULES:
        text = subprocess.run(
            [str(cli), "generate", "-n", "8", "--seed", "7", "--rules", rules, "--format", "csv"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        out[rules] = list(csv.DictReader(io.StringIO(text)))
    return out


@pytest.mark.parametrize("rules", RULES)
def test_generated_variant_puzzles_solve_unique_and_keep_the_rules(made, rules):
    records = made[rules]
    regions = [r["regions"] or None for r in records]
    table = bulkdoku.solve([r["puzzle"] for r in records], rules=rules, regions=regions)
    assert table.column_names[-2:] == ["rules", "regions"]
    for record, row in zip(records, table.to_pylist()):
        assert row["status"] == "unique", row
        assert row["rules"] == rules
        assert row["solution"] == record["solution"]
        assert follows(rules, record["regions"] or None, record["puzzle"], row["solution"])
    # Under classic rules alone, the same givens leave more than one solution
    # (generation made them minimal under the added rules).
    classic = bulkdoku.solve([r["puzzle"] for r in records])
    assert "rules" not in classic.column_names
    assert any(s == "multiple" for s in classic.column("status").to_pylist())


def test_rows_match_the_cli_on_a_file_mixing_kinds(cli, made, tmp_path):
    records = [r for rules in RULES for r in made[rules][:3]]
    records.append({"puzzle": P17, "rules": "", "regions": ""})
    path = tmp_path / "mixed.csv"
    with open(path, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["puzzle", "rules", "regions"])
        for r in records:
            out.writerow([r["puzzle"], r["rules"], r["regions"]])
    cli_rows = list(
        csv.DictReader(io.StringIO(subprocess.run([str(cli), "solve", "-q", str(path)], check=True, capture_output=True, text=True).stdout))
    )
    ours = bulkdoku.solve(
        [r["puzzle"] for r in records],
        rules=[r["rules"] or None for r in records],
        regions=[r["regions"] or None for r in records],
    ).to_pylist()
    assert len(cli_rows) == len(ours) == len(records)
    for theirs, mine in zip(cli_rows, ours):
        for column in ["puzzle", "status", "solutions", "clues", "solution", "error", "rules", "regions"]:
            value = "" if mine[column] is None else str(mine[column])
            assert value == theirs[column], (column, theirs, mine)
    assert ours[-1]["rules"] == "classic" and ours[-1]["solution"] == P17_SOLUTION


def test_bad_variant_records_are_invalid_rows_with_the_rule_named():
    diagonal = "7" + "." * 9 + "7" + "." * 70  # r1c1 and r2c2: both on the main diagonal
    knight = "4" + "." * 10 + "4" + "." * 69  # r1c1 and r2c3: a knight's move
    adjacent = "." * 30 + "56" + "." * 49  # r4c4 = 5 beside r4c5 = 6
    table = bulkdoku.solve(
        [diagonal, knight, adjacent, P17, P17, P17],
        rules=["x", "anti-knight", "non-consecutive", "jigsaw", "jigsaw", "jigsaw"],
        regions=[None, None, None, None, BOXES[:80], BOXES[:-1] + "4"],
    ).to_pylist()
    assert [r["status"] for r in table] == ["invalid"] * 6
    errors = [r["error"] for r in table]
    assert "diagonal" in errors[0] and "r1c1" in errors[0] and "r2c2" in errors[0], errors[0]
    assert errors[1].startswith("anti-knight: r1c1 and r2c3 are both 4"), errors[1]
    assert errors[2].startswith("non-consecutive: r4c4 is 5 and r4c5 is 6"), errors[2]
    assert "jigsaw without regions" in errors[3], errors[3]
    assert "80 characters, expected 81" in errors[4], errors[4]
    assert "has 8 cells" in errors[5] or "has 10 cells" in errors[5], errors[5]


def test_jigsaw_with_the_box_layout_is_classic_sudoku():
    (row,) = bulkdoku.solve([P17], rules="jigsaw", regions=[BOXES]).to_pylist()
    assert (row["status"], row["solution"], row["regions"]) == ("unique", P17_SOLUTION, BOXES)


def test_verify_checks_under_the_rules(made):
    records = made["x"]
    puzzles = [r["puzzle"] for r in records]
    assert bulkdoku.verify(puzzles, rules="x").num_rows == 0
    # The same puzzles under classic rules alone have several solutions each.
    classic = bulkdoku.verify(puzzles).to_pylist()
    assert {f["kind"] for f in classic} == {"multiple"}
    # A claimed solution that is classic-valid but breaks the diagonals is wrong.
    wrong = bulkdoku.solve([puzzles[0]]).column("solution")[0].as_py()
    if not follows("x", None, puzzles[0], wrong):
        findings = bulkdoku.verify([puzzles[0]], solutions=[wrong], rules="x").to_pylist()
        assert [f["kind"] for f in findings] == ["wrong_solution"]
    # Duplicates are found under the rules, and isomorphs with the rules' symmetries.
    findings = bulkdoku.verify(puzzles[:2] + puzzles[:1], rules="x", isomorphs=True).to_pylist()
    assert [(f["index"], f["kind"]) for f in findings] == [(2, "duplicate")]


def test_isomorphs_with_jigsaw_are_refused():
    with pytest.raises(ValueError, match="jigsaw"):
        bulkdoku.verify([P17], rules="jigsaw", regions=[BOXES], isomorphs=True)


def test_per_puzzle_rules_accept_arrow_arrays():
    puzzles = pa.array([P17, P17])
    table = bulkdoku.solve(puzzles, rules=pa.array([None, "classic"]))
    assert table.column("rules").to_pylist() == ["classic", "classic"]
    assert table.column("solution").to_pylist() == [P17_SOLUTION] * 2
