//! A column of texts (puzzles, or claimed solutions) from whatever Python passed:
//! Arrow string arrays as they are (no copy), anything else iterated into one.

use arrow_array::builder::StringBuilder;
use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, LargeStringArray, StringArray, StringViewArray};
use arrow_schema::DataType;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyFloat, PyString};

use crate::arrow::{exported, import_arrays, Exported};

/// One chunk of texts, in any of Arrow's three string layouts: pyarrow exports
/// `string` (`large_string` past 2 GiB), pandas `large_string`, polars `string_view`.
enum Chunk {
    Utf8(StringArray),
    LargeUtf8(LargeStringArray),
    Utf8View(StringViewArray),
}

impl Chunk {
    fn len(&self) -> usize {
        match self {
            Chunk::Utf8(a) => a.len(),
            Chunk::LargeUtf8(a) => a.len(),
            Chunk::Utf8View(a) => a.len(),
        }
    }

    /// The text at `i`, `None` where it is null.
    #[inline]
    fn get(&self, i: usize) -> Option<&str> {
        match self {
            Chunk::Utf8(a) => a.is_valid(i).then(|| a.value(i)),
            Chunk::LargeUtf8(a) => a.is_valid(i).then(|| a.value(i)),
            Chunk::Utf8View(a) => a.is_valid(i).then(|| a.value(i)),
        }
    }
}

/// Texts in input order, `None` for a missing value.
pub struct Texts {
    chunks: Vec<Chunk>,
    len: usize,
}

impl Texts {
    /// The texts of `obj`, an argument called `name` in error messages.
    ///
    /// Accepted: anything with `__arrow_c_stream__` or `__arrow_c_array__` of Arrow
    /// strings (pyarrow `Array`/`ChunkedArray`, pandas and polars Series), imported
    /// without copying; or any other iterable of `str` and missing values (`None`, NaN,
    /// `pandas.NA`), copied into one Arrow array. A lone `str` or `bytes` is refused: it
    /// is iterable, but its characters are not puzzles.
    pub fn from_py(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Texts> {
        if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
            return Err(PyTypeError::new_err(format!(
                "{name} must be a sequence of puzzle strings, not a single {}; wrap it in a list",
                type_name(obj)
            )));
        }
        match exported(obj)? {
            Exported::No => Texts::from_iterable(obj, name),
            how => {
                let (data_type, arrays) = import_arrays(obj, how, name)?;
                Texts::from_arrays(data_type, arrays, name)
            }
        }
    }

    fn from_arrays(data_type: DataType, arrays: Vec<ArrayRef>, name: &str) -> PyResult<Texts> {
        let mut chunks = Vec::with_capacity(arrays.len());
        for array in arrays {
            let chunk = match array.data_type() {
                DataType::Utf8 => Chunk::Utf8(array.as_string::<i32>().clone()),
                DataType::LargeUtf8 => Chunk::LargeUtf8(array.as_string::<i64>().clone()),
                DataType::Utf8View => Chunk::Utf8View(array.as_string_view().clone()),
                other => return Err(not_strings(name, other)),
            };
            chunks.push(chunk);
        }
        // An empty stream has no chunk to look at: its declared type must still be text.
        if chunks.is_empty()
            && !matches!(
                data_type,
                DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
            )
        {
            return Err(not_strings(name, &data_type));
        }
        let len = chunks.iter().map(Chunk::len).sum();
        Ok(Texts { chunks, len })
    }

    fn from_iterable(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Texts> {
        let iter = obj.try_iter().map_err(|_| {
            PyTypeError::new_err(format!(
                "{name} must be an iterable of str (or None), a pyarrow Array or ChunkedArray, \
                 or an object with __arrow_c_stream__ (pandas, polars); got {}",
                type_name(obj)
            ))
        })?;
        let hint = obj.len().unwrap_or(0);
        let mut builder = StringBuilder::with_capacity(hint, hint * 81);
        for (i, item) in iter.enumerate() {
            let item = item?;
            if let Ok(text) = item.cast::<PyString>() {
                // A str that is not valid UTF-8 (a lone surrogate) is still a puzzle
                // row: its bad character is reported in the row, never raised.
                match text.to_str() {
                    Ok(text) => builder.append_value(text),
                    Err(_) => builder.append_value(text.to_string_lossy()),
                }
            } else if is_missing(&item)? {
                builder.append_null();
            } else {
                return Err(PyTypeError::new_err(format!(
                    "{name}[{i}] is {}, expected str or None",
                    type_name(&item)
                )));
            }
        }
        let array = builder.finish();
        let len = array.len();
        Ok(Texts {
            chunks: vec![Chunk::Utf8(array)],
            len,
        })
    }

    /// How many texts.
    pub fn len(&self) -> usize {
        self.len
    }

    /// The texts in order, `None` for missing ones.
    pub fn iter(&self) -> impl Iterator<Item = Option<&str>> + Send + '_ {
        self.chunks
            .iter()
            .flat_map(|chunk| (0..chunk.len()).map(move |i| chunk.get(i)))
    }
}

/// Whether `item` is a missing value: `None`, a float NaN (pandas' marker in object
/// columns) or `pandas.NA`.
fn is_missing(item: &Bound<'_, PyAny>) -> PyResult<bool> {
    if item.is_none() {
        return Ok(true);
    }
    if let Ok(f) = item.cast::<PyFloat>() {
        return Ok(f.value().is_nan());
    }
    // pandas.NA, recognised by its type so that pandas need not be imported.
    let ty = item.get_type();
    Ok(ty.name()?.to_str()? == "NAType" && ty.module()?.to_str()?.starts_with("pandas"))
}

fn not_strings(name: &str, data_type: &DataType) -> PyErr {
    PyTypeError::new_err(format!(
        "{name} must hold strings; got Arrow type {data_type} \
         (string, large_string and string_view are read; cast other columns to strings)"
    ))
}

/// The name of `obj`'s type, for messages.
fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "an object".to_string(), |n| n.to_string())
}
