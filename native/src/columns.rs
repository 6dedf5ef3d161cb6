//! Arrow column builders for the rows the decoding kernels make, the buffers handed to Python
//! without a copy, and the message column (a binary array's buffers) the kernels read.

use pyo3::buffer::PyBuffer;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

pub enum Values {
    Booleans(Vec<u8>),
    Fixed {
        width: usize,
        bytes: Vec<u8>,
    },
    /// int32 offsets, little-endian, and the bytes (UTF-8 for strings) they point into.
    Text {
        offsets: Vec<u8>,
        data: Vec<u8>,
    },
    /// The fields' columns. A null row is written to the row's validity only: its fields' columns
    /// may lag behind it, every missing row a null, until `children` or the output pads them (one
    /// bulk fill instead of a null pushed into every field for every null row).
    Row(Vec<Column>),
    /// TIMESTAMP/TIMESTAMP_LTZ as Flink's TimestampData pair (`accelerator/formats/timestamps.py`):
    /// little-endian int64 epoch milliseconds and int32 nanoseconds of the millisecond, both 0 for
    /// a null row (the struct's children are NOT NULL).
    Timestamp {
        millis: Vec<u8>,
        nanos: Vec<u8>,
    },
    /// int32 offsets, little-endian, into the items' column.
    List {
        offsets: Vec<u8>,
        items: Box<Column>,
    },
    /// A column the stage never reads: its values are checked as any other's but kept nowhere
    /// (no rows; Python makes it an all-null array). A row's fields are skipped columns too.
    Skipped(Vec<Column>),
}

impl Values {
    /// An empty timestamp column with room for `rows` rows.
    pub fn timestamps(rows: usize) -> Values {
        Values::Timestamp {
            millis: Vec::with_capacity(rows * 8),
            nanos: Vec::with_capacity(rows * 4),
        }
    }
}

/// One output column: a validity byte per row (packed into a bitmap at the end) and the values.
pub struct Column {
    pub valid: Vec<u8>,
    pub values: Values,
}

impl Column {
    /// A column that keeps nothing (`Values::Skipped`), with `fields` for a row's fields.
    pub fn skipped(fields: Vec<Column>) -> Column {
        Column {
            valid: Vec::new(),
            values: Values::Skipped(fields),
        }
    }

    pub fn push_null(&mut self) {
        if let Values::Skipped(_) = self.values {
            return;
        }
        self.valid.push(0);
        match &mut self.values {
            Values::Booleans(v) => v.push(0),
            Values::Fixed { width, bytes } => bytes.resize(bytes.len() + *width, 0),
            Values::Text { offsets, data } => {
                offsets.extend_from_slice(&(data.len() as i32).to_le_bytes())
            }
            Values::Timestamp { millis, nanos } => {
                millis.extend_from_slice(&0i64.to_le_bytes());
                nanos.extend_from_slice(&0i32.to_le_bytes());
            }
            Values::Row(_) | Values::Skipped(_) => {}
            Values::List { offsets, .. } => offsets.extend_from_within(offsets.len() - 4..),
        }
    }

    /// Pads the column with nulls up to `rows` rows (the same bytes `push_null` writes).
    #[inline]
    fn fill_nulls(&mut self, rows: usize) {
        if rows > self.valid.len() {
            self.append_nulls(rows);
        }
    }

    #[cold]
    fn append_nulls(&mut self, rows: usize) {
        if let Values::Skipped(_) = self.values {
            return;
        }
        self.valid.resize(rows, 0);
        match &mut self.values {
            Values::Booleans(v) => v.resize(rows, 0),
            Values::Fixed { width, bytes } => bytes.resize(rows * *width, 0),
            Values::Timestamp { millis, nanos } => {
                millis.resize(rows * 8, 0);
                nanos.resize(rows * 4, 0);
            }
            Values::Text { offsets, .. } | Values::List { offsets, .. } => {
                let last: [u8; 4] = offsets[offsets.len() - 4..].try_into().unwrap();
                let from = offsets.len();
                offsets.resize((rows + 1) * 4, 0);
                offsets[from..]
                    .chunks_exact_mut(4)
                    .for_each(|o| o.copy_from_slice(&last));
            }
            Values::Row(_) | Values::Skipped(_) => {}
        }
    }

    /// A row column's field columns, padded to its rows, for the next row's fields to be
    /// appended (then push its validity).
    #[inline]
    pub fn children(&mut self) -> &mut [Column] {
        let rows = self.valid.len();
        match &mut self.values {
            Values::Row(children) => {
                children.iter_mut().for_each(|c| c.fill_nulls(rows));
                children
            }
            Values::Skipped(children) => children,
            _ => unreachable!("fields of a non-row column"),
        }
    }

