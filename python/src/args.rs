//! Keyword arguments checked the same way in every function: a wrong type is a
//! `TypeError`, a value out of range a `ValueError`, each naming the argument.

use std::marker::PhantomData;

use bulkdoku::pipeline::MAX_THREADS;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyString};

use bulkdoku::rules::RuleSet;

use crate::texts::Texts;

/// The name of an argument, for the messages of its type errors (pyo3 only adds it
/// as a note to the exception, which `str(error)` does not show).
pub trait Named {
    const NAME: &'static str;
}

macro_rules! names {
    ($($ty:ident = $name:literal),* $(,)?) => {$(
        #[doc = concat!("The argument `", $name, "`.")]
        pub enum $ty {}
        impl Named for $ty {
            const NAME: &'static str = $name;
        }
    )*};
}

names!(
    Limit = "limit",
    First = "first",
    Threads = "threads",
    Isomorphs = "isomorphs",
    Minimal = "minimal",
    Count = "n",
    Seed = "seed",
);

/// An integer argument: a Python `int` or anything with `__index__` (a NumPy integer),
/// but not a `bool`, whose `True` would silently mean 1.
///
/// The value is kept as `i128` so that each range check below is exact for every value
/// a caller can pass; integers beyond `i128` saturate, which every range refuses alike.
pub struct Int<N>(pub i128, PhantomData<N>);

impl<N> Int<N> {
    pub const fn new(value: i128) -> Int<N> {
        Int(value, PhantomData)
    }
}

impl<'a, 'py, N: Named> FromPyObject<'a, 'py> for Int<N> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Int<N>> {
        if obj.is_instance_of::<PyBool>() || !obj.hasattr("__index__")? {
            return Err(PyTypeError::new_err(format!(
                "{} must be an int, got {}",
                N::NAME,
                obj.get_type().name()?
            )));
        }
        let index = obj.call_method0("__index__")?;
        match index.extract::<i128>() {
            Ok(v) => Ok(Int::new(v)),
            // Too big for i128 (an OverflowError): out of every range, on its side.
            Err(_) => {
                let negative = index.lt(0)?;
                Ok(Int::new(if negative { i128::MIN } else { i128::MAX }))
            }
        }
    }
}

impl<N: Named> Int<N> {
    /// The value, if it lies in `min..=max`; else a `ValueError` saying `what`.
    pub fn within(self, min: i128, max: i128, what: &str) -> PyResult<i128> {
        if (min..=max).contains(&self.0) {
            Ok(self.0)
        } else {
            Err(PyValueError::new_err(format!(
                "{} must be {what}; got {}",
                N::NAME,
                shown(self.0)
            )))
        }
    }
}

/// A flag: `True` or `False` only (NumPy's bool too), so that a misplaced value is
/// not read as its truth.
pub struct Flag<N>(pub bool, PhantomData<N>);

impl<N> Flag<N> {
    pub const fn new(value: bool) -> Flag<N> {
        Flag(value, PhantomData)
    }
}

impl<'a, 'py, N: Named> FromPyObject<'a, 'py> for Flag<N> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Flag<N>> {
        obj.extract::<bool>().map(Flag::new).map_err(|_| {
            let type_name = obj
                .get_type()
                .name()
                .map_or_else(|_| "an object".to_string(), |n| n.to_string());
            PyTypeError::new_err(format!(
                "{} must be True or False, got {type_name}",
                N::NAME
            ))
        })
    }
}

/// A value as the caller wrote it, or "a huge number" where it saturated.
fn shown(v: i128) -> String {
    match v {
        i128::MAX => "a number above 2**127".to_string(),
        i128::MIN => "a number below -2**127".to_string(),
        v => v.to_string(),
    }
}

/// The `threads` argument: `None` for one worker per core, else 1 to [`MAX_THREADS`].
pub fn threads(threads: Option<Int<Threads>>) -> PyResult<Option<usize>> {
    let Some(threads) = threads else {
        return Ok(None);
    };
    let what = format!("between 1 and {MAX_THREADS}, or None for one thread per core");
    let n = threads.within(1, MAX_THREADS as i128, &what)?;
    Ok(Some(n as usize))
}

/// The `rules` argument: `None` (classic), one rule list for every puzzle (`"x"`,
/// `"x,anti-knight"`), or one per puzzle (any sequence `puzzles` may be, a missing value
/// meaning classic), as the CLI's `--rules` and a CSV `rules` column.
pub fn rules(
    rules: Option<&Bound<'_, PyAny>>,
    puzzles: usize,
) -> PyResult<(RuleSet, Option<Texts>)> {
    let Some(rules) = rules.filter(|r| !r.is_none()) else {
        return Ok((RuleSet::CLASSIC, None));
    };
    if let Ok(list) = rules.cast::<PyString>() {
        let list = list.to_string_lossy();
        return match list.parse::<RuleSet>() {
            Ok(set) => Ok((set, None)),
            Err(e) => Err(PyValueError::new_err(format!("rules={list:?}: {e}"))),
        };
    }
    let texts = Texts::from_py(rules, "rules")?;
    beside(&texts, "rules", puzzles)?;
    Ok((RuleSet::CLASSIC, Some(texts)))
}

/// The `regions` argument: `None`, or one 81-character region string per puzzle.
pub fn regions(regions: Option<&Bound<'_, PyAny>>, puzzles: usize) -> PyResult<Option<Texts>> {
    let Some(regions) = regions.filter(|r| !r.is_none()) else {
        return Ok(None);
    };
    let texts = Texts::from_py(regions, "regions")?;
    beside(&texts, "regions", puzzles)?;
    Ok(Some(texts))
}

/// Refuse per-puzzle values that are not one per puzzle.
pub fn beside(texts: &Texts, name: &str, puzzles: usize) -> PyResult<()> {
    if texts.len() == puzzles {
        return Ok(());
    }
    Err(PyValueError::new_err(format!(
        "{name} has {} values for {puzzles} puzzles; give one per puzzle (None for none)",
        texts.len()
    )))
}
