//! The JSON text of Arrow values, byte-identical to what Flink's `json` format (Jackson) writes:
//! whole rows `{"name":value,...}` in field order, read straight from the columns' buffers.
//!
//! Python (`accelerator.formats.json_encoder`) describes each column as a tuple
//! `(kind, length, offset, validity, buffers, params, fields)`, a row's fields as (UTF-8 name,
//! column) pairs. Types not written here (doubles, decimals, bytes, arrays, maps) arrive as
//! `fragment` columns of JSON text Python made.

use std::ffi::c_void;
use std::os::raw::c_int;

use pyo3::exceptions::{PyBufferError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;

/// Bytes produced here, lent to Python through the buffer protocol (no copy).
#[pyclass(frozen, module = "accelerator._native")]
pub struct NativeBytes {
    bytes: Vec<u8>,
}

#[pymethods]
impl NativeBytes {
    unsafe fn __getbuffer__(slf: Bound<'_, Self>, view: *mut ffi::Py_buffer, flags: c_int) -> PyResult<()> {
        if flags & ffi::PyBUF_WRITABLE != 0 {
            return Err(PyBufferError::new_err("the encoded bytes are read-only"));
        }
        let bytes = &slf.get().bytes;
        let filled = unsafe {
            ffi::PyBuffer_FillInfo(view, slf.as_ptr(), bytes.as_ptr() as *mut c_void,
                                   bytes.len() as ffi::Py_ssize_t, 1, flags)
        };
        if filled == -1 {
            return Err(PyErr::fetch(slf.py()));
        }
        Ok(())
    }

    fn __len__(&self) -> usize {
        self.bytes.len()
    }
}

/// A Python object's buffer, held (and its memory pinned) until dropped with the GIL held.
struct Held(Box<ffi::Py_buffer>);

impl Drop for Held {
    fn drop(&mut self) {
        unsafe { ffi::PyBuffer_Release(&mut *self.0) }
    }
}

/// Arrow's variable-length layout: int32 offsets into the data.
struct Strings<'a> {
    offsets: &'a [u8],
    data: &'a [u8],
}

impl Strings<'_> {
    #[inline]
    fn offset(&self, i: usize) -> usize {
        i32::from_le_bytes(self.offsets[4 * i..4 * i + 4].try_into().unwrap()) as usize
    }

    #[inline]
    fn value(&self, i: usize) -> &[u8] {
        &self.data[self.offset(i)..self.offset(i + 1)]
    }
}

