//! Flink's SPLIT_INDEX for a literal separator and one index for the whole batch: the
//! `flink_split_index` UDF (accelerator/plans/udfs.py) calls this in place of splitting every
//! string into a list first, which cost more than the rest of a query such as Nexmark q22.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::columns::{column_to_python, Column, MessageBuffers, Values};

/// The `index`-th piece (from 0) of `s` split on every non-overlapping occurrence of `separator`,
/// leftmost first, empty pieces kept (commons-lang's splitByWholeSeparatorPreserveAllTokens, which
/// Flink calls); None when there are fewer pieces, or for '' (which has no pieces at all).
/// Searching UTF-8 bytes finds what Java's indexOf finds in the same text: a valid UTF-8
/// separator only matches at character boundaries.
fn piece<'a>(s: &'a [u8], separator: &[u8], index: usize) -> Option<&'a [u8]> {
    if s.is_empty() {
        return None;
    }
    let mut start = 0;
    let mut found = 0;
    loop {
        let end = find(&s[start..], separator).map(|at| start + at);
        if found == index {
            return Some(&s[start..end.unwrap_or(s.len())]);
        }
        start = end? + separator.len();
        found += 1;
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    match needle {
        [byte] => haystack.iter().position(|b| b == byte),
        _ => haystack.windows(needle.len()).position(|w| w == needle),
    }
}

/// (validity bitmap or None, [offsets, data], []) of the string array of each string's piece;
/// `strings` as [`MessageBuffers::get`] reads it; `separator` non-empty UTF-8.
#[pyfunction]
pub fn split_index<'py>(
    py: Python<'py>,
    strings: Bound<'py, PyAny>,
    separator: &[u8],
    index: usize,
) -> PyResult<Bound<'py, PyAny>> {
    if separator.is_empty() {
        return Err(PyValueError::new_err(
            "SPLIT_INDEX with an empty separator splits on whitespace in Flink; not done here",
        ));
    }
    let buffers = MessageBuffers::get(&strings)?;
    let (strings, length) = (buffers.messages()?, buffers.length);
    let mut column = Column {
        valid: Vec::with_capacity(length),
        values: Values::Text {
            offsets: Vec::with_capacity((length + 1) * 4),
            data: Vec::with_capacity(strings.data.len() / 2),
        },
    };
    if let Values::Text { offsets, .. } = &mut column.values {
        offsets.extend_from_slice(&0i32.to_le_bytes());
    }
    for i in 0..length {
        match strings.get(i).and_then(|s| piece(s, separator, index)) {
            None => column.push_null(),
            Some(p) => {
                column.text_data().extend_from_slice(p);
                if !column.end_text() {
                    return Err(PyValueError::new_err(
                        "SPLIT_INDEX: the batch's pieces exceed 2 GiB of text",
                    ));
                }
            }
        }
    }
    column_to_python(py, column)
}
