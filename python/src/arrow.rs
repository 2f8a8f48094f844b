//! Arrow in and out through the Arrow PyCapsule interface: `__arrow_c_stream__` and
//! `__arrow_c_array__` objects (pyarrow, pandas, polars, ...) are imported without
//! copying their buffers, and results leave as a C stream that pyarrow imports without
//! copying them either.
//!
//! The C structs are handled with arrow-rs's own FFI module, not with a crate that
//! wraps pyo3 (pyo3-arrow, arrow-rs's `pyarrow` feature): each of those pins a pyo3
//! version of its own, and a second pyo3 cannot be linked into one extension.

use std::ffi::CStr;
use std::ptr::NonNull;
use std::sync::Mutex;

use arrow_array::ffi::{from_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::ffi_stream::{ArrayStreamReader, FFI_ArrowArrayStream};
use arrow_array::{make_array, ArrayRef, RecordBatch, RecordBatchIterator};
use arrow_schema::{DataType, SchemaRef};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyTuple};

/// Capsule names fixed by the Arrow PyCapsule interface.
const STREAM: &CStr = c"arrow_array_stream";
const SCHEMA: &CStr = c"arrow_schema";
const ARRAY: &CStr = c"arrow_array";

/// How an object offers its data through the Arrow PyCapsule interface, if it does.
pub enum Exported {
    /// `__arrow_c_stream__`: a stream of arrays (a chunked array, a pandas or polars
    /// Series).
    Stream,
    /// `__arrow_c_array__` only: one array (a pyarrow `Array`).
    Array,
    /// Neither.
    No,
}

/// Which Arrow PyCapsule method `obj` has (the stream is preferred: it covers every
/// chunk of a chunked array).
pub fn exported(obj: &Bound<'_, PyAny>) -> PyResult<Exported> {
    Ok(if obj.hasattr("__arrow_c_stream__")? {
        Exported::Stream
    } else if obj.hasattr("__arrow_c_array__")? {
        Exported::Array
    } else {
        Exported::No
    })
}

/// The arrays of `obj`'s Arrow export (`how` from [`exported`]), each with its data
/// type. `name` names the argument in error messages.
pub fn import_arrays(
    obj: &Bound<'_, PyAny>,
    how: Exported,
    name: &str,
) -> PyResult<(DataType, Vec<ArrayRef>)> {
    // An exporter that cannot export (a pandas object column holding ints, say) raises
    // its own error; it is a wrong argument, said as a `TypeError` naming the argument.
    let refused = |e: PyErr| {
        let err = PyTypeError::new_err(format!(
            "{name}: cannot be read as Arrow strings: {}",
            e.value(obj.py())
        ));
        err.set_cause(obj.py(), Some(e));
        err
    };
    match how {
        Exported::Stream => {
            let capsule = obj.call_method0("__arrow_c_stream__").map_err(refused)?;
            let capsule = capsule.cast_into::<PyCapsule>().map_err(|_| {
                PyTypeError::new_err(format!(
                    "{name}: __arrow_c_stream__ did not return a PyCapsule"
                ))
            })?;
            let ptr = capsule_pointer(&capsule, STREAM, name)?;
            // SAFETY: the capsule is named `arrow_array_stream`, so by the Arrow
            // PyCapsule interface it holds a valid `ArrowArrayStream`. `from_raw` moves
            // the struct out and marks the capsule's copy released, so that the
            // capsule's destructor does not release it again.
            let reader = unsafe { ArrayStreamReader::from_raw(ptr.cast().as_ptr()) }
                .map_err(|e| arrow_error(name, e))?;
            let data_type = reader_type(&reader);
            let arrays = reader
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| arrow_error(name, e))?;
            Ok((data_type, arrays))
        }
        Exported::Array => {
            let pair = obj.call_method0("__arrow_c_array__").map_err(refused)?;
            let pair = pair.cast_into::<PyTuple>().map_err(|_| {
                PyTypeError::new_err(format!("{name}: __arrow_c_array__ did not return a tuple"))
            })?;
            if pair.len() != 2 {
                return Err(PyTypeError::new_err(format!(
                    "{name}: __arrow_c_array__ did not return a (schema, array) pair"
                )));
            }
            let schema = pair.get_item(0)?.cast_into::<PyCapsule>()?;
            let array = pair.get_item(1)?.cast_into::<PyCapsule>()?;
            let schema_ptr = capsule_pointer(&schema, SCHEMA, name)?;
            let array_ptr = capsule_pointer(&array, ARRAY, name)?;
            // SAFETY: capsules so named hold a valid `ArrowSchema` and `ArrowArray`.
            // The schema is only read (its capsule keeps and releases it); the array is
            // moved out of its capsule, which is left with a released struct.
            let data = unsafe {
                let schema: &FFI_ArrowSchema = schema_ptr.cast().as_ref();
                let array = FFI_ArrowArray::from_raw(array_ptr.cast().as_ptr());
                from_ffi(array, schema)
            }
            .map_err(|e| arrow_error(name, e))?;
            let array = make_array(data);
            Ok((array.data_type().clone(), vec![array]))
        }
        Exported::No => Err(PyTypeError::new_err(format!("{name}: not an Arrow object"))),
    }
}

