//! `accelerator._native`: kernels over Arrow buffers, called by the Python formats and UDFs.

use pyo3::prelude::*;

mod avro_decode;
mod columns;
mod gather_binary;
mod json_decode;
mod json_encode;
mod py_buffers;
mod row_hashes;
mod split_index;
mod timer_order;
mod top_n;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add(
        "__doc__",
        "The accelerator's native kernels (Rust): formats, the functions that need them, Top-N's emission, the binary rows' hashes, the gather of binary values and Flink's timer order.",
    )?;
    m.add_function(wrap_pyfunction!(avro_decode::decode_avro, m)?)?;
    m.add_function(wrap_pyfunction!(json_decode::decode_json, m)?)?;
    m.add_function(wrap_pyfunction!(json_encode::json_values, m)?)?;
    m.add_function(wrap_pyfunction!(gather_binary::gather_binary, m)?)?;
    m.add_function(wrap_pyfunction!(row_hashes::binary_row_hash_codes, m)?)?;
    m.add_function(wrap_pyfunction!(row_hashes::row_key_hashes, m)?)?;
    m.add_function(wrap_pyfunction!(split_index::split_index, m)?)?;
    m.add_function(wrap_pyfunction!(top_n::top_n, m)?)?;
    m.add_class::<timer_order::HeapTimerQueue>()?;
    m.add_class::<timer_order::RocksDBTimerQueue>()?;
    Ok(())
}
