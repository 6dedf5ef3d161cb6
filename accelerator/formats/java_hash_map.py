"""The order in which a java.util.HashMap iterates its entries, for the key types Flink's formats
put in one.

Flink's avro writer copies each MAP into `CollectionUtil.newHashMapWithExpectedSize(size)` keyed
by java.lang.String and Avro writes that map's entries in iteration order. Reading, Avro puts the
entries into a `new HashMap<>(first block's count)` keyed by org.apache.avro.util.Utf8, and Flink
copies that map, in its order, into a `new HashMap<>()` keyed by BinaryStringData, whose order
becomes the MAP's. Flink's json decoder, likewise, puts each entry as it reads it into a
`new HashMap<>()` keyed by BinaryStringData. Iteration goes by bucket index (hashCode spread by
`h ^ (h >>> 16)`), within a bucket in insertion order; a repeated key keeps its first position
and takes the last value. A bucket Java would turn into a tree (more than 8 colliding keys in a
table of 64 or more) is refused rather than guessed.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

_TREEIFY_THRESHOLD = 8
_MIN_TREEIFY_CAPACITY = 64


class Unreproducible(ValueError):
    """Java would iterate this map in an order this module does not model."""


def string_hash(text: str) -> int:
    """java.lang.String.hashCode: 31*h + UTF-16 code unit, in 32-bit arithmetic."""
    h = 0
    units = text.encode("utf-16-le", "surrogatepass")
    for i in range(0, len(units), 2):
        h = (31 * h + (units[i] | units[i + 1] << 8)) & 0xFFFFFFFF
    return h


def utf8_hash(data: bytes) -> int:
    """org.apache.avro.util.Utf8.hashCode: 31*h + signed byte, in 32-bit arithmetic."""
    h = 0
    for b in data:
        h = (31 * h + (b - 256 if b >= 128 else b)) & 0xFFFFFFFF
    return h


_C1, _C2, _M32 = 0xCC9E2D51, 0x1B873593, 0xFFFFFFFF


def _rotl(x: int, r: int) -> int:
    return ((x << r) | (x >> (32 - r))) & _M32


def _mix_k1(k1: int) -> int:
    return (_rotl((k1 * _C1) & _M32, 15) * _C2) & _M32


def _mix_h1(h1: int, k1: int) -> int:
    return (_rotl(h1 ^ k1, 13) * 5 + 0xE6546B64) & _M32


def binary_string_hash(text: str) -> int:
    """Flink's BinaryStringData.hashCode: MurmurHashUtil.hashBytes (murmur3 32-bit, seed 42, little-
    endian 4-byte words, then each remaining byte sign-extended) over the string's UTF-8 bytes."""
    data = text.encode("utf-8")
    h1 = 42
    aligned = len(data) - len(data) % 4
    for i in range(0, aligned, 4):
        h1 = _mix_h1(h1, _mix_k1(int.from_bytes(data[i:i + 4], "little")))
    for b in data[aligned:]:
        h1 = _mix_h1(h1, _mix_k1((b - 256 if b >= 128 else b) & _M32))
    h1 ^= len(data)
    h1 ^= h1 >> 16
    h1 = (h1 * 0x85EBCA6B) & _M32
    h1 ^= h1 >> 13
    h1 = (h1 * 0xC2B2AE35) & _M32
    return h1 ^ (h1 >> 16)


def table_size_for(capacity: int) -> int:
    """HashMap.tableSizeFor: the power of two a `new HashMap<>(capacity)` starts with."""
    cap = 1
    while cap < capacity:
        cap <<= 1
    return cap


#: A `new HashMap<>()` allocates 16 buckets at its first put.
DEFAULT_CAPACITY = 16


def _spread(h: int) -> int:
    return h ^ (h >> 16)


def _expected_size_capacity(n: int) -> int:
    """Flink's CollectionUtil.computeRequiredCapacity, then HashMap.tableSizeFor."""
    requested = n + 1 if n <= 2 else int(np.ceil(n / 0.75))
    cap = 1
    while cap < requested:
        cap <<= 1
    return cap


def iteration_order(keys: list, hash_of=string_hash, capacity: int | None = None) -> list[int]:
    """For keys put in this order into a HashMap starting with `capacity` buckets (default: what
    newHashMapWithExpectedSize(len(keys)) makes): the index (into `keys`) of the entry holding
    each key's value, in iteration order. A repeated key's value is its last put, at its first
    key's place. `hash_of` is the keys' Java hashCode."""
    cap = _expected_size_capacity(len(keys)) if capacity is None else capacity
    threshold = int(cap * 0.75)
    buckets: list[list[list]] = [[] for _ in range(cap)]  # entries: [hash, key, index of value]
    where: dict[str, list] = {}
    size = 0
    for index, key in enumerate(keys):
        if key in where:
            where[key][2] = index
            continue
        h = _spread(hash_of(key))
        bucket = buckets[h & (cap - 1)]
        entry = [h, key, index]
        bucket.append(entry)
        where[key] = entry
        if len(bucket) > _TREEIFY_THRESHOLD:
            if cap >= _MIN_TREEIFY_CAPACITY:
                raise Unreproducible(f"{len(bucket)} map keys share one java.util.HashMap bucket; Java "
                                     f"would keep them as a tree, whose order the accelerator does not model")
            cap, buckets = cap * 2, _rehash(buckets, cap * 2)
            threshold = int(cap * 0.75)
        size += 1
        if size > threshold:
            cap, buckets = cap * 2, _rehash(buckets, cap * 2)
            threshold = int(cap * 0.75)
    return [entry[2] for bucket in buckets for entry in bucket]


def _rehash(buckets: list[list[list]], cap: int) -> list[list[list]]:
    grown: list[list[list]] = [[] for _ in range(cap)]
    for bucket in buckets:
        for entry in bucket:
            grown[entry[0] & (cap - 1)].append(entry)
    return grown


def string_map_order(arr: pa.MapArray) -> tuple[np.ndarray, np.ndarray]:
    """For every map of `arr`: the entries Java writes, as indices into `arr.keys`/`arr.items`, in
    its iteration order, and how many entries each map has after repeated keys merge."""
    offsets = arr.offsets.to_numpy(zero_copy_only=False)
    keys = arr.keys.to_pylist()
    valid = arr.is_valid().to_numpy(zero_copy_only=False)
    order: list[int] = []
    sizes = np.zeros(len(arr), dtype=np.int64)
    for m in range(len(arr)):
        if not valid[m]:
            continue
        start, end = int(offsets[m]), int(offsets[m + 1])
        entries = iteration_order(keys[start:end])
        order.extend(start + i for i in entries)
        sizes[m] = len(entries)
    return np.asarray(order, dtype=np.int64), sizes
