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

mod columns;
mod lexer;
mod values;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use crate::columns::{column_to_python, native_buffer, Column, MessageBuffers};
use columns::new_column;
use lexer::{plain_run, same, skip_member_name, skip_scalar, Cursor};
use values::{
    decimal, epoch_day, floating, integer, integer_token, java_trim, time_of_day, timestamp,
};

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
    /// Whether the stage reads the field (a row: some field of it). An unread field's value is
    /// checked exactly as a read one's, so the same messages are vouched, but kept nowhere.
    read: bool,
    name: Vec<u8>,
    /// The name and a closing quote when the name is all plain string bytes: a message's raw
    /// bytes equal to these can only be this name, with no decoding (see `field_name`).
    quoted: Option<Vec<u8>>,
    kind: Kind,
}

/// Fields from the Python description: a list of (name, root, params, children, read).
fn read_fields(description: &Bound<'_, PyAny>) -> PyResult<Vec<Field>> {
    let mut fields = Vec::new();
    for item in description.try_iter()? {
        let (name, root, params, children, read): (
            String,
            String,
            Vec<u32>,
            Bound<'_, PyAny>,
            bool,
        ) = item?.extract()?;
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
        let name = name.into_bytes();
        let quoted = (plain_run(&name, 0) == name.len() && name.len() <= MAX_NAME_BYTES)
            .then(|| [&name[..], b"\""].concat());
        fields.push(Field {
            read,
            name,
            quoted,
            kind,
        });
    }
    Ok(fields)
}

// -- the decoder ----------------------------------------------------------------------------------

struct Decoder {
    fail_on_missing_field: bool,
    /// Whether a string value may hold a lone surrogate escape (kept as '?'), else a leftover.
    lone_ok: bool,
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
        // The usual case: the next field, in the row type's order and spelled plainly.
        if let Some(quoted) = fields.get(hint).and_then(|f| f.quoted.as_deref()) {
            if m.get(start..start + quoted.len())
                .is_some_and(|raw| same(raw, quoted))
            {
                c.pos = start + quoted.len();
                return Ok(Some(hint));
            }
        }
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
        if fields.get(hint).is_some_and(|f| same(&f.name, name)) {
            return Ok(Some(hint));
        }
        Ok(fields.iter().position(|f| same(&f.name, name)))
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
                        c.string(column.text_sink(), self.lone_ok)?;
                    }
                    b'-' | b'0'..=b'9' => {
                        let (text, _) = c.number()?;
                        if let Some(data) = column.text_sink() {
                            data.extend_from_slice(text);
                        }
                    }
                    b't' | b'f' => {
                        let word: &[u8] = if b == b't' { b"true" } else { b"false" };
                        c.literal(word)?;
                        if let Some(data) = column.text_sink() {
                            data.extend_from_slice(word);
                        }
                    }
                    _ => return Err(Leftover),
                }
                if !column.end_text() {
                    return Err(Leftover);
                }
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
                let (millis, nanos) = timestamp(self.temporal_text(c)?, iso, *ltz)?;
                column.push_timestamp(millis, nanos);
            }
            Kind::Row(fields) => {
                if b != b'{' {
                    return Err(Leftover);
                }
                c.pos += 1;
                self.row(c, fields, column.children(), depth + 1)?;
                column.push_row();
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

// -- the entry point ------------------------------------------------------------------------------

/// Decodes the messages of a Binary/LargeBinary (or String) array (`messages`, as
/// [`MessageBuffers::get`] reads it). `fields` describes the row: a list of (name, root, params, children), root one of
/// BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL (params precision, scale), CHAR,
/// VARCHAR, DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ, ROW (children: its fields); `read` false for a
/// field the stage never reads (checked like the others, returned as None).
///
/// Returns (columns, vouched, leftover): per field (validity bitmap or None, value buffers,
/// children) holding one row per vouched message, or None for an unread field; the vouched and leftover message indices as
/// little-endian int64 bytes.
#[pyfunction]
#[pyo3(signature = (messages, fields, fail_on_missing_field, iso_timestamps, lone_surrogates_ok))]
pub fn decode_json<'py>(
    py: Python<'py>,
    messages: Bound<'py, PyAny>,
    fields: Bound<'py, PyAny>,
    fail_on_missing_field: bool,
    iso_timestamps: bool,
    lone_surrogates_ok: bool,
) -> PyResult<Bound<'py, PyTuple>> {
    let fields = read_fields(&fields)?;
    let buffers = MessageBuffers::get(&messages)?;
    let (messages, length) = (buffers.messages()?, buffers.length);
    let (columns, vouched, leftover) = py.detach(|| {
        let mut columns: Vec<Column> = fields
            .iter()
            .map(|f| new_column(f, length, messages.data.len()))
            .collect();
        let mut decoder = Decoder {
            fail_on_missing_field,
            lone_ok: lone_surrogates_ok,
            iso: iso_timestamps,
            scratch: Vec::new(),
            closers: Vec::new(),
        };
        let mut vouched: Vec<i64> = Vec::with_capacity(length);
        let mut leftover: Vec<i64> = Vec::new();
        for i in 0..length {
            let outcome = match messages.get(i) {
                Some(m) => decoder.message(m, &fields, &mut columns),
                None => Err(Leftover),
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
