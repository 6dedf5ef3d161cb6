//! Per-row hashes of a binary column of Flink's binary rows, one pass over its bytes: Flink's
//! `BinaryRowData.hashCode` (the keyed shuffle's key groups, the hashmap join backend's bucket
//! order) and the join state's 64-bit row index hash (`accelerator/join/row_index.py`). numpy
//! needed a step per word or byte position over the whole batch, a few thousand calls a batch.

use pyo3::buffer::PyBuffer;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::columns::MessageBuffers;
use crate::py_buffers::writable;

/// `MurmurHashUtil.DEFAULT_SEED`.
const MURMUR_SEED: u32 = 42;
const C1: u32 = 0xCC9E_2D51;
const C2: u32 = 0x1B87_3593;
/// The row index hash's constants (`row_index.py`: `_SEED`, `_BYTE_BASE`).
const INDEX_SEED: u64 = 0x9E37_79B9_7F4A_7C15;
const BYTE_BASE: u64 = 0x0000_0100_0000_01B3;

/// `MurmurHashUtil.hashBytesByWords`: murmur3 (32 bit, seed 42) over the little-endian 4-byte
/// words, then mixed with the length; `bytes` is a whole number of words.
fn murmur_by_words(bytes: &[u8]) -> i32 {
    let mut h = MURMUR_SEED;
    for word in bytes.chunks_exact(4) {
        let k = u32::from_le_bytes(word.try_into().unwrap())
            .wrapping_mul(C1)
            .rotate_left(15)
            .wrapping_mul(C2);
        h = (h ^ k)
            .rotate_left(13)
            .wrapping_mul(5)
            .wrapping_add(0xE654_6B64);
    }
    h ^= bytes.len() as u32;
    h ^= h >> 16;
    h = h.wrapping_mul(0x85EB_CA6B);
    h ^= h >> 13;
    h = h.wrapping_mul(0xC2B2_AE35);
    h ^= h >> 16;
    h as i32
}

/// splitmix64's finalizer.
fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The row index hash of a key slot and a row's bytes: the polynomial sum of (byte + 1) x
/// BYTE_BASE^position, mixed with the slot and the length (all modulo 2^64).
fn row_key_hash(slot: i64, bytes: &[u8]) -> u64 {
    // Four bytes a step, each with its own power: the powers' chain is a quarter as long.
    let b2 = BYTE_BASE.wrapping_mul(BYTE_BASE);
    let b3 = b2.wrapping_mul(BYTE_BASE);
    let b4 = b3.wrapping_mul(BYTE_BASE);
    let (mut sum, mut power) = (0u64, 1u64);
    let words = bytes.chunks_exact(4);
    let rest = words.remainder();
    for w in words {
        let p1 = power.wrapping_mul(BYTE_BASE);
        let p2 = power.wrapping_mul(b2);
        let p3 = power.wrapping_mul(b3);
        sum = sum
            .wrapping_add((w[0] as u64 + 1).wrapping_mul(power))
            .wrapping_add((w[1] as u64 + 1).wrapping_mul(p1))
            .wrapping_add((w[2] as u64 + 1).wrapping_mul(p2))
            .wrapping_add((w[3] as u64 + 1).wrapping_mul(p3));
        power = power.wrapping_mul(b4);
    }
    for &b in rest {
        sum = sum.wrapping_add((b as u64 + 1).wrapping_mul(power));
        power = power.wrapping_mul(BYTE_BASE);
    }
    let slot_mixed = mix((slot as u64).wrapping_add(INDEX_SEED));
    mix(sum ^ slot_mixed ^ (bytes.len() as u64).wrapping_mul(INDEX_SEED))
}

/// Writes `BinaryRowData.hashCode()` of each row of `rows` (as
/// `accelerator/formats/native_arrays.py` `message_buffers` gives them) into `out` (int32).
#[pyfunction]
pub fn binary_row_hash_codes(rows: Bound<'_, PyAny>, mut out: PyBuffer<i32>) -> PyResult<()> {
    let buffers = MessageBuffers::get(&rows)?;
    let (rows, length) = (buffers.messages()?, buffers.length);
    let out = writable(&mut out, "binary_row_hash_codes out", length)?;
    for (i, code) in out.iter_mut().enumerate() {
        let bytes = rows.bytes(i);
        if bytes.len() % 4 != 0 {
            return Err(PyValueError::new_err(format!(
                "binary row {i} is {} bytes, not whole 4-byte words as every BinaryRowData is; it is not a row \
                 Flink's RowDataSerializer wrote",
                bytes.len()
            )));
        }
        *code = murmur_by_words(bytes);
    }
    Ok(())
}

/// Writes the row index hash of each row's key slot (`slots`, int64) and bytes (`rows`, as
/// `message_buffers` gives them) into `out` (uint64).
#[pyfunction]
pub fn row_key_hashes(
    slots: PyBuffer<i64>,
    rows: Bound<'_, PyAny>,
    mut out: PyBuffer<u64>,
) -> PyResult<()> {
    let buffers = MessageBuffers::get(&rows)?;
    let (rows, length) = (buffers.messages()?, buffers.length);
    if !slots.is_c_contiguous() || slots.item_count() != length {
        return Err(PyValueError::new_err(format!(
            "row_key_hashes: {} key slots for {length} rows",
            slots.item_count()
        )));
    }
    // SAFETY: the buffer is held, and its memory kept alive, while the slice is used.
    let slots = unsafe { std::slice::from_raw_parts(slots.buf_ptr() as *const i64, length) };
    let out = writable(&mut out, "row_key_hashes out", length)?;
    for (i, (hash, &slot)) in out.iter_mut().zip(slots).enumerate() {
        *hash = row_key_hash(slot, rows.bytes(i));
    }
    Ok(())
}
