"""Shared fixtures and checks of the bulkdoku tests."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "data"

# A 17-clue puzzle and its unique solution.
P17 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
P17_SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
# Row 1 needs a 9 at r1c9, but box 3 already has one (at r2c9): no two givens share a
# house and digit, yet there is no solution.
UNSOLVABLE = "12345678." + "........9" + "." * 63
EMPTY = "." * 81


def generated(n: int | None = None) -> list[str]:
    """The puzzles of data/generated_1000.txt (made by `bulkdoku generate -n 1000 --seed 1`)."""
    lines = (DATA / "generated_1000.txt").read_text().splitlines()
    puzzles = [line for line in lines if line and not line.startswith("#")]
    return puzzles if n is None else puzzles[:n]


def is_solution(puzzle: str, solution: str) -> bool:
    """Whether `solution` is a complete valid grid that keeps every given of `puzzle`."""
    if len(solution) != 81 or any(c not in "123456789" for c in solution):
        return False
    for i, c in enumerate(puzzle):
        if c in "123456789" and solution[i] != c:
            return False
    houses = (
        [[r * 9 + c for c in range(9)] for r in range(9)]
        + [[r * 9 + c for r in range(9)] for c in range(9)]
        + [[(b // 3 * 3 + r) * 9 + b % 3 * 3 + c for r in range(3) for c in range(3)] for b in range(9)]
    )
    return all(len({solution[i] for i in house}) == 9 for house in houses)


def cli_path() -> Path | None:
    """The bulkdoku binary: $BULKDOKU_CLI, target/release/bulkdoku, or on PATH."""
    named = os.environ.get("BULKDOKU_CLI")
    if named:
        return Path(named)
    built = REPO / "target" / "release" / "bulkdoku"
    if built.exists():
        return built
    found = shutil.which("bulkdoku")
    return Path(found) if found else None


@pytest.fixture(scope="session")
def cli() -> Path:
    path = cli_path()
    if path is None:
        # python/ci.sh builds the binary first, and fails the run on any skip.
        pytest.skip("the bulkdoku binary is not built (cargo build --release)")
    return path