/// The data type of a stream's arrays.
fn reader_type(reader: &ArrayStreamReader) -> DataType {
    use arrow_array::ArrayReader;
    reader.field().data_type().clone()
}

/// The pointer a capsule holds, after checking its name.
fn capsule_pointer(
    capsule: &Bound<'_, PyCapsule>,
    wanted: &CStr,
    name: &str,
) -> PyResult<NonNull<std::ffi::c_void>> {
    capsule.pointer_checked(Some(wanted)).map_err(|_| {
        PyTypeError::new_err(format!(
            "{name}: expected a PyCapsule named {:?}",
            wanted.to_string_lossy()
        ))
    })
}

fn arrow_error(name: &str, e: arrow_schema::ArrowError) -> PyErr {
    PyValueError::new_err(format!("{name}: cannot import the Arrow data: {e}"))
}

/// A C stream of record batches, handed to pyarrow through `__arrow_c_stream__`.
///
/// pyarrow's `RecordBatchReader.from_stream()` takes any object with that method; this
/// is the smallest such object. Its stream can be taken once. (The mutex makes it `Sync`, as a pyclass must
/// be; the stream struct itself is only `Send`.)
#[pyclass(module = "bulkdoku._bulkdoku", name = "_ArrowStream")]
pub struct ArrowStream {
    stream: Mutex<Option<FFI_ArrowArrayStream>>,
}

#[pymethods]
impl ArrowStream {
    /// Export the stream as a PyCapsule (the Arrow PyCapsule interface). A
    /// `requested_schema` is ignored: the stream has one schema.
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        let stream = self
            .stream
            .lock()
            .map_err(|_| PyValueError::new_err("the Arrow stream is unusable"))?
            .take()
            .ok_or_else(|| PyValueError::new_err("the Arrow stream was already exported"))?;
        // The capsule's destructor drops the boxed struct, which releases the stream
        // unless the consumer moved it out (marking the struct released), as the
        // interface asks of a producer.
        PyCapsule::new_with_value(py, stream, STREAM)
    }
}

/// `batches` (all of `schema`) as a `pyarrow.Table`, without copying their buffers.
pub fn to_pyarrow_table<'py>(
    py: Python<'py>,
    schema: SchemaRef,
    batches: Vec<RecordBatch>,
) -> PyResult<Bound<'py, PyAny>> {
    let reader = RecordBatchIterator::new(batches.into_iter().map(Ok), schema);
    let stream = ArrowStream {
        stream: Mutex::new(Some(FFI_ArrowArrayStream::new(Box::new(reader)))),
    };
    // `RecordBatchReader.from_stream` rather than `pyarrow.table`: the latter first asks
    // whether its argument is a pandas DataFrame, which imports pandas (a good fraction
    // of a second) on the first call of a process that has not.
    py.import("pyarrow")?
        .getattr("RecordBatchReader")?
        .call_method1("from_stream", (Bound::new(py, stream)?,))?
        .call_method0("read_all")
}
