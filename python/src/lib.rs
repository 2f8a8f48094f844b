//! `bulkdoku._bulkdoku`, the native part of the `bulkdoku` Python package: `solve`,
//! `verify`, `rate` and `generate` over the bulkdoku library.
//!
//! The binding is thin on purpose: each record goes through the library's own
//! per-record functions (`solve_record`, `Checks`, `Ledger`, `generate_one`) on its
//! own ordered pipeline, so that the rows are the CLI's rows and follow the library as
//! it grows. What is here is the Python side: arguments, Arrow in and out, the GIL.

use bulkdoku::rules::Rule;
use bulkdoku::solving::SolveOptions;
use bulkdoku::verify::Checks;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

mod args;
mod arrow;
mod generate;
mod rate;
mod run;
mod solve;
mod texts;
mod verify;

use args::{Count, First, Flag, Int, Isomorphs, Limit, Minimal, Seed, Threads};
use run::Beside;
use texts::Texts;

/// Solve every puzzle; one row per input, in input order.
///
/// Args:
///     puzzles: 81-character puzzles (digits, and ``.``, ``0``, ``_``, ``-`` or ``*``
///         for blanks): a list or any iterable of ``str`` (``None``, NaN and
///         ``pandas.NA`` for missing values), a pyarrow ``Array`` or ``ChunkedArray``
///         of strings, or any object with ``__arrow_c_stream__`` or
///         ``__arrow_c_array__`` (pandas and polars Series). Arrow data is read
///         without copying; ``string``, ``large_string`` and ``string_view`` are read.
///     limit: count up to this many solutions per puzzle (at least 1). 2, the
///         default, decides uniqueness.
///     first: stop at the first solution (``limit=1``): fastest; the status is then
///         ``solved``, since uniqueness is not checked.
///     rules: the rules, as the CLI's ``--rules``: ``None`` or ``"classic"``, or a
///         comma-separated list of ``x``, ``windoku``, ``anti-knight``,
///         ``anti-king``, ``non-consecutive``, ``jigsaw`` and ``disjoint`` (e.g.
///         ``"x,anti-knight"``) for every puzzle; or one such text per puzzle (same
///         types as ``puzzles``, a missing value meaning classic), as a CSV ``rules``
///         column gives them. An unknown rule name raises ``ValueError``.
///     regions: for jigsaw puzzles, one 81-character region string per puzzle (same
///         types as ``puzzles``): each cell's region as a digit 1-9 or a letter A-I,
///         each symbol 9 times. A bad region string makes an ``invalid`` row.
///     threads: worker threads, 1 to 1024, or ``None`` for one per core. Use
///         ``threads=1`` inside Spark, Dask or Ray tasks, where each task already has
///         a core.
///
/// Returns:
///     pyarrow.Table with the columns of ``bulkdoku solve`` less ``file`` and
///     ``line``: ``puzzle`` (the puzzle normalised to 81 characters with ``.``
///     blanks; for an invalid one, the text as given, trimmed of white space; null for
///     a missing value), ``status`` (``unique``, ``multiple``, ``solved``,
///     ``unsolvable`` or ``invalid``), ``solutions`` (found, capped at ``limit``),
///     ``clues``, ``guesses`` (branch decisions of the search), ``time_ns`` (search
///     time), ``solution`` (81 digits, null when there is none) and ``error`` (why
///     the puzzle is invalid, in the CLI's words; null otherwise). With ``rules``
///     other than ``None``/``"classic"`` or with ``regions``, two more columns, as the
///     CLI's: ``rules`` (the rules each puzzle was solved under) and ``regions``
///     (null where none was given).
///
/// A bad puzzle never raises: it is an ``invalid`` row. Arguments of the wrong type
/// raise ``TypeError``, values out of range ``ValueError``. The GIL is released while
/// solving.
#[pyfunction(name = "solve")]
#[pyo3(
    signature = (puzzles, *, limit = Int::new(2), first = Flag::new(false), rules = None, regions = None, threads = None),
    text_signature = "(puzzles, *, limit=2, first=False, rules=None, regions=None, threads=None)"
)]
fn py_solve<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    limit: Int<Limit>,
    first: Flag<First>,
    rules: Option<&Bound<'py, PyAny>>,
    regions: Option<&Bound<'py, PyAny>>,
    threads: Option<Int<Threads>>,
) -> PyResult<Bound<'py, PyAny>> {
    let limit = limit.within(1, i64::MAX as i128, "at least 1")? as u64;
    let first = first.0;
    if first && limit > 2 {
        return Err(PyValueError::new_err(
            "first=True stops at the first solution (limit=1); it cannot go with limit > 2",
        ));
    }
    let threads = args::threads(threads)?;
    let texts = Texts::from_py(puzzles, "puzzles")?;
    let (rule_set, per_puzzle) = args::rules(rules, texts.len())?;
    let regions = args::regions(regions, texts.len())?;
    let beside = Beside {
        rules: per_puzzle.as_ref(),
        regions: regions.as_ref(),
    };
    let variant = !rule_set.is_classic() || per_puzzle.is_some() || regions.is_some();
    let options = SolveOptions::default()
        .limit(if first { 1 } else { limit })
        .rules(rule_set);
    let batches = py
        .detach(|| solve::solve(&texts, beside, options, variant, threads))
        .map_err(PyRuntimeError::new_err)?;
    arrow::to_pyarrow_table(py, solve::schema(variant), batches)
}

