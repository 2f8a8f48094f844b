"""Solve, verify and generate Sudoku puzzle datasets in bulk, on all cores.

The functions take puzzles as a list of str, a pyarrow Array or ChunkedArray, or a
pandas or polars Series (read through the Arrow C interface, without copying), and
return pyarrow Tables with the columns of the ``bulkdoku`` command-line tool:

>>> import bulkdoku
>>> table = bulkdoku.solve(["4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"])
>>> table.column("status").to_pylist()
['unique']

Inside Spark, Dask or Ray tasks pass ``threads=1``: each task already has a core.
"""

# Every result is a pyarrow Table: pyarrow is imported with the package, not on the
# first call (whose time it would otherwise add a good fraction of a second to).
import pyarrow  # noqa: F401

from bulkdoku._bulkdoku import __version__, generate, rate, solve, verify

__all__ = ["__version__", "generate", "rate", "solve", "verify"]
