"""Whole-batch avro decoding in native code, for the messages it reads exactly as Flink does.

`accelerator._native.decode_avro` (native/src/avro_decode/) reads each message's datum of the
derived schema straight into Arrow column buffers, invalid UTF-8 in strings decoded as Java
decodes it (as `java_utf8`). A message on which anything unusual happens (an error, a timestamp
Arrow cannot hold, a decimal longer than 16 bytes, bytes left over) is only flagged: the exact
reader (`avro_values`) decides what Flink does with it. Rows with a MAP are left to the exact
reader.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from accelerator import _native
from accelerator.formats.avro_schema import Node
from accelerator.formats.types import to_arrow

#: Message columns the kernel reads as they are (same buffer layout as binary).
_LAYOUTS = {pa.binary(): False, pa.string(): False, pa.large_binary(): True, pa.large_string(): True}
#: Avro ints by the width Arrow holds them in.
_INTS = {"TINYINT": "int8", "SMALLINT": "int16"}


def _describe(node: Node) -> tuple:
    """The node as the kernel takes it: (kind, nullable, params, children)."""
    kind = node.kind
    if kind == "int":
        kind = _INTS.get(node.type.root, "int32")
    elif kind == "long" and node.write_unit:
        kind = "timestamp"
    params = [node.type.precision] if kind == "decimal" else []
    return kind, node.nullable, params, [_describe(c) for c in node.children]


def decode(values: pa.Array, schema: Node) -> tuple[list[pa.Array], np.ndarray]:
    """The columns of the messages read natively (one row each, in order), and per message
    whether it was (False for null messages and those the exact reader must read)."""
    if values.type not in _LAYOUTS:
        values = values.cast(pa.large_binary())
    validity, offsets, data = values.buffers()[:3]
    columns, regular = _native.decode_avro(validity, offsets, data, values.offset, len(values),
                                           _LAYOUTS[values.type], _describe(schema))
    regular = np.frombuffer(regular, dtype=np.bool_)
    length = int(regular.sum())
    return [_array(c, length, col) for c, col in zip(schema.children, columns)], regular


def _array(node: Node, length: int, column: tuple) -> pa.Array:
    """An Arrow array of to_arrow(node.type) over the kernel's buffers for one column."""
    validity, buffers, children = column
    validity = None if validity is None else pa.py_buffer(validity)
    arrow = to_arrow(node.type)
    if node.kind == "record":
        kids = [_array(c, length, k) for c, k in zip(node.children, children)]
        return pa.StructArray.from_buffers(arrow, length, [validity], children=kids)
    if node.kind == "array":
        offsets = pa.py_buffer(buffers[0])
        items = int(np.frombuffer(offsets, dtype=np.int32)[length])
        item = _array(node.children[0], items, children[0])
        return pa.ListArray.from_buffers(arrow, length, [validity, offsets], children=[item])
    return pa.Array.from_buffers(arrow, length, [validity] + [pa.py_buffer(b) for b in buffers])