/// Check every puzzle as ``bulkdoku verify`` does; one row per finding.
///
/// Args:
///     puzzles: as for :func:`solve`.
///     solutions: the solutions claimed for the puzzles, one per puzzle (same
///         types as ``puzzles``; missing values claim nothing), checked against the
///         puzzles: ``wrong_solution`` findings.
///     isomorphs: also report puzzles equivalent to an earlier one under the Sudoku
///         symmetries (``isomorph``).
///     minimal: also report puzzles with a given that can be removed keeping a
///         unique solution (``not_minimal``).
///     rules, regions: as for :func:`solve`; every check is made under each puzzle's
///         rules. ``isomorphs`` then uses only the symmetries that keep the rules, and
///         is refused (``ValueError``) with ``rules="jigsaw"``.
///     threads: as for :func:`solve`.
///
/// Returns:
///     pyarrow.Table with columns ``index`` (0-based position of the puzzle in the
///     input), ``puzzle`` (normalised when it could be read, else as given; null for a
///     missing value), ``kind`` and ``detail``, the CLI's: ``malformed``,
///     ``conflict``, ``unsolvable``, ``multiple``, ``wrong_solution``, ``duplicate``
///     (``same puzzle as index N``), ``isomorph`` (``equivalent to index N``),
///     ``not_minimal``. In input order, by kind within a puzzle; no rows when every
///     puzzle is clean.
#[pyfunction(name = "verify")]
#[pyo3(
    signature = (puzzles, *, solutions = None, isomorphs = Flag::new(false), minimal = Flag::new(false), rules = None, regions = None, threads = None),
    text_signature = "(puzzles, *, solutions=None, isomorphs=False, minimal=False, rules=None, regions=None, threads=None)"
)]
// The arguments are the Python function's keywords, one for one.
#[allow(clippy::too_many_arguments)]
fn py_verify<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    solutions: Option<&Bound<'py, PyAny>>,
    isomorphs: Flag<Isomorphs>,
    minimal: Flag<Minimal>,
    rules: Option<&Bound<'py, PyAny>>,
    regions: Option<&Bound<'py, PyAny>>,
    threads: Option<Int<Threads>>,
) -> PyResult<Bound<'py, PyAny>> {
    let threads = args::threads(threads)?;
    let texts = Texts::from_py(puzzles, "puzzles")?;
    let (rule_set, per_puzzle) = args::rules(rules, texts.len())?;
    if isomorphs.0 && rule_set.contains(Rule::Jigsaw) {
        return Err(PyValueError::new_err(
            "isomorphs=True does not apply to jigsaw puzzles: no symmetry of the grid keeps \
             every region layout, and classic symmetries would be wrong",
        ));
    }
    let regions = args::regions(regions, texts.len())?;
    let beside = Beside {
        rules: per_puzzle.as_ref(),
        regions: regions.as_ref(),
    };
    let claimed = match solutions.filter(|s| !s.is_none()) {
        Some(s) => Some(Texts::from_py(s, "solutions")?),
        None => None,
    };
    if let Some(claimed) = &claimed {
        if claimed.len() != texts.len() {
            return Err(PyValueError::new_err(format!(
                "solutions has {} values for {} puzzles; give one per puzzle (None for none)",
                claimed.len(),
                texts.len()
            )));
        }
    }
    let checks = Checks::new(isomorphs.0, minimal.0).rules(rule_set);
    let batches = py
        .detach(|| verify::verify(&texts, beside, claimed.as_ref(), checks, threads))
        .map_err(PyRuntimeError::new_err)?;
    arrow::to_pyarrow_table(py, verify::schema(), batches)
}

