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


def column(arrow: pa.DataType, length: int, buffers: tuple | None) -> pa.Array:
    """An array of type `arrow` over a kernel's (validity, value buffers, children) for one column:
    structs and lists take their children's arrays, built the same way; None (a column the stage
    does not read) gives nulls."""
    if buffers is None:
        return timestamps.nulls(arrow, length)
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
