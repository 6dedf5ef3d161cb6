"""The native kernels of the two per-row hashes (native/src/row_hashes.rs) against the numpy code
they replaced, kept here as the reference: `row_index.row_key_hashes` (the join state's 64-bit row
index hash) and `key_groups.binary_row_hashes` (`BinaryRowData.hashCode`; Flink's own values are
checked by tests/exchange/test_key_groups.py and test_hash_order_against_java.py). Random rows of
every length from empty to several kilobytes, of lengths that are not whole words, in arrays that
are sliced (offsets not at 0, data not word-aligned), chunked or with 64-bit offsets."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from accelerator.exchange.key_groups import binary_row_hashes
from accelerator.join.row_index import row_key_hashes

_GOLDEN = Path(__file__).parent.parent / "exchange" / "flink_key_groups.json"
_SEED = np.uint64(0x9E3779B97F4A7C15)
_BYTE_BASE = np.uint64(0x100000001B3)


def _mix(x: np.ndarray) -> np.ndarray:
    x = x ^ (x >> np.uint64(30))
    x = x * np.uint64(0xBF58476D1CE4E5B9)
    x = x ^ (x >> np.uint64(27))
    x = x * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def _numpy_row_key_hashes(slots: np.ndarray, orders: pa.Array) -> np.ndarray:
    """The row index hash as numpy computed it before the kernel: a cumulative sum over every byte."""
    orders = orders.combine_chunks() if isinstance(orders, pa.ChunkedArray) else orders
    n = len(orders)
    buffers = orders.buffers()
    offset_type = np.int64 if pa.types.is_large_binary(orders.type) else np.int32
    offsets = np.frombuffer(buffers[1], dtype=offset_type)[orders.offset:orders.offset + n + 1].astype(np.int64)
    first, lengths = offsets[0], np.diff(offsets)
    data = np.frombuffer(buffers[2], dtype=np.uint8)[first:offsets[-1]] if buffers[2] is not None \
        else np.zeros(0, dtype=np.uint8)
    position = np.arange(len(data), dtype=np.int64) - np.repeat(offsets[:-1] - first, lengths)
    powers = np.cumprod(np.concatenate([[np.uint64(1)], np.full(max(int(lengths.max(initial=0)), 1), _BYTE_BASE)]),
                        dtype=np.uint64)
    with np.errstate(over="ignore"):
        sums = np.concatenate([np.zeros(1, dtype=np.uint64),
                               np.cumsum((data.astype(np.uint64) + np.uint64(1)) * powers[position], dtype=np.uint64)])
        ends = offsets - first
        polynomial = sums[ends[1:]] - sums[ends[:-1]]
        mixed = _mix(np.asarray(slots, dtype=np.int64).view(np.uint64) + _SEED)
        return _mix(polynomial ^ mixed ^ (lengths.astype(np.uint64) * _SEED))


def _numpy_binary_row_hashes(rows: pa.Array) -> np.ndarray:
    """`BinaryRowData.hashCode()` as numpy computed it before the kernel (`hash_order.row_hashes`):
    murmur3 word by word for all rows at once, the rows by descending length."""
    rows = rows.combine_chunks() if isinstance(rows, pa.ChunkedArray) else rows
    n = len(rows)
    buffers = rows.buffers()
    offsets = np.frombuffer(buffers[1], dtype=np.int32)[rows.offset:rows.offset + n + 1].astype(np.int64)
    lengths = np.diff(offsets)
    first = int(offsets[0])
    data = np.frombuffer(buffers[2], dtype=np.uint8)[first:int(offsets[-1])] if buffers[2] is not None \
        else np.zeros(0, np.uint8)
    words = np.frombuffer(data.tobytes(), dtype="<u4")
    longest_first = np.argsort(-lengths, kind="stable")
    starts = (offsets[:-1][longest_first] - first) // 4
    counts = lengths[longest_first] // 4
    active = np.searchsorted(-counts, -np.arange(int(counts[0]) if n else 0), side="left")
    h = np.full(n, 42, dtype=np.uint32)
    c1, c2 = np.uint32(0xCC9E2D51), np.uint32(0x1B873593)
    with np.errstate(over="ignore"):
        for w, m in enumerate(active.tolist()):
            k = words[starts[:m] + w] * c1
            k = ((k << np.uint32(15)) | (k >> np.uint32(17))) * c2
            x = h[:m] ^ k
            h[:m] = ((x << np.uint32(13)) | (x >> np.uint32(19))) * np.uint32(5) + np.uint32(0xE6546B64)
        h ^= lengths[longest_first].astype(np.uint32)
        h ^= h >> np.uint32(16)
        h *= np.uint32(0x85EBCA6B)
        h ^= h >> np.uint32(13)
        h *= np.uint32(0xC2B2AE35)
        h ^= h >> np.uint32(16)
    out = np.empty(n, dtype=np.int32)
    out[longest_first] = h.view(np.int32)
    return out


def _random_rows(rng: np.random.Generator, n: int, word: int) -> list[bytes]:
    """Rows of random bytes: many empty or short, some of several kilobytes; lengths multiples of `word`."""
    lengths = np.where(rng.random(n) < 0.02, rng.integers(1000, 5000, n), rng.integers(0, 80, n)) // word * word
    lengths[rng.random(n) < 0.1] = 0
    return [rng.bytes(int(length)) for length in lengths]


def _layouts(rows: list[bytes], rng: np.random.Generator):
    """The same rows as binary, large_binary, a slice of a longer array (starting at an odd byte)
    and a chunked array; each with the row numbers it holds."""
    n = len(rows)
    yield "binary", pa.array(rows, pa.binary()), np.arange(n)
    yield "large_binary", pa.array(rows, pa.large_binary()), np.arange(n)
    padded = pa.array([b"\x01\x02\x03"] + rows + [b"tail"], pa.binary())
    yield "slice", padded.slice(1, n), np.arange(n)
    cut = int(rng.integers(0, n))
    yield "chunked", pa.chunked_array([pa.array(rows[:cut], pa.binary()), pa.array(rows[cut:], pa.binary())]), np.arange(n)
    yield "inner slice", pa.array(rows, pa.binary()).slice(n // 3, n // 3), np.arange(n // 3, 2 * (n // 3))


@pytest.mark.parametrize("seed", range(4))
def test_the_row_key_hash_kernel_gives_the_numpy_hashes(seed):
    rng = np.random.default_rng(seed)
    rows = _random_rows(rng, 3000, word=1)
    slots = rng.integers(-2**63, 2**63 - 1, len(rows), dtype=np.int64)
    slots[:100] = np.arange(100)
    want = _numpy_row_key_hashes(slots, pa.array(rows, pa.binary()))
    assert len(np.unique(want)) == len({(int(s), r) for s, r in zip(slots, rows)})
    for name, array, at in _layouts(rows, rng):
        np.testing.assert_array_equal(row_key_hashes(slots[at], array), want[at], err_msg=name)


def test_the_row_key_hash_kernel_gives_the_numpy_hashes_of_every_short_length():
    """Every length from 0 to 300 bytes, so each tail after whole 4-byte steps is met, on every slot."""
    data = np.random.default_rng(9).bytes(300)
    rows = [data[:length] for length in range(301)] * 3
    slots = np.repeat(np.array([0, 1, -1], dtype=np.int64), 301)
    array = pa.array(rows, pa.binary())
    np.testing.assert_array_equal(row_key_hashes(slots, array), _numpy_row_key_hashes(slots, array))
    assert row_key_hashes(np.zeros(0, dtype=np.int64), pa.array([], pa.binary())).dtype == np.uint64


def test_the_row_key_hash_kernel_refuses_a_slot_count_that_is_not_the_rows():
    with pytest.raises(ValueError, match="2 key slots for 3 rows"):
        row_key_hashes(np.array([1, 2]), pa.array([b"a", b"b", b"c"]))


@pytest.mark.parametrize("seed", range(3))
def test_the_hash_code_kernel_gives_the_numpy_hash_codes(seed):
    rng = np.random.default_rng(100 + seed)
    rows = _random_rows(rng, 1500, word=4)
    want = _numpy_binary_row_hashes(pa.array(rows, pa.binary()))
    for name, array, at in _layouts(rows, rng):
        np.testing.assert_array_equal(binary_row_hashes(array), want[at], err_msg=name)


def test_the_hash_code_kernel_gives_flinks_hash_codes_in_every_layout():
    """Flink's own BinaryRowData.hashCode of key rows (written by the jar's FlinkKeyGroupsTest),
    the rows laid out as above."""
    rows, want = [], []
    for case in json.loads(_GOLDEN.read_text())["cases"]:
        rows += [bytes.fromhex(row["bytes"]) for row in case["rows"]]
        want += [row["hash"] for row in case["rows"]]
    assert len(rows) > 100 and len(set(map(len, rows))) > 2
    for name, array, at in _layouts(rows, np.random.default_rng(3)):
        np.testing.assert_array_equal(binary_row_hashes(array), np.array(want, dtype=np.int32)[at], err_msg=name)


def test_the_hash_code_kernel_refuses_a_row_of_part_of_a_word():
    with pytest.raises(ValueError, match="binary row 1 is 6 bytes, not whole 4-byte words"):
        binary_row_hashes(pa.array([b"\0" * 8, b"\0" * 6], pa.binary()))
