//! Values of a binary column held in many Arrow arrays (a join side's held record batches),
//! gathered into one binary array in the order asked, one copy of each value: pyarrow's `take` of
//! a chunked binary column first copies every chunk into one, and a `take` per array followed by
//! a reordering `take` copied each value twice and cost a call per array (a checkpoint's `$order`
//! column, read from every held batch for each of its pieces).

use pyo3::buffer::PyBuffer;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::columns::{native_buffer, MessageBuffers, Messages};
use crate::py_buffers::read;

/// The values `rows[i]` of the arrays `parts[which[i]]` (each as
/// `accelerator/formats/native_arrays.py` `message_buffers` gives it, none with a NULL value) as
/// (offsets, data) buffers of one binary array (32-bit offsets) of `which.len()` values.
#[pyfunction]
pub fn gather_binary<'py>(
    py: Python<'py>,
    parts: Vec<Bound<'py, PyAny>>,
    which: PyBuffer<i64>,
    rows: PyBuffer<i64>,
) -> PyResult<Bound<'py, PyTuple>> {
    let n = which.item_count();
    let which = read(&which, "gather_binary which", n)?;
    let rows = read(&rows, "gather_binary rows", n)?;
    let buffers = parts
        .iter()
        .map(MessageBuffers::get)
        .collect::<PyResult<Vec<_>>>()?;
    let arrays = buffers
        .iter()
        .map(|b| Ok((b.messages()?, b.length)))
        .collect::<PyResult<Vec<(Messages<'_>, usize)>>>()?;
    let (offsets, data) = gather(&arrays, which, rows)?;
    let offsets: Vec<u8> = offsets.iter().flat_map(|o| o.to_le_bytes()).collect();
    PyTuple::new(py, [native_buffer(py, offsets)?, native_buffer(py, data)?])
}

/// The gathered values' offsets and bytes, each (array, row) checked to name a non-NULL value.
fn gather(
    arrays: &[(Messages<'_>, usize)],
    which: &[i64],
    rows: &[i64],
) -> PyResult<(Vec<i32>, Vec<u8>)> {
    let value = |i: usize| -> PyResult<&[u8]> {
        let (part, row) = (which[i], rows[i]);
        let (array, length) = usize::try_from(part)
            .ok()
            .and_then(|p| arrays.get(p))
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "gather_binary: value {i} names array {part}, of {} arrays",
                    arrays.len()
                ))
            })?;
        let at = usize::try_from(row)
            .ok()
            .filter(|&r| r < *length)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                "gather_binary: value {i} names row {row} of array {part}, which has {length} rows"
            ))
            })?;
        array.get(at).ok_or_else(|| {
            PyValueError::new_err(format!(
                "gather_binary: value {i} (row {row} of array {part}) is NULL; only columns without NULLs are gathered"
            ))
        })
    };
    let mut total = 0usize;
    for i in 0..which.len() {
        total += value(i)?.len();
    }
    if total > i32::MAX as usize {
        return Err(PyValueError::new_err(format!(
            "gather_binary: the {} values asked take {total} bytes, more than one binary array holds (2 GiB)",
            which.len()
        )));
    }
    let mut offsets = Vec::with_capacity(which.len() + 1);
    let mut data = Vec::with_capacity(total);
    offsets.push(0i32);
    for i in 0..which.len() {
        data.extend_from_slice(value(i)?);
        offsets.push(data.len() as i32);
    }
    Ok((offsets, data))
}
