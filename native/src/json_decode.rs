//! The json format's fast path: Kafka message values (one Arrow binary column) -> Arrow column
//! buffers, for the messages it can vouch that Flink's json decoder reads the same way.
//!
//! Flink's decoder walks the tokens of a streaming JSON parser (Jackson), and its result on odd
//! input depends on the parser's exact rules; `accelerator/formats/json_converters.py` models them
//! token for token. This kernel only takes messages on which nothing odd happens: one JSON object
//! (after optional whitespace) whose tokens are all well formed (no leading zeros, no NaN, strict
//! UTF-8, no raw control characters, well below every parser limit), whose values are the plain
//! forms of their fields' types, and without a field read twice. Every other message is a
//! "leftover" for the exact Python path, which also reproduces failures and skips. Bytes after
//! the object's closing brace are never read, as in Flink.

use pyo3::buffer::PyBuffer;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

/// Why a message is left to the exact path (never surfaced: the exact path says what Flink does).
struct Leftover;
type R<T> = Result<T, Leftover>;

/// Jackson's nesting limit is 1000; deeper documents are left to the exact path well before it.
const MAX_DEPTH: usize = 500;
/// Jackson's limits on a number's digits and a name's chars; longer texts go to the exact path
/// (a text's bytes bound its digits and its Java chars from above).
const MAX_NUMBER_BYTES: usize = 1000;
const MAX_NAME_BYTES: usize = 50_000;
/// Far below Jackson's 20M-char string limit.
const MAX_MESSAGE_BYTES: usize = 16 << 20;
const NANOS_PER_SECOND: i64 = 1_000_000_000;
const NANOS_PER_DAY: i64 = 86_400 * NANOS_PER_SECOND;

// -- the row type ---------------------------------------------------------------------------------

enum Kind {
    Boolean,
    Integer(u32),
    Float,
    Double,
    Decimal { precision: u32, scale: u32 },
    Text,
    Date,
    Time,
    Timestamp { ltz: bool },
    Row(Vec<Field>),
}

struct Field {
    name: Vec<u8>,
    kind: Kind,
}

