"""bulkdoku.generate: deterministic per seed whatever the threads, unique and minimal."""

from __future__ import annotations

import pytest

import bulkdoku
from conftest import generated


def test_the_same_puzzles_as_the_cli_for_the_same_seed():
    # data/generated_1000.txt was made by `bulkdoku generate -n 1000 --seed 1`.
    assert bulkdoku.generate(40, seed=1) == generated(40)


def test_a_seed_gives_the_same_puzzles_whatever_the_threads():
    one = bulkdoku.generate(300, seed=42, threads=1)
    assert one == bulkdoku.generate(300, seed=42, threads=2)
    assert one == bulkdoku.generate(300, seed=42)
    # A prefix: puzzle i depends on the seed and i only.
    assert bulkdoku.generate(7, seed=42) == one[:7]
    assert bulkdoku.generate(300, seed=43) != one


def test_puzzles_are_valid_unique_minimal_and_distinct():
    puzzles = bulkdoku.generate(60, seed=7)
    assert all(isinstance(p, str) and len(p) == 81 for p in puzzles)
    assert len(set(puzzles)) == len(puzzles)
    assert set(bulkdoku.solve(puzzles).column("status").to_pylist()) == {"unique"}
    assert bulkdoku.verify(puzzles, minimal=True).num_rows == 0


def test_edge_counts_and_seeds():
    assert bulkdoku.generate(0, seed=0) == []
    assert len(bulkdoku.generate(1, seed=2**64 - 1)) == 1


@pytest.mark.parametrize(
    "args, kwargs, error, message",
    [
        ((3,), {}, TypeError, "seed"),
        ((3,), {"seed": -1}, ValueError, "seed must be between 0 and 2\\*\\*64 - 1"),
        ((3,), {"seed": 2**64}, ValueError, "seed must be"),
        ((3,), {"seed": "1"}, TypeError, "seed must be an int"),
        ((-1,), {"seed": 1}, ValueError, "n must be 0 or more"),
        (("3",), {"seed": 1}, TypeError, "n must be an int"),
        ((3,), {"seed": 1, "threads": 0}, ValueError, "threads"),
    ],
)
def test_bad_arguments(args, kwargs, error, message):
    with pytest.raises(error, match=message):
        bulkdoku.generate(*args, **kwargs)
