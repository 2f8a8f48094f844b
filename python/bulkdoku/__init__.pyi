"""Type stubs of the ``bulkdoku`` package (the functions are native: ``bulkdoku._bulkdoku``)."""

from collections.abc import Iterable
from typing import Literal, Protocol, SupportsIndex

import pyarrow

__version__: str
__all__ = ["__version__", "generate", "solve", "verify"]

class _ArrowStreamExportable(Protocol):
    """An object of the Arrow PyCapsule interface with a stream: a pyarrow
    ChunkedArray, a pandas or polars Series."""

    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object: ...

class _ArrowArrayExportable(Protocol):
    """An object of the Arrow PyCapsule interface with one array: a pyarrow Array."""

    def __arrow_c_array__(self, requested_schema: object | None = None) -> tuple[object, object]: ...

# What `puzzles` (and `solutions` of `verify`) may be: Arrow strings (string,
# large_string, string_view), read without copying, or any iterable of str with None
# for missing values (NaN and pandas.NA count as missing too). A lone str is refused.
_Puzzles = _ArrowStreamExportable | _ArrowArrayExportable | Iterable[str | None]

def solve(
    puzzles: _Puzzles,
    *,
    limit: SupportsIndex = 2,
    first: bool = False,
    rules: str | _Puzzles | None = None,
    regions: _Puzzles | None = None,
    threads: SupportsIndex | None = None,
) -> pyarrow.Table:
    """Solve every puzzle; one row per input, in input order.

    Columns: ``puzzle`` (normalised, or as given when invalid; null when missing),
    ``status`` (``unique``, ``multiple``, ``solved``, ``unsolvable``, ``invalid``),
    ``solutions``, ``clues``, ``guesses``, ``time_ns`` (int64), ``solution`` (null when
    none) and ``error`` (the CLI's text; null when valid).

    ``limit``: solutions to count at most (>= 1; 2 decides uniqueness). ``first``:
    stop at the first solution (status ``solved``). ``rules``: as the CLI's
    ``--rules`` (``"x"``, ``"x,anti-knight"``, ``"jigsaw"``, ...; None is classic), or
    one such text per puzzle. ``regions``: one 81-character region string per puzzle,
    for jigsaw. With either, two more columns: ``rules`` and ``regions``.
    ``threads``: 1 to 1024, None for one per core; use 1 inside Spark, Dask or Ray
    tasks.

    Bad puzzles never raise (``invalid`` rows); wrong argument types raise
    ``TypeError``, out-of-range values ``ValueError``.
    """

def verify(
    puzzles: _Puzzles,
    *,
    solutions: _Puzzles | None = None,
    isomorphs: bool = False,
    minimal: bool = False,
    rules: str | _Puzzles | None = None,
    regions: _Puzzles | None = None,
    threads: SupportsIndex | None = None,
) -> pyarrow.Table:
    """Check every puzzle as ``bulkdoku verify`` does; one row per finding.

    Columns: ``index`` (0-based position in the input), ``puzzle``, ``kind``
    (``malformed``, ``conflict``, ``unsolvable``, ``multiple``, ``wrong_solution``,
    ``duplicate``, ``isomorph``, ``not_minimal``) and ``detail``. ``solutions``: the
    claimed solution of each puzzle (as many as puzzles). ``rules``, ``regions``: as
    for :func:`solve`; ``isomorphs`` with jigsaw rules raises ``ValueError``.
    """

def rate(puzzles: _Puzzles, *, threads: SupportsIndex | None = None) -> pyarrow.Table:
    """Rate every puzzle on Sudoku Explainer's scale; one row per input, in input order.

    Columns: ``puzzle`` (normalised, or as given when invalid; null when missing),
    ``status`` (``unique``, ``multiple``, ``unsolvable``, ``invalid``: the solver's, as
    in :func:`solve`), ``er``, ``ep``, ``ed`` (float64 with one decimal, as serate
    prints them), ``er_technique``, ``steps`` (int64), ``time_ns`` (int64) and
    ``error`` (why invalid or not rated). Ratings only for ``unique`` puzzles, null
    otherwise. ``threads``: as for :func:`solve`.
    """

def generate(n: SupportsIndex, *, seed: SupportsIndex, threads: SupportsIndex | None = None) -> list[str]:
    """Make ``n`` random minimal puzzles with a unique solution; the same for a seed
    whatever ``threads``, and the same as ``bulkdoku generate -n N --seed SEED``."""