/// Rate every puzzle on Sudoku Explainer's difficulty scale; one row per input, in
/// input order.
///
/// Args:
///     puzzles: as for :func:`solve` (classic Sudoku).
///     threads: as for :func:`solve`.
///
/// Returns:
///     pyarrow.Table with the columns of ``bulkdoku rate`` less ``file`` and ``line``:
///     ``puzzle`` (normalised, or as given when invalid; null for a missing value),
///     ``status`` (``unique``, ``multiple``, ``unsolvable`` or ``invalid``, decided by
///     the solver as in :func:`solve`), ``er``, ``ep``, ``ed`` (float64, one decimal as
///     Sudoku Explainer prints them, e.g. ``7.2``), ``er_technique`` (the hardest
///     step's technique), ``steps`` (steps on the rating path), ``time_ns`` (solving
///     and rating time) and ``error`` (why the puzzle is invalid or was not rated).
///     Only ``unique`` puzzles are rated; the rating columns are null on every other
///     row.
///
/// A bad puzzle never raises: it is an ``invalid`` row. The GIL is released while
/// rating.
#[pyfunction(name = "rate")]
#[pyo3(signature = (puzzles, *, threads = None), text_signature = "(puzzles, *, threads=None)")]
fn py_rate<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    threads: Option<Int<Threads>>,
) -> PyResult<Bound<'py, PyAny>> {
    let threads = args::threads(threads)?;
    let texts = Texts::from_py(puzzles, "puzzles")?;
    let batches = py
        .detach(|| rate::rate(&texts, threads))
        .map_err(PyRuntimeError::new_err)?;
    arrow::to_pyarrow_table(py, rate::schema(), batches)
}

/// Make ``n`` random minimal puzzles with a unique solution.
///
/// Args:
///     n: how many (0 or more).
///     seed: the random seed (0 to 2**64 - 1). Puzzle ``i`` depends on the seed and
///         ``i`` only: the same puzzles whatever ``threads``, and the same as
///         ``bulkdoku generate -n N --seed SEED``.
///     threads: as for :func:`solve`.
///
/// Returns:
///     list of 81-character puzzles, ``.`` for blanks.
#[pyfunction(name = "generate")]
#[pyo3(
    signature = (n, *, seed, threads = None),
    text_signature = "(n, *, seed, threads=None)"
)]
fn py_generate<'py>(
    py: Python<'py>,
    n: Int<Count>,
    seed: Int<Seed>,
    threads: Option<Int<Threads>>,
) -> PyResult<Bound<'py, PyList>> {
    let n = n.within(0, u64::MAX as i128, "0 or more")? as u64;
    let seed = seed.within(0, u64::MAX as i128, "between 0 and 2**64 - 1")? as u64;
    let threads = args::threads(threads)?;
    let lines = py
        .detach(|| generate::generate(n, seed, threads))
        .map_err(PyRuntimeError::new_err)?;
    let puzzles = lines
        .chunks_exact(bulkdoku::grid::CELLS)
        .map(|line| PyString::new(py, &String::from_utf8_lossy(line)));
    PyList::new(py, puzzles)
}

/// Solve, verify, rate and generate Sudoku puzzles in bulk, on all cores.
#[pymodule]
fn _bulkdoku(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // Started now, so that its tick rate is measured over a long span by the first call.
    solve::process_clock();
    m.add_function(wrap_pyfunction!(py_solve, m)?)?;
    m.add_function(wrap_pyfunction!(py_verify, m)?)?;
    m.add_function(wrap_pyfunction!(py_rate, m)?)?;
    m.add_function(wrap_pyfunction!(py_generate, m)?)?;
    m.add_class::<arrow::ArrowStream>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
