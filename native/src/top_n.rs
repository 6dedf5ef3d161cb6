//! What Flink's AppendOnlyTopNFunction emits for a batch of rows, row by row in arrival order, over
//! the touched keys' top N (`accelerator/rank/topn.py` prepares the arrays and lays out the answer).
//! A vectorized pass had to take the rows by occurrence level, one numpy step per level, dozens of
//! levels per batch on Nexmark's hot auctions; one ordered pass over the rows costs less than one
//! such step.

use pyo3::buffer::PyBuffer;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::columns::native_buffer;
use crate::py_buffers::{read, writable};

/// Flink's RowKind bytes.
const INSERT: i8 = 0;
const UPDATE_BEFORE: i8 = 1;
const UPDATE_AFTER: i8 = 2;
const DELETE: i8 = 3;

/// The rows to emit as the little-endian bytes of their columns.
struct Emission {
    rows: Vec<u8>,
    kinds: Vec<u8>,
    ranks: Vec<u8>,
    sources: Vec<u8>,
}

impl Emission {
    fn with_capacity(rows: usize) -> Emission {
        Emission {
            rows: Vec::with_capacity(rows * 8),
            kinds: Vec::with_capacity(rows),
            ranks: Vec::with_capacity(rows * 8),
            sources: Vec::with_capacity(rows * 8),
        }
    }

    fn push(&mut self, row: usize, kind: i8, rank: usize, source: i64) {
        self.rows.extend_from_slice(&(row as i64).to_le_bytes());
        self.kinds.push(kind as u8);
        self.ranks.extend_from_slice(&(rank as i64).to_le_bytes());
        self.sources.extend_from_slice(&source.to_le_bytes());
    }
}

/// Emits the batch's changelog and moves the keys' top rows past it. Per batch row: `slots`, its
/// key's index among the touched keys, and `codes`, its sort key's code (lower sorts first, equal
/// codes tie). Per touched key, row-major with `size` (N) places: `top`, the sources of its top
/// rows in rank order (-1 past `count`), `top_codes` their codes; `count`, how many it holds.
/// A batch row's source is `base + row`. Returns (batch row int64, RowKind int8, rank int64,
/// source int64) buffers of the rows to emit, in emission order.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn top_n<'py>(
    py: Python<'py>,
    slots: PyBuffer<i64>,
    codes: PyBuffer<i64>,
    mut top: PyBuffer<i64>,
    mut top_codes: PyBuffer<i64>,
    mut count: PyBuffer<i64>,
    size: usize,
    base: i64,
    row_numbers: bool,
    update_before: bool,
) -> PyResult<Bound<'py, PyTuple>> {
    let rows = slots.item_count();
    let keys = count.item_count();
    if size == 0 {
        return Err(PyValueError::new_err("top_n: N must be at least 1"));
    }
    let slots = read(&slots, "slots", rows)?;
    let codes = read(&codes, "codes", rows)?;
    let top = writable(&mut top, "top", keys * size)?;
    let top_codes = writable(&mut top_codes, "top_codes", keys * size)?;
    let count = writable(&mut count, "count", keys)?;
    let mut out = Emission::with_capacity(rows);
    for (row, (&slot, &code)) in slots.iter().zip(codes).enumerate() {
        let slot = usize::try_from(slot)
            .ok()
            .filter(|&s| s < keys)
            .ok_or_else(|| {
                PyValueError::new_err(format!("top_n: row {row} has key index {slot}"))
            })?;
        let held = usize::try_from(count[slot]).unwrap_or(0).min(size);
        let places = &mut top[slot * size..(slot + 1) * size];
        let place_codes = &mut top_codes[slot * size..(slot + 1) * size];
        // After the rows of an equal sort key: ties keep arrival order.
        let before = place_codes[..held].partition_point(|&c| c <= code);
        if before == size {
            continue; // rank past N: nothing changes
        }
        let source = base + row as i64;
        if row_numbers {
            // Places from the row's own to the last held change hands, then a free place is inserted.
            for place in before..held {
                let new = if place == before {
                    source
                } else {
                    places[place - 1]
                };
                if update_before {
                    out.push(row, UPDATE_BEFORE, place + 1, places[place]);
                }
                out.push(row, UPDATE_AFTER, place + 1, new);
            }
            if held < size {
                let pushed = if before == held {
                    source
                } else {
                    places[held - 1]
                };
                out.push(row, INSERT, held + 1, pushed);
            }
        } else {
            if held == size {
                out.push(row, DELETE, size, places[size - 1]);
            }
            out.push(row, INSERT, before + 1, source);
        }
        let end = (held + 1).min(size);
        places.copy_within(before..end - 1, before + 1);
        place_codes.copy_within(before..end - 1, before + 1);
        places[before] = source;
        place_codes[before] = code;
        count[slot] = end as i64;
    }
    let buffers = [
        native_buffer(py, out.rows)?,
        native_buffer(py, out.kinds)?,
        native_buffer(py, out.ranks)?,
        native_buffer(py, out.sources)?,
    ];
    PyTuple::new(py, buffers)
}