    #[inline]
    pub fn push_fixed(&mut self, le_bytes: &[u8]) {
        if let Values::Fixed { bytes, .. } = &mut self.values {
            self.valid.push(1);
            bytes.extend_from_slice(le_bytes);
        }
    }

    /// A timestamp: epoch milliseconds and nanoseconds of the millisecond (0..999_999).
    #[inline]
    pub fn push_timestamp(&mut self, epoch_millis: i64, nano_of_milli: i32) {
        if let Values::Timestamp { millis, nanos } = &mut self.values {
            self.valid.push(1);
            millis.extend_from_slice(&epoch_millis.to_le_bytes());
            nanos.extend_from_slice(&nano_of_milli.to_le_bytes());
        }
    }

    pub fn push_boolean(&mut self, value: bool) {
        if let Values::Booleans(v) = &mut self.values {
            self.valid.push(1);
            v.push(value as u8);
        }
    }

    /// A non-null row (its fields were appended to `children`).
    pub fn push_row(&mut self) {
        if let Values::Row(_) = self.values {
            self.valid.push(1);
        }
    }

    /// The text buffer, for a string value written straight into it (then `end_text`).
    pub fn text_data(&mut self) -> &mut Vec<u8> {
        match &mut self.values {
            Values::Text { data, .. } => data,
            _ => unreachable!("a text value for a non-text column"),
        }
    }

    /// `text_data`, or None for a skipped column (its text is checked, not kept).
    pub fn text_sink(&mut self) -> Option<&mut Vec<u8>> {
        match &mut self.values {
            Values::Text { data, .. } => Some(data),
            Values::Skipped(_) => None,
            _ => unreachable!("a text value for a non-text column"),
        }
    }

    /// Ends a text value; false (the column then needs `truncate`) past Arrow's 2 GiB of text.
    pub fn end_text(&mut self) -> bool {
        if let Values::Skipped(_) = self.values {
            return true;
        }
        self.valid.push(1);
        if let Values::Text { offsets, data } = &mut self.values {
            let Ok(end) = i32::try_from(data.len()) else {
                return false;
            };
            offsets.extend_from_slice(&end.to_le_bytes());
        }
        true
    }

    /// Back to `rows` rows: drops a message's partial row when it turns out to be a leftover.
    pub fn truncate(&mut self, rows: usize) {
        if rows > self.valid.len() {
            return; // a lagging field column of a row (nothing of it to drop)
        }
        self.valid.truncate(rows);
        match &mut self.values {
            Values::Booleans(v) => v.truncate(rows),
            Values::Fixed { width, bytes } => bytes.truncate(rows * *width),
            Values::Timestamp { millis, nanos } => {
                millis.truncate(rows * 8);
                nanos.truncate(rows * 4);
            }
            Values::Text { offsets, data } => {
                offsets.truncate((rows + 1) * 4);
                data.truncate(i32::from_le_bytes(offsets[rows * 4..].try_into().unwrap()) as usize);
            }
            Values::Row(children) => children.iter_mut().for_each(|c| c.truncate(rows)),
            Values::Skipped(_) => {}
            Values::List { offsets, items } => {
                offsets.truncate((rows + 1) * 4);
                items
                    .truncate(i32::from_le_bytes(offsets[rows * 4..].try_into().unwrap()) as usize);
            }
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

pub fn native_buffer<'py>(py: Python<'py>, bytes: Vec<u8>) -> PyResult<Bound<'py, PyAny>> {
    Ok(Bound::new(py, NativeBuffer { bytes })?.into_any())
}

/// (validity bitmap or None, value buffers, children) for `pa.Array.from_buffers`; None for a
/// skipped column. A timestamp is a struct of two children without nulls.
pub fn column_to_python(py: Python<'_>, mut column: Column) -> PyResult<Bound<'_, PyAny>> {
    if let Values::Skipped(_) = column.values {
        return Ok(py.None().into_bound(py));
    }
    if let Values::Row(_) = column.values {
        column.children();
    }
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
        Values::Timestamp { millis, nanos } => {
            for part in [millis, nanos] {
                let buffers = PyList::new(py, [native_buffer(py, part)?])?;
                let child = [
                    py.None().into_bound(py),
                    buffers.into_any(),
                    PyList::empty(py).into_any(),
                ];
                children.append(PyTuple::new(py, child)?)?;
            }
        }
        Values::Text { offsets, data } => {
            buffers.append(native_buffer(py, offsets)?)?;
            buffers.append(native_buffer(py, data)?)?;
        }
        Values::Row(kids) => {
            for kid in kids {
                children.append(column_to_python(py, kid)?)?;
            }
        }
        Values::List { offsets, items } => {
            buffers.append(native_buffer(py, offsets)?)?;
            children.append(column_to_python(py, *items)?)?;
        }
        Values::Skipped(_) => unreachable!("returned above"),
    }
    Ok(PyTuple::new(py, [validity, buffers.into_any(), children.into_any()])?.into_any())
}

fn buffer_bytes<'a>(buffer: &'a PyBuffer<i8>, what: &str) -> PyResult<&'a [u8]> {
    if !buffer.is_c_contiguous() {
        return Err(PyValueError::new_err(format!(
            "the {what} buffer is not contiguous"
        )));
    }
    // SAFETY: the buffer is held (and its memory kept alive) for as long as the slice is used.
    Ok(unsafe { std::slice::from_raw_parts(buffer.buf_ptr() as *const u8, buffer.len_bytes()) })
}