/// Fields from the Python description: a list of (name, root, params, children).
fn read_fields(description: &Bound<'_, PyAny>) -> PyResult<Vec<Field>> {
    let mut fields = Vec::new();
    for item in description.try_iter()? {
        let (name, root, params, children): (String, String, Vec<u32>, Bound<'_, PyAny>) =
            item?.extract()?;
        let param = |i: usize| {
            params
                .get(i)
                .copied()
                .ok_or_else(|| PyValueError::new_err(format!("{root} needs parameter {i}")))
        };
        let kind = match root.as_str() {
            "BOOLEAN" => Kind::Boolean,
            "TINYINT" => Kind::Integer(8),
            "SMALLINT" => Kind::Integer(16),
            "INT" => Kind::Integer(32),
            "BIGINT" => Kind::Integer(64),
            "FLOAT" => Kind::Float,
            "DOUBLE" => Kind::Double,
            "DECIMAL" => {
                let (precision, scale) = (param(0)?, param(1)?);
                if precision == 0 || precision > 38 || scale > precision {
                    return Err(PyValueError::new_err(format!(
                        "unsupported DECIMAL({precision}, {scale})"
                    )));
                }
                Kind::Decimal { precision, scale }
            }
            "CHAR" | "VARCHAR" => Kind::Text,
            "DATE" => Kind::Date,
            "TIME" => Kind::Time,
            "TIMESTAMP" => Kind::Timestamp { ltz: false },
            "TIMESTAMP_LTZ" => Kind::Timestamp { ltz: true },
            "ROW" => Kind::Row(read_fields(&children)?),
            other => {
                return Err(PyValueError::new_err(format!(
                    "the native json decoder does not take {other}"
                )))
            }
        };
        fields.push(Field {
            name: name.into_bytes(),
            kind,
        });
    }
    Ok(fields)
}

// -- column builders ------------------------------------------------------------------------------

enum Values {
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
struct Column {
    valid: Vec<u8>,
    values: Values,
}

impl Column {
    /// Sized for `rows` rows and text up to `text_bytes` (the messages' bytes bound every column's).
    fn new(kind: &Kind, rows: usize, text_bytes: usize) -> Column {
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

    fn push_null(&mut self) {
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
    fn push_fixed(&mut self, le_bytes: &[u8]) {
        self.valid.push(1);
        if let Values::Fixed { bytes, .. } = &mut self.values {
            bytes.extend_from_slice(le_bytes);
        }
    }

    fn push_boolean(&mut self, value: bool) {
        self.valid.push(1);
        if let Values::Booleans(v) = &mut self.values {
            v.push(value as u8);
        }
    }

    /// The text buffer, for a string value written straight into it (then `end_text`).
    fn text_data(&mut self) -> &mut Vec<u8> {
        match &mut self.values {
            Values::Text { data, .. } => data,
            _ => unreachable!("a text value for a non-text column"),
        }
    }

    fn end_text(&mut self) -> R<()> {
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
    fn truncate(&mut self, rows: usize) {
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

fn native_buffer<'py>(py: Python<'py>, bytes: Vec<u8>) -> PyResult<Bound<'py, PyAny>> {
    Ok(Bound::new(py, NativeBuffer { bytes })?.into_any())
}

/// (validity bitmap or None, value buffers, children) for `pa.Array.from_buffers`.
fn column_to_python(py: Python<'_>, column: Column) -> PyResult<Bound<'_, PyTuple>> {
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

// -- bytes ----------------------------------------------------------------------------------------

/// Byte classes inside a string: plain, the closing quote, a backslash, a raw control character
/// (which goes to the exact path), the start of a multi-byte UTF-8 sequence.
const PLAIN: u8 = 0;
const QUOTE: u8 = 1;
const BACKSLASH: u8 = 2;
const CONTROL: u8 = 3;
const NON_ASCII: u8 = 4;
static STRING_CLASS: [u8; 256] = {
    let mut table = [PLAIN; 256];
    let mut i = 0;
    while i < 256 {
        table[i] = if i < 0x20 {
            CONTROL
        } else if i == b'"' as usize {
            QUOTE
        } else if i == b'\\' as usize {
            BACKSLASH
        } else if i >= 0x80 {
            NON_ASCII
        } else {
            PLAIN
        };
        i += 1;
    }
    table
};

/// The end of the run of plain string bytes from `pos`: eight bytes at a time, flagging a quote,
/// a backslash, a byte below 0x20 or one above 0x7F (the lowest flagged byte is exact).
#[inline]
fn plain_run(m: &[u8], mut pos: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    while let Some(chunk) = m.get(pos..pos + 8) {
        let w = u64::from_le_bytes(chunk.try_into().unwrap());
        let quote = w ^ (ONES * b'"' as u64);
        let backslash = w ^ (ONES * b'\\' as u64);
        let flagged = ((quote.wrapping_sub(ONES) & !quote)
            | (backslash.wrapping_sub(ONES) & !backslash)
            | w.wrapping_sub(ONES * 0x20)
            | w)
            & HIGHS;
        if flagged != 0 {
            return pos + (flagged.trailing_zeros() / 8) as usize;
        }
        pos += 8;
    }
    while pos < m.len() && STRING_CLASS[m[pos] as usize] == PLAIN {
        pos += 1;
    }
    pos
}

struct Cursor<'a> {
    m: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    /// The byte at the position, 0 past the end (a NUL byte is never accepted anywhere).
    #[inline]
    fn peek(&self) -> u8 {
        self.m.get(self.pos).copied().unwrap_or(0)
    }

    /// Skips the whitespace Jackson skips between tokens; the next byte, not consumed.
    #[inline]
    fn skip_ws(&mut self) -> u8 {
        loop {
            let b = self.peek();
            if b == b' ' || b == b'\n' || b == b'\r' || b == b'\t' {
                self.pos += 1;
            } else {
                return b;
            }
        }
    }

    fn literal(&mut self, word: &[u8]) -> R<()> {
        if self.m[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(Leftover)
        }
    }

    /// A JSON number token as Jackson lexes it: (its text, whether it has a point or exponent).
    /// Leading zeros, a missing digit, or a text near the length limit go to the exact path.
    fn number(&mut self) -> R<(&'a [u8], bool)> {
        let m = self.m;
        let start = self.pos;
        let mut pos = start;
        if m.get(pos) == Some(&b'-') {
            pos += 1;
        }
        let digits = |pos: &mut usize| {
            let from = *pos;
            while m.get(*pos).is_some_and(u8::is_ascii_digit) {
                *pos += 1;
            }
            *pos - from
        };
        let first = pos;
        let whole = digits(&mut pos);
        if whole == 0 || (whole > 1 && m[first] == b'0') {
            return Err(Leftover);
        }
        let mut is_float = false;
        if m.get(pos) == Some(&b'.') {
            pos += 1;
            is_float = true;
            if digits(&mut pos) == 0 {
                return Err(Leftover);
            }
        }
        if matches!(m.get(pos), Some(b'e' | b'E')) {
            pos += 1;
            is_float = true;
            if matches!(m.get(pos), Some(b'+' | b'-')) {
                pos += 1;
            }
            if digits(&mut pos) == 0 {
                return Err(Leftover);
            }
        }
        if pos - start > MAX_NUMBER_BYTES {
            return Err(Leftover);
        }
        self.pos = pos;
        Ok((&m[start..pos], is_float))
    }

    /// One strict UTF-8 sequence starting at the position (no overlong forms, no surrogates,
    /// nothing above U+10FFFF: Jackson reads those differently); consumed, and appended if `out`.
    #[inline]
    fn utf8_sequence(&mut self, out: Option<&mut Vec<u8>>) -> R<()> {
        let m = self.m;
        let p = self.pos;
        let lead = m[p];
        let cont = |i: usize| m.get(p + i).is_some_and(|&b| b & 0xC0 == 0x80);
        let second = m.get(p + 1).copied().unwrap_or(0);
        let n = match lead {
            0xC2..=0xDF if cont(1) => 2,
            0xE0 if (0xA0..=0xBF).contains(&second) && cont(2) => 3,
            0xE1..=0xEC | 0xEE..=0xEF if cont(1) && cont(2) => 3,
            0xED if (0x80..=0x9F).contains(&second) && cont(2) => 3,
            0xF0 if (0x90..=0xBF).contains(&second) && cont(2) && cont(3) => 4,
            0xF1..=0xF3 if cont(1) && cont(2) && cont(3) => 4,
            0xF4 if (0x80..=0x8F).contains(&second) && cont(2) && cont(3) => 4,
            _ => return Err(Leftover),
        };
        if let Some(out) = out {
            out.extend_from_slice(&m[p..p + n]);
        }
        self.pos = p + n;
        Ok(())
    }

    fn hex4(&mut self) -> R<u32> {
        let digits = self.m.get(self.pos..self.pos + 4).ok_or(Leftover)?;
        let mut value = 0;
        for &h in digits {
            value = value * 16 + (h as char).to_digit(16).ok_or(Leftover)?;
        }
        self.pos += 4;
        Ok(value)
    }

    /// The rest of a string after its opening quote, checked, and decoded into `out` as Flink
    /// keeps it (UTF-8, a lone surrogate escape as '?', or a leftover when `lone_ok` is false).
    fn string(&mut self, mut out: Option<&mut Vec<u8>>, lone_ok: bool) -> R<()> {
        let m = self.m;
        loop {
            let run = self.pos;
            let pos = plain_run(m, run);
            if let Some(out) = out.as_deref_mut() {
                out.extend_from_slice(&m[run..pos]);
            }
            self.pos = pos;
            match STRING_CLASS[*m.get(pos).ok_or(Leftover)? as usize] {
                QUOTE => {
                    self.pos += 1;
                    return Ok(());
                }
                NON_ASCII => self.utf8_sequence(out.as_deref_mut())?,
                BACKSLASH => self.escape(out.as_deref_mut(), lone_ok)?,
                _ => return Err(Leftover),
            }
        }
    }

    /// The escape after a backslash, as Java chars joined the way Flink writes them to UTF-8.
    fn escape(&mut self, out: Option<&mut Vec<u8>>, lone_ok: bool) -> R<()> {
        self.pos += 1;
        let e = self.peek();
        self.pos += 1;
        let simple = match e {
            b'"' => b'"',
            b'\\' => b'\\',
            b'/' => b'/',
            b'b' => 0x08,
            b'f' => 0x0C,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'u' => 0,
            _ => return Err(Leftover),
        };
        let mut code = simple as u32;
        if e == b'u' {
            code = self.hex4()?;
            if (0xD800..0xDC00).contains(&code) {
                // A high surrogate pairs only with a low surrogate escape right after it.
                let m = self.m;
                let p = self.pos;
                let low = if m.get(p..p + 2) == Some(b"\\u") {
                    let mut ahead = Cursor { m, pos: p + 2 };
                    ahead.hex4().ok().filter(|l| (0xDC00..0xE000).contains(l))
                } else {
                    None
                };
                match low {
                    Some(low) => {
                        self.pos = p + 6;
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                    }
                    None if lone_ok => code = '?' as u32,
                    None => return Err(Leftover),
                }
            } else if (0xDC00..0xE000).contains(&code) {
                if !lone_ok {
                    return Err(Leftover);
                }
                code = '?' as u32;
            }
        }
        if let Some(out) = out {
            let ch = char::from_u32(code).ok_or(Leftover)?;
            let mut utf8 = [0u8; 4];
            out.extend_from_slice(ch.encode_utf8(&mut utf8).as_bytes());
        }
        Ok(())
    }
}

// -- values ---------------------------------------------------------------------------------------

/// Java's String.trim(): every char up to U+0020 off both ends.
fn java_trim(text: &[u8]) -> &[u8] {
    let start = text.iter().position(|&b| b > b' ').unwrap_or(text.len());
    let end = text
        .iter()
        .rposition(|&b| b > b' ')
        .map_or(start, |i| i + 1);
    &text[start..end]
}

/// An integer of `bits` bits from ASCII `[+-]?[0-9]+` (Integer.parseInt's grammar for ASCII
/// digits; a JSON integer token is a subset), in range or a leftover.
fn integer(text: &[u8], bits: u32) -> R<i64> {
    let (negative, digits) = match text.first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Err(Leftover);
    }
    let significant = &digits[digits
        .iter()
        .position(|&d| d != b'0')
        .unwrap_or(digits.len())..];
    if significant.len() > 19 {
        return Err(Leftover);
    }
    let magnitude = significant
        .iter()
        .fold(0i128, |v, &d| v * 10 + (d - b'0') as i128);
    let value = if negative { -magnitude } else { magnitude };
    let limit = 1i128 << (bits - 1);
    if value < -limit || value >= limit {
        return Err(Leftover);
    }
    Ok(value as i64)
}

/// An integer token's value (`-?[0-9]+`, no leading zeros, checked by the lexer) in `bits` bits.
#[inline]
fn integer_token(text: &[u8], bits: u32) -> R<i64> {
    let (negative, digits) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, text),
    };
    if digits.len() > 18 {
        return integer(text, bits);
    }
    let magnitude = digits.iter().fold(0i64, |v, &d| v * 10 + (d - b'0') as i64);
    let value = if negative { -magnitude } else { magnitude };
    let limit = 1i64 << (bits.min(63) - 1);
    if bits < 64 && (value < -limit || value >= limit) {
        return Err(Leftover);
    }
    Ok(value)
}

/// The parts of a decimal text `[+-]?(digits[.digits]|.digits)([eE][+-]?digits)?` (the grammar
/// of new BigDecimal(String) and Double.parseDouble for ASCII, without Java's suffixes, NaN,
/// Infinity and hex forms): (negative, integer digits, fraction digits, exponent).
fn decimal_parts(text: &[u8]) -> R<(bool, &[u8], &[u8], i64)> {
    let (negative, rest) = match text.first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let whole_len = rest.iter().take_while(|d| d.is_ascii_digit()).count();
    let whole = &rest[..whole_len];
    let mut rest = &rest[whole_len..];
    let mut fraction: &[u8] = &[];
    if rest.first() == Some(&b'.') {
        let len = rest[1..].iter().take_while(|d| d.is_ascii_digit()).count();
        fraction = &rest[1..1 + len];
        rest = &rest[1 + len..];
    }
    if whole.is_empty() && fraction.is_empty() {
        return Err(Leftover);
    }
    let mut exponent = 0i64;
    if matches!(rest.first(), Some(b'e' | b'E')) {
        let (sign, digits) = match rest.get(1) {
            Some(b'-') => (-1, &rest[2..]),
            Some(b'+') => (1, &rest[2..]),
            _ => (1, &rest[1..]),
        };
        // Exponents past nine digits are left to the exact path (Java's limits differ by type).
        if digits.is_empty() || digits.len() > 9 || !digits.iter().all(u8::is_ascii_digit) {
            return Err(Leftover);
        }
        exponent = sign * digits.iter().fold(0i64, |v, &d| v * 10 + (d - b'0') as i64);
        rest = &[];
    }
    if !rest.is_empty() {
        return Err(Leftover);
    }
    Ok((negative, whole, fraction, exponent))
}

/// DecimalData.fromBigDecimal(new BigDecimal(text), p, s): rounded half-up to the scale, None
/// (a null field) when it then has more than `precision` digits. The unscaled value.
fn decimal(text: &[u8], precision: u32, scale: u32) -> R<Option<i128>> {
    let (negative, whole, fraction, exponent) = decimal_parts(text)?;
    let digits = whole.iter().chain(fraction.iter());
    let leading = digits.clone().take_while(|&&d| d == b'0').count();
    let significant: Vec<u8> = digits.skip(leading).map(|d| d - b'0').collect();
    if significant.is_empty() {
        return Ok(Some(0));
    }
    let n = significant.len() as i64;
    // value = significant * 10^(exponent - fraction digits); unscaled = value * 10^scale.
    let shift = exponent - fraction.len() as i64 + scale as i64;
    let number = |ds: &[u8]| ds.iter().fold(0i128, |v, &d| v * 10 + d as i128);
    let magnitude = if shift >= 0 {
        if n + shift > precision as i64 {
            return Ok(None);
        }
        number(&significant) * 10i128.pow(shift as u32)
    } else {
        let dropped = -shift;
        let kept = n - dropped;
        if kept > precision as i64 {
            return Ok(None);
        }
        if kept < 0 {
            0
        } else {
            let kept = kept as usize;
            number(&significant[..kept]) + (significant[kept] >= 5) as i128
        }
    };
    if magnitude >= 10i128.pow(precision) {
        return Ok(None);
    }
    Ok(Some(if negative { -magnitude } else { magnitude }))
}

/// Whether every digit of a decimal text is zero (its value is ±0, exactly).
fn all_zero_digits(text: &[u8]) -> bool {
    decimal_parts(text)
        .is_ok_and(|(_, whole, fraction, _)| whole.iter().chain(fraction).all(|&d| d == b'0'))
}

/// Double.parseDouble / Float.parseFloat of a decimal text, both correctly rounded as Rust's
/// parser is; only zero and normal finite results are vouched (no underflow, no overflow).
fn floating<F: std::str::FromStr + Copy + Into<f64>>(text: &[u8], smallest_normal: f64) -> R<F> {
    decimal_parts(text)?;
    let value: F = std::str::from_utf8(text)
        .map_err(|_| Leftover)?
        .parse()
        .map_err(|_| Leftover)?;
    let magnitude = value.into().abs();
    if magnitude.is_finite()
        && (magnitude >= smallest_normal || (magnitude == 0.0 && all_zero_digits(text)))
    {
        Ok(value)
    } else {
        Err(Leftover)
    }
}

fn two_digits(b: &[u8], at: usize) -> R<u32> {
    match (b[at], b[at + 1]) {
        (h @ b'0'..=b'9', l @ b'0'..=b'9') => Ok((h - b'0') as u32 * 10 + (l - b'0') as u32),
        _ => Err(Leftover),
    }
}

fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month as i64 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// `yyyy-MM-dd` with a date that exists (strict and smart resolving agree on it) in `years`:
/// days since the epoch.
fn epoch_day(b: &[u8], years: std::ops::RangeInclusive<i64>) -> R<i64> {
    if b.len() < 10 || b[4] != b'-' || b[7] != b'-' {
        return Err(Leftover);
    }
    let year = (two_digits(b, 0)? * 100 + two_digits(b, 2)?) as i64;
    let (month, day) = (two_digits(b, 5)?, two_digits(b, 8)?);
    let length = match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        1..=12 => 31,
        _ => return Err(Leftover),
    };
    if !years.contains(&year) || day < 1 || day > length {
        return Err(Leftover);
    }
    Ok(days_from_civil(year, month, day))
}

/// `HH:mm:ss` with an optional fraction of 1-9 digits, hours 00-23: (second of the day, nanos).
fn time_of_day(b: &[u8]) -> R<(i64, i64)> {
    if b.len() < 8 || b[2] != b':' || b[5] != b':' {
        return Err(Leftover);
    }
    let (hour, minute, second) = (two_digits(b, 0)?, two_digits(b, 3)?, two_digits(b, 6)?);
    if hour > 23 || minute > 59 || second > 59 {
        return Err(Leftover);
    }
    let mut nanos = 0i64;
    if b.len() > 8 {
        let fraction = &b[9..];
        if b[8] != b'.'
            || fraction.is_empty()
            || fraction.len() > 9
            || !fraction.iter().all(u8::is_ascii_digit)
        {
            return Err(Leftover);
        }
        nanos = fraction
            .iter()
            .fold(0i64, |v, &d| v * 10 + (d - b'0') as i64)
            * 10i64.pow(9 - fraction.len() as u32);
    }
    Ok(((hour * 3600 + minute * 60 + second) as i64, nanos))
}

/// A timestamp in Flink's layout for the standard (`yyyy-MM-dd HH:mm:ss[.f]` for SQL, a 'T' for
/// ISO-8601, and a 'Z' after it for TIMESTAMP_LTZ), years 1678-2261 (whose every instant fits
/// int64 nanoseconds): nanoseconds since the epoch.
fn timestamp(b: &[u8], iso: bool, ltz: bool) -> R<i64> {
    let b = if ltz {
        b.strip_suffix(b"Z").ok_or(Leftover)?
    } else {
        b
    };
    if b.len() < 19 || b[10] != if iso { b'T' } else { b' ' } {
        return Err(Leftover);
    }
    let day = epoch_day(&b[..10], 1678..=2261)?;
    let (second, nanos) = time_of_day(&b[11..])?;
    Ok(day * NANOS_PER_DAY + second * NANOS_PER_SECOND + nanos)
}

// -- the decoder ----------------------------------------------------------------------------------

struct Decoder {
    fail_on_missing_field: bool,
    iso: bool,
    /// Decoded text of a value that is parsed further (a name with escapes, a number in a string).
    scratch: Vec<u8>,
    /// The closing brackets of the containers being skipped.
    closers: Vec<u8>,
}

/// Which fields of one object were read: a bit mask, or flags for wide rows.
enum Present {
    Mask(u128),
    Flags(Vec<bool>),
}

impl Present {
    fn new(arity: usize) -> Present {
        if arity <= 128 {
            Present::Mask(0)
        } else {
            Present::Flags(vec![false; arity])
        }
    }

    /// Marks field `i`; false when it was already read.
    fn insert(&mut self, i: usize) -> bool {
        match self {
            Present::Mask(mask) => {
                let was = *mask >> i & 1 == 1;
                *mask |= 1 << i;
                !was
            }
            Present::Flags(flags) => !std::mem::replace(&mut flags[i], true),
        }
    }

    fn contains(&self, i: usize) -> bool {
        match self {
            Present::Mask(mask) => *mask >> i & 1 == 1,
            Present::Flags(flags) => flags[i],
        }
    }
}

impl Decoder {
    /// One message: its row appended to `columns`, or a leftover.
    fn message(&mut self, m: &[u8], fields: &[Field], columns: &mut [Column]) -> R<()> {
        if m.len() > MAX_MESSAGE_BYTES {
            return Err(Leftover);
        }
        let mut c = Cursor { m, pos: 0 };
        if c.skip_ws() != b'{' {
            return Err(Leftover);
        }
        c.pos += 1;
        self.row(&mut c, fields, columns, 1)
    }

    /// Flink's row converter on an object, after its '{': each field's value is read once (a
    /// second read of a field before all are read goes to the exact path); once as many fields as
    /// the row has were read, the rest of the object is skipped, duplicates and all.
    fn row(
        &mut self,
        c: &mut Cursor<'_>,
        fields: &[Field],
        columns: &mut [Column],
        depth: usize,
    ) -> R<()> {
        if depth > MAX_DEPTH {
            return Err(Leftover);
        }
        let arity = fields.len();
        let mut present = Present::new(arity);
        let mut seen = 0;
        let mut hint = 0;
        let mut b = c.skip_ws();
        if b == b'}' {
            c.pos += 1;
        } else {
            loop {
                if b != b'"' {
                    return Err(Leftover);
                }
                c.pos += 1;
                let found = self.field_name(c, fields, hint)?;
                if c.skip_ws() != b':' {
                    return Err(Leftover);
                }
                c.pos += 1;
                c.skip_ws();
                match found {
                    Some(i) if seen < arity => {
                        if !present.insert(i) {
                            return Err(Leftover);
                        }
                        seen += 1;
                        hint = i + 1;
                        self.value(c, &fields[i].kind, &mut columns[i], depth)?;
                    }
                    _ => self.skip_value(c, depth)?,
                }
                b = c.skip_ws();
                c.pos += 1;
                match b {
                    b',' => b = c.skip_ws(),
                    b'}' => break,
                    _ => return Err(Leftover),
                }
            }
        }
        if seen < arity {
            if self.fail_on_missing_field {
                return Err(Leftover);
            }
            for (i, column) in columns.iter_mut().enumerate() {
                if !present.contains(i) {
                    column.push_null();
                }
            }
        }
        Ok(())
    }

    /// Reads a field name after its opening quote: the index of the field it names, if any.
    fn field_name(
        &mut self,
        c: &mut Cursor<'_>,
        fields: &[Field],
        hint: usize,
    ) -> R<Option<usize>> {
        let start = c.pos;
        let m = c.m;
        let pos = plain_run(m, start);
        let name: &[u8] = if m.get(pos) == Some(&b'"') {
            c.pos = pos + 1;
            &m[start..pos]
        } else {
            self.scratch.clear();
            c.string(Some(&mut self.scratch), false)?;
            &self.scratch
        };
        if c.pos - start > MAX_NAME_BYTES {
            return Err(Leftover);
        }
        if fields.get(hint).is_some_and(|f| f.name == name) {
            return Ok(Some(hint));
        }
        Ok(fields.iter().position(|f| f.name == name))
    }

    /// Skips any JSON value, checking it as strictly as the rest (Flink's parser still lexes it).
    fn skip_value(&mut self, c: &mut Cursor<'_>, depth: usize) -> R<()> {
        match c.peek() {
            b'{' | b'[' => self.skip_container(c, depth),
            _ => skip_scalar(c),
        }
    }

    /// Skips an object or array, iteratively (`closers` holds the open containers' brackets).
    fn skip_container(&mut self, c: &mut Cursor<'_>, depth: usize) -> R<()> {
        self.closers.clear();
        let mut b = c.peek();
        loop {
            // `b` starts a value at an element's place.
            if b == b'{' || b == b'[' {
                let closer = if b == b'{' { b'}' } else { b']' };
                self.closers.push(closer);
                if depth + self.closers.len() > MAX_DEPTH {
                    return Err(Leftover);
                }
                c.pos += 1;
                b = c.skip_ws();
                if b != closer {
                    if closer == b'}' {
                        b = skip_member_name(c, b)?;
                    }
                    continue;
                }
                c.pos += 1;
                self.closers.pop();
            } else {
                skip_scalar(c)?;
            }
            // After a value: the next element, or closing brackets.
            loop {
                let Some(&closer) = self.closers.last() else {
                    return Ok(());
                };
                b = c.skip_ws();
                c.pos += 1;
                if b == b',' {
                    b = c.skip_ws();
                    if closer == b'}' {
                        b = skip_member_name(c, b)?;
                    }
                    break;
                }
                if b != closer {
                    return Err(Leftover);
                }
                self.closers.pop();
            }
        }
    }

    /// One field's value appended to its column, exactly as Flink's converter for its type reads
    /// it, or a leftover.
    fn value(
        &mut self,
        c: &mut Cursor<'_>,
        kind: &Kind,
        column: &mut Column,
        depth: usize,
    ) -> R<()> {
        let b = c.peek();
        if b == b'n' {
            c.literal(b"null")?;
            column.push_null();
            return Ok(());
        }
        match kind {
            Kind::Boolean => match b {
                b't' => {
                    c.literal(b"true")?;
                    column.push_boolean(true);
                }
                b'f' => {
                    c.literal(b"false")?;
                    column.push_boolean(false);
                }
                // Boolean.parseBoolean of a number's text.
                b'-' | b'0'..=b'9' => {
                    c.number()?;
                    column.push_boolean(false);
                }
                b'"' => {
                    let text = self.ascii_string(c)?;
                    column.push_boolean(java_trim(text).eq_ignore_ascii_case(b"true"));
                }
                _ => return Err(Leftover),
            },
            Kind::Integer(bits) => {
                let value = match b {
                    b'-' | b'0'..=b'9' => match c.number()? {
                        (text, false) => integer_token(text, *bits)?,
                        _ => return Err(Leftover),
                    },
                    b'"' => integer(java_trim(self.ascii_string(c)?), *bits)?,
                    _ => return Err(Leftover),
                };
                column.push_fixed(&value.to_le_bytes()[..*bits as usize / 8]);
            }
            Kind::Float => {
                let value: f32 = floating(self.number_text(c)?, f32::MIN_POSITIVE as f64)?;
                column.push_fixed(&value.to_le_bytes());
            }
            Kind::Double => {
                let value: f64 = floating(self.number_text(c)?, f64::MIN_POSITIVE)?;
                column.push_fixed(&value.to_le_bytes());
            }
            Kind::Decimal { precision, scale } => {
                match decimal(self.number_text(c)?, *precision, *scale)? {
                    Some(unscaled) => column.push_fixed(&unscaled.to_le_bytes()),
                    None => column.push_null(),
                }
            }
            Kind::Text => {
                match b {
                    b'"' => {
                        c.pos += 1;
                        c.string(Some(column.text_data()), true)?;
                    }
                    b'-' | b'0'..=b'9' => {
                        let (text, _) = c.number()?;
                        column.text_data().extend_from_slice(text);
                    }
                    b't' | b'f' => {
                        let word: &[u8] = if b == b't' { b"true" } else { b"false" };
                        c.literal(word)?;
                        column.text_data().extend_from_slice(word);
                    }
                    _ => return Err(Leftover),
                }
                column.end_text()?;
            }
            Kind::Date => {
                let text = self.temporal_text(c)?;
                if text.len() != 10 {
                    return Err(Leftover);
                }
                let day = epoch_day(text, 0..=9999)?;
                column.push_fixed(&(day as i32).to_le_bytes());
            }
            Kind::Time => {
                let (second, _) = time_of_day(self.temporal_text(c)?)?;
                column.push_fixed(&((second * 1000) as i32).to_le_bytes());
            }
            Kind::Timestamp { ltz } => {
                let iso = self.iso;
                let nanos = timestamp(self.temporal_text(c)?, iso, *ltz)?;
                column.push_fixed(&nanos.to_le_bytes());
            }
            Kind::Row(fields) => {
                if b != b'{' {
                    return Err(Leftover);
                }
                c.pos += 1;
                let Values::Row(children) = &mut column.values else {
                    unreachable!()
                };
                self.row(c, fields, children, depth + 1)?;
                column.valid.push(1);
            }
        }
        Ok(())
    }

    /// A string value decoded into the scratch buffer; a leftover unless it is all ASCII.
    fn ascii_string(&mut self, c: &mut Cursor<'_>) -> R<&[u8]> {
        c.pos += 1;
        self.scratch.clear();
        c.string(Some(&mut self.scratch), true)?;
        if self.scratch.is_ascii() {
            Ok(&self.scratch)
        } else {
            Err(Leftover)
        }
    }

    /// The text Flink parses a number from: a number token's, or a string's, trimmed.
    fn number_text<'s, 'a: 's>(&'s mut self, c: &mut Cursor<'a>) -> R<&'s [u8]> {
        match c.peek() {
            b'-' | b'0'..=b'9' => Ok(c.number()?.0),
            b'"' => Ok(java_trim(self.ascii_string(c)?)),
            _ => Err(Leftover),
        }
    }

    /// The text of a date or time value: only a string (a number's text is never a date).
    fn temporal_text(&mut self, c: &mut Cursor<'_>) -> R<&[u8]> {
        if c.peek() != b'"' {
            return Err(Leftover);
        }
        self.ascii_string(c)
    }
}

/// Skips a member's name and colon inside a skipped object (`b`: the byte at the position); the
/// byte that starts its value.
fn skip_member_name(c: &mut Cursor<'_>, b: u8) -> R<u8> {
    if b != b'"' {
        return Err(Leftover);
    }
    c.pos += 1;
    let start = c.pos;
    c.string(None, true)?;
    if c.pos - start > MAX_NAME_BYTES || c.skip_ws() != b':' {
        return Err(Leftover);
    }
    c.pos += 1;
    Ok(c.skip_ws())
}

/// Skips a string, number or literal.
fn skip_scalar(c: &mut Cursor<'_>) -> R<()> {
    match c.peek() {
        b'"' => {
            c.pos += 1;
            c.string(None, true)
        }
        b'-' | b'0'..=b'9' => c.number().map(|_| ()),
        b't' => c.literal(b"true"),
        b'f' => c.literal(b"false"),
        b'n' => c.literal(b"null"),
        _ => Err(Leftover),
    }
}

// -- the entry point ------------------------------------------------------------------------------

fn buffer_bytes<'a>(buffer: &'a PyBuffer<i8>, what: &str) -> PyResult<&'a [u8]> {
    if !buffer.is_c_contiguous() {
        return Err(PyValueError::new_err(format!(
            "the {what} buffer is not contiguous"
        )));
    }
    // SAFETY: the buffer is held (and its memory kept alive) for as long as the slice is used.
    Ok(unsafe { std::slice::from_raw_parts(buffer.buf_ptr() as *const u8, buffer.len_bytes()) })
}

