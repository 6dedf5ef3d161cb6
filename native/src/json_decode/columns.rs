//! Arrow column builders for the decoded rows, and the buffers handed to Python without a copy.

use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use super::{Kind, Leftover, R};

pub(super) enum Values {
    Booleans(Vec<u8>),
    Fixed {
        width: usize,
        bytes: Vec<u8>,
    },
    /// int32 offsets, little-endian, and the UTF-8 they point into.
    Text {
        offsets: Vec<u8>,
        data: Vec<u8>,
    },
    Row(Vec<Column>),
}

/// One output column: a validity byte per row (packed into a bitmap at the end) and the values.
pub(super) struct Column {
    pub(super) valid: Vec<u8>,
    pub(super) values: Values,
}

impl Column {
    /// Sized for `rows` rows and text up to `text_bytes` (the messages' bytes bound every column's).
    pub(super) fn new(kind: &Kind, rows: usize, text_bytes: usize) -> Column {
        let fixed = |width| Values::Fixed {
            width,
            bytes: Vec::with_capacity(rows * width),
        };
        let values = match kind {
            Kind::Boolean => Values::Booleans(Vec::with_capacity(rows)),
            Kind::Integer(bits) => fixed(*bits as usize / 8),
            Kind::Float | Kind::Date | Kind::Time => fixed(4),
            Kind::Double | Kind::Timestamp { .. } => fixed(8),
            Kind::Decimal { .. } => fixed(16),
            Kind::Text => {
                let mut offsets = Vec::with_capacity((rows + 1) * 4);
                offsets.extend_from_slice(&0i32.to_le_bytes());
                Values::Text {
                    offsets,
                    data: Vec::with_capacity(text_bytes),
                }
            }
            Kind::Row(fields) => Values::Row(
                fields
                    .iter()
                    .map(|f| Column::new(&f.kind, rows, text_bytes))
                    .collect(),
            ),
        };
        Column {
            valid: Vec::with_capacity(rows),
            values,
        }
    }

    pub(super) fn push_null(&mut self) {
        self.valid.push(0);
        match &mut self.values {
            Values::Booleans(v) => v.push(0),
            Values::Fixed { width, bytes } => bytes.resize(bytes.len() + *width, 0),
            Values::Text { offsets, data } => {
                offsets.extend_from_slice(&(data.len() as i32).to_le_bytes())
            }
            Values::Row(children) => children.iter_mut().for_each(Column::push_null),
        }
    }

    #[inline]
    pub(super) fn push_fixed(&mut self, le_bytes: &[u8]) {
        self.valid.push(1);
        if let Values::Fixed { bytes, .. } = &mut self.values {
            bytes.extend_from_slice(le_bytes);
        }
    }

    pub(super) fn push_boolean(&mut self, value: bool) {
        self.valid.push(1);
        if let Values::Booleans(v) = &mut self.values {
            v.push(value as u8);
        }
    }

    /// The text buffer, for a string value written straight into it (then `end_text`).
    pub(super) fn text_data(&mut self) -> &mut Vec<u8> {
        match &mut self.values {
            Values::Text { data, .. } => data,
            _ => unreachable!("a text value for a non-text column"),
        }
    }

    pub(super) fn end_text(&mut self) -> R<()> {
        self.valid.push(1);
        if let Values::Text { offsets, data } = &mut self.values {
            offsets.extend_from_slice(
                &i32::try_from(data.len())
                    .map_err(|_| Leftover)?
                    .to_le_bytes(),
            );
        }
        Ok(())
    }

    /// Back to `rows` rows: drops a message's partial row when it turns out to be a leftover.
    pub(super) fn truncate(&mut self, rows: usize) {
        self.valid.truncate(rows);
        match &mut self.values {
            Values::Booleans(v) => v.truncate(rows),
            Values::Fixed { width, bytes } => bytes.truncate(rows * *width),
            Values::Text { offsets, data } => {
                offsets.truncate((rows + 1) * 4);
                data.truncate(i32::from_le_bytes(offsets[rows * 4..].try_into().unwrap()) as usize);
            }
            Values::Row(children) => children.iter_mut().for_each(|c| c.truncate(rows)),
        }
    }
}