/// A Binary/LargeBinary (or String) array of messages, as `accelerator/formats/native_arrays.py`
/// passes it: its buffers (held while a kernel reads them), offset, length and offset width.
pub struct MessageBuffers {
    validity: Option<PyBuffer<i8>>,
    offsets: PyBuffer<i8>,
    data: Option<PyBuffer<i8>>,
    offset: usize,
    pub length: usize,
    wide_offsets: bool,
}

impl MessageBuffers {
    /// From the tuple (validity or None, offsets, data or None when every message is empty,
    /// offset, length, wide_offsets).
    pub fn get(array: &Bound<'_, PyAny>) -> PyResult<MessageBuffers> {
        #[allow(clippy::type_complexity)]
        let (validity, offsets, data, offset, length, wide_offsets): (
            Option<Bound<'_, PyAny>>,
            Bound<'_, PyAny>,
            Option<Bound<'_, PyAny>>,
            usize,
            usize,
            bool,
        ) = array.extract()?;
        Ok(MessageBuffers {
            validity: validity.map(|v| PyBuffer::<i8>::get(&v)).transpose()?,
            offsets: PyBuffer::<i8>::get(&offsets)?,
            data: data.map(|d| PyBuffer::<i8>::get(&d)).transpose()?,
            offset,
            length,
            wide_offsets,
        })
    }

    /// The messages of the array, every one checked to lie in the data.
    pub fn messages(&self) -> PyResult<Messages<'_>> {
        let (offset, length, wide_offsets) = (self.offset, self.length, self.wide_offsets);
        let validity = self
            .validity
            .as_ref()
            .map(|v| buffer_bytes(v, "validity"))
            .transpose()?;
        let offsets = buffer_bytes(&self.offsets, "offsets")?;
        let data = self
            .data
            .as_ref()
            .map(|d| buffer_bytes(d, "data"))
            .transpose()?
            .unwrap_or(&[]);
        let width = if wide_offsets { 8 } else { 4 };
        if offsets.len() < (offset + length + 1) * width
            || validity.is_some_and(|v| v.len() * 8 < offset + length)
        {
            return Err(PyValueError::new_err(
                "the message buffers are shorter than the array",
            ));
        }
        let messages = Messages {
            validity,
            offsets,
            data,
            offset,
            width,
        };
        for i in 0..length {
            if messages.at(i) > messages.at(i + 1) || messages.at(i + 1) > data.len() {
                return Err(PyValueError::new_err(format!(
                    "message {i} lies outside the data buffer"
                )));
            }
        }
        Ok(messages)
    }
}

/// Checked views of the messages of a binary array.
pub struct Messages<'a> {
    validity: Option<&'a [u8]>,
    offsets: &'a [u8],
    pub data: &'a [u8],
    offset: usize,
    width: usize,
}

impl<'a> Messages<'a> {
    fn at(&self, i: usize) -> usize {
        let b = &self.offsets[(self.offset + i) * self.width..(self.offset + i + 1) * self.width];
        if self.width == 8 {
            i64::from_le_bytes(b.try_into().unwrap()) as usize
        } else {
            i32::from_le_bytes(b.try_into().unwrap()) as usize
        }
    }

    /// The bytes of message `i`, whatever its validity (empty for a null Arrow wrote).
    pub fn bytes(&self, i: usize) -> &'a [u8] {
        &self.data[self.at(i)..self.at(i + 1)]
    }

    /// Message `i`, or None for a null (tombstone).
    pub fn get(&self, i: usize) -> Option<&'a [u8]> {
        let j = self.offset + i;
        if self.validity.is_some_and(|v| v[j / 8] >> (j % 8) & 1 == 0) {
            return None;
        }
        Some(self.bytes(i))
    }
}
