"""Flink's key group and target subtask of each row, from its key's `BinaryRowData` bytes.

Flink's keyed shuffle (`KeyGroupStreamPartitioner`) sends a row to
`KeyGroupRangeAssignment.assignKeyToParallelOperator(key, maxParallelism, parallelism)`: the key
group is `MathUtils.murmurHash(key.hashCode()) % maxParallelism`, the subtask
`keyGroup * parallelism / maxParallelism`. For a SQL operator the key is a `BinaryRowData`, whose
`hashCode()` is `MurmurHashUtil.hashBytesByWords` of its bytes: Murmur3 (32 bit, seed 42) over
its 4-byte little-endian words (a `BinaryRowData` is always a whole number of 8-byte words),
computed by a native kernel; the rest is vectorized over a batch (numpy uint32 arithmetic wraps as
Java's int does).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from accelerator import _native
from accelerator.formats import native_arrays

_C1, _C2 = np.uint32(0xCC9E2D51), np.uint32(0x1B873593)
_FMIX1, _FMIX2 = np.uint32(0x85EBCA6B), np.uint32(0xC2B2AE35)


def _rotl(x: np.ndarray, r: int) -> np.ndarray:
    return (x << np.uint32(r)) | (x >> np.uint32(32 - r))


def _mix_k1(k: np.ndarray) -> np.ndarray:
    return _rotl(k * _C1, 15) * _C2


def _mix_h1(h: np.ndarray, k: np.ndarray) -> np.ndarray:
    return _rotl(h ^ k, 13) * np.uint32(5) + np.uint32(0xE6546B64)


def _fmix(h: np.ndarray, length) -> np.ndarray:
    h = h ^ np.asarray(length).astype(np.uint32)
    h = (h ^ (h >> np.uint32(16))) * _FMIX1
    h = (h ^ (h >> np.uint32(13))) * _FMIX2
    return h ^ (h >> np.uint32(16))


def binary_row_hashes(rows: pa.Array) -> np.ndarray:
    """`BinaryRowData.hashCode()` (int32) of each row of a binary column of row bytes, in one pass
    over them (`_native.binary_row_hash_codes`, native/src/row_hashes.rs)."""
    rows = rows.combine_chunks() if isinstance(rows, pa.ChunkedArray) else rows
    hashes = np.empty(len(rows), dtype=np.int32)
    if len(rows):
        _native.binary_row_hash_codes(native_arrays.message_buffers(rows), hashes)
    return hashes


def key_groups_of_hashes(hashes: np.ndarray, max_parallelism: int) -> np.ndarray:
    """`KeyGroupRangeAssignment.computeKeyGroupForKeyHash` (int32) of each hash."""
    code = _fmix(_mix_h1(np.zeros(len(hashes), np.uint32), _mix_k1(hashes.astype(np.int32).view(np.uint32))), 4)
    signed = code.view(np.int32).astype(np.int64)
    # MathUtils.murmurHash: the absolute value, Integer.MIN_VALUE as 0.
    positive = np.where(signed == -(2 ** 31), 0, np.abs(signed))
    return (positive % max_parallelism).astype(np.int32)


def key_groups(rows: pa.Array, max_parallelism: int) -> np.ndarray:
    """The key group of each key row, as Flink's keyed shuffle computes it."""
    return key_groups_of_hashes(binary_row_hashes(rows), max_parallelism)


def operator_indexes(key_groups: np.ndarray, max_parallelism: int, parallelism: int) -> np.ndarray:
    """`KeyGroupRangeAssignment.computeOperatorIndexForKeyGroup`: the subtask of each key group."""
    return (key_groups.astype(np.int64) * parallelism // max_parallelism).astype(np.int32)
