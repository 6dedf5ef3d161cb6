//! The JSON text of Arrow values, byte-identical to what Flink's `json` format (Jackson) writes:
//! whole rows `{"name":value,...}` in field order, read straight from the columns' buffers.
//!
//! Python (`accelerator.formats.json_encoder`) describes each column as a tuple
//! `(kind, length, offset, validity, buffers, params, fields)`, a row's fields as (UTF-8 name,
//! column) pairs; a timestamp's two parts (millis, nanos) come as its fields, `int` columns.
//! Types not written here (doubles, decimals, bytes, arrays, maps) arrive as `fragment` columns
//! of JSON text Python made.

use std::cell::{Cell, RefCell};
use std::ffi::c_void;
use std::mem::MaybeUninit;
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
    unsafe fn __getbuffer__(
        slf: Bound<'_, Self>,
        view: *mut ffi::Py_buffer,
        flags: c_int,
    ) -> PyResult<()> {
        if flags & ffi::PyBUF_WRITABLE != 0 {
            return Err(PyBufferError::new_err("the encoded bytes are read-only"));
        }
        let bytes = &slf.get().bytes;
        let filled = unsafe {
            ffi::PyBuffer_FillInfo(
                view,
                slf.as_ptr(),
                bytes.as_ptr() as *mut c_void,
                bytes.len() as ffi::Py_ssize_t,
                1,
                flags,
            )
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

/// The text being written. Besides pushing, it takes fixed-size chunks of which only a prefix
/// counts (one inlined copy instead of a memcpy call for each short piece), and lets short texts
/// be written in place (no stack copy to read back).
struct Out(Vec<u8>);

impl Out {
    #[inline(always)]
    fn push(&mut self, b: u8) {
        self.0.push(b)
    }

    #[inline(always)]
    fn extend_from_slice(&mut self, s: &[u8]) {
        self.0.extend_from_slice(s)
    }

    #[inline(always)]
    fn put_prefix<const N: usize>(&mut self, chunk: &[u8; N], used: usize) {
        assert!(used <= N);
        self.0.reserve(N);
        let len = self.0.len();
        // SAFETY: reserve made room for all N bytes; only the first `used` become part of the text.
        unsafe {
            std::ptr::copy_nonoverlapping(chunk.as_ptr(), self.0.as_mut_ptr().add(len), N);
            self.0.set_len(len + used);
        }
    }

    /// Lets `fill` write at most N bytes in place; it returns how many it wrote, from the first.
    #[inline(always)]
    fn put_with<const N: usize>(&mut self, fill: impl FnOnce(&mut [MaybeUninit<u8>; N]) -> usize) {
        self.0.reserve(N);
        let room: &mut [MaybeUninit<u8>; N] =
            (&mut self.0.spare_capacity_mut()[..N]).try_into().unwrap();
        let used = fill(room);
        assert!(used <= N);
        // SAFETY: `fill` wrote bytes 0..used (each caller below writes every byte it counts).
        unsafe { self.0.set_len(self.0.len() + used) }
    }
}

/// A short text in a fixed-size array (the first `len` bytes).
#[derive(Clone, Copy)]
struct Short<const N: usize> {
    text: [u8; N],
    len: usize,
}

/// A field's `"name":` (escaped), padded for `put_prefix` when short.
struct Key {
    short: Option<Short<32>>,
    text: Vec<u8>,
}

impl Key {
    fn new(name: &[u8]) -> Key {
        let mut text = Out(Vec::with_capacity(name.len() + 3));
        write_escaped(name, 0, name.len(), &mut text);
        text.push(b':');
        let text = text.0;
        let short = (text.len() <= 32).then(|| {
            let mut padded = [0u8; 32];
            padded[..text.len()].copy_from_slice(&text);
            Short {
                text: padded,
                len: text.len(),
            }
        });
        Key { short, text }
    }

    #[inline]
    fn write(&self, out: &mut Out) {
        match &self.short {
            Some(short) => out.put_prefix(&short.text, short.len),
            None => out.extend_from_slice(&self.text),
        }
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

    #[inline]
    fn write_escaped(&self, i: usize, out: &mut Out) {
        write_escaped(self.data, self.offset(i), self.offset(i + 1), out)
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
    /// TIMESTAMP/TIMESTAMP_LTZ as TimestampData's pair: int64 epoch milliseconds and int32
    /// nanoseconds of the millisecond, each with its child array's offset.
    Timestamp {
        millis: (&'a [u8], usize),
        nanos: (&'a [u8], usize),
        separator: u8,
        ltz: bool,
    },
    /// DECIMAL as Arrow decimal128 (16-byte little-endian unscaled values) of the given scale,
    /// written as Flink's default writes it (see `write_decimal`).
    Decimal {
        values: &'a [u8],
        scale: i64,
    },
    /// A row: its fields' `"name":` keys and columns.
    Row(Vec<(Key, Column<'a>)>),
}

struct Column<'a> {
    length: usize,
    offset: usize,
    validity: Option<&'a [u8]>,
    kind: Kind<'a>,
    /// The last date written (consecutive timestamps mostly fall on the same day).
    last_date: RefCell<Short<32>>,
    last_days: Cell<i64>,
}

impl<'a> Column<'a> {
    #[inline]
    fn is_valid(&self, i: usize) -> bool {
        match self.validity {
            None => true,
            Some(bits) => bit(bits, self.offset + i),
        }
    }

    fn new(length: usize, offset: usize, validity: Option<&'a [u8]>, kind: Kind<'a>) -> Column<'a> {
        Column {
            length,
            offset,
            validity,
            kind,
            last_date: RefCell::new(date_text(0)),
            last_days: Cell::new(0),
        }
    }

    #[inline]
    fn date(&self, days: i64) -> std::cell::Ref<'_, Short<32>> {
        if self.last_days.get() != days {
            *self.last_date.borrow_mut() = date_text(days);
            self.last_days.set(days);
        }
        self.last_date.borrow()
    }

    /// The JSON text of value `i` (which is not null).
    fn write(&self, i: usize, ignore_nulls: bool, out: &mut Out) {
        let at = self.offset + i;
        match &self.kind {
            Kind::Fragment(s) => out.extend_from_slice(s.value(at)),
            Kind::String(s) => s.write_escaped(at, out),
            Kind::Bool(bits) => {
                out.extend_from_slice(if bit(bits, at) { b"true" } else { b"false" })
            }
            Kind::Int(values, width) => write_int(read_int(values, at, *width), out),
            Kind::Date(values) => {
                let date = self.date(read_int(values, at, 4));
                out.push(b'"');
                out.put_prefix(&date.text, date.len);
                out.push(b'"');
            }
            Kind::Time(values) => write_time(read_int(values, at, 4), out),
            Kind::Timestamp {
                millis,
                nanos,
                separator,
                ltz,
            } => {
                let m = read_int(millis.0, millis.1 + i, 8);
                let n = read_int(nanos.0, nanos.1 + i, 4);
                write_timestamp(self, m, n, *separator, *ltz, out)
            }
            Kind::Decimal { values, scale } => {
                let b: [u8; 16] = values[at * 16..at * 16 + 16].try_into().unwrap();
                write_decimal(i128::from_le_bytes(b), *scale, out)
            }
            Kind::Row(fields) => write_row(fields, i, ignore_nulls, out),
        }
    }

    /// A generous guess of the text's size, so the output is rarely reallocated.
    fn size_hint(&self) -> usize {
        let per_value = match &self.kind {
            Kind::Fragment(s) | Kind::String(s) => {
                let used = if self.length == 0 {
                    0
                } else {
                    s.offset(self.offset + self.length) - s.offset(self.offset)
                };
                return used + used / 8 + 2 * self.length;
            }
            Kind::Bool(_) => 5,
            Kind::Int(_, width) => [0, 4, 6, 0, 11, 0, 0, 0, 20][*width],
            Kind::Date(_) => 12,
            Kind::Time(_) => 10,
            Kind::Timestamp { .. } => 32,
            Kind::Decimal { .. } => 24,
            Kind::Row(fields) => {
                return 2 * self.length
                    + fields
                        .iter()
                        .map(|(key, c)| (key.text.len() + 1) * self.length + c.size_hint())
                        .sum::<usize>();
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
fn write_row(fields: &[(Key, Column<'_>)], i: usize, ignore_nulls: bool, out: &mut Out) {
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
        key.write(out);
        if valid {
            column.write(i, ignore_nulls, out);
        } else {
            out.extend_from_slice(b"null");
        }
    }
    out.push(b'}');
}

// -- numbers and strings --------------------------------------------------------------------------

/// "00" to "99", for writing numbers two digits at a time.
static PAIRS: [u8; 200] = {
    let mut table = [0u8; 200];
    let mut i = 0;
    while i < 100 {
        table[2 * i] = b'0' + (i / 10) as u8;
        table[2 * i + 1] = b'0' + (i % 10) as u8;
        i += 1;
    }
    table
};

/// The decimal text of `v`.
#[inline]
fn int_text(v: i64) -> Short<24> {
    let mut n = v.unsigned_abs();
    let mut text = [0u8; 24];
    let len = n.checked_ilog10().unwrap_or(0) as usize + 1 + (v < 0) as usize;
    if v < 0 {
        text[0] = b'-';
    }
    let mut at = len;
    while n >= 100 {
        let pair = (n % 100) as usize * 2;
        n /= 100;
        at -= 2;
        text[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    }
    if n >= 10 {
        text[at - 2..at].copy_from_slice(&PAIRS[n as usize * 2..n as usize * 2 + 2]);
    } else {
        text[at - 1] = b'0' + n as u8;
    }
    Short { text, len }
}

#[inline]
/// `unscaled * 10^-scale` as Flink's json format writes a DECIMAL by default: Jackson's node
/// factory strips the trailing zeros, then BigDecimal.toString prints it (plain while the scale is
/// not negative and the exponent is at least -6, else E-notation: 2270.000 -> 2.27E+3).
fn write_decimal(unscaled: i128, scale: i64, out: &mut Out) {
    if unscaled == 0 {
        out.push(b'0');
        return;
    }
    let (mut coefficient, mut scale) = (unscaled, scale);
    while coefficient % 10 == 0 {
        coefficient /= 10;
        scale -= 1;
    }
    let mut digits = [0u8; 40];
    let mut n = coefficient.unsigned_abs();
    let mut start = digits.len();
    while n > 0 {
        start -= 1;
        digits[start] = b'0' + (n % 10) as u8;
        n /= 10;
    }
    let digits = &digits[start..];
    let count = digits.len() as i64;
    let adjusted = count - 1 - scale;
    if coefficient < 0 {
        out.push(b'-');
    }
    if scale >= 0 && adjusted >= -6 {
        if scale == 0 {
            out.extend_from_slice(digits);
        } else if count > scale {
            let point = (count - scale) as usize;
            out.extend_from_slice(&digits[..point]);
            out.push(b'.');
            out.extend_from_slice(&digits[point..]);
        } else {
            out.extend_from_slice(b"0.");
            for _ in 0..scale - count {
                out.push(b'0');
            }
            out.extend_from_slice(digits);
        }
    } else {
        out.push(digits[0]);
        if digits.len() > 1 {
            out.push(b'.');
            out.extend_from_slice(&digits[1..]);
        }
        out.push(b'E');
        if adjusted > 0 {
            out.push(b'+');
        }
        write_int(adjusted, out);
    }
}

fn write_int(v: i64, out: &mut Out) {
    out.put_with::<20>(|room| {
        let mut n = v.unsigned_abs();
        let len = n.checked_ilog10().unwrap_or(0) as usize + 1 + (v < 0) as usize;
        if v < 0 {
            room[0].write(b'-');
        }
        let mut at = len;
        while n >= 100 {
            at -= 2;
            put_pair(room, at, (n % 100) as usize);
            n /= 100;
        }
        if n >= 10 {
            put_pair(room, at - 2, n as usize);
        } else {
            room[at - 1].write(b'0' + n as u8);
        }
        len
    })
}

#[inline(always)]
fn put_pair(room: &mut [MaybeUninit<u8>], at: usize, v: usize) {
    room[at].write(PAIRS[2 * v]);
    room[at + 1].write(PAIRS[2 * v + 1]);
}

/// What Jackson escapes: 1 for quote, backslash and control characters; 2 for the first byte of a
/// character outside the Basic Multilingual Plane (written as a surrogate pair); 3 for 0xED, the
/// first byte of a lone UTF-16 surrogate in its three-byte form (an encode stage hands the Java
/// string's surrogate so, and Jackson writes it as an escape), and of U+D000-U+D7FF, written as is.
static ESCAPE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = if b < 0x20 || b == b'"' as usize || b == b'\\' as usize {
            1
        } else if b >= 0xF0 {
            2
        } else if b == 0xED {
            3
        } else {
            0
        };
        b += 1;
    }
    table
};

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// How many of the first 16 bytes need no escape (16 when none does). x86-64 always has SSE2.
#[cfg(target_arch = "x86_64")]
#[inline]
fn plain_prefix_16(s: &[u8]) -> usize {
    use std::arch::x86_64::*;
    let chunk: &[u8; 16] = s[..16].try_into().unwrap();
    unsafe {
        let x = _mm_loadu_si128(chunk.as_ptr() as *const __m128i);
        // Unsigned byte comparisons as signed ones: flip the top bit of both sides.
        let flipped = _mm_xor_si128(x, _mm_set1_epi8(i8::MIN));
        let control = _mm_cmplt_epi8(flipped, _mm_set1_epi8((0x20u8 ^ 0x80) as i8));
        let four_byte = _mm_cmpgt_epi8(flipped, _mm_set1_epi8((0xEFu8 ^ 0x80) as i8));
        let quote = _mm_cmpeq_epi8(x, _mm_set1_epi8(b'"' as i8));
        let backslash = _mm_cmpeq_epi8(x, _mm_set1_epi8(b'\\' as i8));
        let surrogate_lead = _mm_cmpeq_epi8(x, _mm_set1_epi8(0xEDu8 as i8));
        let any = _mm_or_si128(
            _mm_or_si128(_mm_or_si128(control, four_byte), surrogate_lead),
            _mm_or_si128(quote, backslash),
        );
        (_mm_movemask_epi8(any) as u32 | 1 << 16).trailing_zeros() as usize
    }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn plain_prefix_16(s: &[u8]) -> usize {
    s[..16]
        .iter()
        .position(|&b| ESCAPE[b as usize] != 0)
        .unwrap_or(16)
}

fn write_unicode_escape(unit: u32, out: &mut Out) {
    out.extend_from_slice(b"\\u");
    for shift in [12, 8, 4, 0] {
        out.push(HEX[(unit >> shift & 0xF) as usize]);
    }
}

/// The string `data[from..to]` as Jackson writes it, quotes included.
fn write_escaped(data: &[u8], from: usize, to: usize, out: &mut Out) {
    out.push(b'"');
    let mut start = from;
    let mut i = from;
    while i < to {
        if i + 16 <= data.len() {
            // 16 bytes at a time; those past the string's end (still in the buffer) are not counted.
            i = (i + plain_prefix_16(&data[i..])).min(to);
            if i == to {
                break;
            }
        }
        let b = data[i];
        match ESCAPE[b as usize] {
            0 => {
                i += 1;
                continue;
            }
            1 => {
                out.extend_from_slice(&data[start..i]);
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
            3 => {
                if i + 3 > to || data[i + 1] < 0xA0 {
                    i += 1; // U+D000-U+D7FF: no escape
                    continue;
                }
                out.extend_from_slice(&data[start..i]);
                write_unicode_escape(
                    0xD000 | (data[i + 1] as u32 & 0x3F) << 6 | (data[i + 2] as u32 & 0x3F),
                    out,
                );
                i += 3;
            }
            _ => {
                if i + 4 > to {
                    i += 1; // not UTF-8 (Arrow validates strings): left as it is
                    continue;
                }
                out.extend_from_slice(&data[start..i]);
                let code = ((b as u32 & 0x07) << 18)
                    | ((data[i + 1] as u32 & 0x3F) << 12)
                    | ((data[i + 2] as u32 & 0x3F) << 6)
                    | (data[i + 3] as u32 & 0x3F);
                let above = code - 0x10000;
                write_unicode_escape(0xD800 + (above >> 10), out);
                write_unicode_escape(0xDC00 + (above & 0x3FF), out);
                i += 4;
            }
        }
        start = i;
    }
    out.extend_from_slice(&data[start..to]);
    out.push(b'"');
}

// -- dates and times ------------------------------------------------------------------------------

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

#[inline]
fn put_two_digits(text: &mut [u8], at: usize, v: i64) {
    text[at..at + 2].copy_from_slice(&PAIRS[v as usize * 2..v as usize * 2 + 2]);
}

/// yyyy-MM-dd; Java's year field is 4 digits, with a sign outside 0..9999.
fn date_text(days: i64) -> Short<32> {
    let (year, month, day) = civil(days);
    let mut text = [0u8; 32];
    let mut n = 0;
    if (0..=9999).contains(&year) {
        put_two_digits(&mut text, 0, year / 100);
        put_two_digits(&mut text, 2, year % 100);
        n = 4;
    } else {
        let digits = int_text(year.abs());
        text[0] = if year > 0 { b'+' } else { b'-' };
        n += 1;
        if year < 0 {
            while n + digits.len < 5 {
                text[n] = b'0';
                n += 1;
            }
        }
        text[n..n + digits.len].copy_from_slice(&digits.text[..digits.len]);
        n += digits.len;
    }
    text[n] = b'-';
    put_two_digits(&mut text, n + 1, month);
    text[n + 3] = b'-';
    put_two_digits(&mut text, n + 4, day);
    Short { text, len: n + 6 }
}

/// Decimal text left-padded with zeros to two characters (a sign counts as one).
fn write_padded_two(v: i64, out: &mut Out) {
    if (0..10).contains(&v) {
        out.push(b'0');
    }
    write_int(v, out);
}

/// TIME is written from whole seconds: Flink drops the milliseconds it holds.
fn write_time(millis: i64, out: &mut Out) {
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

/// The day (since the epoch) and the millisecond of that day Flink writes a timestamp at.
/// TIMESTAMP goes through TimestampData.toLocalDateTime, which casts the day to a Java int (so it
/// wraps past about 5.8 million years); TIMESTAMP_LTZ through toInstant, which does not.
fn day_and_millis(millis: i64, ltz: bool) -> (i64, i64) {
    const MILLIS_PER_DAY: i64 = 86_400_000;
    let day = millis.div_euclid(MILLIS_PER_DAY);
    (
        if ltz { day } else { day as i32 as i64 },
        millis.rem_euclid(MILLIS_PER_DAY),
    )
}

/// yyyy-MM-dd HH:mm:ss (or 'T'), then the fraction's digits without trailing zeros; 'Z' for
/// TIMESTAMP_LTZ (written in UTC). `nano_of_milli` is 0..999_999 (checked when the column is read).
fn write_timestamp(
    column: &Column<'_>,
    millis: i64,
    nano_of_milli: i64,
    separator: u8,
    zulu: bool,
    out: &mut Out,
) {
    let (day, millis_of_day) = day_and_millis(millis, zulu);
    let seconds = (millis_of_day / 1000) as usize;
    let mut fraction = millis_of_day % 1000 * 1_000_000 + nano_of_milli;
    let date = column.date(day);
    out.put_with::<64>(|room| {
        room[0].write(b'"');
        for (k, &b) in date.text.iter().enumerate() {
            room[1 + k].write(b);
        }
        let mut n = 1 + date.len;
        room[n].write(separator);
        put_pair(room, n + 1, seconds / 3600);
        room[n + 3].write(b':');
        put_pair(room, n + 4, seconds / 60 % 60);
        room[n + 6].write(b':');
        put_pair(room, n + 7, seconds % 60);
        n += 9;
        if fraction != 0 {
            let mut digits = 9;
            while fraction % 10 == 0 {
                fraction /= 10;
                digits -= 1;
            }
            room[n].write(b'.');
            for at in (n + 1..n + 1 + digits).rev() {
                room[at].write(b'0' + (fraction % 10) as u8);
                fraction /= 10;
            }
            n += 1 + digits;
        }
        if zulu {
            room[n].write(b'Z');
            n += 1;
        }
        room[n].write(b'"');
        n + 1
    });
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
    Ok(if len == 0 {
        &[]
    } else {
        unsafe { std::slice::from_raw_parts(ptr, len) }
    })
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

fn strings<'a>(
    kind: &str,
    length: usize,
    offset: usize,
    offsets: &'a [u8],
    data: &'a [u8],
) -> PyResult<Strings<'a>> {
    check_len(kind, length, "offsets", offsets, 4 * (offset + length + 1))?;
    let s = Strings { offsets, data };
    if length > 0 {
        let mut previous =
            i32::from_le_bytes(offsets[4 * offset..4 * offset + 4].try_into().unwrap());
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

type Description<'py> = (
    String,
    usize,
    usize,
    Bound<'py, PyAny>,
    Vec<Bound<'py, PyAny>>,
    Vec<i64>,
    Vec<(Vec<u8>, Bound<'py, PyAny>)>,
);

/// A timestamp's millis or nanos column: its values and offset, after checking it is an integer
/// column of `width` bytes and `length` values (its validity is not read: the parts of a valid
/// timestamp are never null, those of a null one are not written).
fn timestamp_part<'a>(
    part: Column<'a>,
    length: usize,
    width: usize,
) -> PyResult<(&'a [u8], usize)> {
    match part.kind {
        Kind::Int(values, w) if w == width && part.length == length => Ok((values, part.offset)),
        _ => Err(PyValueError::new_err(format!(
            "json encode: a timestamp's parts must be {length} {width}-byte integers"
        ))),
    }
}

/// Every valid timestamp's nanoseconds lie within its millisecond, as TimestampData requires.
fn check_nanos(
    nanos: (&[u8], usize),
    length: usize,
    offset: usize,
    validity: Option<&[u8]>,
) -> PyResult<()> {
    for i in 0..length {
        let n = read_int(nanos.0, nanos.1 + i, 4);
        if !(0..1_000_000).contains(&n) && validity.is_none_or(|bits| bit(bits, offset + i)) {
            return Err(PyValueError::new_err(format!(
                "json encode: timestamp {i} has {n} nanoseconds of the millisecond, not 0..999999"
            )));
        }
    }
    Ok(())
}

fn column<'a>(described: &Bound<'_, PyAny>, held: &mut Vec<Held>) -> PyResult<Column<'a>> {
    let (kind, length, offset, validity, buffers, params, children): Description =
        described.extract()?;
    let validity = if validity.is_none() {
        None
    } else {
        Some(buffer_bytes(&validity, held)?)
    };
    if let Some(bits) = validity {
        check_len(
            &kind,
            length,
            "validity",
            bits,
            (offset + length).div_ceil(8),
        )?;
    }
    let buffer = |i: usize, held: &mut Vec<Held>| -> PyResult<&'a [u8]> {
        match buffers.get(i) {
            Some(obj) => buffer_bytes(obj, held),
            None => Err(PyValueError::new_err(format!(
                "json encode: a {kind} column needs buffer {i}"
            ))),
        }
    };
    let param = |i: usize| -> PyResult<i64> {
        params.get(i).copied().ok_or_else(|| {
            PyValueError::new_err(format!("json encode: a {kind} column needs parameter {i}"))
        })
    };
    let fixed = |width: usize, held: &mut Vec<Held>| -> PyResult<&'a [u8]> {
        let values = buffer(0, held)?;
        check_len(&kind, length, "values", values, width * (offset + length))?;
        Ok(values)
    };
    let parsed = match kind.as_str() {
        "fragment" | "string" => {
            let s = strings(&kind, length, offset, buffer(0, held)?, buffer(1, held)?)?;
            if kind == "string" {
                Kind::String(s)
            } else {
                Kind::Fragment(s)
            }
        }
        "bool" => {
            let bits = buffer(0, held)?;
            check_len(&kind, length, "values", bits, (offset + length).div_ceil(8))?;
            Kind::Bool(bits)
        }
        "int" => {
            let width = param(0)? as usize;
            if ![1, 2, 4, 8].contains(&width) {
                return Err(PyValueError::new_err(format!(
                    "json encode: no {width}-byte integers"
                )));
            }
            Kind::Int(fixed(width, held)?, width)
        }
        "date" => Kind::Date(fixed(4, held)?),
        "time" => Kind::Time(fixed(4, held)?),
        "timestamp" => {
            let [(_, millis), (_, nanos)] = children.as_slice() else {
                return Err(PyValueError::new_err(
                    "json encode: a timestamp column needs its millis and nanos columns",
                ));
            };
            let millis = timestamp_part(column(millis, held)?, length, 8)?;
            let nanos = timestamp_part(column(nanos, held)?, length, 4)?;
            check_nanos(nanos, length, offset, validity)?;
            Kind::Timestamp {
                millis,
                nanos,
                separator: if param(0)? != 0 { b'T' } else { b' ' },
                ltz: param(1)? != 0,
            }
        }
        "decimal" => Kind::Decimal {
            values: fixed(16, held)?,
            scale: param(0)?,
        },
        "row" => {
            let mut fields = Vec::with_capacity(children.len());
            for (name, child) in &children {
                let c = column(child, held)?;
                if c.length != length {
                    return Err(PyValueError::new_err(format!(
                        "json encode: a row of {length} values has a field of {} values",
                        c.length
                    )));
                }
                fields.push((Key::new(name), c));
            }
            Kind::Row(fields)
        }
        other => {
            return Err(PyValueError::new_err(format!(
                "json encode: unknown column kind {other:?}"
            )))
        }
    };
    Ok(Column::new(length, offset, validity, parsed))
}

/// The JSON text of every value of a column described as above ("" for a null value), as
/// (data, int32 offsets) for an Arrow string or binary array.
#[pyfunction]
pub fn json_values(
    py: Python<'_>,
    described: &Bound<'_, PyAny>,
    ignore_null_fields: bool,
) -> PyResult<(NativeBytes, NativeBytes)> {
    let mut held = Vec::new();
    let result = {
        let col = column(described, &mut held)?;
        py.detach(move || render(&col, ignore_null_fields))
    };
    drop(held);
    let (data, offsets) = result?;
    Ok((NativeBytes { bytes: data }, NativeBytes { bytes: offsets }))
}

fn render(col: &Column<'_>, ignore_nulls: bool) -> Result<(Vec<u8>, Vec<u8>), PyErr> {
    let mut data = Out(Vec::with_capacity(col.size_hint()));
    let mut offsets = Vec::with_capacity(4 * (col.length + 1));
    offsets.extend_from_slice(&0i32.to_le_bytes());
    for i in 0..col.length {
        if col.is_valid(i) {
            col.write(i, ignore_nulls, &mut data);
        }
        let end = i32::try_from(data.0.len()).map_err(|_| PyValueError::new_err(format!(
            "json encode: the text of the first {} of {} values exceeds 2 GiB; encode smaller batches",
            i + 1, col.length)))?;
        offsets.extend_from_slice(&end.to_le_bytes());
    }
    Ok((data.0, offsets))
}

#[cfg(test)]
mod tests {
    use super::day_and_millis;

    #[test]
    fn a_timestamps_day_wraps_as_a_java_int_and_an_instants_does_not() {
        // Instant.ofEpochMilli(Long.MIN_VALUE) is -292275055-05-16T16:47:04.192Z, 106,751,991,168
        // days before 1970-01-01.
        assert_eq!(
            day_and_millis(i64::MIN, true),
            (-106_751_991_168, 60_424_192)
        );
        // (int) -106,751,991,168 = -106,751,991,168 + 25 * 2^32.
        assert_eq!(
            day_and_millis(i64::MIN, false),
            (-106_751_991_168 + 25 * (1 << 32), 60_424_192)
        );
        assert_eq!(day_and_millis(-1, false), (-1, 86_399_999));
        let first_unheld_day = (1i64 << 31) * 86_400_000;
        assert_eq!(day_and_millis(first_unheld_day, true), (1 << 31, 0));
        assert_eq!(day_and_millis(first_unheld_day, false), (-(1 << 31), 0));
    }
}