enum Kind<'a> {
    /// JSON text rendered by Python, copied as is.
    Fragment(Strings<'a>),
    /// CHAR/VARCHAR, escaped as Jackson escapes.
    String(Strings<'a>),
    Bool(&'a [u8]),
    /// Little-endian signed integers of the given byte width.
    Int(&'a [u8], usize),
    /// Days since the epoch (int32).
    Date(&'a [u8]),
    /// Milliseconds of the day (int32).
    Time(&'a [u8]),
    Timestamp { values: &'a [u8], units_per_second: i64, nanos_per_unit: i64, separator: u8, zulu: bool },
    /// A row: its fields' `"name":` keys and columns.
    Row(Vec<(Vec<u8>, Column<'a>)>),
}

struct Column<'a> {
    length: usize,
    offset: usize,
    validity: Option<&'a [u8]>,
    kind: Kind<'a>,
}

impl Column<'_> {
    #[inline]
    fn is_valid(&self, i: usize) -> bool {
        match self.validity {
            None => true,
            Some(bits) => bit(bits, self.offset + i),
        }
    }

    /// The JSON text of value `i` (which is not null).
    fn write(&self, i: usize, ignore_nulls: bool, out: &mut Vec<u8>) {
        let at = self.offset + i;
        match &self.kind {
            Kind::Fragment(s) => out.extend_from_slice(s.value(at)),
            Kind::String(s) => write_escaped(s.value(at), out),
            Kind::Bool(bits) => out.extend_from_slice(if bit(bits, at) { b"true" } else { b"false" }),
            Kind::Int(values, width) => write_int(read_int(values, at, *width), out),
            Kind::Date(values) => {
                out.push(b'"');
                write_date(read_int(values, at, 4), out);
                out.push(b'"');
            }
            Kind::Time(values) => write_time(read_int(values, at, 4), out),
            Kind::Timestamp { values, units_per_second, nanos_per_unit, separator, zulu } => {
                let v = read_int(values, at, 8);
                write_timestamp(v, *units_per_second, *nanos_per_unit, *separator, *zulu, out)
            }
            Kind::Row(fields) => write_row(fields, i, ignore_nulls, out),
        }
    }

    /// A generous guess of the text's size, so the output is rarely reallocated.
    fn size_hint(&self) -> usize {
        let per_value = match &self.kind {
            Kind::Fragment(s) | Kind::String(s) => {
                let used = if self.length == 0 { 0 } else { s.offset(self.offset + self.length) - s.offset(self.offset) };
                return used + used / 8 + 2 * self.length;
            }
            Kind::Bool(_) => 5,
            Kind::Int(_, width) => [0, 4, 6, 0, 11, 0, 0, 0, 20][*width],
            Kind::Date(_) => 12,
            Kind::Time(_) => 10,
            Kind::Timestamp { .. } => 32,
            Kind::Row(fields) => {
                return 2 * self.length
                    + fields.iter().map(|(key, c)| (key.len() + 1) * self.length + c.size_hint()).sum::<usize>();
            }
        };
        per_value * self.length
    }
}

#[inline]
fn bit(bits: &[u8], i: usize) -> bool {
    bits[i >> 3] >> (i & 7) & 1 == 1
}

#[inline]
fn read_int(values: &[u8], i: usize, width: usize) -> i64 {
    let b = &values[i * width..i * width + width];
    match width {
        1 => b[0] as i8 as i64,
        2 => i16::from_le_bytes(b.try_into().unwrap()) as i64,
        4 => i32::from_le_bytes(b.try_into().unwrap()) as i64,
        _ => i64::from_le_bytes(b.try_into().unwrap()),
    }
}

/// `{"a":1,"b":null}`: fields in declared order; with ignore-null-fields, null fields left out.
fn write_row(fields: &[(Vec<u8>, Column<'_>)], i: usize, ignore_nulls: bool, out: &mut Vec<u8>) {
    out.push(b'{');
    let mut first = true;
    for (key, column) in fields {
        let valid = column.is_valid(i);
        if !valid && ignore_nulls {
            continue;
        }
        if !first {
            out.push(b',');
        }
        first = false;
        out.extend_from_slice(key);
        if valid {
            column.write(i, ignore_nulls, out);
        } else {
            out.extend_from_slice(b"null");
        }
    }
    out.push(b'}');
}

// -- numbers and strings --------------------------------------------------------------------------

fn write_int(v: i64, out: &mut Vec<u8>) {
    let mut digits = [0u8; 20];
    let mut n = v.unsigned_abs();
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if v < 0 {
        out.push(b'-');
    }
    out.extend_from_slice(&digits[at..]);
}

/// What Jackson escapes: 1 for quote, backslash and control characters; 2 for the first byte of a
/// character outside the Basic Multilingual Plane (written as a surrogate pair).
static ESCAPE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = if b < 0x20 || b == b'"' as usize || b == b'\\' as usize {
            1
        } else if b >= 0xF0 {
            2
        } else {
            0
        };
        b += 1;
    }
    table
};

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// True when one of the 8 bytes is a quote, a backslash, a control character or >= 0xF0.
#[inline]
fn chunk_needs_escape(x: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let has_zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGHS;
    let control = x.wrapping_sub(ONES * 0x20) & !x & HIGHS;
    let quote = has_zero(x ^ (ONES * b'"' as u64));
    let backslash = has_zero(x ^ (ONES * b'\\' as u64));
    let four_byte = has_zero((x & (ONES * 0xF0)) ^ (ONES * 0xF0));
    control | quote | backslash | four_byte != 0
}

fn write_unicode_escape(unit: u32, out: &mut Vec<u8>) {
    out.extend_from_slice(b"\\u");
    for shift in [12, 8, 4, 0] {
        out.push(HEX[(unit >> shift & 0xF) as usize]);
    }
}

/// A string as Jackson writes it, quotes included.
fn write_escaped(s: &[u8], out: &mut Vec<u8>) {
    out.push(b'"');
    let mut start = 0;
    let mut i = 0;
    while i < s.len() {
        if i + 8 <= s.len() && !chunk_needs_escape(u64::from_le_bytes(s[i..i + 8].try_into().unwrap())) {
            i += 8;
            continue;
        }
        let b = s[i];
        match ESCAPE[b as usize] {
            0 => {
                i += 1;
                continue;
            }
            1 => {
                out.extend_from_slice(&s[start..i]);
                match b {
                    b'"' => out.extend_from_slice(b"\\\""),
                    b'\\' => out.extend_from_slice(b"\\\\"),
                    0x08 => out.extend_from_slice(b"\\b"),
                    b'\t' => out.extend_from_slice(b"\\t"),
                    b'\n' => out.extend_from_slice(b"\\n"),
                    0x0C => out.extend_from_slice(b"\\f"),
                    b'\r' => out.extend_from_slice(b"\\r"),
                    _ => write_unicode_escape(b as u32, out),
                }
                i += 1;
            }
            _ => {
                if i + 4 > s.len() {
                    i += 1; // not UTF-8 (Arrow validates strings): left as it is
                    continue;
                }
                out.extend_from_slice(&s[start..i]);
                let code = ((b as u32 & 0x07) << 18) | ((s[i + 1] as u32 & 0x3F) << 12)
                    | ((s[i + 2] as u32 & 0x3F) << 6) | (s[i + 3] as u32 & 0x3F);
                let above = code - 0x10000;
                write_unicode_escape(0xD800 + (above >> 10), out);
                write_unicode_escape(0xDC00 + (above & 0x3FF), out);
                i += 4;
            }
        }
        start = i;
    }
    out.extend_from_slice(&s[start..]);
    out.push(b'"');
}

// -- dates and times ------------------------------------------------------------------------------

#[inline]
fn write_two_digits(v: i64, out: &mut Vec<u8>) {
    out.push(b'0' + (v / 10) as u8);
    out.push(b'0' + (v % 10) as u8);
}

/// Proleptic Gregorian (year, month, day) of a day number, for any year.
fn civil(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + (month <= 2) as i64, month, day)
}

/// yyyy-MM-dd; Java's year field is 4 digits, with a sign outside 0..9999.
fn write_date(days: i64, out: &mut Vec<u8>) {
    let (year, month, day) = civil(days);
    if (0..=9999).contains(&year) {
        write_two_digits(year / 100, out);
        write_two_digits(year % 100, out);
    } else if year > 9999 {
        out.push(b'+');
        write_int(year, out);
    } else {
        out.push(b'-');
        let magnitude = -year;
        if magnitude < 1000 {
            out.extend_from_slice(&b"000"[..(4 - decimal_width(magnitude))]);
        }
        write_int(magnitude, out);
    }
    out.push(b'-');
    write_two_digits(month, out);
    out.push(b'-');
    write_two_digits(day, out);
}

fn decimal_width(mut v: i64) -> usize {
    let mut width = 1;
    while v >= 10 {
        v /= 10;
        width += 1;
    }
    width
}

/// Decimal text left-padded with zeros to two characters (a sign counts as one).
fn write_padded_two(v: i64, out: &mut Vec<u8>) {
    if (0..10).contains(&v) {
        out.push(b'0');
    }
    write_int(v, out);
}

/// TIME is written from whole seconds: Flink drops the milliseconds it holds.
fn write_time(millis: i64, out: &mut Vec<u8>) {
    let seconds = millis / 1000;
    let hours = seconds / 3600;
    let minutes = (seconds - hours * 3600) / 60;
    out.push(b'"');
    write_padded_two(hours, out);
    out.push(b':');
    write_padded_two(minutes, out);
    out.push(b':');
    write_padded_two(seconds - hours * 3600 - minutes * 60, out);
    out.push(b'"');
}

/// yyyy-MM-dd HH:mm:ss (or 'T'), then the fraction's digits without trailing zeros; 'Z' for
/// TIMESTAMP_LTZ (written in UTC).
fn write_timestamp(v: i64, units_per_second: i64, nanos_per_unit: i64, separator: u8, zulu: bool, out: &mut Vec<u8>) {
    let per_day = 86_400 * units_per_second;
    let rest = v.rem_euclid(per_day);
    let seconds = rest / units_per_second;
    let mut fraction = rest % units_per_second * nanos_per_unit;
    out.push(b'"');
    write_date(v.div_euclid(per_day), out);
    out.push(separator);
    write_two_digits(seconds / 3600, out);
    out.push(b':');
    write_two_digits(seconds / 60 % 60, out);
    out.push(b':');
    write_two_digits(seconds % 60, out);
    if fraction != 0 {
        let mut digits = 9;
        while fraction % 10 == 0 {
            fraction /= 10;
            digits -= 1;
        }
        out.push(b'.');
        let mut text = [b'0'; 9];
        for at in (0..digits).rev() {
            text[at] = b'0' + (fraction % 10) as u8;
            fraction /= 10;
        }
        out.extend_from_slice(&text[..digits]);
    }
    if zulu {
        out.push(b'Z');
    }
    out.push(b'"');
}

// -- reading Python's description of the columns --------------------------------------------------

fn buffer_bytes<'a>(obj: &Bound<'_, PyAny>, held: &mut Vec<Held>) -> PyResult<&'a [u8]> {
    if obj.is_none() {
        return Ok(&[]);
    }
    let mut view = Box::new(unsafe { std::mem::zeroed::<ffi::Py_buffer>() });
    if unsafe { ffi::PyObject_GetBuffer(obj.as_ptr(), &mut *view, ffi::PyBUF_SIMPLE) } == -1 {
        return Err(PyErr::fetch(obj.py()));
    }
    let (ptr, len) = (view.buf as *const u8, view.len as usize);
    held.push(Held(view));
    // The memory stays pinned while `held` holds the view; the caller keeps it past every use.
    Ok(if len == 0 { &[] } else { unsafe { std::slice::from_raw_parts(ptr, len) } })
}

fn too_short(kind: &str, length: usize, what: &str, has: usize, needs: usize) -> PyErr {
    PyValueError::new_err(format!(
        "json encode: a {kind} column of {length} values has a {what} buffer of {has} bytes, it needs {needs}; \
         the Arrow array handed to the encoder is malformed"))
}

fn check_len(kind: &str, length: usize, what: &str, bytes: &[u8], needs: usize) -> PyResult<()> {
    if length > 0 && bytes.len() < needs {
        return Err(too_short(kind, length, what, bytes.len(), needs));
    }
    Ok(())
}

fn strings<'a>(kind: &str, length: usize, offset: usize, offsets: &'a [u8], data: &'a [u8]) -> PyResult<Strings<'a>> {
    check_len(kind, length, "offsets", offsets, 4 * (offset + length + 1))?;
    let s = Strings { offsets, data };
    if length > 0 {
        let mut previous = i32::from_le_bytes(offsets[4 * offset..4 * offset + 4].try_into().unwrap());
        for i in offset + 1..=offset + length {
            let next = i32::from_le_bytes(offsets[4 * i..4 * i + 4].try_into().unwrap());
            if previous < 0 || next < previous {
                return Err(PyValueError::new_err(format!(
                    "json encode: a {kind} column's offsets go from {previous} to {next} at value {}; \
                     the Arrow array handed to the encoder is malformed", i - offset)));
            }
            previous = next;
        }
        check_len(kind, length, "data", data, previous as usize)?;
    }
    Ok(s)
}

type Description<'py> = (String, usize, usize, Bound<'py, PyAny>, Vec<Bound<'py, PyAny>>, Vec<i64>,
                         Vec<(Vec<u8>, Bound<'py, PyAny>)>);

fn column<'a>(described: &Bound<'_, PyAny>, held: &mut Vec<Held>) -> PyResult<Column<'a>> {
    let (kind, length, offset, validity, buffers, params, children): Description = described.extract()?;
    let validity = if validity.is_none() { None } else { Some(buffer_bytes(&validity, held)?) };
    if let Some(bits) = validity {
        check_len(&kind, length, "validity", bits, (offset + length).div_ceil(8))?;
    }
    let buffer = |i: usize, held: &mut Vec<Held>| -> PyResult<&'a [u8]> {
        match buffers.get(i) {
            Some(obj) => buffer_bytes(obj, held),
            None => Err(PyValueError::new_err(format!("json encode: a {kind} column needs buffer {i}"))),
        }
    };
    let param = |i: usize| -> PyResult<i64> {
        params.get(i).copied().ok_or_else(|| PyValueError::new_err(format!("json encode: a {kind} column needs parameter {i}")))
    };
    let fixed = |width: usize, held: &mut Vec<Held>| -> PyResult<&'a [u8]> {
        let values = buffer(0, held)?;
        check_len(&kind, length, "values", values, width * (offset + length))?;
        Ok(values)
    };
    let parsed = match kind.as_str() {
        "fragment" | "string" => {
            let s = strings(&kind, length, offset, buffer(0, held)?, buffer(1, held)?)?;
            if kind == "string" { Kind::String(s) } else { Kind::Fragment(s) }
        }
        "bool" => {
            let bits = buffer(0, held)?;
            check_len(&kind, length, "values", bits, (offset + length).div_ceil(8))?;
            Kind::Bool(bits)
        }
        "int" => {
            let width = param(0)? as usize;
            if ![1, 2, 4, 8].contains(&width) {
                return Err(PyValueError::new_err(format!("json encode: no {width}-byte integers")));
            }
            Kind::Int(fixed(width, held)?, width)
        }
        "date" => Kind::Date(fixed(4, held)?),
        "time" => Kind::Time(fixed(4, held)?),
        "timestamp" => {
            let nanos_per_unit = param(0)?;
            if ![1, 1_000, 1_000_000, 1_000_000_000].contains(&nanos_per_unit) {
                return Err(PyValueError::new_err(format!("json encode: no timestamp unit of {nanos_per_unit} ns")));
            }
            Kind::Timestamp {
                values: fixed(8, held)?,
                units_per_second: 1_000_000_000 / nanos_per_unit,
                nanos_per_unit,
                separator: if param(1)? != 0 { b'T' } else { b' ' },
                zulu: param(2)? != 0,
            }
        }
        "row" => {
            let mut fields = Vec::with_capacity(children.len());
            for (name, child) in &children {
                let c = column(child, held)?;
                if c.length != length {
                    return Err(PyValueError::new_err(format!(
                        "json encode: a row of {length} values has a field of {} values", c.length)));
                }
                let mut key = Vec::with_capacity(name.len() + 3);
                write_escaped(name, &mut key);
                key.push(b':');
                fields.push((key, c));
            }
            Kind::Row(fields)
        }
        other => return Err(PyValueError::new_err(format!("json encode: unknown column kind {other:?}"))),
    };
    Ok(Column { length, offset, validity, kind: parsed })
}

