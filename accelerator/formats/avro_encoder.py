"""Arrow rows -> the exact bytes Flink's `avro` format writes for them (Avro binary, no header).

Flink's AvroRowDataSerializationSchema turns each row into a GenericRecord and Avro's
GenericDatumWriter writes it: ints and longs as zig-zag varints, floats and doubles as their raw
IEEE bits little-endian, strings and bytes length-prefixed, a nullable value as the union branch
(0 for null, 1 then the value), arrays and maps as one block (count, items, 0) or a lone 0 when
empty, records as their fields in order. Here every column becomes one Arrow binary array of its
encoded values at once (numpy for varints and decimals); the row's message is the element-wise
concatenation of its fields' pieces.

Flink writes a map through a java.util.HashMap, so its entries come out in that map's iteration
order (`java_hash_map`), not in the order they were given.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.formats import EncodeError, java_hash_map, timestamps
from accelerator.formats.avro_options import AvroOptions
from accelerator.formats.avro_schema import Node, derive
from accelerator.formats.types import DataType

_MILLIS_PER_DAY = 86_400_000
_NULL_BRANCH = pa.scalar(b"\x00", pa.binary())
_VALUE_BRANCH = pa.scalar(b"\x02", pa.binary())


def encode(batch: pa.RecordBatch | pa.Table, row_type: DataType, options: AvroOptions) -> pa.BinaryArray:
    """One Avro datum per row, in order."""
    if options.encoding != "binary":
        raise ValueError("only 'avro.encoding' = 'binary' is reproduced; check avro.supported() first")
    if isinstance(batch, pa.Table):
        batch = batch.combine_chunks().to_batches()[0] if batch.num_rows else pa.RecordBatch.from_pylist([], batch.schema)
    schema = derive(row_type, options.legacy_timestamp_mapping)
    if batch.num_rows == 0:
        return pa.array([], pa.binary())
    pieces = [_encode(schema.children[i], batch.column(i)) for i in range(len(schema.children))]
    return _join(pieces, batch.num_rows)


def _join(pieces: list[pa.Array], n: int) -> pa.BinaryArray:
    if not pieces:
        return pa.array([b""] * n, pa.binary())
    if len(pieces) == 1:
        return pieces[0]
    return pc.binary_join_element_wise(*pieces, b"")


def _encode(node: Node, arr: pa.Array, relevant: np.ndarray | None = None) -> pa.BinaryArray:
    """The bytes of each value of `arr` written as `node` (union branch included). `relevant`
    marks the values that are written at all (not under a null row or list)."""
    value = None if node.nullable and node.kind in _BRANCH_WRITERS else _value(node, arr, relevant)
    if not node.nullable:
        nulls = arr.is_null().to_numpy(zero_copy_only=False) if arr.null_count else None
        if nulls is not None and relevant is not None:
            nulls &= relevant
        if nulls is not None and nulls.any():
            row = int(np.argmax(nulls))
            raise EncodeError(row, f"a NOT NULL {node.type.serializable()} value is null; Flink's avro "
                                   f"writer fails on it", "make the sink column nullable or filter the nulls")
        return value
    if value is None:  # written with its union branch already
        return _value(node, arr, relevant, arr.is_null().to_numpy(zero_copy_only=False))
    if arr.null_count == 0:
        return pc.binary_join_element_wise(_VALUE_BRANCH, value, b"")
    return pc.if_else(arr.is_null(), _NULL_BRANCH, pc.binary_join_element_wise(_VALUE_BRANCH, value, b""))


#: Kinds whose writer also writes the union branch, saving a concatenation per value.
_BRANCH_WRITERS = ("int", "long", "string", "bytes")


def _value(node: Node, arr: pa.Array, relevant: np.ndarray | None, nulls: np.ndarray | None = None) -> pa.BinaryArray:
    """Each value of `arr` as `node` writes it; with `nulls` (kinds in _BRANCH_WRITERS only),
    as the nullable union [null, node]."""
    kind = node.kind
    if kind in ("int", "long"):
        return varints(_integers(node, arr), nulls)
    if kind == "boolean":
        values = np.asarray(arr.fill_null(False).to_numpy(zero_copy_only=False), dtype=np.uint8)
        return _fixed_width(values, 1)
    if kind in ("float", "double"):
        width = 4 if kind == "float" else 8
        values = np.ascontiguousarray(arr.fill_null(0).to_numpy(zero_copy_only=False))
        return _fixed_width(values.view(np.uint8), width)
    if kind in ("string", "bytes"):
        data = arr.cast(pa.binary()) if arr.type != pa.binary() else arr
        lengths = pc.binary_length(data).fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64)
        return pc.binary_join_element_wise(varints(lengths, nulls), data.fill_null(b"") if data.null_count else data, b"")
    if kind == "decimal":
        return _decimals(arr)
    if kind == "record":
        inner = _valid(arr, relevant)
        fields = [_encode(child, pc.struct_field(arr, [i]), inner) for i, child in enumerate(node.children)]
        return _join(fields, len(arr))
    if kind == "array":
        counts = pc.list_value_length(arr).fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64)
        inner = np.repeat(_valid(arr, relevant), counts)
        return _blocks(counts, _encode(node.children[0], arr.flatten(), inner))
    if kind == "map":
        return _maps(node, arr, relevant)
    raise ValueError(f"no avro writer for {kind}")


def _valid(arr: pa.Array, relevant: np.ndarray | None) -> np.ndarray:
    valid = arr.is_valid().to_numpy(zero_copy_only=False) if arr.null_count else np.ones(len(arr), dtype=bool)
    return valid if relevant is None else valid & relevant


def _integers(node: Node, arr: pa.Array) -> np.ndarray:
    """The int64 each value is written as: days, milliseconds of the day, or epoch milliseconds."""
    t = arr.type
    if t == timestamps.ARROW_TYPE:
        millis = timestamps.millis(arr).fill_null(0).to_numpy(zero_copy_only=False)
        return _local_time_millis(millis) if node.local_time else millis  # toInstant().toEpochMilli()
    if pa.types.is_date32(t) or pa.types.is_time32(t):
        arr = arr.cast(pa.int32())
    return arr.fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64)


def _local_time_millis(millis: np.ndarray) -> np.ndarray:
    """TimestampData.toLocalDateTime().toInstant(UTC).toEpochMilli(): the epoch milliseconds, but
    with the day cast to a Java int on the way (it wraps past about 5.8 million years)."""
    day = np.floor_divide(millis, _MILLIS_PER_DAY).astype(np.int32)  # astype wraps as Java's cast
    return day.astype(np.int64) * _MILLIS_PER_DAY + np.mod(millis, _MILLIS_PER_DAY)


def varints(values: np.ndarray, nulls: np.ndarray | None = None) -> pa.BinaryArray:
    """Avro's zig-zag varint of each int64. With `nulls`, each value is a nullable union: the
    branch byte 0 alone where nulls[i], else the branch byte 2 (branch 1) and the varint."""
    zz = (values.astype(np.int64) << np.int64(1)) ^ (values.astype(np.int64) >> np.int64(63))
    zz = zz.view(np.uint64)
    sizes = np.ones(len(zz), dtype=np.int64)
    rest = zz >> np.uint64(7)
    while True:
        more = rest != 0
        if not more.any():
            break
        sizes += more
        rest = rest >> np.uint64(7)
    lead = 0
    if nulls is not None:
        lead = 1
        sizes = np.where(nulls, 0, sizes)
    offsets = np.zeros(len(zz) + 1, dtype=np.int64)
    np.cumsum(sizes + lead, out=offsets[1:])
    out = np.empty(int(offsets[-1]), dtype=np.uint8)
    starts = offsets[:-1]
    if nulls is not None:
        out[starts] = np.where(nulls, 0x00, 0x02).astype(np.uint8)
        starts = starts + 1
    for j in range(int(sizes.max(initial=1))):
        have = sizes > j
        shifted = zz[have] >> np.uint64(7 * j)
        byte = (shifted & np.uint64(0x7F)).astype(np.uint8)
        byte |= np.where(sizes[have] > j + 1, 0x80, 0).astype(np.uint8)
        out[starts[have] + j] = byte
    return _binary(offsets, out)


def _binary(offsets: np.ndarray, data: np.ndarray) -> pa.BinaryArray:
    if offsets[-1] < 2 ** 31:
        return pa.BinaryArray.from_buffers(pa.binary(), len(offsets) - 1,
                                           [None, pa.py_buffer(offsets.astype(np.int32)), pa.py_buffer(data)])
    return pa.LargeBinaryArray.from_buffers(pa.large_binary(), len(offsets) - 1,
                                            [None, pa.py_buffer(offsets), pa.py_buffer(data)]).cast(pa.binary())


def _fixed_width(data: np.ndarray, width: int) -> pa.BinaryArray:
    n = len(data) // width
    return _binary(np.arange(n + 1, dtype=np.int64) * width, np.ascontiguousarray(data))


def _decimals(arr: pa.Array) -> pa.BinaryArray:
    """BigInteger.toByteArray() of each unscaled value (shortest big-endian two's complement),
    length-prefixed as Avro bytes."""
    arr = arr if arr.type.bit_width == 128 else arr.cast(pa.decimal128(38, arr.type.scale))
    n = len(arr)
    raw = np.frombuffer(arr.buffers()[1], dtype=np.uint8, count=(arr.offset + n) * 16, offset=0)
    big_endian = raw.reshape(-1, 16)[arr.offset:arr.offset + n, ::-1]
    # A leading byte is redundant when it only repeats the sign of the byte after it.
    head, nxt = big_endian[:, :-1], big_endian[:, 1:]
    redundant = ((head == 0x00) & (nxt < 0x80)) | ((head == 0xFF) & (nxt >= 0x80))
    leading = np.cumprod(redundant, axis=1).sum(axis=1)
    keep = np.arange(16)[None, :] >= leading[:, None]
    if arr.null_count:
        keep &= np.asarray(arr.is_valid())[:, None]
    sizes = keep.sum(axis=1).astype(np.int64)
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(sizes, out=offsets[1:])
    body = _binary(offsets, np.ascontiguousarray(big_endian[keep]))
    return pc.binary_join_element_wise(varints(sizes), body, b"")


def _blocks(counts: np.ndarray, items: pa.BinaryArray) -> pa.BinaryArray:
    """Each list as one Avro block: item count, its items' bytes (`items` holds every list's
    items in order), then the 0 that ends the list; an empty list is the 0 alone."""
    list_offsets = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=list_offsets[1:])
    if len(items):
        item_offsets = np.frombuffer(items.buffers()[1], dtype=np.int32,
                                     count=len(items) + 1 + items.offset)[items.offset:].astype(np.int64)
        data = items.buffers()[2]
        data_np = np.frombuffer(data, dtype=np.uint8) if data is not None else np.zeros(0, np.uint8)
    else:
        item_offsets, data_np = np.zeros(1, dtype=np.int64), np.zeros(0, np.uint8)
    body_offsets = item_offsets[list_offsets]
    start = int(body_offsets[0])
    body_offsets -= start
    body = _binary(body_offsets, data_np[start:start + int(body_offsets[-1])])
    joined = pc.binary_join_element_wise(varints(counts), body, b"")
    if not counts.any():
        return joined  # count 0 is itself the end marker
    end = pc.if_else(pa.array(counts > 0), _NULL_BRANCH, pa.scalar(b"", pa.binary()))
    return pc.binary_join_element_wise(joined, end, b"")


def _maps(node: Node, arr: pa.MapArray, relevant: np.ndarray | None) -> pa.BinaryArray:
    keys = arr.keys
    order, sizes = java_hash_map.string_map_order(arr)
    offsets = arr.offsets.to_numpy(zero_copy_only=False).astype(np.int64)
    inner = np.zeros(len(keys), dtype=bool)
    valid = _valid(arr, relevant)
    for m in np.nonzero(valid)[0]:
        inner[offsets[m]:offsets[m + 1]] = True
    entry_bytes = pc.binary_join_element_wise(
        _encode(Node(node.type.children[0], "string", False), keys), _encode(node.children[0], arr.items, inner), b"")
    return _blocks(sizes, entry_bytes.take(pa.array(order, pa.int64())))