fn bitmap(bits: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; bits.len().div_ceil(8)];
    for (byte, chunk) in out.iter_mut().zip(bits.chunks(8)) {
        *byte = chunk
            .iter()
            .enumerate()
            .fold(0, |acc, (i, &b)| acc | b << i);
    }
    out
}

/// Bytes the kernel made, handed to Python without a copy (`pa.py_buffer` takes it as it is).
#[pyclass(frozen)]
pub struct NativeBuffer {
    bytes: Vec<u8>,
}

#[pymethods]
impl NativeBuffer {
    unsafe fn __getbuffer__(
        slf: Bound<'_, Self>,
        view: *mut pyo3::ffi::Py_buffer,
        flags: std::os::raw::c_int,
    ) -> PyResult<()> {
        if view.is_null() {
            return Err(pyo3::exceptions::PyBufferError::new_err("no view to fill"));
        }
        if flags & pyo3::ffi::PyBUF_WRITABLE == pyo3::ffi::PyBUF_WRITABLE {
            return Err(pyo3::exceptions::PyBufferError::new_err(
                "the kernel's buffers are read-only",
            ));
        }
        let bytes = &slf.get().bytes;
        // SAFETY: `view` is the caller's to fill; `obj` keeps this object, and so `bytes`, alive.
        unsafe {
            (*view).buf = bytes.as_ptr() as *mut std::os::raw::c_void;
            (*view).len = bytes.len() as isize;
            (*view).readonly = 1;
            (*view).itemsize = 1;
            (*view).format = if flags & pyo3::ffi::PyBUF_FORMAT == pyo3::ffi::PyBUF_FORMAT {
                c"B".as_ptr() as *mut std::os::raw::c_char
            } else {
                std::ptr::null_mut()
            };
            (*view).ndim = 1;
            (*view).shape = if flags & pyo3::ffi::PyBUF_ND == pyo3::ffi::PyBUF_ND {
                &mut (*view).len
            } else {
                std::ptr::null_mut()
            };
            (*view).strides = if flags & pyo3::ffi::PyBUF_STRIDES == pyo3::ffi::PyBUF_STRIDES {
                &mut (*view).itemsize
            } else {
                std::ptr::null_mut()
            };
            (*view).suboffsets = std::ptr::null_mut();
            (*view).internal = std::ptr::null_mut();
            (*view).obj = slf.into_any().into_ptr();
        }
        Ok(())
    }
}

pub(super) fn native_buffer<'py>(py: Python<'py>, bytes: Vec<u8>) -> PyResult<Bound<'py, PyAny>> {
    Ok(Bound::new(py, NativeBuffer { bytes })?.into_any())
}

/// (validity bitmap or None, value buffers, children) for `pa.Array.from_buffers`.
pub(super) fn column_to_python(py: Python<'_>, column: Column) -> PyResult<Bound<'_, PyTuple>> {
    let validity = if column.valid.iter().all(|&v| v == 1) {
        py.None().into_bound(py)
    } else {
        native_buffer(py, bitmap(&column.valid))?
    };
    let buffers = PyList::empty(py);
    let children = PyList::empty(py);
    match column.values {
        Values::Booleans(v) => buffers.append(native_buffer(py, bitmap(&v))?)?,
        Values::Fixed { bytes, .. } => buffers.append(native_buffer(py, bytes)?)?,
        Values::Text { offsets, data } => {
            buffers.append(native_buffer(py, offsets)?)?;
            buffers.append(native_buffer(py, data)?)?;
        }
        Values::Row(kids) => {
            for kid in kids {
                children.append(column_to_python(py, kid)?)?;
            }
        }
    }
    PyTuple::new(py, [validity, buffers.into_any(), children.into_any()])
}