/// The JSON text of every value of a column described as above ("" for a null value), as
/// (data, int32 offsets) for an Arrow string or binary array.
#[pyfunction]
pub fn json_values(py: Python<'_>, described: &Bound<'_, PyAny>, ignore_null_fields: bool)
                   -> PyResult<(NativeBytes, NativeBytes)> {
    let mut held = Vec::new();
    let result = {
        let col = column(described, &mut held)?;
        py.detach(|| render(&col, ignore_null_fields))
    };
    drop(held);
    let (data, offsets) = result?;
    Ok((NativeBytes { bytes: data }, NativeBytes { bytes: offsets }))
}

fn render(col: &Column<'_>, ignore_nulls: bool) -> Result<(Vec<u8>, Vec<u8>), PyErr> {
    let mut data = Vec::with_capacity(col.size_hint());
    let mut offsets = Vec::with_capacity(4 * (col.length + 1));
    offsets.extend_from_slice(&0i32.to_le_bytes());
    for i in 0..col.length {
        if col.is_valid(i) {
            col.write(i, ignore_nulls, &mut data);
        }
        let end = i32::try_from(data.len()).map_err(|_| PyValueError::new_err(format!(
            "json encode: the text of the first {} of {} values exceeds 2 GiB; encode smaller batches",
            i + 1, col.length)))?;
        offsets.extend_from_slice(&end.to_le_bytes());
    }
    Ok((data, offsets))
}
