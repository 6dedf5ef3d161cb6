//! The avro format's fast path: each message's schemaless Avro datum (of the schema Flink derives
//! from the row type, `accelerator/formats/avro_schema.py`) read straight into Arrow column buffers.
//!
//! A message is read here only when nothing unusual happens in it: every varint within Java's
//! byte limits, union branches 0 or 1, lengths and block counts that fit in the message,
//! decimals of 1 to 16 bytes, and the datum ending exactly at the message's end. Invalid UTF-8 in a string is decoded as Java decodes it
//! (`java_utf8`). Any other message is flagged for the exact reader
//! (`accelerator/formats/avro_values.py`), which reproduces Flink's failures and the bytes a datum
//! leaves unread for the next message.

mod java_utf8;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use crate::columns::{column_to_python, native_buffer, Column, MessageBuffers, Values};

/// Why a message goes to the exact reader (never surfaced: the exact reader says what Flink does).
struct Flagged;
type R<T> = Result<T, Flagged>;

enum Kind {
    Boolean,
    /// An Avro int kept as its low `bytes` bytes (TINYINT 1, SMALLINT 2, INT/DATE/TIME 4).
    Int(usize),
    Long,
    /// An Avro long of epoch milliseconds: TimestampData.fromEpochMillis, any long.
    Timestamp,
    Float,
    Double,
    /// string (checked UTF-8) or bytes.
    Bytes {
        utf8: bool,
    },
    Decimal {
        precision: u32,
    },
    Record(Vec<Node>),
    Array(Box<Node>),
}

struct Node {
    kind: Kind,
    nullable: bool,
}

/// A node from the Python description (kind, nullable, params, children).
fn read_node(description: &Bound<'_, PyAny>) -> PyResult<Node> {
    let (kind, nullable, params, children): (String, bool, Vec<u32>, Vec<Bound<'_, PyAny>>) =
        description.extract()?;
    let kind = match kind.as_str() {
        "boolean" => Kind::Boolean,
        "int8" => Kind::Int(1),
        "int16" => Kind::Int(2),
        "int32" => Kind::Int(4),
        "long" => Kind::Long,
        "timestamp" => Kind::Timestamp,
        "float" => Kind::Float,
        "double" => Kind::Double,
        "string" => Kind::Bytes { utf8: true },
        "bytes" => Kind::Bytes { utf8: false },
        "decimal" => match params.first() {
            Some(&precision) if (1..=38).contains(&precision) => Kind::Decimal { precision },
            _ => {
                return Err(PyValueError::new_err(format!(
                    "unsupported decimal {params:?}"
                )))
            }
        },
        "record" => Kind::Record(children.iter().map(read_node).collect::<PyResult<_>>()?),
        "array" => match children.as_slice() {
            [item] => Kind::Array(Box::new(read_node(item)?)),
            _ => return Err(PyValueError::new_err("an array needs one item node")),
        },
        other => {
            return Err(PyValueError::new_err(format!(
                "the native avro reader does not take {other}"
            )))
        }
    };
    Ok(Node { kind, nullable })
}

fn new_column(node: &Node, rows: usize, bytes: usize) -> Column {
    let fixed = |width| Values::Fixed {
        width,
        bytes: Vec::with_capacity(rows * width),
    };
    let offsets = |rows: usize| {
        let mut offsets = Vec::with_capacity((rows + 1) * 4);
        offsets.extend_from_slice(&0i32.to_le_bytes());
        offsets
    };
    let values = match &node.kind {
        Kind::Boolean => Values::Booleans(Vec::with_capacity(rows)),
        Kind::Int(width) => fixed(*width),
        Kind::Float => fixed(4),
        Kind::Long | Kind::Double => fixed(8),
        Kind::Timestamp => Values::timestamps(rows),
        Kind::Decimal { .. } => fixed(16),
        Kind::Bytes { .. } => Values::Text {
            offsets: offsets(rows),
            data: Vec::with_capacity(bytes),
        },
        Kind::Record(children) => Values::Row(
            children
                .iter()
                .map(|c| new_column(c, rows, bytes))
                .collect(),
        ),
        Kind::Array(item) => Values::List {
            offsets: offsets(rows),
            items: Box::new(new_column(item, 0, 0)),
        },
    };
    Column {
        valid: Vec::with_capacity(rows),
        values,
    }
}

/// A cursor over one message's bytes.
struct Datum<'a> {
    m: &'a [u8],
    pos: usize,
}

impl<'a> Datum<'a> {
    /// A zig-zag varint with BinaryDecoder's rules: at most 5 (int) or 10 (long) bytes, bits
    /// beyond 32 or 64 dropped; a longer varint is Java's error, flagged.
    #[inline(always)]
    fn varint(&mut self, max_bytes: usize) -> R<i64> {
        let mut acc: u64 = 0;
        for j in 0..max_bytes {
            let b = *self.m.get(self.pos).ok_or(Flagged)?;
            self.pos += 1;
            acc |= ((b & 0x7F) as u64) << (7 * j);
            if b < 0x80 {
                return Ok(if max_bytes == 5 {
                    let v = acc as u32;
                    ((v >> 1) as i32 ^ -((v & 1) as i32)) as i64
                } else {
                    (acc >> 1) as i64 ^ -((acc & 1) as i64)
                });
            }
        }
        Err(Flagged)
    }

    #[inline(always)]
    fn int(&mut self) -> R<i64> {
        self.varint(5)
    }

    #[inline(always)]
    fn long(&mut self) -> R<i64> {
        self.varint(10)
    }

