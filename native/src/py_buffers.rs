//! Slices over the NumPy arrays the Python side passes as `PyBuffer`s, checked for their layout
//! and length once, in one place for every kernel.

use pyo3::buffer::{Element, PyBuffer};
use pyo3::exceptions::PyValueError;
use pyo3::PyResult;

/// The buffer's `len` values, read in place.
pub(crate) fn read<'a, T: Element>(
    buffer: &'a PyBuffer<T>,
    what: &str,
    len: usize,
) -> PyResult<&'a [T]> {
    if !buffer.is_c_contiguous() || buffer.item_count() != len {
        return Err(PyValueError::new_err(format!(
            "{what}: a contiguous array of {len} values expected, got {} values",
            buffer.item_count()
        )));
    }
    // SAFETY: the buffer is held, and its memory kept alive, while the slice is used.
    Ok(unsafe { std::slice::from_raw_parts(buffer.buf_ptr() as *const T, len) })
}

/// The buffer's `len` values, to overwrite in place: borrowing the buffer mutably for the slice's
/// life keeps Rust from handing out a second slice of it meanwhile.
pub(crate) fn writable<'a, T: Element>(
    buffer: &'a mut PyBuffer<T>,
    what: &str,
    len: usize,
) -> PyResult<&'a mut [T]> {
    if buffer.readonly() || !buffer.is_c_contiguous() || buffer.item_count() != len {
        return Err(PyValueError::new_err(format!(
            "{what}: a writable contiguous array of {len} values expected, got {} values",
            buffer.item_count()
        )));
    }
    // SAFETY: the buffer is held, and its memory kept alive, while the slice is used; the mutable
    // borrow keeps any other slice of it from this crate away meanwhile.
    Ok(unsafe { std::slice::from_raw_parts_mut(buffer.buf_ptr() as *mut T, len) })
}