/// Decodes the messages of a Binary/LargeBinary (or String) array, given as its Arrow buffers
/// (`validity` may be None, `data` None when every message is empty), `offset` and `length` as
/// the array's. `fields` describes the row: a list of (name, root, params, children), root one of
/// BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL (params precision, scale), CHAR,
/// VARCHAR, DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ, ROW (children: its fields).
///
/// Returns (columns, vouched, leftover): per field (validity bitmap or None, value buffers,
/// children) holding one row per vouched message; the vouched and leftover message indices as
/// little-endian int64 bytes.
#[pyfunction]
#[pyo3(signature = (validity, offsets, data, offset, length, wide_offsets, fields, fail_on_missing_field, iso_timestamps))]
#[allow(clippy::too_many_arguments)]
pub fn decode_json<'py>(
    py: Python<'py>,
    validity: Option<Bound<'py, PyAny>>,
    offsets: Bound<'py, PyAny>,
    data: Option<Bound<'py, PyAny>>,
    offset: usize,
    length: usize,
    wide_offsets: bool,
    fields: Bound<'py, PyAny>,
    fail_on_missing_field: bool,
    iso_timestamps: bool,
) -> PyResult<Bound<'py, PyTuple>> {
    let fields = read_fields(&fields)?;
    let validity = validity.map(|v| PyBuffer::<i8>::get(&v)).transpose()?;
    let offsets = PyBuffer::<i8>::get(&offsets)?;
    let data = data.map(|d| PyBuffer::<i8>::get(&d)).transpose()?;
    let validity_bytes = validity
        .as_ref()
        .map(|v| buffer_bytes(v, "validity"))
        .transpose()?;
    let offset_bytes = buffer_bytes(&offsets, "offsets")?;
    let data_bytes = data
        .as_ref()
        .map(|d| buffer_bytes(d, "data"))
        .transpose()?
        .unwrap_or(&[]);
    let width = if wide_offsets { 8 } else { 4 };
    if offset_bytes.len() < (offset + length + 1) * width
        || validity_bytes.is_some_and(|v| v.len() * 8 < offset + length)
    {
        return Err(PyValueError::new_err(
            "the message buffers are shorter than the array",
        ));
    }
    let at = |i: usize| -> usize {
        let b = &offset_bytes[(offset + i) * width..(offset + i + 1) * width];
        if wide_offsets {
            i64::from_le_bytes(b.try_into().unwrap()) as usize
        } else {
            i32::from_le_bytes(b.try_into().unwrap()) as usize
        }
    };
    for i in 0..length {
        if at(i) > at(i + 1) || at(i + 1) > data_bytes.len() {
            return Err(PyValueError::new_err(format!(
                "message {i} lies outside the data buffer"
            )));
        }
    }

    let (columns, vouched, leftover) = py.detach(|| {
        let mut columns: Vec<Column> = fields
            .iter()
            .map(|f| Column::new(&f.kind, length, data_bytes.len()))
            .collect();
        let mut decoder = Decoder {
            fail_on_missing_field,
            iso: iso_timestamps,
            scratch: Vec::new(),
            closers: Vec::new(),
        };
        let mut vouched: Vec<i64> = Vec::with_capacity(length);
        let mut leftover: Vec<i64> = Vec::new();
        for i in 0..length {
            let present =
                validity_bytes.is_none_or(|v| v[(offset + i) / 8] >> ((offset + i) % 8) & 1 == 1);
            let outcome = if present {
                decoder.message(&data_bytes[at(i)..at(i + 1)], &fields, &mut columns)
            } else {
                Err(Leftover)
            };
            match outcome {
                Ok(()) => vouched.push(i as i64),
                Err(Leftover) => {
                    columns.iter_mut().for_each(|c| c.truncate(vouched.len()));
                    leftover.push(i as i64);
                }
            }
        }
        (columns, vouched, leftover)
    });

    let out = PyList::empty(py);
    for column in columns {
        out.append(column_to_python(py, column)?)?;
    }
    let indices = |v: Vec<i64>| native_buffer(py, v.iter().flat_map(|i| i.to_le_bytes()).collect());
    PyTuple::new(py, [out.into_any(), indices(vouched)?, indices(leftover)?])
}