    #[inline(always)]
    fn raw(&mut self, n: usize) -> R<&'a [u8]> {
        let end = self.pos.checked_add(n).ok_or(Flagged)?;
        let out = self.m.get(self.pos..end).ok_or(Flagged)?;
        self.pos = end;
        Ok(out)
    }

    /// A length-prefixed string or bytes value: BinaryDecoder reads the length as a long
    /// (readString, readBytes), which SystemLimitException holds to 0..=2147483639.
    #[inline(always)]
    fn sized(&mut self) -> R<&'a [u8]> {
        let n = self.long()?;
        if !(0..=2_147_483_639).contains(&n) {
            return Err(Flagged);
        }
        self.raw(n as usize)
    }

    /// The item count of the next block of an array (0 ends it), its byte size skipped.
    fn block(&mut self) -> R<usize> {
        let mut count = self.long()?;
        if count < 0 {
            self.long()?;
            count = count.checked_neg().ok_or(Flagged)?;
        }
        // As the exact reader: a block cannot hold more items than bytes are left.
        if count as u64 > (self.m.len() - self.pos) as u64 {
            return Err(Flagged);
        }
        Ok(count as usize)
    }
}

/// One value of `node` (union branch included) appended to `column`.
fn read(d: &mut Datum<'_>, node: &Node, column: &mut Column) -> R<()> {
    if node.nullable {
        match d.int()? {
            0 => {
                column.push_null();
                return Ok(());
            }
            1 => {}
            _ => return Err(Flagged),
        }
    }
    match &node.kind {
        Kind::Boolean => {
            let b = d.raw(1)?[0];
            column.push_boolean(b == 1);
        }
        Kind::Int(width) => {
            let v = d.int()? as i32;
            column.push_fixed(&v.to_le_bytes()[..*width]);
        }
        Kind::Long => {
            let v = d.long()?;
            column.push_fixed(&v.to_le_bytes());
        }
        Kind::Timestamp => {
            let millis = d.long()?;
            column.push_timestamp(millis, 0);
        }
        Kind::Float => {
            let b = d.raw(4)?;
            column.push_fixed(b);
        }
        Kind::Double => {
            let b = d.raw(8)?;
            column.push_fixed(b);
        }
        Kind::Bytes { utf8 } => {
            let b = d.sized()?;
            if *utf8 && std::str::from_utf8(b).is_err() {
                java_utf8::decode_into(b, column.text_data());
            } else {
                column.text_data().extend_from_slice(b);
            }
            if !column.end_text() {
                return Err(Flagged);
            }
        }
        Kind::Decimal { precision } => {
            let b = d.sized()?;
            if b.is_empty() || b.len() > 16 {
                return Err(Flagged);
            }
            // Big-endian two's complement, sign-extended to 128 bits.
            let mut unscaled: i128 = if b[0] >= 0x80 { -1 } else { 0 };
            for &byte in b {
                unscaled = unscaled << 8 | byte as i128;
            }
            if unscaled.unsigned_abs() >= 10u128.pow(*precision) {
                column.push_null(); // DecimalData.fromBigDecimal: too many digits -> null
            } else {
                column.push_fixed(&unscaled.to_le_bytes());
            }
        }
        Kind::Record(children) => {
            for (child, c) in children.iter().zip(column.children()) {
                read(d, child, c)?;
            }
            column.valid.push(1);
        }
        Kind::Array(item) => {
            let Values::List { offsets, items } = &mut column.values else {
                unreachable!()
            };
            loop {
                let count = d.block()?;
                if count == 0 {
                    break;
                }
                for _ in 0..count {
                    read(d, item, items)?;
                }
            }
            let end = i32::try_from(items.valid.len()).map_err(|_| Flagged)?;
            offsets.extend_from_slice(&end.to_le_bytes());
            column.valid.push(1);
        }
    }
    Ok(())
}

/// Reads the datum of each message of a Binary/LargeBinary array (`messages`, as
/// [`MessageBuffers::get`] reads it). `record` describes the top-level record as (kind, nullable, params, children)
/// nodes: kind one of boolean, int8, int16, int32, long, timestamp, float, double, string, bytes,
/// decimal (params: precision), record (children: its fields), array (children: the item).
///
/// Returns (columns, regular): per field (validity bitmap or None, value buffers, children) with
/// one row per regular message, and a byte per message, 1 where it was read here (fully
/// consumed), 0 where the exact reader must read it (null messages included).
#[pyfunction]
#[pyo3(signature = (messages, record))]
pub fn decode_avro<'py>(
    py: Python<'py>,
    messages: Bound<'py, PyAny>,
    record: Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyTuple>> {
    let record = read_node(&record)?;
    let Kind::Record(fields) = &record.kind else {
        return Err(PyValueError::new_err("the top-level node must be a record"));
    };
    let buffers = MessageBuffers::get(&messages)?;
    let (messages, length) = (buffers.messages()?, buffers.length);

    let (columns, regular) = py.detach(|| {
        let mut columns: Vec<Column> = fields
            .iter()
            .map(|f| new_column(f, length, messages.data.len()))
            .collect();
        let mut regular = vec![0u8; length];
        let mut rows = 0;
        for (i, flag) in regular.iter_mut().enumerate() {
            let Some(m) = messages.get(i) else { continue };
            let mut d = Datum { m, pos: 0 };
            let read_all = fields
                .iter()
                .zip(columns.iter_mut())
                .try_for_each(|(f, c)| read(&mut d, f, c));
            if read_all.is_ok() && d.pos == m.len() {
                *flag = 1;
                rows += 1;
            } else {
                columns.iter_mut().for_each(|c| c.truncate(rows));
            }
        }
        (columns, regular)
    });

    let out = PyList::empty(py);
    for column in columns {
        out.append(column_to_python(py, column)?)?;
    }
    PyTuple::new(py, [out.into_any(), native_buffer(py, regular)?])
}
