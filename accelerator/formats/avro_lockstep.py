"""Many Avro datums read at once: every message of a batch is read field by field in lockstep.

Each message has a cursor; reading a field moves all cursors with a few numpy operations
(varints byte-column by byte-column, strings by one gather), so the cost is per field, not per
message. Optional values, array items and nested records recurse on the subset of messages that
have them. A message whose datum reads anything unusual (an error, invalid UTF-8, a timestamp
Arrow cannot hold, a long decimal, bytes left over, an array much longer than the rest of its
batch's) is only flagged here; the exact reader (`avro_values`) decides what Flink does with it.
Rows with a MAP are left to the exact reader.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from accelerator.formats.avro_schema import Node
from accelerator.formats.avro_values import MAX_MILLIS
from accelerator.formats.types import to_arrow

_PAD = 16
#: Array items are read one position at a time for all rows that have one; once only _FEW_ROWS
#: rows still have items after _FEW_ITEMS positions, those rows go to the exact reader instead.
_FEW_ROWS = 16
_FEW_ITEMS = 64
#: Stands for every row of the batch.
ALL = slice(None)


class Lockstep:
    """Reads one datum from each message of `values` (a binary array; nulls are skipped)."""

    def __init__(self, values: pa.Array):
        if pa.types.is_large_binary(values.type):
            offsets = np.frombuffer(values.buffers()[1], dtype=np.int64, count=len(values) + 1 + values.offset)
        else:
            offsets = np.frombuffer(values.buffers()[1], dtype=np.int32, count=len(values) + 1 + values.offset)
        offsets = offsets[values.offset:].astype(np.int64)
        buffer = values.buffers()[2]
        raw = np.frombuffer(buffer, dtype=np.uint8) if buffer is not None else np.zeros(0, np.uint8)
        self.data = np.concatenate([raw[:int(offsets[-1])], np.zeros(_PAD, np.uint8)])
        self.pos = offsets[:-1].copy()
        self.end = offsets[1:].copy()
        self.bad = np.zeros(len(values), dtype=bool)
        self.limit = len(self.data) - 1
        self.n = len(values)

    def _index(self, r) -> np.ndarray:
        """Rows as an index array (`ALL` is every row, which plain slicing reads without copies)."""
        return np.arange(self.n) if r is ALL else r

    def _subset(self, r, mask: np.ndarray) -> np.ndarray:
        return np.nonzero(mask)[0] if r is ALL else r[mask]

    # -- primitives, each over the rows `r` --------------------------------------------------------

    def _varint(self, r: np.ndarray, max_bytes: int) -> np.ndarray:
        p = self.pos[r].copy()
        first = self.data[np.minimum(p, self.limit)]
        size = np.ones(len(p), dtype=np.int64)
        going = np.nonzero(first >= 0x80)[0]
        if len(going) == 0:  # one byte each: the common case for union branches, lengths, small ints
            acc = first.astype(np.int64)
            value = (acc >> 1) ^ -(acc & 1)
        else:
            acc = (first & 0x7F).astype(np.uint64)
            j = 1
            while len(going) and j < max_bytes:
                b = self.data[np.minimum(p[going] + j, self.limit)]
                acc[going] |= (b & 0x7F).astype(np.uint64) << np.uint64(7 * j)
                size[going] += 1
                going = going[b >= 0x80]
                j += 1
            if max_bytes == 5:
                acc &= np.uint64(0xFFFFFFFF)
                value = (acc >> np.uint64(1)).astype(np.int64) ^ -(acc & np.uint64(1)).astype(np.int64)
            else:
                value = (acc >> np.uint64(1)).view(np.int64) ^ -(acc & np.uint64(1)).view(np.int64)
            if len(going):
                bad = np.zeros(len(p), dtype=bool)
                bad[going] = True
                self._flag(r, bad)
        self._flag(r, p + size > self.end[r])
        self.pos[r] = p + size
        return value

    def _flag(self, r, problem: np.ndarray) -> None:
        if problem.any():
            if r is ALL:
                self.bad |= problem
            else:
                self.bad[r[problem]] = True

    def _lengths(self, r: np.ndarray) -> np.ndarray:
        n = self._varint(r, 5)
        wrong = (n < 0) | (self.pos[r] + n > self.end[r]) | self.bad[r]
        self._flag(r, wrong)
        return np.where(wrong, 0, n)

    def _bytes(self, r) -> pa.BinaryArray:
        """One length-prefixed value per row, as a binary array."""
        lengths = self._lengths(r)
        starts = self.pos[r].copy()
        self.pos[r] = starts + lengths
        offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        if offsets[-1] * 4 > len(self.data) and np.all(starts[1:] >= starts[:-1] + lengths[:-1]):
            return _binary(offsets, self.data[_range_mask(len(self.data), starts, lengths)])
        return _binary(offsets, self.data[_gather_index(starts, lengths, offsets)])

    def _fixed(self, r: np.ndarray, width: int, dtype) -> np.ndarray:
        p = self.pos[r].copy()
        self._flag(r, p + width > self.end[r])
        index = np.minimum(p[:, None] + np.arange(width)[None, :], self.limit)
        self.pos[r] = p + width
        return np.ascontiguousarray(self.data[index]).view(dtype).reshape(len(p))

    # -- values ---------------------------------------------------------------------------------------

    def read(self, node: Node, r: np.ndarray) -> pa.Array:
        """One value of `node` (union branch included) for each row in `r`."""
        if not node.nullable:
            return self._value(node, r)
        branch = self._varint(r, 5)
        self._flag(r, (branch != 0) & (branch != 1))
        present = branch == 1
        if present.all():
            return self._value(node, r)
        inner = self._value(node, self._subset(r, present))
        positions = np.full(len(branch), -1, dtype=np.int64)
        positions[present] = np.arange(int(present.sum()))
        indices = pa.array(positions, pa.int64(), mask=~present)
        return inner.take(indices)

    def _value(self, node: Node, r: np.ndarray) -> pa.Array:
        kind, t = node.kind, node.type
        arrow = to_arrow(t)
        if kind == "boolean":
            p = self.pos[r].copy()
            self._flag(r, p >= self.end[r])
            self.pos[r] = p + 1
            return pa.array(self.data[np.minimum(p, self.limit)] == 1, pa.bool_())
        if kind == "int":
            v = self._varint(r, 5)
            if t.root == "TINYINT":
                return pa.array(v.astype(np.int8), pa.int8())
            if t.root == "SMALLINT":
                return pa.array(v.astype(np.int16), pa.int16())
            return pa.array(v.astype(np.int32), pa.int32()).cast(arrow) if t.root != "INT" else pa.array(v.astype(np.int32))
        if kind == "long":
            v = self._varint(r, 10)
            if not node.write_unit:
                return pa.array(v, pa.int64())
            outside = (v > MAX_MILLIS) | (v < -MAX_MILLIS)  # not np.abs: it leaves -2**63 negative
            self._flag(r, outside)
            nanos = np.where(outside, 0, v) * 1_000_000
            return pa.array(nanos, pa.int64()).cast(arrow)
        if kind == "float":
            return pa.array(self._fixed(r, 4, np.float32), pa.float32())
        if kind == "double":
            return pa.array(self._fixed(r, 8, np.float64), pa.float64())
        if kind in ("string", "bytes"):
            binary = self._bytes(r)
            if kind == "bytes":
                return binary
            try:
                return binary.cast(pa.string())
            except pa.ArrowInvalid:
                return _strings_flagging_invalid(self, r, binary)
        if kind == "decimal":
            return self._decimal(node, r)
        if kind == "record":
            children = [self.read(child, r) for child in node.children]
            return pa.StructArray.from_arrays(children, fields=list(arrow))
        if kind == "array":
            return self._array(node, r)
        raise ValueError(f"no lockstep reader for avro {kind} ({t.serializable()})")

    def _decimal(self, node: Node, r) -> pa.Array:
        r = self._index(r)
        lengths = self._lengths(r)
        wrong = (lengths == 0) | (lengths > 16)
        self._flag(r, wrong)
        lengths = np.where(wrong, 1, lengths)
        p = self.pos[r].copy()
        self.pos[r] = p + np.where(wrong, 0, lengths)
        # Right-align each big-endian value in 16 bytes, sign-extended.
        column = np.arange(16)[None, :]
        source = p[:, None] + column - (16 - lengths)[:, None]
        inside = column >= (16 - lengths)[:, None]
        first = self.data[np.minimum(p, self.limit)]
        fill = np.where(first >= 0x80, 0xFF, 0x00).astype(np.uint8)
        big = np.where(inside, self.data[np.clip(source, 0, self.limit)], fill[:, None]).astype(np.uint8)
        little = np.ascontiguousarray(big[:, ::-1])
        words = little.view(np.int64).reshape(len(r), 2)
        low, high = words[:, 0], words[:, 1]
        precision = node.type.precision
        small = high == (low >> 63)
        too_long = np.zeros(len(r), dtype=bool)
        if precision < 19:
            bound = 10 ** precision
            too_long = ~small | (np.abs(low) >= bound) | (low == np.iinfo(np.int64).min)
        elif not small.all():
            for i in np.nonzero(~small)[0]:
                value = int.from_bytes(big[i].tobytes(), "big", signed=True)
                too_long[i] = abs(value) >= 10 ** precision
        arrow = pa.decimal128(precision, node.type.scale)
        array = pa.Array.from_buffers(arrow, len(r), [None, pa.py_buffer(little)])
        if too_long.any():
            array = array.take(pa.array(np.arange(len(r)), pa.int64(), mask=too_long))
        return array

    def _array(self, node: Node, r) -> pa.Array:
        r = self._index(r)
        element = node.children[0]
        pieces, owners = [], []
        remaining = self._block(r)
        active = r[remaining > 0]
        remaining = remaining[remaining > 0]
        steps = 0
        while len(active):
            if steps >= _FEW_ITEMS and len(active) <= _FEW_ROWS:
                # A few long arrays: a numpy step per item would cost more than the exact reader.
                self._flag(active, np.ones(len(active), dtype=bool))
                break
            steps += 1
            pieces.append(self.read(element, active))
            owners.append(active)
            remaining = remaining - 1
            done = remaining == 0
            if done.any():
                nxt = self._block(active[done])
                remaining[done] = nxt
            keep = remaining > 0
            active, remaining = active[keep], remaining[keep]
        counts = np.zeros(len(r), dtype=np.int64)
        arrow = to_arrow(node.type)
        if not pieces:
            return pa.ListArray.from_arrays(pa.array(np.zeros(len(r) + 1, np.int32)),
                                            pa.array([], arrow.value_type), type=arrow)
        owner = np.concatenate(owners)
        slot = np.searchsorted(r, owner) if np.all(np.diff(r) > 0) else _positions(r, owner)
        order = np.argsort(slot, kind="stable")
        np.add.at(counts, slot, 1)
        items = pa.concat_arrays(pieces).take(pa.array(order, pa.int64()))
        offsets = np.zeros(len(r) + 1, dtype=np.int32)
        np.cumsum(counts, out=offsets[1:])
        return pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), items, type=arrow)

    def _block(self, r: np.ndarray) -> np.ndarray:
        """The item count of the next block of each row (0 ends the array)."""
        count = self._varint(r, 10)
        negative = count < 0
        if negative.any():
            self._varint(self._subset(r, negative), 10)  # the block's byte size, skipped as Java does
            count = np.where(negative, -count, count)
        wrong = (count < 0) | (count > self.end[r] - self.pos[r]) | self.bad[r]
        self._flag(r, wrong)
        return np.where(wrong, 0, count)


def _range_mask(size: int, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """A mask of the bytes inside the ranges [start, start + length), which must be in order and
    apart: cheaper than an index of every byte when the ranges cover much of the data."""
    nonempty = lengths > 0
    events = np.zeros(size + 1, dtype=np.int8)
    events[starts[nonempty]] = 1
    events[starts[nonempty] + lengths[nonempty]] -= 1
    return np.cumsum(events[:-1], dtype=np.int8).view(bool)


def _gather_index(starts: np.ndarray, lengths: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Positions in the data of every byte of the ranges [start, start + length), in order: a
    running sum of 1s that jumps at the start of each non-empty range."""
    total = int(offsets[-1])
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    nonempty = lengths > 0
    s, o, n = starts[nonempty], offsets[:-1][nonempty], lengths[nonempty]
    steps = np.ones(total, dtype=np.int64)
    steps[o[1:]] = s[1:] - (s[:-1] + n[:-1]) + 1
    steps[0] = s[0]
    return np.cumsum(steps, out=steps)


def _positions(r: np.ndarray, owner: np.ndarray) -> np.ndarray:
    lookup = {int(v): i for i, v in enumerate(r)}
    return np.array([lookup[int(v)] for v in owner], dtype=np.int64)


def _binary(offsets: np.ndarray, data: np.ndarray) -> pa.BinaryArray:
    return pa.BinaryArray.from_buffers(pa.binary(), len(offsets) - 1,
                                       [None, pa.py_buffer(offsets.astype(np.int32)), pa.py_buffer(data)])


def _strings_flagging_invalid(reader: Lockstep, r: np.ndarray, binary: pa.BinaryArray) -> pa.Array:
    """The strings, with rows holding invalid UTF-8 flagged (and emptied) for the exact reader."""
    values = binary.to_pylist()
    invalid = np.zeros(len(values), dtype=bool)
    for i, v in enumerate(values):
        try:
            v.decode("utf-8")
        except UnicodeDecodeError:
            invalid[i] = True
            values[i] = b""
    reader._flag(r, invalid)
    return pa.array(values, pa.binary()).cast(pa.string())
