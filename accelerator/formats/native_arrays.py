"""Arrow arrays to and from the native decoders (`accelerator._native`): the message array's
buffers as the kernels take them, and Arrow arrays over the column buffers they return."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from accelerator.formats import timestamps

#: Message columns the kernels read as they are (same buffer layout as binary), and whether their
#: offsets are 64-bit.
_LAYOUTS = {pa.binary(): False, pa.string(): False, pa.large_binary(): True, pa.large_string(): True}


def message_buffers(values: pa.Array) -> tuple:
    """(validity, offsets, data, offset, length, wide_offsets) of a message array: the first
    argument of every native decoder (`MessageBuffers::get` in native/src/columns.rs)."""
    if values.type not in _LAYOUTS:
        values = values.cast(pa.large_binary())
    validity, offsets, data = values.buffers()[:3]
    return validity, offsets, data, values.offset, len(values), _LAYOUTS[values.type]


#: Longest all-null column kept for reuse: a batch's rows at the default accelerator.batch.size
#: and well beyond; longer ones are built for their batch alone.
_UNREAD_ROWS = 1 << 17
#: The all-null column of each type a stage does not read, at least as long as the longest batch
#: so far, handed out sliced (arrays are immutable): built for every batch, the nested ROWs of a
#: wide table (their timestamps' zeroed parts) cost as much as decoding a narrow plan's fields.
_unread_columns: dict[pa.DataType, pa.Array] = {}


def _unread(arrow: pa.DataType, length: int) -> pa.Array:
    held = _unread_columns.get(arrow)
    if held is None or len(held) < length:
        if length > _UNREAD_ROWS:
            return timestamps.nulls(arrow, length)
        held = timestamps.nulls(arrow, min(_UNREAD_ROWS, max(length, 2 * len(held) if held is not None else 0)))
        _unread_columns[arrow] = held
    return held.slice(0, length)


def column(arrow: pa.DataType, length: int, buffers: tuple | None) -> pa.Array:
    """An array of type `arrow` over a kernel's (validity, value buffers, children) for one column:
    structs and lists take their children's arrays, built the same way; None (a column the stage
    does not read) gives nulls."""
    if buffers is None:
        return _unread(arrow, length)
    validity, values, children = buffers
    validity = None if validity is None else pa.py_buffer(validity)
    if pa.types.is_struct(arrow):
        kids = [column(arrow.field(i).type, length, c) for i, c in enumerate(children)]
        return pa.StructArray.from_buffers(arrow, length, [validity], children=kids)
    if pa.types.is_list(arrow):
        offsets = pa.py_buffer(values[0])
        items = int(np.frombuffer(offsets, dtype=np.int32)[length])
        item = column(arrow.value_type, items, children[0])
        return pa.ListArray.from_buffers(arrow, length, [validity, offsets], children=[item])
    return pa.Array.from_buffers(arrow, length, [validity] + [pa.py_buffer(b) for b in values])
